//! A referee: one match between seats, one per role, each answering the protocol's messages
//! (a player of our own, or a remote player the caller reaches over HTTP). It sends START,
//! PLAY with the last joint move and STOP, keeps the clocks, replaces a late, missing or
//! illegal move by a random legal one and records why, and keeps the match record (moves,
//! time per move, percepts, faults, goals). In a GDL-II game each role is sent only its own
//! move and percepts (`(PLAY id turn move (percepts))`), players of ours play from their
//! role's history, and nature (the role `random`) is played by the referee.

use super::message::{reply_move, Last, Message};
use super::{for_hidden, think};
use crate::ast::Description;
use crate::gdl2::is_nature;
use crate::infoset::{defines_sees, History};
use crate::machine::{Result, StateMachine};
use crate::players::{legal, Spec, View};
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
    /// reads what its role knows (`view`: the state, or in a GDL-II game its history); a
    /// remote one only the message.
    fn play(
        &mut self,
        message: &Message,
        clock: f64,
        m: &mut M,
        view: View<'_, M>,
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
        m: &mut M,
        view: View<'_, M>,
        now: &dyn Fn() -> f64,
    ) -> std::result::Result<String, String> {
        self.seed = Rng::new(self.seed).next_u64();
        let spec = if matches!(view, View::History(_)) { for_hidden(self.spec) } else { self.spec };
        let d = think(spec, self.seed, m, view, clock * 0.9, now).map_err(|e| e.message)?;
        Ok(m.move_text(d.chosen))
    }
}

/// A remote player in a seat: `post` sends it a message and returns its reply within `clock`
/// milliseconds, or why there is none (the caller's HTTP: the CLI's, the page's).
pub struct Remote<F> {
    pub url: String,
    pub post: F,
}

impl<M: StateMachine, F: FnMut(&Message, f64) -> std::result::Result<String, String>> Seat<M> for Remote<F> {
    fn name(&self) -> String {
        self.url.clone()
    }

    fn tell(&mut self, message: &Message, clock: f64) -> std::result::Result<String, String> {
        (self.post)(message, clock)
    }

    fn play(
        &mut self,
        message: &Message,
        clock: f64,
        _: &mut M,
        _: View<'_, M>,
        _: &dyn Fn() -> f64,
    ) -> std::result::Result<String, String> {
        (self.post)(message, clock)
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
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Step {
    pub moves: Vec<String>,
    pub millis: Vec<f64>,
    /// GDL-II: what each role perceived with this joint move (none in a game without `sees`).
    pub percepts: Option<Vec<Vec<String>>>,
}

/// A player's failure: when (step 0 is the start; the step after the last is the stop),
/// which role, and what was done about it.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Fault {
    pub step: usize,
    pub role: String,
    pub player: usize,
    pub message: String,
}

/// A match as played.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null, rename = "MatchRecord"))]
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
    let mut fault = |record: &mut Record, step: usize, stop: bool, r: usize, what: String| {
        let message = fault_line(setup.players[r], &roles[r], step, stop, &what);
        log(&message);
        record.faults.push(Fault { step, role: roles[r].clone(), player: setup.players[r], message });
    };
    let (start_ms, play_ms) = (setup.start_clock * 1000.0, setup.play_clock * 1000.0);
    for (r, seat) in seats.iter_mut().enumerate() {
        let start = Message::start(setup.id, &roles[r], setup.description, setup.start_clock, setup.play_clock);
        let t = now();
        let reply = seat.tell(&start, start_ms);
        if let Err(why) = judge_ready(reply, now() - t, setup.start_clock) {
            fault(&mut record, 0, false, r, why);
        }
    }
    let mut state = m.initial_state();
    // GDL-II: what each role knows, and what it is told.
    let hidden = defines_sees(m)?;
    let mut histories: Vec<History<M::Move>> = (0..roles.len()).map(History::new).collect();
    let mut last = vec![Last::Nothing; roles.len()];
    while !m.is_terminal(&state)? && record.steps.len() < setup.max_steps {
        let step = record.steps.len() + 1;
        let (mut joint, mut millis) = (Vec::new(), Vec::new());
        for (r, seat) in seats.iter_mut().enumerate() {
            let play = Message::Play { id: setup.id.to_string(), last: last[r].clone() };
            let moves = legal(m, &state, r)?;
            let view =
                if hidden && !is_nature(&roles[r]) { View::History(&histories[r]) } else { View::State(&state, r) };
            let t = now();
            let answer = seat.play(&play, play_ms, m, view, now);
            let took = now() - t;
            let texts: Vec<String> = moves.iter().map(|&mv| m.move_text(mv)).collect();
            let mv = match judge(answer, took, setup.play_clock, &texts) {
                Ok(k) => moves[k],
                Err(why) => {
                    let k = rng.below(moves.len());
                    fault(&mut record, step, false, r, replaced(&why, &texts[k]));
                    moves[k]
                }
            };
            joint.push(mv);
            millis.push(took);
        }
        last = told(m, &state, &joint, step)?;
        for ((h, &mv), l) in histories.iter_mut().zip(&joint).zip(&last) {
            if let Last::Percepts { percepts, .. } = l {
                h.push(mv, percepts.clone());
            }
        }
        state = m.next_state(&state, &joint)?;
        let percepts = (last.iter())
            .map(|l| match l {
                Last::Percepts { percepts, .. } => Some(percepts.clone()),
                _ => None,
            })
            .collect();
        record.steps.push(Step { moves: joint.iter().map(|&mv| m.move_text(mv)).collect(), millis, percepts });
    }
    if m.is_terminal(&state)? {
        record.goals = Some(m.goals(&state)?.iter().map(|g| goal_number(g)).collect());
    }
    let after = record.steps.len() + 1;
    for (r, (seat, last)) in seats.iter_mut().zip(last).enumerate() {
        let stop = Message::Stop { id: setup.id.to_string(), last };
        if let Err(why) = seat.tell(&stop, play_ms) {
            fault(&mut record, after, true, r, why);
        }
    }
    Ok(record)
}

