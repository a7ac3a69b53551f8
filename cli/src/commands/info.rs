//! `gdl info`: the initial position: roles, fluents, and each role's legal moves (or the
//! goals, when the initial state is terminal).

use crate::args::InfoArgs;
use crate::load::{self, invalid, Outcome};
use gdl_core::machine::StateMachine;
use serde_json::{json, Map, Value};

/// The initial position. Legal moves and goals are keyed by role name (sorted).
struct Position {
    roles: Vec<String>,
    init: Vec<String>,
    terminal: bool,
    legal: Map<String, Value>,
    goals: Map<String, Value>,
}

pub fn run(args: &InfoArgs) -> Outcome {
    let mut m = load::engine(&args.file, &args.engine, args.json)?;
    let p = initial_position(&mut m).map_err(invalid)?;
    if args.json {
        let mut out = json!({"roles": p.roles, "init": p.init, "terminal": p.terminal});
        out[if p.terminal { "goals" } else { "legal" }] = json!(if p.terminal { p.goals } else { p.legal });
        println!("{out}");
    } else {
        print!("{}", text(&p));
    }
    Ok(())
}

fn initial_position(m: &mut impl StateMachine) -> Result<Position, gdl_core::machine::RuntimeError> {
    let s = m.initial_state();
    let terminal = m.is_terminal(&s)?;
    let roles = m.roles().to_vec();
    let mut legal = Map::new();
    let mut goals = Map::new();
    for (r, role) in roles.iter().enumerate() {
        if terminal {
            goals.insert(role.clone(), json!(m.goals(&s)?[r]));
        } else {
            let moves: Vec<String> = m.legal_moves(&s, r)?.iter().map(|&x| m.move_text(x)).collect();
            legal.insert(role.clone(), json!(moves));
        }
    }
    let init = m.state_text(&s);
    Ok(Position { roles, init, terminal, legal, goals })
}

fn text(p: &Position) -> String {
    let mut out = format!("roles: {}\ninitial state ({} fluents):\n", p.roles.join(" "), p.init.len());
    for f in &p.init {
        out += &format!("  {f}\n");
    }
    if p.terminal {
        out += &format!("the initial state is terminal; goals: {}\n", Value::Object(p.goals.clone()));
    }
    for (role, moves) in &p.legal {
        let moves: Vec<&str> = moves.as_array().into_iter().flatten().filter_map(|m| m.as_str()).collect();
        out += &format!("legal for {role} ({}): {}\n", moves.len(), moves.join(" "));
    }
    out
}
