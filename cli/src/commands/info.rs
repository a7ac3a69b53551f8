//! `gdl info`: the initial position (`play::Position`): roles, fluents, and each role's legal
//! moves (or the goals, when the initial state is terminal), keyed by role name. With `--as
//! ROLE --path MOVES` (GDL-II): what that role knows, as the page shows it (`play::knows`):
//! its moves, its percepts and its information set.

use crate::args::InfoArgs;
use crate::load::{self, invalid, usage, Outcome};
use gdl_core::engine::Engine;
use gdl_core::infoset::history;
use gdl_core::machine::StateMachine;
use gdl_core::path::{parse_path, play};
use gdl_core::play::{base_facts, knowledge, Position};
use serde_json::{json, Map, Value};

pub fn run(args: &InfoArgs) -> Outcome {
    let loader = load::Loader::new(&args.file, &args.engine, args.json)?;
    let mut m = loader.engine(&args.file, args.json)?;
    if let Some(role) = &args.as_role {
        let mut base = || base_facts(&loader.description);
        return knows(&mut m, role, args, &mut base);
    }
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

/// What `role` knows after `args.path`: its moves, its percepts, its information set.
fn knows(m: &mut Engine, role: &str, args: &InfoArgs, base: &mut dyn FnMut() -> Option<usize>) -> Outcome {
    let Some(r) = m.roles().iter().position(|x| x == role) else {
        return Err(usage(format!("--as: {role} is not a role of this game (roles: {})", m.roles().join(", "))));
    };
    let path = parse_path(&args.path).map_err(|e| usage(format!("--path: {e}")))?;
    let (states, joints) = play(m, &path).map_err(invalid)?;
    let h = history(m, r, &states, &joints).map_err(invalid)?;
    let k = knowledge(m, h, args.limit, args.seed, base).map_err(invalid)?;
    if args.json {
        println!("{}", serde_json::to_string(&k).expect("knowledge is plain data"));
        return Ok(());
    }
    let mut out = format!("{role} after {} joint moves\n", k.steps.len());
    for (i, step) in k.steps.iter().enumerate() {
        let seen = if step.percepts.is_empty() { "nothing".into() } else { step.percepts.join(" ") };
        out += &format!("  {}. played {}; perceived: {seen}\n", i + 1, step.played);
    }
    out += &if k.sampled {
        format!("information set: {}; below, a SAMPLE (seed {}, --limit {})\n", k.count_text, args.seed, args.limit)
    } else {
        format!("information set: {} state(s), exact\n", k.states.len())
    };
    for (i, s) in k.states.iter().enumerate() {
        out += &format!("state {}: {}\n", i + 1, s.join(" "));
    }
    print!("{out}");
    Ok(())
}
