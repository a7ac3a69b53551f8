//! The random player: a uniformly drawn legal move. Shown a history (GDL-II), it finds its
//! legal moves in a state guessed from that history alone (`honest::particles`).

use super::honest::{particles, PARTICLES};
use super::{legal, Decision, Player, View};
use crate::machine::{Result, StateMachine};
use crate::rng::Rng;
use std::hash::Hash;

pub struct Random {
    rng: Rng,
}

impl Random {
    pub fn new(seed: u64) -> Random {
        Random { rng: Rng::new(seed) }
    }
}

impl<M: StateMachine> Player<M> for Random
where
    M::State: Hash,
{
    fn choose(&mut self, m: &mut M, view: View<'_, M>, _: &dyn Fn() -> f64) -> Result<Decision<M::Move>> {
        let moves = match view {
            View::State(state, role) => legal(m, state, role)?,
            View::History(h) => {
                let guess = particles(m, h, PARTICLES, &mut self.rng)?;
                legal(m, &guess[0], h.role)?
            }
        };
        Ok(Decision { chosen: moves[self.rng.below(moves.len())], playouts: 0, expects: None })
    }
}
