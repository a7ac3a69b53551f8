//! What a random playout is: its outcome, the generator each playout of a series gets, and
//! a playout stepped through the state-machine interface (which every engine's own faster
//! playouts must match, choice for choice).

use super::{GoalValue, Result, RuntimeError, StateMachine};
use crate::rng::Rng;
use std::ops::Deref;
use std::sync::Arc;

/// Fails when the game has no roles: nobody can play it.
pub(crate) fn need_roles(m: &impl StateMachine) -> Result<()> {
    if m.roles().is_empty() {
        return Err(RuntimeError::new("the game has no roles, so nobody can play it: add facts like (role white)"));
    }
    Ok(())
}

/// The outcome of a playout without recording: joint moves made and goals (if terminal);
/// `stuck`: the role that had no legal move where the playout stopped (a state that is not
/// terminal), if it stopped so.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub length: usize,
    pub goals: Option<Goals>,
    pub stuck: Option<usize>,
}

/// Every role's goal values where a playout ended, shared and never changed: an engine may
/// hand out the same `Goals` for every playout that ends alike, and counting them
/// (`Stats::add`) then knows them by their address, without comparing values.
#[derive(Clone, Debug)]
pub struct Goals(Arc<[Vec<GoalValue>]>);

impl Goals {
    pub fn new(goals: Vec<Vec<GoalValue>>) -> Goals {
        Goals(goals.into())
    }

    /// Whether both are the same shared values (then they are equal; equal values may
    /// still be two `Goals`).
    pub fn same(&self, other: &Goals) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Deref for Goals {
    type Target = [Vec<GoalValue>];
    fn deref(&self) -> &[Vec<GoalValue>] {
        &self.0
    }
}

impl PartialEq for Goals {
    fn eq(&self, other: &Goals) -> bool {
        self.same(other) || self.0 == other.0
    }
}

impl PartialEq<Vec<Vec<GoalValue>>> for Goals {
    fn eq(&self, other: &Vec<Vec<GoalValue>>) -> bool {
        *self.0 == **other
    }
}

impl Outcome {
    /// A playout cut after `length` joint moves.
    pub fn cut(length: usize) -> Outcome {
        Outcome { length, goals: None, stuck: None }
    }

    /// A playout that ended in a terminal state.
    pub fn ended(length: usize, goals: Goals) -> Outcome {
        Outcome { length, goals: Some(goals), stuck: None }
    }

    /// A playout stopped where role `role` had no legal move.
    pub fn stuck(length: usize, role: usize) -> Outcome {
        Outcome { length, goals: None, stuck: Some(role) }
    }
}

/// The generator of the next playout of a series: seeded with the next draw of the series'
/// generator, so that playout `j` of a series is the same whether the playouts run one after
/// another or several at once (`StateMachine::playouts`).
pub fn playout_rng(series: &mut Rng) -> Rng {
    Rng::new(series.next_u64())
}

/// A random playout through the state-machine interface, step by step: same choices as
/// `trace::record_playout`, without recording.
pub fn step_playout<M: StateMachine>(m: &mut M, rng: &mut Rng, max_steps: usize) -> Result<Outcome> {
    let init = m.initial_state();
    step_playout_from(m, &init, rng, max_steps)
}

/// `step_playout` from any state: `length` counts the joint moves played from there.
pub fn step_playout_from<M: StateMachine>(
    m: &mut M,
    state: &M::State,
    rng: &mut Rng,
    max_steps: usize,
) -> Result<Outcome> {
    need_roles(m)?;
    let mut state = state.clone();
    let mut joint = Vec::with_capacity(m.roles().len());
    for length in 0..=max_steps {
        if m.is_terminal(&state)? {
            return Ok(Outcome::ended(length, Goals::new(m.goals(&state)?)));
        }
        if length == max_steps {
            break;
        }
        joint.clear();
        for r in 0..m.roles().len() {
            let ms = m.legal_moves(&state, r)?;
            if ms.is_empty() {
                return Ok(Outcome::stuck(length, r));
            }
            joint.push(ms[rng.below(ms.len())]);
        }
        state = m.next_state(&state, &joint)?;
    }
    Ok(Outcome::cut(max_steps))
}

/// `count` random playouts from `state`, one after the other, as `StateMachine::playouts_from`
/// defines them.
pub fn one_at_a_time_from<M: StateMachine>(
    m: &mut M,
    state: &M::State,
    rng: &mut Rng,
    count: usize,
    max_steps: usize,
    each: &mut dyn FnMut(usize, &Outcome),
) -> Result<()> {
    for j in 0..count {
        each(j, &m.playout_from(state, &mut playout_rng(rng), max_steps)?);
    }
    Ok(())
}
