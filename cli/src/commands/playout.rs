//! `gdl playout`: random playouts from a seed, each summed up (length, terminal, goals, and
//! the result in core's words, `gdl_core::verdict`) and
//! optionally written in full as a trace (JSON Lines, one playout a line).

use crate::args::PlayoutArgs;
use crate::load::{invalid, Loader, Outcome};
use anyhow::Context;
use gdl_core::machine::playout::playout_rng;
use gdl_core::rng::Rng;
use gdl_core::trace::{record_playout, stuck_message};
use gdl_core::verdict::verdict;
use serde_json::{json, Value};
use std::io::Write;
use std::time::Instant;

pub fn run(args: &PlayoutArgs) -> Outcome {
    let (file, run, json) = (&args.file, &args.run, args.json);
    let loader = Loader::new(file, &run.engine, json)?;
    let (mut m, upgrader) = loader.long_run(file, json, run.upgrade_after)?;
    let (mut switch, start) = (upgrader.thread(), Instant::now());
    let mut trace = match &args.trace {
        Some(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?,
        )),
        None => None,
    };
    let mut rng = Rng::new(run.seed);
    let mut summary = Vec::new();
    for _ in 0..args.count {
        switch.poll(&mut m, start.elapsed().as_secs_f64());
        let p = record_playout(&mut m, &mut playout_rng(&mut rng), run.max_steps).map_err(invalid)?;
        if let Some(w) = trace.as_mut() {
            serde_json::to_writer(&mut *w, &p).context("writing the trace")?;
            writeln!(w).context("writing the trace")?;
        }
        let last = p.steps.last().expect("a playout has a step");
        let mut line = json!({"length": p.steps.len() - 1, "terminal": last.terminal, "goals": last.goals});
        if let Some(goals) = &last.goals {
            let roles: Vec<String> = goals.keys().cloned().collect();
            let values: Vec<_> = goals.values().cloned().collect();
            line["result"] = json!(verdict(&roles, Some(&values)).text);
        }
        if let Some(role) = p.stuck() {
            let what = format!("playout {}", summary.len() + 1);
            eprintln!("warning: {}", stuck_message(&what, role));
            line["stuck"] = json!(role);
        }
        summary.push(line);
    }
    if let Some(mut w) = trace {
        w.flush().context("writing the trace")?;
    }
    if json {
        println!("{}", json!({"playouts": summary}));
    } else {
        print!("{}", text(&summary));
    }
    Ok(())
}

/// One line per playout: its number and its summary.
fn text(summary: &[Value]) -> String {
    summary.iter().enumerate().map(|(i, s)| format!("playout {}: {s}\n", i + 1)).collect()
}
