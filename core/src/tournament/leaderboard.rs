//! The leaderboard of a tournament, per game and overall, from its finished games: each
//! entrant's tally (the arena's: games, wins, draws, losses, points and mean score with 95%
//! intervals, core's verdict deciding every result), its rating ([`super::rating`]) and its
//! faults, counted by kind (late, illegal, unreachable) and in the referee's words. Entrants are ranked by mean points, then rating, then name.

use super::rating::{Rating, Results};
use super::{Finished, Plan, Record};
use crate::players::arena::{tally_named, Game, Tally};
use crate::protocol::fault::FaultKind;
use crate::verdict::Ending;
use serde::Serialize;

/// The table of every game of the tournament, and one per game of the plan.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Leaderboard {
    /// Games finished, and scheduled.
    pub played: usize,
    pub scheduled: usize,
    pub overall: Vec<Standing>,
    pub per_game: Vec<Board>,
}

/// The table of one game of the plan.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Board {
    pub game: String,
    pub standings: Vec<Standing>,
}

/// An entrant's line, best first.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Standing {
    /// Its place, from 1 (entrants with equal points and rating share it).
    pub rank: usize,
    pub tally: Tally,
    /// `None` when it met no one (only one-player games, or none finished).
    pub rating: Option<Rating>,
    /// Its faults as the referee said them, each after its game: "game 3: player 2 (o) at
    /// step 4: no reply in 3 s; played (mark 1 1) for it".
    pub faults: Vec<String>,
    /// Its faults counted by kind.
    pub fault_counts: FaultCounts,
}

/// An entrant's faults counted by kind, and said in words ("2 late, 1 illegal"; "none").
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct FaultCounts {
    pub late: usize,
    pub illegal: usize,
    pub unreachable: usize,
    pub failed: usize,
    pub text: String,
}

impl FaultCounts {
    fn of(kinds: impl Iterator<Item = FaultKind>) -> FaultCounts {
        let mut c = FaultCounts::default();
        for kind in kinds {
            *match kind {
                FaultKind::Late => &mut c.late,
                FaultKind::Illegal => &mut c.illegal,
                FaultKind::Unreachable => &mut c.unreachable,
                FaultKind::Failed => &mut c.failed,
            } += 1;
        }
        let said: Vec<String> =
            [(c.late, "late"), (c.illegal, "illegal"), (c.unreachable, "unreachable"), (c.failed, "failed")]
                .iter()
                .filter(|(n, _)| *n > 0)
                .map(|(n, what)| format!("{n} {what}"))
                .collect();
        c.text = if said.is_empty() { "none".into() } else { said.join(", ") };
        c
    }
}

/// The leaderboard of `record` so far.
pub fn leaderboard(record: &Record) -> Leaderboard {
    let plan = &record.plan;
    let of_game = |game: Option<usize>| {
        let mut finished: Vec<&Finished> =
            (record.finished.iter()).filter(|f| game.is_none_or(|g| record.schedule[f.fixture].game == g)).collect();
        // In schedule order, whatever order the games finished in.
        crate::order::sort_by_key(&mut finished, |f| f.fixture);
        board(plan, record, &finished)
    };
    Leaderboard {
        played: record.finished.len(),
        scheduled: record.schedule.len(),
        overall: of_game(None),
        per_game: (plan.games.iter().enumerate())
            .map(|(g, game)| Board { game: game.name.clone(), standings: of_game(Some(g)) })
            .collect(),
    }
}

/// The standings over `finished` games.
fn board(plan: &Plan, record: &Record, finished: &[&Finished]) -> Vec<Standing> {
    let games: Vec<Game> = finished.iter().map(|f| record.game(f)).collect();
    let tallies = tally_named(&plan.entrants, &games);
    let mut results = Results::new(plan.entrants.len());
    for (f, game) in finished.iter().zip(&games) {
        compare(&record.plan.games[record.schedule[f.fixture].game].roles, game, &mut results);
    }
    let ratings = results.ratings();
    let mut standings: Vec<Standing> = (tallies.into_iter().zip(ratings).enumerate())
        .map(|(e, (tally, rating))| {
            let (faults, kinds): (Vec<String>, Vec<FaultKind>) = faults(finished, e).unzip();
            Standing { rank: 0, tally, rating, faults, fault_counts: FaultCounts::of(kinds.into_iter()) }
        })
        .collect();
    let key = |s: &Standing| (s.tally.points.mean, s.rating.map_or(f64::NEG_INFINITY, |r| r.elo));
    crate::order::sort_by(&mut standings, |a, b| key(b).partial_cmp(&key(a)).unwrap_or(std::cmp::Ordering::Equal));
    for i in 0..standings.len() {
        standings[i].rank = match i {
            0 => 1,
            _ if key(&standings[i]) == key(&standings[i - 1]) => standings[i - 1].rank,
            _ => i + 1,
        };
    }
    standings
}

/// Adds `game`'s pairwise results (every two seats of different entrants) as its verdict
/// ranks the seats.
fn compare(roles: &[String], game: &Game, results: &mut Results) {
    let v = game.verdict(roles);
    let place = |r: usize| match v.ending {
        Ending::Won | Ending::Drawn => Some(if v.winners.contains(&r) {
            2i32
        } else if v.drawn.contains(&r) {
            1
        } else {
            0
        }),
        Ending::Unfinished => Some(1),
        Ending::Scored | Ending::IllFormed => None,
    };
    let seated: Vec<(usize, usize)> = (game.seats.iter().enumerate()).filter_map(|(r, e)| e.map(|e| (r, e))).collect();
    for (a, &(ra, ea)) in seated.iter().enumerate() {
        for &(rb, eb) in &seated[a + 1..] {
            if let (Some(pa), Some(pb), true) = (place(ra), place(rb), ea != eb) {
                results.add(ea, eb, 0.5 + 0.5 * (pa - pb).signum() as f64);
            }
        }
    }
}

/// Entrant `e`'s faults in `finished`, each after its game's number (from 1), with its kind.
fn faults<'a>(finished: &'a [&'a Finished], e: usize) -> impl Iterator<Item = (String, FaultKind)> + 'a {
    finished.iter().flat_map(move |f| {
        // The referee numbers the players from 1 in the plan's order (nature: 0).
        (f.record.faults.iter())
            .filter(move |fault| fault.player == e + 1)
            .map(move |fault| (format!("game {}: {}", f.fixture + 1, fault.message), fault.kind))
    })
}
