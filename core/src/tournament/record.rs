//! The record of a tournament: its plan, its schedule and every finished game (the
//! referee's record: moves, time per move, percepts, faults, goals; and the seed). It is
//! saved as JSON as it grows; a tournament resumes from it playing only the games it misses
//! ([`Record::missing`]). A file that is not a tournament record, or one damaged or edited
//! out of shape, is refused in words ([`Record::read`], [`Record::checked`]).
//! [`Record::csv`] gives one line per finished game for a spreadsheet.

use super::{schedule, Fixture, Plan};
use crate::gdl2::is_nature;
use crate::players::arena::Game;
use crate::protocol::referee;
use serde::{Deserialize, Serialize};

/// What the record's `format` says.
const FORMAT: &str = "gdl tournament record";
/// The version of its shape.
const VERSION: u32 = 1;

/// A tournament so far.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null, rename = "TournamentRecord"))]
pub struct Record {
    pub format: String,
    pub version: u32,
    pub plan: Plan,
    pub schedule: Vec<Fixture>,
    /// The finished games, in the order they finished.
    pub finished: Vec<Finished>,
}

/// A finished game of the schedule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Finished {
    /// Its number in the schedule.
    pub fixture: usize,
    /// The tournament's seed: the player at role `r` was seeded with the arena's
    /// `player_seed(seed, fixture, r)`, the referee with `player_seed(seed, fixture, roles)`.
    pub seed: u64,
    #[cfg_attr(feature = "tsify", tsify(type = "MatchRecord"))]
    pub record: referee::Record,
}

impl Record {
    /// A tournament planned as `plan`, no game played yet; or why the plan cannot be played.
    pub fn new(plan: Plan) -> Result<Record, String> {
        plan.check()?;
        Ok(Record { format: FORMAT.into(), version: VERSION, schedule: schedule(&plan), plan, finished: Vec::new() })
    }

