//! The perfect player: the solver's best move (what the role can guarantee against best
//! play), ties drawn at random. Only for games the solver finishes within its node budget,
//! and not for GDL-II games (it would read what the roles do not see); otherwise an error
//! that says so.

use super::{legal, Decision, Player, View};
use crate::infoset::defines_sees;
use crate::machine::{Result, RuntimeError, StateMachine};
use crate::rng::Rng;
use crate::solve::{solve, Limit};
use std::hash::Hash;

/// States the perfect player may expand per move by default.
pub const DEFAULT_NODES: u64 = 2_000_000;

pub struct Perfect {
    rng: Rng,
    nodes: u64,
}

impl Perfect {
    pub fn new(seed: u64, nodes: u64) -> Perfect {
        Perfect { rng: Rng::new(seed), nodes }
    }
}

impl<M: StateMachine> Player<M> for Perfect
where
    M::State: Hash,
{
    fn choose(&mut self, m: &mut M, view: View<'_, M>, _: &dyn Fn() -> f64) -> Result<Decision<M::Move>> {
        let (View::State(state, role), false) = (view, defines_sees(m)?) else {
            return Err(RuntimeError::new(
                "the perfect player does not play GDL-II games: it would read the whole state, which the roles of \
                 this game do not see (it defines 'sees'); choose honest or random instead",
            ));
        };
        let moves = legal(m, state, role)?;
        if moves.len() == 1 {
            return Ok(Decision { chosen: moves[0], playouts: 0, expects: None });
        }
        let solution = solve(m, state, Limit::nodes(self.nodes))?;
        let name = &m.roles()[role];
        let values = solution.roles.iter().find(|v| &v.role == name).expect("a role with a choice is solved");
        let Some(best) = values.value else {
            let why = solution.stopped.unwrap_or_default();
            return Err(RuntimeError::new(format!(
                "the perfect player cannot play this game: solving the position stopped ({why}); it only plays \
                 games small enough to search to the end, so choose MCTS instead"
            )));
        };
        let texts: Vec<&str> =
            values.moves.iter().filter(|mv| mv.value == Some(best)).map(|mv| mv.text.as_str()).collect();
        let pick = texts[self.rng.below(texts.len())];
        let chosen = *moves.iter().find(|&&mv| m.move_text(mv) == pick).expect("the solver's moves are legal");
        Ok(Decision { chosen, playouts: 0, expects: Some(best as f64) })
    }
}
