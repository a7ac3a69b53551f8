//! `gdl analyze`: the game's requirements (termination, playability, goals, winnability,
//! declared base and input), proven by searching every reachable state when they fit, else
//! sampled by random playouts shared between threads ("not proven").

use crate::args::AnalyzeArgs;
use crate::load::{invalid, print_json, Failure, Loader, Outcome};
use crate::parallel;
use gdl_core::analyze::{self, Declared, Outcome as Verdict, Report};
use gdl_core::engine::Engine;
use gdl_core::machine::StateMachine;
use std::path::Path;

pub fn run(args: &AnalyzeArgs) -> Outcome {
    let (file, json, options) = (&args.file, args.json, args.options());
    let threads = parallel::threads(args.threads)?;
    let loader = Loader::new(file, &args.engine, json)?;
    let mut m = loader.engine(file, json)?;
    let declared = Declared::of(&loader.description, loader.limits);
    let report = match analyze::exhaustive(&mut m, &declared, options).map_err(invalid)? {
        Some(report) => report,
        None => {
            // Too many states: the random playouts, shared between the threads.
            let build = || loader.build_engine();
            let work =
                |t: usize, m: &mut Engine| analyze::sample(m, &declared, options, t, threads).map_err(|e| e.message);
            let parts = parallel::each_thread(threads, &mut m, &build, &work).map_err(invalid)?;
            let sample = analyze::Sample::merge(parts).expect("at least one thread");
            analyze::sampled(m.roles(), &declared, options, sample)
        }
    };
    if json {
        print_json(&report);
    } else {
        print!("{}", text(file, &report, options.max_states));
    }
    if report.checks.iter().any(|c| c.required && c.outcome == Verdict::Fails) {
        Err(Failure::Invalid)
    } else {
        Ok(())
    }
}

/// How the report was made, then one line per check (and the path that shows it).
fn text(file: &Path, report: &Report, max_states: usize) -> String {
    let how = match report.method {
        "exhaustive" => format!("exhaustive search of all {} reachable states", report.states),
        _ => format!(
            "NOT PROVEN: more than {max_states} states, so {} random playouts ({} states visited)",
            report.playouts, report.states
        ),
    };
    let mut out = format!("{}: {how}\n", file.display());
    for c in &report.checks {
        let who = c.role.as_ref().map_or(String::new(), |r| format!(" ({r})"));
        let optional = if c.required { "" } else { " [information]" };
        out += &format!("{:<11} {}{who}{optional}: {}\n", label(c.outcome), c.name, c.detail);
        if let Some(w) = &c.witness {
            out += &format!("            path: {}\n", gdl_core::path::format_path(w));
        }
    }
    out += &format!("well-formed: {}\n", label(report.well_formed));
    out
}

fn label(o: Verdict) -> &'static str {
    match o {
        Verdict::Holds => "HOLDS",
        Verdict::Fails => "FAILS",
        Verdict::NotProven => "NOT PROVEN",
    }
}
