//! `gdl match`: games between computer players, spread over threads; the tally per player.
//! Game `g` depends only on the seed and `g` (its players' seeds and seats), so a budget in
//! playouts gives the same results whatever the number of threads.

use crate::parallel::each_thread;
use crate::upgrade::Upgrader;
use gdl_core::engine::Engine;
use gdl_core::players::arena::{play_game, Game, Tally};
use gdl_core::players::Spec;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// What a match is.
pub struct Setup {
    pub specs: Vec<Spec>,
    pub games: usize,
    pub seed: u64,
    pub max_steps: usize,
    pub threads: usize,
}

/// Reads `uct:1000,random`.
pub fn parse_players(text: &str) -> Result<Vec<Spec>, String> {
    let specs: Vec<Spec> = text.split(',').map(Spec::parse).collect::<Result<_, _>>()?;
    Ok(specs)
}

/// Plays the match: every game, in order of their numbers. A game starts on the network
/// once `upgrader` has one.
pub fn play(
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

/// The tally as a table.
pub fn print(roles: &[String], tallies: &[Tally]) {
    if roles.len() == 1 {
        println!("{:<16} {:>5}  mean score (95% CI)", "player", "games");
        for t in tallies {
            println!("{:<16} {:>5}  {:.1} ± {:.1}", t.player, t.games, t.score.mean, t.score.plus_minus);
        }
        return;
    }
    println!(
        "{:<16} {:>5} {:>5} {:>5} {:>6}  {:<18} mean score (95% CI)",
        "player", "games", "wins", "draws", "losses", "points (95% CI)"
    );
    for t in tallies {
        let points = format!("{:.1}% ± {:.1}", 100.0 * t.points.mean, 100.0 * t.points.plus_minus);
        println!(
            "{:<16} {:>5} {:>5} {:>5} {:>6}  {points:<18} {:.1} ± {:.1}",
            t.player, t.games, t.wins, t.draws, t.losses, t.score.mean, t.score.plus_minus
        );
    }
}
