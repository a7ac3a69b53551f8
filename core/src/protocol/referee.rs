//! A referee: one match between seats, one per role, each answering the protocol's messages
//! (a player of our own, or a remote player the caller reaches over HTTP). [`Match`] is the
//! match step by step: START to every seat, the next joint move (PLAY, each reply judged, a
//! late, missing or illegal move replaced by a legal one drawn from the match's seeded
//! generator and the fault recorded), STOP or ABORT; it keeps the match record (moves, time
//! per move, percepts, faults, goals). A caller that reaches its seats itself (the page's
//! Play pane, whose other roles are people) asks for each message and hands each answer back
//! ([`Match::answered`], [`Match::advance`]); one that has every seat at hand lets the match
//! drive them ([`Match::start`], [`Match::step`], [`Match::stop`]; [`referee`] plays it all).
//! In a GDL-II game each role is sent only its own move and percepts (`(PLAY id turn move
//! (percepts))`), players of ours play from their role's history, and nature (the role
//! `random`) is a seat of ours.

use super::fault::{fault_line, judge, judge_ready, replaced, Answer, FaultKind, NoReply, When};
use super::message::{Last, Message};
use super::{for_hidden, think};
use crate::ast::Description;
use crate::gdl2::is_nature;
use crate::infoset::{defines_sees, History};
use crate::machine::{Result, RuntimeError, StateMachine};
use crate::players::{legal, Spec, View};
use crate::rng::Rng;
use crate::solve::goal_number;
use serde::{Deserialize, Serialize};
use std::hash::Hash;

/// A seat of the match: someone who answers messages.
pub trait Seat<M: StateMachine> {
    /// How the record names it (`uct:1000`, `http://127.0.0.1:9147`).
    fn name(&self) -> String;
    /// The reply to START, STOP or ABORT within `clock` milliseconds, or why none came.
    fn tell(&mut self, message: &Message, clock: f64) -> Answer;
    /// The reply to PLAY within `clock` milliseconds, or why none came. A player of our own
    /// reads what its role knows (`view`: the state, or in a GDL-II game its history); a
    /// remote one only the message.
    fn play(&mut self, message: &Message, clock: f64, m: &mut M, view: View<'_, M>, now: &dyn Fn() -> f64) -> Answer;
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

    fn tell(&mut self, message: &Message, _: f64) -> Answer {
        Ok(match message {
            Message::Start { .. } => "ready",
            Message::Abort { .. } => "aborted",
            _ => "done",
        }
        .into())
    }

    fn play(&mut self, _: &Message, clock: f64, m: &mut M, view: View<'_, M>, now: &dyn Fn() -> f64) -> Answer {
        self.seed = Rng::new(self.seed).next_u64();
        let spec = if matches!(view, View::History(_)) { for_hidden(self.spec) } else { self.spec };
        let d = think(spec, self.seed, m, view, clock * 0.9, now).map_err(|e| NoReply::Failed { why: e.message })?;
        Ok(m.move_text(d.chosen))
    }
}

/// A remote player in a seat: `post` sends it a message and returns its reply within `clock`
/// milliseconds, or why there is none (the caller's HTTP: the CLI's, the page's).
pub struct Remote<F> {
    pub url: String,
    pub post: F,
}

impl<M: StateMachine, F: FnMut(&Message, f64) -> Answer> Seat<M> for Remote<F> {
    fn name(&self) -> String {
        self.url.clone()
    }

    fn tell(&mut self, message: &Message, clock: f64) -> Answer {
        (self.post)(message, clock)
    }

    fn play(&mut self, message: &Message, clock: f64, _: &mut M, _: View<'_, M>, _: &dyn Fn() -> f64) -> Answer {
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
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Step {
    pub moves: Vec<String>,
    pub millis: Vec<f64>,
    /// GDL-II: what each role perceived with this joint move (none in a game without `sees`).
    pub percepts: Option<Vec<Vec<String>>>,
}

/// A player's failure: when (step 0 is the start; the step after the last is the stop),
/// which role, and what was done about it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Fault {
    pub step: usize,
    pub role: String,
    pub player: usize,
    pub message: String,
    /// Late, illegal, unreachable or failed (records written before kinds: failed).
    #[serde(default)]
    pub kind: FaultKind,
}

/// A line a player said for the record (a student's `log` in the page): at which step (as a
/// fault's), which role, what.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Said {
    pub step: usize,
    pub role: String,
    pub text: String,
}

/// A match as played.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
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
    /// Each role's goal value; `None` when the match was cut at the move limit (or aborted).
    pub goals: Option<Vec<i64>>,
    /// What the players said for the record, in order (none from players over HTTP).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub said: Vec<Said>,
}

