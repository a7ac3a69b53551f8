//! `gdl replay`: a trace written by another reasoner checked against ours, playout by
//! playout; the first step and field where they differ.

use crate::args::ReplayArgs;
use crate::load::{self, Failure, Outcome};
use anyhow::Context;
use gdl_core::trace::{replay, Playout};
use serde_json::json;
use std::io::BufRead;

pub fn run(args: &ReplayArgs) -> Outcome {
    let mut m = load::engine(&args.file, &args.engine, args.json)?;
    let f = std::fs::File::open(&args.trace).with_context(|| format!("cannot read {}", args.trace.display()))?;
    let (mut passed, mut failed) = (0, 0);
    let mut results = Vec::new();
    for (i, line) in std::io::BufReader::new(f).lines().enumerate() {
        let line = line.context("reading the trace")?;
        if line.trim().is_empty() {
            continue;
        }
        let p: Playout =
            serde_json::from_str(&line).with_context(|| format!("line {} of the trace is not a playout", i + 1))?;
        let verdict = match replay(&mut m, &p) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(mismatch)) => Err(format!("FAIL {mismatch}")),
            // Not a disagreement: our engine stopped (a limit), so nothing was compared.
            Err(e) => Err(format!("ERROR the engine stopped: {e}")),
        };
        match &verdict {
            Ok(()) => passed += 1,
            Err(_) => failed += 1,
        }
        // Said as soon as known: a trace may hold many playouts.
        if !args.json {
            println!("{}", verdict_text(i + 1, &verdict));
        }
        results.push(json!({"playout": i + 1, "ok": verdict.is_ok(), "detail": verdict.err()}));
    }
    if args.json {
        println!("{}", json!({"passed": passed, "failed": failed, "playouts": results}));
    } else {
        println!("{passed} passed, {failed} failed");
    }
    if failed == 0 {
        Ok(())
    } else {
        Err(Failure::Invalid)
    }
}

fn verdict_text(playout: usize, verdict: &Result<(), String>) -> String {
    match verdict {
        Ok(()) => format!("playout {playout}: ok"),
        Err(e) => format!("playout {playout}: {e}"),
    }
}