/// What each role is told (in role order) after joint move number `turn` (from 1), `joint`,
/// was played in `state`: the joint move in a GDL game; in a GDL-II one (with `sees`) only
/// the role's own move and its percepts, never the others' moves.
pub fn told<M: StateMachine>(m: &mut M, state: &M::State, joint: &[M::Move], turn: usize) -> Result<Vec<Last>> {
    let texts: Vec<String> = joint.iter().map(|&mv| m.move_text(mv)).collect();
    Ok(match m.percepts(state, joint)? {
        Some(seen) => (seen.into_iter().zip(texts))
            .map(|(percepts, own)| Last::Percepts { turn, own: Some(own), percepts })
            .collect(),
        None => vec![Last::Moves(texts); joint.len()],
    })
}

/// The legal move (its index in `legal`, canonical texts) that `answer` names, given `took`
/// milliseconds against a play clock of `play_clock` seconds; or why it does not stand.
pub fn judge(
    answer: std::result::Result<String, String>,
    took: f64,
    play_clock: f64,
    legal: &[String],
) -> std::result::Result<usize, String> {
    let text = reply_move(&answer?)?;
    if took > play_clock * 1000.0 {
        return Err(late(took, "play", play_clock));
    }
    legal.iter().position(|l| *l == text).ok_or_else(|| format!("{text} is not a legal move"))
}

/// Whether `answer` to a START, after `took` milliseconds against a start clock of
/// `start_clock` seconds, is a player ready on time; or what is wrong.
pub fn judge_ready(
    answer: std::result::Result<String, String>,
    took: f64,
    start_clock: f64,
) -> std::result::Result<(), String> {
    match answer {
        Err(why) => Err(why),
        Ok(_) if took > start_clock * 1000.0 => Err(late(took, "start", start_clock)),
        Ok(reply) if !reply.trim().eq_ignore_ascii_case("ready") => {
            Err(format!("answered {} instead of ready", quoted(&reply)))
        }
        Ok(_) => Ok(()),
    }
}

/// What a fault says when a random legal move stands in: "no reply in 3 s; played (mark 1 1) for it".
pub fn replaced(why: &str, played: &str) -> String {
    format!("{why}; played {played} for it")
}

/// A fault as the record and the log say it: "player 1 (x) at step 3: …" (step 0 is the
/// start; `stop` marks a fault at the stop).
pub fn fault_line(player: usize, role: &str, step: usize, stop: bool, what: &str) -> String {
    let when = match step {
        _ if stop => "at the stop".to_string(),
        0 => "at the start".to_string(),
        s => format!("at step {s}"),
    };
    format!("player {player} ({role}) {when}: {what}")
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
