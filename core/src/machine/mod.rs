//! The state-machine interface every engine implements: roles, initial state, legal moves,
//! next state, terminal test and goal values. Playouts (`playout`), traces and the page use only
//! this.
//!
//! Invariants: legal moves come sorted by the byte order of their canonical text (so that a
//! seeded random choice picks the same move in every engine); `state_text` is sorted too.

use crate::rng::Rng;
use playout::Outcome;
use serde::{Deserialize, Serialize};
use std::fmt;

pub mod factors;
pub mod playout;

/// A goal value: an integer as GDL intends, or the raw text of an ill-formed one.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum GoalValue {
    Int(i64),
    Text(String),
}

/// Why an engine could not answer: a limit was reached or the game misbehaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeError {
    pub message: String,
    /// The relation (name, arity) being computed when a limit was reached, if any.
    pub relation: Option<(String, usize)>,
}

impl RuntimeError {
    pub fn new(message: impl Into<String>) -> RuntimeError {
        RuntimeError { message: message.into(), relation: None }
    }
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RuntimeError {}

pub type Result<T> = std::result::Result<T, RuntimeError>;

pub trait StateMachine {
    type State: Clone + Eq;
    type Move: Copy + Eq;

    /// Role names in declaration order.
    fn roles(&self) -> &[String];
    fn initial_state(&self) -> Self::State;
    /// The legal moves of role number `role`, sorted by canonical text.
    fn legal_moves(&mut self, state: &Self::State, role: usize) -> Result<Vec<Self::Move>>;
    fn is_terminal(&mut self, state: &Self::State) -> Result<bool>;
    /// For each role, every value v such that `(goal role v)` holds, sorted.
    fn goals(&mut self, state: &Self::State) -> Result<Vec<Vec<GoalValue>>>;
    /// The state reached when each role plays its move of `joint` (in role order).
    fn next_state(&mut self, state: &Self::State, joint: &[Self::Move]) -> Result<Self::State>;
    /// GDL-II: what each role perceives when `joint` is played in `state`, the percepts `p`
    /// such that `(sees role p)` holds, per role in order as canonical texts sorted without
    /// duplicates; `None` when the game does not define `sees`. Computed only when asked:
    /// playouts never pay for it.
    fn percepts(&mut self, state: &Self::State, joint: &[Self::Move]) -> Result<Option<Vec<Vec<String>>>>;
    /// The fluents of a state as canonical text, sorted.
    fn state_text(&self, state: &Self::State) -> Vec<String>;
    fn move_text(&self, m: Self::Move) -> String;
    /// Which engine this is, for reports (`"reasoner"`, ...).
    fn engine_name(&self) -> &'static str;
    /// The game's independent subgames (`propnet::factors`), when the engine knows them.
    fn factors(&self) -> Option<&factors::Factors> {
        None
    }
    /// A random playout from the initial state as fast as the engine goes. An engine may
    /// replace this with its own (e.g. without allocating per step) that makes the same
    /// choices as `playout::step_playout`.
    fn playout(&mut self, rng: &mut Rng, max_steps: usize) -> Result<Outcome>
    where
        Self: Sized,
    {
        let init = self.initial_state();
        self.playout_from(&init, rng, max_steps)
    }
    /// A random playout from `state` (the players' simulations), with the choices of
    /// `playout::step_playout_from`; an engine may replace it with a faster one.
    fn playout_from(&mut self, state: &Self::State, rng: &mut Rng, max_steps: usize) -> Result<Outcome>
    where
        Self: Sized,
    {
        playout::step_playout_from(self, state, rng, max_steps)
    }
    /// `count` random playouts from the initial state: playout `j` is `playout` with the
    /// generator `playout::playout_rng` makes for it from `rng`. `each` hears of every outcome
    /// with its number, in the order they end: an engine may run several at once.
    fn playouts(
        &mut self,
        rng: &mut Rng,
        count: usize,
        max_steps: usize,
        each: &mut dyn FnMut(usize, &Outcome),
    ) -> Result<()>
    where
        Self: Sized,
    {
        let init = self.initial_state();
        self.playouts_from(&init, rng, count, max_steps, each)
    }
    /// `count` random playouts from `state`, as `playouts` runs them from the initial state
    /// (a student's player's simulations in bulk); an engine may run several at once.
    fn playouts_from(
        &mut self,
        state: &Self::State,
        rng: &mut Rng,
        count: usize,
        max_steps: usize,
        each: &mut dyn FnMut(usize, &Outcome),
    ) -> Result<()>
    where
        Self: Sized,
    {
        playout::one_at_a_time_from(self, state, rng, count, max_steps, each)
    }
}
