//! `gdl bench`: random playouts for a while on one or more threads: playouts per second
//! (of wall and CPU time), average length, how the playouts ended.

use crate::args::BenchArgs;
use crate::load::{invalid, Loader, Outcome};
use crate::measure::cpu_seconds;
use crate::parallel;
use crate::upgrade::Switch;
use gdl_core::engine::Engine;
use gdl_core::machine::StateMachine;
use gdl_core::play::Stats;
use gdl_core::rng::Rng;
use serde_json::json;
use std::path::Path;
use std::time::Instant;

/// A finished bench, for the text report.
struct Report<'a> {
    file: &'a Path,
    engine: &'static str,
    /// Seconds of play on the reasoner before the run moved to the network.
    moved_at: Option<f64>,
    threads: usize,
    seconds: f64,
    max_steps: usize,
    stats: &'a Stats,
}

/// Random playouts for `seconds` on `threads` threads: thread `t` runs the series seeded
/// `seed + t` on its own engine.
pub fn run(args: &BenchArgs) -> Outcome {
    let (file, run, json, seconds) = (&args.file, &args.run, args.json, args.seconds);
    let threads = parallel::threads(args.threads)?;
    let loader = Loader::new(file, &run.engine, json)?;
    let loading = Instant::now();
    let (mut m, upgrader) = loader.long_run(file, json, run.upgrade_after)?;
    let load_ms = loading.elapsed().as_secs_f64() * 1000.0;
    let others = loader.others(&m);
    let build = || others.build();
    // The clocks start when every thread has its engine: the first thread to start reads them.
    let started = std::sync::OnceLock::new();
    let work = |t: usize, m: &mut Engine| {
        started.get_or_init(|| (Instant::now(), cpu_seconds()));
        playouts(m, run.seed.wrapping_add(t as u64), seconds, run.max_steps, &mut upgrader.thread())
    };
    let per_thread = parallel::each_thread(threads, &mut m, &build, &work).map_err(invalid)?;
    let (start, cpu_start) = *started.get().expect("thread 0 always works");
    let mut stats = Stats::new(m.roles());
    for part in &per_thread {
        stats.merge(part).expect("every thread plays the same game");
    }
    let elapsed = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds().map(|c| c - cpu_start.unwrap_or(0.0));
    if json {
        let Stats { playouts, cut, stuck, .. } = stats;
        let outcomes: serde_json::Map<String, serde_json::Value> =
            stats.outcomes.iter().map(|(k, v)| (json!(k).to_string(), json!(v))).collect();
        println!(
            "{}",
            json!({"game": file.display().to_string(), "engine": m.engine_name(), "threads": threads, "playouts": playouts,
                   "seconds": elapsed, "cpu_seconds": cpu, "playouts_per_sec": playouts as f64 / elapsed,
                   "playouts_per_cpu_sec": cpu.map(|c| playouts as f64 / c), "avg_length": stats.average_length(),
                   "cut": cut, "stuck": stuck, "stuck_note": stats.stuck_note(), "roles": stats.roles, "outcomes": outcomes,
                   "load_ms": load_ms, "upgraded_after_seconds": upgrader.moved_at(), "upgrade": upgrader.outcome(),
                   "network": m.propnet_stats(), "programs_loaded": m.programs_loaded()})
        );
    } else {
        let report = Report {
            file,
            engine: m.engine_name(),
            moved_at: upgrader.moved_at(),
            threads,
            seconds: elapsed,
            max_steps: run.max_steps,
            stats: &stats,
        };
        print!("{}", text(&report));
    }
    Ok(())
}

/// Random playouts on `m` for `seconds` (at least one), moving to a network when `switch`
/// has one.
fn playouts(m: &mut Engine, seed: u64, seconds: f64, max_steps: usize, switch: &mut Switch) -> Result<Stats, String> {
    let mut rng = Rng::new(seed);
    let mut c = Stats::new(m.roles());
    let start = Instant::now();
    // Batches grow while they take under a tenth of the time (engines may run a batch's
    // playouts several at a time).
    let mut batch = 1;
    while c.playouts == 0 || start.elapsed().as_secs_f64() < seconds {
        switch.poll(m, start.elapsed().as_secs_f64());
        let begun = Instant::now();
        m.playouts(&mut rng, batch, max_steps, &mut |_, o| c.add(o)).map_err(|e| e.message)?;
        if begun.elapsed().as_secs_f64() < seconds / 10.0 {
            batch = (batch * 2).min(1 << 16);
        }
    }
    Ok(c)
}

fn text(r: &Report) -> String {
    let Stats { playouts, cut, .. } = *r.stats;
    let (rate, avg) = (playouts as f64 / r.seconds, r.stats.average_length());
    let moved = r.moved_at.map_or(String::new(), |t| format!(" (reasoner until {t:.2} s)"));
    let mut out = format!(
        "{}: engine {}{moved}, {} threads, {playouts} playouts in {:.2} s\n",
        r.file.display(),
        r.engine,
        r.threads,
        r.seconds
    );
    out += &format!("  {rate:.1} playouts/s, average length {avg:.1} joint moves, {cut} cut at {}\n", r.max_steps);
    if let Some(note) = r.stats.stuck_note() {
        out += &format!("  warning: {note}\n");
    }
    out += &format!("  outcomes (goals per role {}):\n", r.stats.roles.join(", "));
    for (k, v) in &r.stats.outcomes {
        out += &format!("    {}: {v}\n", json!(k));
    }
    out
}
