//! `gdl`: the command line of GDL Playground. A thin layer over `gdl-core`: reads files,
//! prints results (text or `--json`), sets exit codes: 0 ok, 1 invalid game or failed
//! check, 2 usage or unreadable file.
//!
//! This file only dispatches. `args` holds the command line (clap types), `load` reading a
//! game, building its engine and reporting failures, `commands` one module per command;
//! `parallel` runs work on threads (one engine each), `upgrade` moves a long run to the
//! propositional network ground in the background, `measure` reads the process's clocks.

use args::{Cli, Command};
use clap::Parser;
use load::Failure;
use std::process::ExitCode;

mod args;
mod commands;
mod http;
mod load;
mod measure;
mod parallel;
mod tally;
mod upgrade;

fn main() -> ExitCode {
    // Behave like other command-line tools when the output pipe closes (`gdl ... | head`).
    #[cfg(unix)]
    // SAFETY: called first thing, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let result = match Cli::parse().command {
        Command::Check(args) => commands::check::run(&args),
        Command::Info(args) => commands::info::run(&args),
        Command::Fmt(args) => commands::fmt::run(&args),
        Command::Playout(args) => commands::playout::run(&args),
        Command::Replay(args) => commands::replay::run(&args),
        Command::Bench(args) => commands::bench::run(&args),
        Command::Match(args) => commands::matches::run(&args),
        Command::Tournament(args) => commands::tournament::run(&args),
        Command::Player(args) => commands::player::run(&args),
        Command::Explain(args) => commands::explain::run(&args),
        Command::Solve(args) => commands::solve::run(&args),
        Command::Perft(args) => commands::perft::run(&args),
        Command::Analyze(args) => commands::analyze::run(&args),
        Command::Ground(args) => commands::ground::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Invalid) => ExitCode::from(1),
        Err(Failure::Usage(e)) => {
            eprintln!("gdl: {e:#}");
            ExitCode::from(2)
        }
    }
}
