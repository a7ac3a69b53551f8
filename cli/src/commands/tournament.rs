//! `gdl tournament`: every entrant against every other on each game, as
//! `gdl_core::tournament` schedules, referees and tallies it. Each game's fixtures run on
//! threads, one engine per thread; remote entrants are reached over HTTP as `gdl match` does.
//! The record is written after every finished game (to a file beside it, then moved in
//! place), so an interrupted tournament resumes from it losing no finished game.

use super::referee::reach_over;
use crate::args::TournamentArgs;
use crate::load::{invalid, usage, Failure, Loader, Outcome};
use crate::parallel::{self, each_thread};
use crate::tally::points_and_score;
use gdl_core::engine::Engine;
use gdl_core::machine::StateMachine;
use gdl_core::players::catalogue::{entrants, outside_the_page, Entrant};
use gdl_core::protocol::game::Outside;
use gdl_core::tournament::leaderboard::Standing;
use gdl_core::tournament::{self, leaderboard, Fixture, GameName, Plan, Record};
use serde_json::json;
use std::path::Path;
use std::sync::{Condvar, Mutex};
use std::time::Instant;

/// Faults listed per entrant under the table; the record holds them all.
const FAULTS_SHOWN: usize = 3;

pub fn run(args: &TournamentArgs) -> Outcome {
    let json = args.json;
    let list = entrants(&args.entrants).map_err(|e| usage(format!("--entrants: {e}")))?;
    outside_the_page(&list).map_err(|e| usage(format!("--entrants: {e}")))?;
    let threads = parallel::threads(args.threads)?;
    let loaders =
        (args.games.iter()).map(|file| Loader::new(file, &args.engine, json)).collect::<Result<Vec<_>, _>>()?;
    let mut engines = Vec::new();
    for (file, loader) in args.games.iter().zip(&loaders) {
        engines.push(loader.engine(file, json)?);
    }
    let plan = Plan {
        games: (args.games.iter().zip(&engines))
            .map(|(file, m)| GameName { name: file.display().to_string(), roles: m.roles().to_vec() })
            .collect(),
        entrants: list.iter().map(Entrant::name).collect(),
        games_per_pairing: args.games_per_pairing,
        seed: args.seed,
        start_clock: args.start_clock,
        play_clock: args.play_clock,
        max_steps: args.max_steps,
    };
    let record = match &args.resume {
        Some(path) => {
            let text = crate::load::read(path)?;
            let on = |e: String| usage(format!("--resume: {}: {e}", path.display()));
            let record = Record::read(&text).map_err(on)?;
            record.is_of(&plan).map_err(on)?;
            record
        }
        None => Record::new(plan).map_err(usage)?,
    };
    let out = args.record.as_deref().or(args.resume.as_deref());
    if let Some(path) = out {
        save(path, &record)?;
    }
    let start = Instant::now();
    let record = Mutex::new(record);
    for (g, (loader, m)) in loaders.iter().zip(&mut engines).enumerate() {
        play_game(g, loader, m, &list, threads, &record, out, json)?;
    }
    let record = record.into_inner().expect("no thread panics holding it");
    if let Some(path) = &args.csv {
        std::fs::write(path, record.csv())
            .map_err(|e| usage(format!("--csv: cannot write {}: {e}", path.display())))?;
    }
    let board = leaderboard(&record);
    let seconds = start.elapsed().as_secs_f64();
    if json {
        println!("{}", json!({"plan": record.plan, "seconds": seconds, "leaderboard": board}));
        return Ok(());
    }
    let plan = &record.plan;
    println!(
        "tournament: {} on {}, {} of {} games, seed {}, clocks {} s / {} s, {seconds:.1} s",
        plan.entrants.join(", "),
        plan.games.iter().map(|g| g.name.as_str()).collect::<Vec<_>>().join(", "),
        board.played,
        board.scheduled,
        plan.seed,
        plan.start_clock,
        plan.play_clock,
    );
    if board.per_game.len() > 1 {
        for b in &board.per_game {
            print!("\n{}\n{}", b.game, table(&b.standings));
        }
        println!("\noverall");
    }
    print!("{}", table(&board.overall));
    print!("{}", faults(&board.overall));
    Ok(())
}

