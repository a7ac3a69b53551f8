//! A referee: one match between seats, one per role, each answering the protocol's messages
//! (a player of our own, or a remote player the caller reaches over HTTP). It sends START,
//! PLAY with the last joint move and STOP, keeps the clocks, replaces a late, missing or
//! illegal move by a random legal one and records why, and keeps the match record (moves,
//! time per move, faults, goals).

use super::message::{reply_move, Last, Message};
use super::think;
use crate::ast::Description;
use crate::machine::{Result, StateMachine};
use crate::path::move_named;
use crate::players::{legal, Spec};
use crate::rng::Rng;
use crate::solve::goal_number;
use serde::Serialize;
use std::hash::Hash;

/// A seat of the match: someone who answers messages.
pub trait Seat<M: StateMachine> {
    /// How the record names it (`uct:1000`, `http://127.0.0.1:9147`).
    fn name(&self) -> String;
    /// The reply to START, STOP or ABORT within `clock` milliseconds, or why none came.
    fn tell(&mut self, message: &Message, clock: f64) -> std::result::Result<String, String>;
    /// The reply to PLAY within `clock` milliseconds, or why none came. A player of our own
    /// reads the position (`m`, `state`, `role`); a remote one only the message.
    fn play(
        &mut self,
        message: &Message,
        clock: f64,
        position: (&mut M, &M::State, usize),
        now: &dyn Fn() -> f64,
    ) -> std::result::Result<String, String>;
}

/// A player of our own in a seat: it thinks until a tenth of the clock is left.
pub struct Local {
    pub spec: Spec,
    pub seed: u64,
}

impl<M: StateMachine + 'static> Seat<M> for Local
where
    M::State: Hash,
{
    fn name(&self) -> String {
        self.spec.to_string()
    }

    fn tell(&mut self, message: &Message, _: f64) -> std::result::Result<String, String> {
        Ok(match message {
            Message::Start { .. } => "ready",
            Message::Abort { .. } => "aborted",
            _ => "done",
        }
        .into())
    }

    fn play(
        &mut self,
        _: &Message,
        clock: f64,
        (m, state, role): (&mut M, &M::State, usize),
        now: &dyn Fn() -> f64,
    ) -> std::result::Result<String, String> {
        self.seed = Rng::new(self.seed).next_u64();
        let d = think(self.spec, self.seed, m, state, role, clock * 0.9, now).map_err(|e| e.message)?;
        Ok(m.move_text(d.chosen))
    }
}

/// What a match is: its id, rules, clocks (seconds) and who sits where.
pub struct Setup<'a> {
    pub id: &'a str,
    pub description: &'a Description,
    pub start_clock: f64,
    pub play_clock: f64,
    /// Most joint moves; a match cut there has no goals.
    pub max_steps: usize,
    /// Draws the moves played for players that fail.
    pub seed: u64,
    /// The number (from 1) of the player at each role, as the messages name it.
    pub players: Vec<usize>,
}

/// One joint move and how long each role's answer took.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    pub moves: Vec<String>,
    pub millis: Vec<f64>,
}

/// A player's failure: when (step 0 is the start; the step after the last is the stop),
/// which role, and what was done about it.
#[derive(Clone, Debug, Serialize)]
pub struct Fault {
    pub step: usize,
    pub role: String,
    pub player: usize,
    pub message: String,
}

/// A match as played.
#[derive(Clone, Debug, Serialize)]
pub struct Record {
    pub id: String,
    pub roles: Vec<String>,
    /// The name of the player at each role.
    pub players: Vec<String>,
    pub start_clock: f64,
    pub play_clock: f64,
    pub steps: Vec<Step>,
    pub faults: Vec<Fault>,
    /// Each role's goal value; `None` when the match was cut at the move limit.
    pub goals: Option<Vec<i64>>,
}

