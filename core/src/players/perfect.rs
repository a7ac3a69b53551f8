//! The perfect player: the solver's best move (what the role can guarantee against best
//! play), ties drawn at random. Only for games the solver finishes within its limit (states
//! and time, so that it answers or refuses at once), and not for GDL-II games (it would read
//! what the roles do not see); otherwise an error that says so, in the catalogue's words,
//! with the size of the game tree.

use super::catalogue::reads_the_true_state;
use super::{legal, Decision, Player, View};
use crate::infoset::defines_sees;
use crate::machine::{Result, RuntimeError, StateMachine};
use crate::rng::Rng;
use crate::solve::{solve, Limit};
use std::hash::Hash;

/// States the perfect player may expand per move by default.
pub const DEFAULT_NODES: u64 = 2_000_000;

/// Milliseconds the perfect player searches a move at most, by default (the estimate of the
/// tree's size that its refusal gives takes at most 150 more): a seat answers or refuses
/// within 2 s.
pub const DEFAULT_MILLIS: f64 = 1000.0;

pub struct Perfect {
    rng: Rng,
    nodes: u64,
    millis: f64,
}

impl Perfect {
    pub fn new(seed: u64, nodes: u64, millis: f64) -> Perfect {
        Perfect { rng: Rng::new(seed), nodes, millis }
    }
}

impl<M: StateMachine> Player<M> for Perfect
where
    M::State: Hash,
{
    fn choose(&mut self, m: &mut M, view: View<'_, M>, now: &dyn Fn() -> f64) -> Result<Decision<M::Move>> {
        let (View::State(state, role), false) = (view, defines_sees(m)?) else {
            return Err(RuntimeError::new(reads_the_true_state("the perfect player")));
        };
        let moves = legal(m, state, role)?;
        if moves.len() == 1 {
            return Ok(Decision { chosen: moves[0], playouts: 0, expects: None });
        }
        let solution = solve(m, state, Limit { nodes: self.nodes, time: Some((self.millis, now)) })?;
        let name = &m.roles()[role];
        let values = solution.roles.iter().find(|v| &v.role == name).expect("a role with a choice is solved");
        let Some(best) = values.value else {
            let why = solution.stopped.unwrap_or_default();
            return Err(RuntimeError::new(format!(
                "the perfect player cannot play this game: solving it stopped when {why}; it only plays games \
                 small enough to search to the end within {} s a move, so choose MCTS instead",
                self.millis / 1000.0
            )));
        };
        let texts: Vec<&str> =
            values.moves.iter().filter(|mv| mv.value == Some(best)).map(|mv| mv.text.as_str()).collect();
        let pick = texts[self.rng.below(texts.len())];
        let chosen = *moves.iter().find(|&&mv| m.move_text(mv) == pick).expect("the solver's moves are legal");
        Ok(Decision { chosen, playouts: 0, expects: Some(best as f64) })
    }
}
