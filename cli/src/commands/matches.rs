//! `gdl match`: games between computer players, spread over threads; the tally per player.
//! Game `g` depends only on the seed and `g` (its players' seeds and seats), so a budget in
//! playouts gives the same results whatever the number of threads.

use super::referee;
use crate::args::MatchArgs;
use crate::load::{invalid, usage, Loader, Outcome};
use crate::parallel::{self, each_thread};
use crate::tally::table;
use crate::upgrade::Upgrader;
use gdl_core::engine::Engine;
use gdl_core::infoset::defines_sees;
use gdl_core::machine::StateMachine;
use gdl_core::players::arena::{play_game, tally, Game};
use gdl_core::players::catalogue::{entrants, outside_the_page, refusal, Entrant};
use gdl_core::players::Spec;
use serde_json::json;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

pub fn run(args: &MatchArgs) -> Outcome {
    let (file, run, json, games) = (&args.file, &args.run, args.json, args.games);
    let entrants = entrants(&args.players).map_err(|e| usage(format!("--players: {e}")))?;
    outside_the_page(&entrants).map_err(|e| usage(format!("--players: {e}")))?;
    let specs: Vec<Spec> =
        entrants.iter().filter_map(|e| if let Entrant::Local(s) = e { Some(*s) } else { None }).collect();
    if specs.len() < entrants.len() || args.record.is_some() {
        return referee::run(args, &entrants);
    }
    let threads = parallel::threads(args.threads)?.min(games.max(1));
    let loader = Loader::new(file, &run.engine, json)?;
    let (mut m, upgrader) = loader.long_run(file, json, run.upgrade_after)?;
    let roles = m.roles().to_vec();
    // A player that cannot play this game is refused before any game, in the catalogue's words.
    let hidden = defines_sees(&mut m).map_err(|e| invalid(e.message))?;
    if let Some(why) = specs.iter().find_map(|&s| refusal(s, hidden)) {
        return Err(invalid(why));
    }
    let setup = Setup { specs, games, seed: run.seed, max_steps: run.max_steps, threads };
    let start = Instant::now();
    let others = loader.others(&m);
    let build = || others.build();
    let progress = |done: usize| {
        if !json && std::io::stderr().is_terminal() {
            eprint!("\rgame {done}/{games}");
        }
    };
    let played = play(&setup, &mut m, &build, &upgrader, &progress).map_err(invalid)?;
    let seconds = start.elapsed().as_secs_f64();
    let tallies = tally(&setup.specs, &played);
    if json {
        println!(
            "{}",
            json!({"game": file.display().to_string(), "engine": m.engine_name(), "roles": roles,
                   "threads": threads, "seconds": seconds, "players": tallies, "games": played})
        );
    } else {
        if std::io::stderr().is_terminal() {
            eprintln!();
        }
        let names: Vec<String> = setup.specs.iter().map(|s| s.to_string()).collect();
        println!(
            "{}: {} games, {}, engine {}, {} threads, {seconds:.1} s",
            file.display(),
            setup.games,
            names.join(" vs "),
            m.engine_name(),
            setup.threads
        );
        print!("{}", table(&roles, &tallies));
    }
    Ok(())
}

/// What a match is.
struct Setup {
    specs: Vec<Spec>,
    games: usize,
    seed: u64,
    max_steps: usize,
    threads: usize,
}

/// Plays the match: every game, in order of their numbers. A game starts on the network
/// once `upgrader` has one.
fn play(
    setup: &Setup,
    first: &mut Engine,
    build: &(dyn Fn() -> Result<Engine, String> + Sync),
    upgrader: &Upgrader,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<Game>, String> {
    let next = AtomicUsize::new(0);
    let done = Mutex::new(0);
    let per_thread = each_thread(setup.threads, first, build, &|_, m| {
        let start = Instant::now();
        let now = || start.elapsed().as_secs_f64() * 1000.0;
        let mut played = Vec::new();
        let mut switch = upgrader.thread();
        loop {
            let g = next.fetch_add(1, Ordering::Relaxed);
            if g >= setup.games {
                return Ok(played);
            }
            switch.poll(m, start.elapsed().as_secs_f64());
            let game = play_game(m, &setup.specs, setup.seed, g, setup.max_steps, &now).map_err(|e| e.message)?;
            played.push((g, game));
            let mut d = done.lock().expect("no thread panics holding it");
            *d += 1;
            progress(*d);
        }
    })?;
    let mut games: Vec<(usize, Game)> = per_thread.into_iter().flatten().collect();
    games.sort_by_key(|(g, _)| *g);
    Ok(games.into_iter().map(|(_, g)| g).collect())
}