/// Plays one match on `m` between `seats` (one per role, in role order). Every fault is
/// also said to `log` as it happens.
pub fn referee<M: StateMachine>(
    m: &mut M,
    seats: &mut [&mut dyn Seat<M>],
    setup: &Setup,
    now: &dyn Fn() -> f64,
    log: &mut dyn FnMut(&str),
) -> Result<Record> {
    let roles = m.roles().to_vec();
    let mut rng = Rng::new(setup.seed);
    let mut record = Record {
        id: setup.id.to_string(),
        roles: roles.clone(),
        players: seats.iter().map(|s| s.name()).collect(),
        start_clock: setup.start_clock,
        play_clock: setup.play_clock,
        steps: Vec::new(),
        faults: Vec::new(),
        goals: None,
    };
    // `step` 0 is the start; `stop` marks faults at the stop.
    let mut fault = |record: &mut Record, step: usize, stop: bool, r: usize, what: String| {
        let when = match step {
            _ if stop => "at the stop".to_string(),
            0 => "at the start".to_string(),
            s => format!("at step {s}"),
        };
        let message = format!("player {} ({}) {when}: {what}", setup.players[r], roles[r]);
        log(&message);
        record.faults.push(Fault { step, role: roles[r].clone(), player: setup.players[r], message });
    };
    let (start_ms, play_ms) = (setup.start_clock * 1000.0, setup.play_clock * 1000.0);
    for (r, seat) in seats.iter_mut().enumerate() {
        let start = Message::start(setup.id, &roles[r], setup.description, setup.start_clock, setup.play_clock);
        let t = now();
        let reply = seat.tell(&start, start_ms);
        let took = now() - t;
        match reply {
            Err(why) => fault(&mut record, 0, false, r, why),
            Ok(_) if took > start_ms => fault(&mut record, 0, false, r, late(took, "start", setup.start_clock)),
            Ok(reply) if !reply.trim().eq_ignore_ascii_case("ready") => {
                fault(&mut record, 0, false, r, format!("answered {} instead of ready", quoted(&reply)))
            }
            Ok(_) => {}
        }
    }
    let mut state = m.initial_state();
    let mut last = Last::Nothing;
    while !m.is_terminal(&state)? && record.steps.len() < setup.max_steps {
        let step = record.steps.len() + 1;
        let play = Message::Play { id: setup.id.to_string(), last: last.clone() };
        let (mut joint, mut millis) = (Vec::new(), Vec::new());
        for (r, seat) in seats.iter_mut().enumerate() {
            let moves = legal(m, &state, r)?;
            let t = now();
            let answer = seat.play(&play, play_ms, (m, &state, r), now);
            let took = now() - t;
            let chosen = answer.and_then(|reply| {
                let text = reply_move(&reply)?;
                match move_named(m, &moves, &text) {
                    _ if took > play_ms => Err(late(took, "play", setup.play_clock)),
                    Some(mv) => Ok(mv),
                    None => Err(format!("{text} is not a legal move")),
                }
            });
            let mv = chosen.unwrap_or_else(|why| {
                let mv = moves[rng.below(moves.len())];
                fault(&mut record, step, false, r, format!("{why}; played {} for it", m.move_text(mv)));
                mv
            });
            joint.push(mv);
            millis.push(took);
        }
        let texts: Vec<String> = joint.iter().map(|&mv| m.move_text(mv)).collect();
        state = m.next_state(&state, &joint)?;
        record.steps.push(Step { moves: texts.clone(), millis });
        last = Last::Moves(texts);
    }
    if m.is_terminal(&state)? {
        record.goals = Some(m.goals(&state)?.iter().map(|g| goal_number(g)).collect());
    }
    let stop = Message::Stop { id: setup.id.to_string(), last };
    let after = record.steps.len() + 1;
    for (r, seat) in seats.iter_mut().enumerate() {
        if let Err(why) = seat.tell(&stop, play_ms) {
            fault(&mut record, after, true, r, why);
        }
    }
    Ok(record)
}

/// "answered after 3.2 s, past the 3 s play clock".
fn late(millis: f64, clock: &str, seconds: f64) -> String {
    format!("answered after {:.1} s, past the {seconds} s {clock} clock", millis / 1000.0)
}

/// A reply quoted for a message, cut at 60 characters.
pub fn quoted(reply: &str) -> String {
    let one_line = reply.split_whitespace().collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(60) {
        Some((i, _)) => format!("'{}…'", &one_line[..i]),
        None => format!("'{one_line}'"),
    }
}