/// A line of a match's log as the faces show it under the game: what a player said, or a
/// fault in the referee's words, at its step (as a fault's) and at the position the player
/// was in (0: the initial one; the stop: the last).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct Logged {
    pub step: usize,
    /// The step in words: "at the start", "at step 3", "at the stop".
    pub when: String,
    pub position: usize,
    pub role: String,
    pub fault: bool,
    pub text: String,
}

impl Record {
    /// What the players said and their faults, in the order of the steps (at each step, what
    /// was said before the fault), in a match over (a step past the last is the stop).
    pub fn log(&self) -> Vec<Logged> {
        let said = self.said.iter().map(|s| (s.step, &s.role, false, &s.text));
        let faults = self.faults.iter().map(|f| (f.step, &f.role, true, &f.message));
        let mut lines: Vec<Logged> = (said.chain(faults))
            .map(|(step, role, fault, text)| Logged {
                step,
                when: When::of_step(step, self.steps.len()).to_string(),
                position: step.saturating_sub(1).min(self.steps.len()),
                role: role.clone(),
                fault,
                text: text.clone(),
            })
            .collect();
        lines.sort_by_key(|l| (l.step, l.fault));
        lines
    }

    /// Its line as game number `g` (from 0) of a match, with core's verdict: "game 1: 9 moves, x
    /// wins (goals 100 0), 2 faults".
    pub fn summary(&self, g: usize) -> String {
        let nature: Vec<bool> = self.roles.iter().map(|r| is_nature(r)).collect();
        let result = crate::verdict::verdict_of_numbers(&self.roles, &nature, self.goals.as_deref()).text;
        let goals = match &self.goals {
            Some(goals) => format!(" (goals {})", goals.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" ")),
            None => String::new(),
        };
        let faults = match self.faults.len() {
            0 => "no fault".to_string(),
            1 => "1 fault".to_string(),
            n => format!("{n} faults"),
        };
        format!("game {}: {} moves, {result}{goals}, {faults}", g + 1, self.steps.len())
    }
}

/// A reply to PLAY judged: the move that stands (the reply's, or one played for the seat)
/// and, when the reply did not stand, the fault as the record says it.
pub struct Judged<Mv> {
    pub chosen: Mv,
    pub text: String,
    pub fault: Option<String>,
}

/// A match being refereed, step by step.
pub struct Match<M: StateMachine> {
    players: Vec<usize>,
    max_steps: usize,
    /// Draws the moves played for seats that fail.
    rng: Rng,
    state: M::State,
    /// GDL-II: whether roles are told percepts, and what each role knows.
    hidden: bool,
    histories: Vec<History<M::Move>>,
    /// What each role is told next (with PLAY or STOP).
    last: Vec<Last>,
    /// Whether each role's answer to START was judged (what it says next is said at a step).
    started: Vec<bool>,
    record: Record,
}

impl<M: StateMachine> Match<M> {
    /// A match on `m` between the seats named `names` (in role order), at its first position.
    pub fn new(m: &mut M, setup: &Setup, names: Vec<String>) -> Result<Self> {
        let roles = m.roles().to_vec();
        let record = Record {
            id: setup.id.to_string(),
            roles: roles.clone(),
            players: names,
            start_clock: setup.start_clock,
            play_clock: setup.play_clock,
            steps: Vec::new(),
            faults: Vec::new(),
            goals: None,
            said: Vec::new(),
        };
        let state = m.initial_state();
        let goals = if m.is_terminal(&state)? { Some(goal_numbers(m, &state)?) } else { None };
        Ok(Match {
            players: setup.players.clone(),
            max_steps: setup.max_steps,
            rng: Rng::new(setup.seed),
            hidden: defines_sees(m)?,
            histories: (0..roles.len()).map(History::new).collect(),
            last: vec![Last::Nothing; roles.len()],
            started: vec![false; roles.len()],
            state,
            record: Record { goals, ..record },
        })
    }

    /// The START for role `r` of a match on `description`.
    pub fn start_message(&self, r: usize, description: &Description) -> Message {
        let rec = &self.record;
        Message::start(&rec.id, &rec.roles[r], description, rec.start_clock, rec.play_clock)
    }

