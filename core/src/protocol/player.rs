//! A player's side of one match: its role, the position followed step by step from the
//! joint moves the referee sends, and a move chosen within the time it is given.

use super::message::Last;
use super::think;
use crate::machine::StateMachine;
use crate::path::move_named;
use crate::players::{legal, Spec};
use crate::rng::Rng;
use crate::solve::goal_number;
use std::hash::Hash;

/// One match as a player sees it.
pub struct Match<M: StateMachine> {
    pub id: String,
    pub role: usize,
    /// Joint moves played so far.
    pub step: usize,
    m: M,
    state: M::State,
    spec: Spec,
    rng: Rng,
}

/// A move chosen, and what went wrong choosing it (the player failed, so a random legal
/// move stands in).
pub struct Choice {
    pub text: String,
    pub playouts: u64,
    pub trouble: Option<String>,
}

impl<M: StateMachine + 'static> Match<M>
where
    M::State: Hash,
{
    /// The match `id` on the game `m`, playing `role`.
    pub fn new(id: &str, role: &str, m: M, spec: Spec, seed: u64) -> Result<Match<M>, String> {
        let Some(r) = m.roles().iter().position(|x| x == role) else {
            return Err(format!("role '{role}' is not in the game: its roles are {}", m.roles().join(", ")));
        };
        let state = m.initial_state();
        Ok(Match { id: id.to_string(), role: r, step: 0, m, state, spec, rng: Rng::new(seed) })
    }

    pub fn roles(&self) -> &[String] {
        self.m.roles()
    }

    /// Plays the referee's last joint move (`Nothing` before the first move).
    pub fn advance(&mut self, last: &Last) -> Result<(), String> {
        let moves = match last {
            Last::Nothing if self.step == 0 => return Ok(()),
            Last::Nothing => return Err(format!("NIL as the last moves, but {} moves have been played", self.step)),
            Last::Moves(moves) => moves,
        };
        let roles = self.m.roles().to_vec();
        if moves.len() != roles.len() {
            return Err(format!("{} moves for {} roles", moves.len(), roles.len()));
        }
        if self.is_over() {
            return Err("moves after the end of the game".into());
        }
        let mut joint = Vec::new();
        for (r, text) in moves.iter().enumerate() {
            let legal = self.m.legal_moves(&self.state, r).map_err(|e| e.message)?;
            let Some(mv) = move_named(&self.m, &legal, text) else {
                return Err(format!("{text} is not a legal move of {} at step {}", roles[r], self.step + 1));
            };
            joint.push(mv);
        }
        self.state = self.m.next_state(&self.state, &joint).map_err(|e| e.message)?;
        self.step += 1;
        Ok(())
    }

    /// Whether the position is terminal (an engine error counts as over).
    pub fn is_over(&mut self) -> bool {
        self.m.is_terminal(&self.state).unwrap_or(true)
    }

    /// Each role's goal value when the game is over.
    pub fn goals(&mut self) -> Option<Vec<i64>> {
        if !self.is_over() {
            return None;
        }
        self.m.goals(&self.state).ok().map(|g| g.iter().map(|v| goal_number(v)).collect())
    }

    /// A legal move thinking `millis` milliseconds at most; when the player fails, a random
    /// legal move and why.
    pub fn choose(&mut self, millis: f64, now: &dyn Fn() -> f64) -> Result<Choice, String> {
        if self.is_over() {
            return Err("the game is over: there is no move to make".into());
        }
        let seed = self.rng.next_u64();
        match think(self.spec, seed, &mut self.m, &self.state, self.role, millis, now) {
            Ok(d) => Ok(Choice { text: self.m.move_text(d.chosen), playouts: d.playouts, trouble: None }),
            Err(e) => {
                let moves = legal(&mut self.m, &self.state, self.role).map_err(|e| e.message)?;
                let mv = moves[self.rng.below(moves.len())];
                Ok(Choice { text: self.m.move_text(mv), playouts: 0, trouble: Some(e.message) })
            }
        }
    }
}
