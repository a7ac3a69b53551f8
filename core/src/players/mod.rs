//! Computer players: given a state and a role, choose a legal move. One trait, [`Player`],
//! for every kind: [`random`] (uniform), [`flat`] (flat Monte Carlo: random playouts after
//! each move of the role), [`uct`] (Monte Carlo tree search with UCB1; decoupled for
//! simultaneous moves, each role keeping its own statistics per node) and [`perfect`] (the
//! solver of `solve/`, for games small enough to search to the end; otherwise it says so).
//! [`arena`] plays games and matches between players and tallies the results.
//!
//! Players run on any `StateMachine`; the propositional network is the fast one. They are
//! seeded: with a budget in playouts, the same seed gives the same moves. Core reads no
//! clock, so a budget in time reads the caller's (`now`, milliseconds).

pub mod arena;
pub mod flat;
pub mod honest;
pub mod perfect;
pub mod random;
pub mod spec;
pub mod uct;

pub use spec::{Budget, Spec};

use crate::machine::{GoalValue, Result, RuntimeError, StateMachine};
use crate::solve::goal_number;

/// Longest random playout a player simulates (joint moves); one cut there counts as a draw.
pub const PLAYOUT_MAX_STEPS: usize = 1000;

/// A chosen move and what the player knows about it.
#[derive(Clone, Debug)]
pub struct Decision<Mv> {
    pub chosen: Mv,
    /// Random playouts run to choose it.
    pub playouts: u64,
    /// The goal value the player expects from it (0..100), when it has an estimate.
    pub expects: Option<f64>,
}

/// A computer player for one role.
pub trait Player<M: StateMachine> {
    /// A legal move of `role` in `state`, which is not terminal. `now` gives milliseconds
    /// (read only by budgets in time).
    fn choose(&mut self, m: &mut M, state: &M::State, role: usize, now: &dyn Fn() -> f64) -> Result<Decision<M::Move>>;
}

/// The legal moves of `role`, or an error saying it has none.
pub fn legal<M: StateMachine>(m: &mut M, state: &M::State, role: usize) -> Result<Vec<M::Move>> {
    let moves = m.legal_moves(state, role)?;
    if moves.is_empty() {
        return Err(RuntimeError::new(format!("{} has no legal move here, so it cannot play", m.roles()[role])));
    }
    Ok(moves)
}

/// Goal values as scores between 0 and 1 (a role without an integer goal scores 0).
pub fn scores(goals: &[Vec<GoalValue>]) -> Vec<f64> {
    goals.iter().map(|g| goal_number(g) as f64 / 100.0).collect()
}

/// Each role's score after a random playout from `state`; a playout cut at
/// `PLAYOUT_MAX_STEPS` scores 0.5 for everyone.
pub fn simulate<M: StateMachine>(m: &mut M, state: &M::State, rng: &mut crate::rng::Rng) -> Result<Vec<f64>> {
    let outcome = m.playout_from(state, rng, PLAYOUT_MAX_STEPS)?;
    Ok(match outcome.goals {
        Some(goals) => scores(&goals),
        None => vec![0.5; m.roles().len()],
    })
}

#[cfg(test)]
mod tests;