    /// Judges role `r`'s answer to START after `took` ms: the fault, if any (recorded).
    pub fn started(&mut self, r: usize, answer: Answer, took: f64) -> Option<String> {
        self.started[r] = true;
        let (kind, why) = judge_ready(answer, took, self.record.start_clock).err()?;
        Some(self.fault(When::Start, r, kind, why))
    }

    /// Whether the match is over: a terminal position, or the move limit reached.
    pub fn is_over(&self) -> bool {
        self.record.goals.is_some() || self.record.steps.len() >= self.max_steps
    }

    /// The PLAY for role `r` at the next step.
    pub fn play_message(&self, r: usize) -> Message {
        Message::Play { id: self.record.id.clone(), last: self.last[r].clone() }
    }

    /// What role `r` knows: the state, or in a GDL-II game (nature excepted) its history.
    pub fn view(&self, r: usize) -> View<'_, M> {
        if self.hidden && !is_nature(&self.record.roles[r]) {
            View::History(&self.histories[r])
        } else {
            View::State(&self.state, r)
        }
    }

    /// Judges role `r`'s answer to PLAY after `took` ms: its move, or one drawn for it from
    /// the match's generator with the fault recorded.
    pub fn answered(&mut self, m: &mut M, r: usize, answer: Answer, took: f64) -> Result<Judged<M::Move>> {
        let moves = legal(m, &self.state, r)?;
        let texts: Vec<String> = moves.iter().map(|&mv| m.move_text(mv)).collect();
        Ok(match judge(answer, took, self.record.play_clock, &texts) {
            Ok(k) => Judged { chosen: moves[k], text: texts[k].clone(), fault: None },
            Err((kind, why)) => {
                let k = self.rng.below(moves.len());
                let step = self.record.steps.len() + 1;
                let fault = self.fault(When::Step(step), r, kind, replaced(&why, &texts[k]));
                Judged { chosen: moves[k], text: texts[k].clone(), fault: Some(fault) }
            }
        })
    }

    /// Role `r`'s legal move whose canonical text is `text`, or why there is none.
    pub fn legal_move(&self, m: &mut M, r: usize, text: &str) -> Result<M::Move> {
        let moves = legal(m, &self.state, r)?;
        let found = moves.into_iter().find(|&mv| m.move_text(mv) == text);
        let (role, step) = (&self.record.roles[r], self.record.steps.len() + 1);
        found.ok_or_else(|| RuntimeError::new(format!("{text} is not a legal move of {role} at step {step}")))
    }

    /// Plays `joint` (one move per role, in role order), each answer having taken `millis`.
    pub fn advance(&mut self, m: &mut M, joint: &[M::Move], millis: Vec<f64>) -> Result<()> {
        let step = self.record.steps.len() + 1;
        self.last = told(m, &self.state, joint, step)?;
        for ((h, &mv), l) in self.histories.iter_mut().zip(joint).zip(&self.last) {
            if let Last::Percepts { percepts, .. } = l {
                h.push(mv, percepts.clone());
            }
        }
        self.state = m.next_state(&self.state, joint)?;
        let percepts = (self.last.iter())
            .map(|l| match l {
                Last::Percepts { percepts, .. } => Some(percepts.clone()),
                _ => None,
            })
            .collect();
        let moves = joint.iter().map(|&mv| m.move_text(mv)).collect();
        self.record.steps.push(Step { moves, millis, percepts });
        if m.is_terminal(&self.state)? {
            self.record.goals = Some(goal_numbers(m, &self.state)?);
        }
        Ok(())
    }

    /// The STOP for role `r` (what it is told of the last joint move).
    pub fn stop_message(&self, r: usize) -> Message {
        Message::Stop { id: self.record.id.clone(), last: self.last[r].clone() }
    }

    /// Judges role `r`'s answer to STOP: the fault, if any (recorded).
    pub fn stopped(&mut self, r: usize, answer: Answer) -> Option<String> {
        let why = answer.err()?;
        Some(self.fault(When::Stop, r, why.kind(), why.to_string()))
    }

    /// The ABORT of the match.
    pub fn abort_message(&self) -> Message {
        Message::Abort { id: self.record.id.clone() }
    }

    /// Keeps what role `r`'s player said (a student's log line) with the record, at the step
    /// of the message it answers: 0 before its START is judged, then the next joint move's
    /// (whose number the STOP also has).
    pub fn said(&mut self, r: usize, text: String) {
        let step = if self.started[r] { self.record.steps.len() + 1 } else { 0 };
        self.record.said.push(Said { step, role: self.record.roles[r].clone(), text });
    }

    /// The record so far.
    pub fn record(&self) -> &Record {
        &self.record
    }

    pub fn into_record(self) -> Record {
        self.record
    }

    /// Sends START to every seat and judges their answers.
    pub fn start(
        &mut self,
        seats: &mut [&mut dyn Seat<M>],
        description: &Description,
        now: &dyn Fn() -> f64,
        log: &mut dyn FnMut(&str),
    ) {
        let clock = self.record.start_clock * 1000.0;
        for (r, seat) in seats.iter_mut().enumerate() {
            let t = now();
            let answer = seat.tell(&self.start_message(r, description), clock);
            if let Some(fault) = self.started(r, answer, now() - t) {
                log(&fault);
            }
        }
    }

    /// Plays the next joint move: PLAY to every seat, each answer judged.
    pub fn step(
        &mut self,
        m: &mut M,
        seats: &mut [&mut dyn Seat<M>],
        now: &dyn Fn() -> f64,
        log: &mut dyn FnMut(&str),
    ) -> Result<()> {
        let clock = self.record.play_clock * 1000.0;
        let (mut joint, mut millis) = (Vec::new(), Vec::new());
        for (r, seat) in seats.iter_mut().enumerate() {
            let message = self.play_message(r);
            let t = now();
            let answer = seat.play(&message, clock, m, self.view(r), now);
            let took = now() - t;
            let judged = self.answered(m, r, answer, took)?;
            if let Some(fault) = &judged.fault {
                log(fault);
            }
            joint.push(judged.chosen);
            millis.push(took);
        }
        self.advance(m, &joint, millis)
    }

    /// Sends STOP to every seat.
    pub fn stop(&mut self, seats: &mut [&mut dyn Seat<M>], log: &mut dyn FnMut(&str)) {
        self.end(seats, log, |s, r| s.stop_message(r));
    }

    /// Sends ABORT to every seat: the match ends where it is.
    pub fn abort(&mut self, seats: &mut [&mut dyn Seat<M>], log: &mut dyn FnMut(&str)) {
        self.end(seats, log, |s, _| s.abort_message());
    }

    fn end(
        &mut self,
        seats: &mut [&mut dyn Seat<M>],
        log: &mut dyn FnMut(&str),
        message: impl Fn(&Self, usize) -> Message,
    ) {
        let clock = self.record.play_clock * 1000.0;
        for (r, seat) in seats.iter_mut().enumerate() {
            let answer = seat.tell(&message(self, r), clock);
            if let Some(fault) = self.stopped(r, answer) {
                log(&fault);
            }
        }
    }

    /// Records a fault of role `r` and returns it as the log says it.
    fn fault(&mut self, when: When, r: usize, kind: FaultKind, what: String) -> String {
        let rec = &mut self.record;
        let step = match when {
            When::Start => 0,
            When::Step(s) => s,
            When::Stop => rec.steps.len() + 1,
        };
        let message = fault_line(self.players[r], &rec.roles[r], when, &what);
        rec.faults.push(Fault {
            step,
            role: rec.roles[r].clone(),
            player: self.players[r],
            message: message.clone(),
            kind,
        });
        message
    }
}

/// Plays one match on `m` between `seats` (one per role, in role order): START, every joint
/// move, STOP. Every fault is also said to `log` as it happens.
pub fn referee<M: StateMachine>(
    m: &mut M,
    seats: &mut [&mut dyn Seat<M>],
    setup: &Setup,
    now: &dyn Fn() -> f64,
    log: &mut dyn FnMut(&str),
) -> Result<Record> {
    let mut game = Match::new(m, setup, seats.iter().map(|s| s.name()).collect())?;
    game.start(seats, setup.description, now, log);
    while !game.is_over() {
        game.step(m, seats, now, log)?;
    }
    game.stop(seats, log);
    Ok(game.into_record())
}

/// Each role's goal value in the terminal `state`.
fn goal_numbers<M: StateMachine>(m: &mut M, state: &M::State) -> Result<Vec<i64>> {
    Ok(m.goals(state)?.iter().map(|g| goal_number(g)).collect())
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
