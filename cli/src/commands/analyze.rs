//! `gdl analyze`: the game's requirements (termination, playability, goals, winnability,
//! declared base and input), proven by searching every reachable state when they fit, else
//! sampled by random playouts shared between threads ("not proven"); then the game's
//! factors (independent subgames) and how its end and goals combine them.

use crate::args::AnalyzeArgs;
use crate::load::{invalid, print_json, Failure, Loader, Outcome};
use crate::parallel;
use gdl_core::analyze::{self, Declared, Outcome as Verdict, Report};
use gdl_core::engine::Engine;
use gdl_core::machine::StateMachine;
use gdl_core::propnet::factors::{self, Factors, RoleMove};
use serde::Serialize;
use std::path::Path;

/// The JSON report: the requirements, and the factors (`null` when the game does not ground).
#[derive(Serialize)]
struct Json<'a> {
    #[serde(flatten)]
    report: &'a Report,
    factors: Option<&'a Factors>,
}

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
    let ground = gdl_core::ground::ground(&loader.description, Default::default(), &|| 0.0, &mut |_| {});
    let found = ground.as_ref().map(factors::factors);
    if json {
        print_json(&Json { report: &report, factors: found.as_ref().ok() });
    } else {
        print!("{}", text(file, &report, options.max_states));
        match &found {
            Ok(f) => print!("{}", factors_text(f)),
            Err(d) => println!("factors: not found, the game does not ground: {}", d.message),
        }
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

/// Most names listed of a factor's moves or fluents.
const NAMES: usize = 3;

/// "3 (a, b, c)" or "40 (a, b, c, ...)".
fn some(texts: &[String]) -> String {
    let more = if texts.len() > NAMES { ", ..." } else { "" };
    format!("{} ({}{more})", texts.len(), texts[..texts.len().min(NAMES)].join(", "))
}

fn moves(moves: &[RoleMove]) -> Vec<String> {
    moves.iter().map(|m| format!("{} {}", m.role, m.text)).collect()
}

/// The factors, each with its moves and fluents, and how the end and the goals combine them.
fn factors_text(f: &Factors) -> String {
    let n = f.factors.len();
    let mut out = match n {
        0 => "factors: none (no fluent changes with the moves)\n".to_string(),
        1 => "factors: 1, the game does not split into independent subgames\n".to_string(),
        _ => format!("factors: {n} independent subgames\n"),
    };
    for (k, factor) in f.factors.iter().enumerate() {
        out +=
            &format!("  factor {}: moves {}; fluents {}\n", k + 1, some(&moves(&factor.moves)), some(&factor.fluents));
    }
    if !f.bookkeeping.is_empty() {
        out += &format!("  bookkeeping, read by every factor: {}\n", some(&f.bookkeeping));
    }
    if !f.free_moves.is_empty() {
        out += &format!("  moves in no factor: {}\n", some(&moves(&f.free_moves)));
    }
    if n > 1 {
        out += &format!("  terminal: {}\n", f.terminal.describe());
        for g in &f.goals {
            out += &format!("  goal {} {}: {}\n", g.role, g.value, g.combination.describe());
        }
    }
    out
}
