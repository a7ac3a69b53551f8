//! `gdl match`: games between computer players, spread over threads; the tally per player.
//! Game `g` depends only on the seed and `g` (its players' seeds and seats), so a budget in
//! playouts gives the same results whatever the number of threads.

use super::referee;
use crate::args::MatchArgs;
use crate::load::{invalid, usage, Loader, Outcome};
use crate::parallel::{self, each_thread};
use crate::upgrade::Upgrader;
use gdl_core::engine::Engine;
use gdl_core::infoset::defines_sees;
use gdl_core::machine::StateMachine;
use gdl_core::players::arena::{play_game, tally, Game, Tally};
use gdl_core::players::catalogue::{entrants, refusal, Entrant};
use gdl_core::players::Spec;
use serde_json::json;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

pub fn run(args: &MatchArgs) -> Outcome {
    let (file, run, json, games) = (&args.file, &args.run, args.json, args.games);
    let entrants = entrants(&args.players).map_err(|e| usage(format!("--players: {e}")))?;
    let specs: Vec<Spec> =
        entrants.iter().filter_map(|e| if let Entrant::Local(s) = e { Some(*s) } else { None }).collect();
    if specs.len() < entrants.len() || args.record.is_some() {
        return referee::run(args, &entrants);
    }
    let threads = parallel::threads(args.threads)?.min(games.max(1));
    let loader = Loader::new(file, &run.engine, json)?;
    let chosen = loader.chosen(file, json)?;
    let upgrader = loader.upgrader(&chosen, run.upgrade_after, json);
    let mut m = chosen.engine;
    let roles = m.roles().to_vec();
    // A player that cannot play this game is refused before any game, in the catalogue's words.
    let hidden = defines_sees(&mut m).map_err(|e| invalid(e.message))?;
    if let Some(why) = specs.iter().find_map(|&s| refusal(s, hidden)) {
        return Err(invalid(why));
    }
    let setup = Setup { specs, games, seed: run.seed, max_steps: run.max_steps, threads };
    let start = Instant::now();
    let build = || loader.build_engine();
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

/// The tally as a table: mean score for one seated role; wins, draws, losses and points for
/// more (nature, the role `random`, has no seat).
pub fn table(roles: &[String], tallies: &[Tally]) -> String {
    let mut out = String::new();
    if roles.iter().any(|r| gdl_core::gdl2::is_nature(r)) {
        out += "role random: nature (no seat; its moves drawn uniformly among its legal ones)\n";
    }
    // Wide enough for the longest name (a remote player's address).
    let w = tallies.iter().map(|t| t.player.chars().count()).max().unwrap_or(0).max(16);
    if roles.iter().filter(|r| !gdl_core::gdl2::is_nature(r)).count() == 1 {
        out += &format!("{:<w$} {:>5}  mean score (95% CI)\n", "player", "games");
        for t in tallies {
            out += &format!("{:<w$} {:>5}  {:.1} ± {:.1}\n", t.player, t.games, t.score.mean, t.score.plus_minus);
        }
        return out;
    }
    out += &format!(
        "{:<w$} {:>5} {:>5} {:>5} {:>6}  {:<18} mean score (95% CI)\n",
        "player", "games", "wins", "draws", "losses", "points (95% CI)"
    );
    for t in tallies {
        let points = format!("{:.1}% ± {:.1}", 100.0 * t.points.mean, 100.0 * t.points.plus_minus);
        out += &format!(
            "{:<w$} {:>5} {:>5} {:>5} {:>6}  {points:<18} {:.1} ± {:.1}\n",
            t.player, t.games, t.wins, t.draws, t.losses, t.score.mean, t.score.plus_minus
        );
    }
    out
}
