//! The GGP protocol: how a referee (game manager) and players on other machines play a match
//! over HTTP, as GGP-Base, the Dresden GameController and the Stanford Gamemaster speak it.
//! This module is the protocol without the network: [`message`] reads and prints the
//! messages and replies, [`player`] is a player's side of one match (the position followed
//! from the referee's moves, a move chosen on the clock), [`referee`] runs a match between
//! seats that answer messages (players of our own, or remote ones reached by the caller) step
//! by step and records it, [`fault`] judges replies and words every fault (the HTTP faces
//! only say what happened, as a [`fault::NoReply`]), [`game`] seats the entrants of one game
//! of a match and names it, [`student`] gives a player written by a student its match to
//! search (states as numbers). The HTTP server and client
//! live in the CLI (`gdl player`, `gdl match`) and the page (`web/src/players/remote.ts`).
//!
//! GDL-II: a role gets its percepts instead of the joint move ([`message::Last`]); our players
//! play it from their role's history (the honest player).

pub mod fault;
pub mod game;
pub mod message;
pub mod player;
pub mod referee;
pub mod student;

use crate::machine::{Result, StateMachine};
use crate::players::{Decision, Spec, View};
use std::hash::Hash;

/// A move chosen from `view` (the state and a role, or a GDL-II role's history) by the
/// player `spec` thinking `millis` milliseconds at most (a budget in playouts stops there too).
pub fn think<M: StateMachine + 'static>(
    spec: Spec,
    seed: u64,
    m: &mut M,
    view: View<'_, M>,
    millis: f64,
    now: &dyn Fn() -> f64,
) -> Result<Decision<M::Move>>
where
    M::State: Hash,
{
    spec.within(millis.max(0.0)).player(seed).choose(m, view, now)
}

/// The player a GDL-II game is played with when `spec` cannot play from a history: `mc` and
/// `uct` become the honest player with the same budget (`perfect`, with its default one).
pub fn for_hidden(spec: Spec) -> Spec {
    match spec {
        Spec::Flat(b) | Spec::Uct(b) | Spec::FactoredUct(b) => Spec::Honest(b),
        Spec::Perfect => Spec::parse("honest").expect("a spec"),
        s => s,
    }
}

#[cfg(test)]
mod tests;
