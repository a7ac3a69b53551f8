//! `gdl info`: the initial position (`play::Position`): roles, fluents, and each role's legal
//! moves (or the goals, when the initial state is terminal), keyed by role name.

use crate::args::InfoArgs;
use crate::load::{self, invalid, Outcome};
use gdl_core::machine::StateMachine;
use gdl_core::play::Position;
use serde_json::{json, Map, Value};

pub fn run(args: &InfoArgs) -> Outcome {
    let mut m = load::engine(&args.file, &args.engine, args.json)?;
    let initial = m.initial_state();
    let p = Position::of(&mut m, &initial).map_err(invalid)?;
    let (legal, goals) = by_role(&p);
    if args.json {
        let mut out = json!({"roles": p.roles, "init": p.state, "terminal": p.terminal});
        out[if p.terminal { "goals" } else { "legal" }] = if p.terminal { goals } else { legal };
        println!("{out}");
    } else {
        print!("{}", text(&p, &legal, &goals));
    }
    Ok(())
}

/// The legal moves (when not terminal) and the goals (when terminal) as objects keyed by
/// role name, in the names' order.
fn by_role(p: &Position) -> (Value, Value) {
    let (mut legal, mut goals) = (Map::new(), Map::new());
    for (r, role) in p.roles.iter().enumerate() {
        match &p.goals {
            Some(values) => goals.insert(role.clone(), json!(values[r])),
            None => legal.insert(role.clone(), json!(p.legal[r])),
        };
    }
    (Value::Object(legal), Value::Object(goals))
}

fn text(p: &Position, legal: &Value, goals: &Value) -> String {
    let mut out = format!("roles: {}\ninitial state ({} fluents):\n", p.roles.join(" "), p.state.len());
    for f in &p.state {
        out += &format!("  {f}\n");
    }
    if p.terminal {
        out += &format!("the initial state is terminal; goals: {goals}\n");
    }
    for (role, moves) in legal.as_object().into_iter().flatten() {
        let moves: Vec<&str> = moves.as_array().into_iter().flatten().filter_map(|m| m.as_str()).collect();
        out += &format!("legal for {role} ({}): {}\n", moves.len(), moves.join(" "));
    }
    out
}