/// Plays the games of game `g` of the plan that the record misses, on `threads` threads.
#[allow(clippy::too_many_arguments)]
fn play_game(
    g: usize,
    loader: &Loader,
    first: &mut Engine,
    list: &[Entrant],
    threads: usize,
    record: &Mutex<Record>,
    out: Option<&Path>,
    json: bool,
) -> Outcome {
    let lock = || record.lock().expect("no thread panics holding it");
    let (plan, missing) = {
        let r = lock();
        (r.plan.clone(), r.missing().into_iter().filter(|f| f.game == g).collect::<Vec<_>>())
    };
    if missing.is_empty() {
        return Ok(());
    }
    let threads = threads.min(missing.len());
    let queue = Queue::new(missing, list);
    let build = || loader.build_engine();
    let agent = ureq::AgentBuilder::new().build();
    each_thread(threads, first, &build, &|_, m| {
        let started = Instant::now();
        let now = || started.elapsed().as_secs_f64() * 1000.0;
        let mut reach = reach_over(&agent);
        while let Some(fixture) = queue.take() {
            let mut log = |s: &str| {
                if !json {
                    eprintln!("gdl tournament: {s}")
                }
            };
            let outside = &mut Outside { reach: &mut reach, now: &now, log: &mut log };
            let finished = tournament::play(m, &loader.description, &plan, list, &fixture, outside)
                .map_err(|e| format!("game {}: {}", fixture.number + 1, e.message));
            let finished = finished.inspect_err(|_| queue.done(&fixture))?;
            if !json {
                eprintln!("{} ({})", finished.record.summary(fixture.number), plan.games[g].name);
            }
            queue.done(&fixture);
            let mut r = lock();
            r.finish(finished);
            if let Some(path) = out {
                write(path, &r)?;
            }
        }
        Ok(())
    })
    .map(drop)
    .map_err(invalid)
}

/// Writes the record to `path`: to a file beside it, then moved in place, so that an
/// interruption leaves the last whole record.
fn write(path: &Path, record: &Record) -> Result<(), String> {
    let beside = path.with_extension("json.part");
    let cannot = |e: std::io::Error| format!("cannot write the record {}: {e}", path.display());
    std::fs::write(&beside, record.json() + "\n").map_err(cannot)?;
    std::fs::rename(&beside, path).map_err(cannot)
}

fn save(path: &Path, record: &Record) -> Outcome {
    write(path, record).map_err(|e| -> Failure { usage(e) })
}

/// The standings as a table: rank, entrant, games, wins, draws, losses, points, mean score,
/// rating (each with its 95% interval) and the faults by kind.
fn table(standings: &[Standing]) -> String {
    let w = standings.iter().map(|s| s.tally.player.chars().count()).max().unwrap_or(0).max(7);
    let mut out = format!(
        "{:>4}  {:<w$} {:>5} {:>4} {:>5} {:>6}  {:<16} {:<19} {:<15} {}\n",
        "rank",
        "entrant",
        "games",
        "wins",
        "draws",
        "losses",
        "points (95% CI)",
        "mean score (95% CI)",
        "rating (95% CI)",
        "faults"
    );
    for s in standings {
        let t = &s.tally;
        let (points, score) = points_and_score(t);
        let rating = s.rating.map_or("-".to_string(), |r| format!("{:+.0} ± {:.0}", r.elo.round() + 0.0, r.plus_minus));
        out += &format!(
            "{:>4}  {:<w$} {:>5} {:>4} {:>5} {:>6}  {points:<16} {score:<19} {rating:<15} {}\n",
            s.rank, t.player, t.games, t.wins, t.draws, t.losses, s.fault_counts.text
        );
    }
    out
}

/// Each entrant's first faults in the referee's words.
fn faults(standings: &[Standing]) -> String {
    let mut out = String::new();
    for s in standings.iter().filter(|s| !s.faults.is_empty()) {
        out += &format!("faults of {}:\n", s.tally.player);
        for f in s.faults.iter().take(FAULTS_SHOWN) {
            out += &format!("  {f}\n");
        }
        if s.faults.len() > FAULTS_SHOWN {
            out += &format!("  … and {} more (the record has them all)\n", s.faults.len() - FAULTS_SHOWN);
        }
    }
    out
}

/// The games left to play, handed to threads so that a remote entrant, which plays one match
/// at a time, never sits in two games at once (our players play any number).
struct Queue {
    state: Mutex<(Vec<Fixture>, Vec<bool>)>,
    freed: Condvar,
    remote: Vec<bool>,
}

impl Queue {
    fn new(fixtures: Vec<Fixture>, list: &[Entrant]) -> Queue {
        let remote: Vec<bool> = list.iter().map(|e| matches!(e, Entrant::Remote(_))).collect();
        Queue { state: Mutex::new((fixtures, vec![false; list.len()])), freed: Condvar::new(), remote }
    }

    /// The remote entrants of `fixture`.
    fn remotes<'a>(&'a self, fixture: &'a Fixture) -> impl Iterator<Item = usize> + 'a {
        fixture.seats.iter().flatten().copied().filter(|&e| self.remote[e])
    }

    /// The first game left whose remote entrants are free (waiting for one to be), or none.
    fn take(&self) -> Option<Fixture> {
        let mut state = self.state.lock().expect("no thread panics holding it");
        loop {
            let (left, busy) = &mut *state;
            if left.is_empty() {
                return None;
            }
            if let Some(i) = left.iter().position(|f| self.remotes(f).all(|e| !busy[e])) {
                let fixture = left.remove(i);
                self.remotes(&fixture).for_each(|e| busy[e] = true);
                return Some(fixture);
            }
            state = self.freed.wait(state).expect("no thread panics holding it");
        }
    }

    /// `fixture` is over: its remote entrants are free.
    fn done(&self, fixture: &Fixture) {
        let mut state = self.state.lock().expect("no thread panics holding it");
        self.remotes(fixture).for_each(|e| state.1[e] = false);
        self.freed.notify_all();
    }
}
