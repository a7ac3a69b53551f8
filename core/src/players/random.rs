//! The random player: a uniformly drawn legal move.

use super::{legal, Decision, Player};
use crate::machine::{Result, StateMachine};
use crate::rng::Rng;

pub struct Random {
    rng: Rng,
}

impl Random {
    pub fn new(seed: u64) -> Random {
        Random { rng: Rng::new(seed) }
    }
}

impl<M: StateMachine> Player<M> for Random {
    fn choose(&mut self, m: &mut M, state: &M::State, role: usize, _: &dyn Fn() -> f64) -> Result<Decision<M::Move>> {
        let moves = legal(m, state, role)?;
        Ok(Decision { chosen: moves[self.rng.below(moves.len())], playouts: 0, expects: None })
    }
}
