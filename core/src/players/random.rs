//! The random player: a uniformly drawn legal move. Shown a history (GDL-II), it finds its
//! legal moves in a state guessed from that history alone (`honest::Guesses`).

use super::honest::{Guesses, PARTICLES};
use super::{legal, Decision, Player, View};
use crate::machine::{Result, StateMachine};
use crate::rng::Rng;
use std::hash::Hash;

pub struct Random<M: StateMachine> {
    rng: Rng,
    guesses: Guesses<M>,
}

impl<M: StateMachine> Random<M> {
    pub fn new(seed: u64) -> Random<M> {
        Random { rng: Rng::new(seed), guesses: Guesses::new(PARTICLES) }
    }
}

impl<M: StateMachine> Player<M> for Random<M>
where
    M::State: Hash,
{
    fn choose(&mut self, m: &mut M, view: View<'_, M>, _: &dyn Fn() -> f64) -> Result<Decision<M::Move>> {
        let moves = match view {
            View::State(state, role) => legal(m, state, role)?,
            View::History(h) => {
                let guess = self.guesses.after(m, h, &mut self.rng)?[0].clone();
                legal(m, &guess, h.role)?
            }
        };
        Ok(Decision { chosen: moves[self.rng.below(moves.len())], playouts: 0, expects: None })
    }
}
