//! `gdl perft`: the lines of play of each length up to a depth, counted by the chosen engine
//! and checked against the first-order reasoner (the reference) when another engine counts.

use crate::args::PerftArgs;
use crate::load::{self, invalid, report, validated, Failure, Outcome};
use gdl_core::engine::Choice;
use gdl_core::machine::StateMachine;
use gdl_core::reasoner::Reasoner;
use gdl_core::solve::{perft, Perft};
use serde_json::json;
use std::time::Instant;

pub fn run(args: &PerftArgs) -> Outcome {
    let (file, depth, json) = (&args.file, args.depth, args.json);
    let mut m = load::engine(file, &args.engine, json)?;
    let start = Instant::now();
    let counts = perft(&mut m, depth).map_err(invalid)?;
    let seconds = start.elapsed().as_secs_f64();
    // The first-order reasoner is the reference: other engines are checked against it.
    let reference = match args.engine.engine {
        Choice::Reasoner => None,
        _ => {
            let (text, description) = validated(file, true)?;
            let mut r = Reasoner::new(&description, args.engine.limits.limits()).map_err(|d| {
                report(file, &text, &[d], json);
                Failure::Invalid
            })?;
            Some(perft(&mut r, depth).map_err(invalid)?)
        }
    };
    let agrees = reference.as_ref().is_none_or(|r| *r == counts);
    if json {
        let total: u64 = counts.nodes.iter().sum();
        println!(
            "{}",
            json!({"engine": m.engine_name(), "depth": depth, "nodes": counts.nodes, "terminal": counts.terminal,
                   "seconds": seconds, "nodes_per_sec": total as f64 / seconds.max(1e-9),
                   "checked_against_reasoner": reference.is_some(), "agrees": agrees})
        );
    } else {
        print!("{}", text(&counts, reference.as_ref(), seconds, m.engine_name()));
    }
    if agrees {
        Ok(())
    } else {
        Err(Failure::Invalid)
    }
}

/// A table of positions per depth, and whether the reference agrees.
fn text(counts: &Perft, reference: Option<&Perft>, seconds: f64, engine: &str) -> String {
    let mut out = "depth  positions  terminal\n".to_string();
    for (k, (n, t)) in counts.nodes.iter().zip(&counts.terminal).enumerate() {
        out += &format!("{k:>5}  {n:>9}  {t:>8}\n");
    }
    let total: u64 = counts.nodes.iter().sum();
    out += &format!("{total} positions in {seconds:.3} s, engine {engine}\n");
    match reference {
        Some(r) if r == counts => out += "the first-order reasoner counts the same\n",
        Some(r) => out += &format!("DIFFERENT from the first-order reasoner: {:?} / {:?}\n", r.nodes, r.terminal),
        None => {}
    }
    out
}
