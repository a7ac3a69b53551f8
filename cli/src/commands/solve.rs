//! `gdl solve`: minimax from a position: the value each role can guarantee with each of its
//! legal moves, and the search's speed.

use crate::args::SolveArgs;
use crate::load::{self, invalid, Outcome};
use gdl_core::machine::StateMachine;
use gdl_core::solve::{Limit, Solution};
use serde_json::json;
use std::time::Instant;

pub fn run(args: &SolveArgs) -> Outcome {
    let path = load::path(&args.path)?;
    let mut m = load::engine(&args.file, &args.engine, args.json)?;
    let (states, _) = gdl_core::path::play(&mut m, &path).map_err(invalid)?;
    let start = Instant::now();
    let solution = gdl_core::solve::solve(&mut m, states.last().expect("initial state"), Limit::nodes(args.budget))
        .map_err(invalid)?;
    let seconds = start.elapsed().as_secs_f64();
    let rate = solution.nodes as f64 / seconds.max(1e-9);
    if args.json {
        let mut v = serde_json::to_value(&solution).expect("serialisable");
        v["seconds"] = json!(seconds);
        v["nodes_per_sec"] = json!(rate);
        v["engine"] = json!(m.engine_name());
        println!("{v}");
    } else {
        print!("{}", text(&solution, seconds, rate, m.engine_name()));
    }
    Ok(())
}

fn text(solution: &Solution, seconds: f64, rate: f64, engine: &str) -> String {
    let mut out = String::new();
    for r in &solution.roles {
        out += &format!("{}\n", r.summary);
        for mv in &r.moves {
            let value = mv.value.map_or("?".to_string(), |v| v.to_string());
            out += &format!("  {value:>3}  {}\n", mv.text);
        }
    }
    if let Some(why) = &solution.stopped {
        out += &format!("stopped: {why}\n");
    }
    if let Some(what) = &solution.factored {
        out += &format!("factored: {what}\n");
    }
    out += &format!("{} states expanded in {seconds:.3} s ({rate:.0} nodes/s, engine {engine})\n", solution.nodes);
    out
}