    /// A record read from its JSON text, or what is wrong with it.
    pub fn read(text: &str) -> Result<Record, String> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("this is not a tournament record: it is not JSON ({e})"))?;
        if value.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
            let what = if value.get("matches").is_some() { ", but a match's (gdl match --record)" } else { "" };
            return Err(format!("this is not a tournament record{what}: it has no \"format\": \"{FORMAT}\""));
        }
        let record: Record =
            serde_json::from_value(value).map_err(|e| format!("the tournament record is damaged: {e}"))?;
        record.checked()
    }

    /// The record, if it is whole: its version this one, its plan playable, its schedule the
    /// plan's, each finished game a game of the schedule, once, with the plan's roles and
    /// seed; otherwise what is wrong, in words. (`read` checks what it reads; the page reads
    /// records without JSON text and checks them here.)
    pub fn checked(self) -> Result<Record, String> {
        let record = self;
        if record.format != FORMAT {
            return Err(format!("this is not a tournament record: its format is '{}', not '{FORMAT}'", record.format));
        }
        if record.version != VERSION {
            return Err(format!(
                "the tournament record has version {}; this gdl reads version {VERSION}",
                record.version
            ));
        }
        record.plan.check().map_err(|e| format!("the tournament record's plan cannot be played: {e}"))?;
        if record.schedule != schedule(&record.plan) {
            return Err("the tournament record is damaged: its schedule is not the one its plan gives".into());
        }
        let mut seen = vec![false; record.schedule.len()];
        for (i, f) in record.finished.iter().enumerate() {
            let damaged = |what: String| format!("the tournament record is damaged: finished game {} {what}", i + 1);
            let Some(fixture) = record.schedule.get(f.fixture) else {
                return Err(damaged(format!("is number {}, past the schedule's {}", f.fixture + 1, seen.len())));
            };
            if std::mem::replace(&mut seen[f.fixture], true) {
                return Err(damaged(format!("is game {} again", f.fixture + 1)));
            }
            let roles = &record.plan.games[fixture.game].roles;
            if f.record.roles != *roles || f.record.players.len() != roles.len() {
                return Err(damaged(format!(
                    "has roles {} where the plan has {}",
                    f.record.roles.join(" "),
                    roles.join(" ")
                )));
            }
            if f.seed != record.plan.seed {
                return Err(damaged(format!("was seeded {}, not {}", f.seed, record.plan.seed)));
            }
        }
        Ok(record)
    }

    /// The record as JSON.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record is serialisable")
    }

    /// Whether this record is of the tournament `plan`; if not, what differs.
    pub fn is_of(&self, plan: &Plan) -> Result<(), String> {
        let mine = &self.plan;
        let names = |p: &Plan| p.games.iter().map(|g| g.name.clone()).collect::<Vec<_>>().join(", ");
        let differs = |what: &str, theirs: String, ours: String| {
            Err(format!("the record is of another tournament: its {what} {theirs}, not {ours}"))
        };
        if mine.games != plan.games {
            return differs("games are", names(mine), names(plan));
        }
        if mine.entrants != plan.entrants {
            return differs("entrants are", mine.entrants.join(", "), plan.entrants.join(", "));
        }
        if mine.seed != plan.seed {
            return differs("seed is", mine.seed.to_string(), plan.seed.to_string());
        }
        if mine != plan {
            let terms = |p: &Plan| {
                format!(
                    "{} games per pairing, clocks {} s / {} s, at most {} moves",
                    p.games_per_pairing, p.start_clock, p.play_clock, p.max_steps
                )
            };
            return differs("settings are", terms(mine), terms(plan));
        }
        Ok(())
    }

    /// The games of the schedule not finished yet, in schedule order.
    pub fn missing(&self) -> Vec<Fixture> {
        let mut done = vec![false; self.schedule.len()];
        for f in &self.finished {
            done[f.fixture] = true;
        }
        self.schedule.iter().filter(|f| !done[f.number]).cloned().collect()
    }

    /// Adds a finished game (one already finished is not added twice).
    pub fn finish(&mut self, finished: Finished) {
        if !self.finished.iter().any(|f| f.fixture == finished.fixture) {
            self.finished.push(finished);
        }
    }

    /// A finished game as the arena tallies it.
    pub fn game(&self, f: &Finished) -> Game {
        let r = &f.record;
        let moves = r.steps.iter().map(|s| s.moves.clone()).collect();
        Game { seats: self.schedule[f.fixture].seats.clone(), goals: r.goals.clone(), length: r.steps.len(), moves }
    }

    /// One line per finished game, in schedule order, with a header: its number, game,
    /// seed, who sat where, goals, result (core's verdict), length, faults and moves.
    pub fn csv(&self) -> String {
        let mut out = String::from("number,game,seed,players,goals,result,moves,faults,fault details,joint moves\n");
        let mut finished: Vec<&Finished> = self.finished.iter().collect();
        crate::order::sort_by_key(&mut finished, |f| f.fixture);
        for f in finished {
            let r = &f.record;
            let fixture = &self.schedule[f.fixture];
            let players = (r.roles.iter().zip(&fixture.seats))
                .map(|(role, e)| match e {
                    Some(e) => format!("{role}={}", self.plan.entrants[*e]),
                    None => format!("{role}=nature"),
                })
                .collect::<Vec<_>>()
                .join(" ");
            let goals = r.goals.as_ref().map_or(String::new(), |g| join(g.iter().map(i64::to_string), " "));
            let nature: Vec<bool> = r.roles.iter().map(|role| is_nature(role)).collect();
            let result = crate::verdict::verdict_of_numbers(&r.roles, &nature, r.goals.as_deref()).text;
            let fields = [
                (f.fixture + 1).to_string(),
                self.plan.games[fixture.game].name.clone(),
                f.seed.to_string(),
                players,
                goals,
                result,
                r.steps.len().to_string(),
                r.faults.len().to_string(),
                join(r.faults.iter().map(|x| x.message.clone()), "; "),
                join(r.steps.iter().map(|s| s.moves.join(" ")), "; "),
            ];
            out += &join(fields.iter().map(|x| csv_field(x)), ",");
            out.push('\n');
        }
        out
    }
}

fn join(items: impl Iterator<Item = String>, by: &str) -> String {
    items.collect::<Vec<_>>().join(by)
}

/// A CSV field, quoted when it holds a comma, a quote or a line break (quotes doubled).
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}
