//! What one role knows at the current position of a game (GDL-II), as the page draws it: its
//! own moves and what it perceived after each, and its information set (`crate::infoset`)
//! summed up per fluent: in what share of the possible states each fluent holds (1: the role
//! is sure of it). A belief board is the ordinary board drawn from those shares.
//!
//! Invariant: computed from the role's history alone (`Game::history_of`), never from the
//! true state; the work is bounded by `limit` as `infoset::information_set` says.

use crate::infoset::{information_set, History};
use crate::machine::StateMachine;
use serde::Serialize;
use std::hash::Hash;

/// One step as a role lived it: the move it played, then what it perceived.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct KnownStep {
    #[serde(rename = "move")]
    pub played: String,
    /// What it perceived after the joint move (sorted texts; in a game without `sees`, every
    /// role's move).
    pub percepts: Vec<String>,
}

/// A fluent that holds in at least one possible state, and in what share of them.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Belief {
    pub fluent: String,
    /// Share of the possible states (of the sample, when sampled) that hold it, in (0, 1].
    pub share: f64,
}

/// What a role knows after the moves played so far.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Knowledge {
    pub role: String,
    /// Its steps, from the initial state to the current position.
    pub steps: Vec<KnownStep>,
    /// How many states it cannot tell from the true one: exact, or estimated when `sampled`.
    pub count: f64,
    /// `states` is a seeded sample of the possible states, `count` an estimate.
    pub sampled: bool,
    /// Every fluent of some possible state with its share, sorted by fluent.
    pub beliefs: Vec<Belief>,
    /// The possible states (or the sample), each its sorted fluents.
    pub states: Vec<Vec<String>>,
}

/// What a role knows after its history `h`: its information set exact up to `limit` states,
/// else sampled with `seed`.
pub fn knowledge<M: StateMachine>(
    m: &mut M,
    h: History<M::Move>,
    limit: usize,
    seed: u64,
) -> crate::machine::Result<Knowledge>
where
    M::State: Hash,
{
    let set = information_set(m, &h, limit, seed)?;
    let steps =
        h.moves.iter().zip(h.percepts).map(|(&x, percepts)| KnownStep { played: m.move_text(x), percepts }).collect();
    let texts: Vec<Vec<String>> = set.states.iter().map(|s| m.state_text(s)).collect();
    let mut held: std::collections::BTreeMap<&str, usize> = Default::default();
    for f in texts.iter().flatten() {
        *held.entry(f.as_str()).or_default() += 1;
    }
    let n = texts.len().max(1) as f64;
    let beliefs = held.into_iter().map(|(f, k)| Belief { fluent: f.to_string(), share: k as f64 / n }).collect();
    Ok(Knowledge {
        role: m.roles()[h.role].clone(),
        steps,
        count: set.estimate.unwrap_or(texts.len() as f64),
        sampled: set.estimate.is_some(),
        beliefs,
        states: texts,
    })
}
