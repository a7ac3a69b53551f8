//! The GGP protocol: how a referee (game manager) and players on other machines play a match
//! over HTTP, as GGP-Base, the Dresden GameController and the Stanford Gamemaster speak it.
//! This module is the protocol without the network: [`message`] reads and prints the
//! messages and replies, [`player`] is a player's side of one match (the position followed
//! from the referee's moves, a move chosen on the clock), [`referee`] runs a match between
//! seats that answer messages (players of our own, or remote ones reached by the caller) and
//! records it. The HTTP server and client live in the CLI (`gdl player`, `gdl match`).
//!
//! GDL-II (percepts instead of joint moves) slots in as one more kind of [`message::Last`].

pub mod message;
pub mod player;
pub mod referee;

use crate::machine::{Result, StateMachine};
use crate::players::{Decision, Spec, View};
use std::hash::Hash;

/// A move of `role` in `state` by the player `spec` thinking `millis` milliseconds at most
/// (a budget in playouts stops there too).
pub fn think<M: StateMachine + 'static>(
    spec: Spec,
    seed: u64,
    m: &mut M,
    state: &M::State,
    role: usize,
    millis: f64,
    now: &dyn Fn() -> f64,
) -> Result<Decision<M::Move>>
where
    M::State: Hash,
{
    spec.within(millis.max(0.0)).player(seed).choose(m, View::State(state, role), now)
}

#[cfg(test)]
mod tests;
