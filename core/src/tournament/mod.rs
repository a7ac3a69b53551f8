//! Tournaments: every entrant against every other on one game or several, the seats rotated,
//! each game refereed as a match of the protocol (`protocol::game::referee_seated`), and a
//! leaderboard per game and overall. [`pairings`] draws up the schedule from the [`Plan`]
//! (deterministic from its seed; game number `g` seeds its seats with the arena's
//! `player_seed`, so any game replays alone), [`leaderboard`] tallies finished games with the
//! arena's tally and core's verdict and rates the entrants ([`rating`]: Bradley–Terry), and
//! [`record`] keeps the schedule and every finished game (JSON, and CSV for a spreadsheet),
//! from which a tournament resumes playing only the games it misses.
//!
//! An entrant is a name and something the referee can seat (`players::catalogue::Entrant`:
//! a player of ours, a remote address, or a student's player that the page reaches in its
//! sandbox). The faces run the games (the CLI on threads, the page in workers, and a game with
//! a student's player on the page's thread, refereed message by message: [`step_by_step`]);
//! core decides the schedule, each game's result and the table.

pub mod leaderboard;
pub mod pairings;
pub mod rating;
pub mod record;

pub use leaderboard::{leaderboard, Leaderboard};
pub use pairings::{schedule, Fixture};
pub use record::{Finished, Record};

use crate::ast::Description;
use crate::machine::{Result, RuntimeError, StateMachine};
use crate::players::catalogue::Entrant;
use crate::protocol::game::{referee_seated, setup, Outside, Terms};
use crate::protocol::referee::Match;
use serde::{Deserialize, Serialize};
use std::hash::Hash;

/// What a tournament is: its games, its entrants, how often each seating is played, the
/// protocol's clocks and move limit, and the seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Plan {
    pub games: Vec<GameName>,
    /// The entrants by name (`uct:1000`, `http://127.0.0.1:9147`), as the catalogue reads them.
    pub entrants: Vec<String>,
    /// How many times each seating of each pairing is played (at least 1).
    pub games_per_pairing: usize,
    pub seed: u64,
    /// Seconds to answer START, and per move.
    pub start_clock: f64,
    pub play_clock: f64,
    /// Most joint moves of a game; a game cut there has no goals.
    pub max_steps: usize,
}

/// A game of a tournament: how it is named (its file, or the page's name for it) and its roles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct GameName {
    pub name: String,
    pub roles: Vec<String>,
}

impl Plan {
    /// Whether the plan can be played: two entrants at least, each once, a game, one game per
    /// pairing at least, clocks above 0; or what is wrong, in words.
    pub fn check(&self) -> std::result::Result<(), String> {
        if self.entrants.len() < 2 {
            return Err(format!("a tournament needs two entrants at least; it has {}", self.entrants.len()));
        }
        if let Some((i, twice)) = (self.entrants.iter().enumerate()).find(|(i, e)| self.entrants[..*i].contains(e)) {
            return Err(format!("entrant {} is {twice} again: list each entrant once", i + 1));
        }
        if self.games.is_empty() {
            return Err("a tournament needs a game at least".into());
        }
        if self.games_per_pairing == 0 {
            return Err("games per pairing must be at least 1".into());
        }
        for (name, clock) in [("start clock", self.start_clock), ("play clock", self.play_clock)] {
            if !(clock.is_finite() && clock > 0.0) {
                return Err(format!("the {name}, {clock}, is not a number of seconds above 0"));
            }
        }
        Ok(())
    }
}

/// Plays `fixture` of a tournament planned as `plan` on `m`, the rules of its game being
/// `description`; `entrants` are the plan's, read (`catalogue::entrants`); remote entrants
/// and the clock reached through `outside`.
pub fn play<M: StateMachine + 'static>(
    m: &mut M,
    description: &Description,
    plan: &Plan,
    entrants: &[Entrant],
    fixture: &Fixture,
    outside: &mut Outside<M>,
) -> Result<Finished>
where
    M::State: Hash,
{
    let names: Vec<String> = entrants.iter().map(Entrant::name).collect();
    if names != plan.entrants {
        return Err(RuntimeError::new(format!(
            "the entrants {} are not the tournament's, {}",
            names.join(", "),
            plan.entrants.join(", ")
        )));
    }
    let roles = &plan.games[fixture.game].roles;
    if m.roles() != &roles[..] {
        return Err(RuntimeError::new(format!(
            "the game has roles {}, not those of {} in the tournament ({})",
            m.roles().join(" "),
            plan.games[fixture.game].name,
            roles.join(" ")
        )));
    }
    let (_, record) =
        referee_seated(m, description, entrants, fixture.seats.clone(), fixture.number, &terms(plan), outside)?;
    Ok(Finished { fixture: fixture.number, seed: plan.seed, record })
}

/// The protocol's terms of the tournament `plan`, under its match id (`match_id`).
fn terms(plan: &Plan) -> Terms {
    Terms {
        id: match_id(plan),
        start_clock: plan.start_clock,
        play_clock: plan.play_clock,
        max_steps: plan.max_steps,
        seed: plan.seed,
    }
}

/// `fixture` of `plan` as a match refereed one message at a time by a face that reaches some
/// seats itself (the page's students' players, which answer asynchronously): set up as
/// `play` sets it up, each seat named by its entrant (nature: `random`). Its record, once
/// over, is the game's `Finished { fixture, seed: plan.seed, record }`.
pub fn step_by_step<M: StateMachine>(
    m: &mut M,
    description: &Description,
    plan: &Plan,
    fixture: &Fixture,
) -> Result<Match<M>> {
    let game = game_id(plan, fixture.number);
    let setup = setup(description, &game, &terms(plan), &fixture.seats, fixture.number);
    let names =
        fixture.seats.iter().map(|p| p.map_or_else(|| "random".to_string(), |p| plan.entrants[p].clone())).collect();
    Match::new(m, &setup, names)
}

/// The protocol's match id of the tournament `plan`: its game `n` is `match_id.(n + 1)`.
fn match_id(plan: &Plan) -> String {
    format!("tournament.{}", plan.seed)
}

/// The protocol's match id of game `number` of the tournament `plan` (to ABORT it).
pub fn game_id(plan: &Plan, number: usize) -> String {
    crate::protocol::game::game_id(&match_id(plan), number)
}

#[cfg(test)]
mod tests;
