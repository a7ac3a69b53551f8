//! An honest player for GDL-II: it chooses from its history alone (its own moves and its
//! percepts, `crate::infoset::History`), never from the true state. It guesses states the game
//! may be in by replaying its history with random moves for the others (particles that
//! perceive what it perceived survive, so a state reached more likely is drawn more often —
//! in Monty Hall the car is twice as likely behind the other door), then runs flat Monte Carlo
//! from them (determinised search, as HyperPlay does). Deterministic per seed.
//!
//! Invariant: `choose` takes no state: two true games that give the role the same history
//! give the same move.

use super::{simulate, Decision};
use crate::infoset::{information_set, observe, History};
use crate::machine::{Result, RuntimeError, StateMachine};
use crate::rng::Rng;
use std::hash::Hash;

/// Attempts per particle wanted before giving up on rejection and using the information set.
const TRIES_PER_PARTICLE: usize = 50;

pub struct Honest {
    rng: Rng,
    /// States guessed per decision.
    particles: usize,
    /// Random playouts per decision, shared among the moves.
    playouts: usize,
}

impl Honest {
    pub fn new(seed: u64, particles: usize, playouts: usize) -> Honest {
        Honest { rng: Rng::new(seed), particles: particles.max(1), playouts: playouts.max(1) }
    }

    /// The move of the role of `h` after its history `h` (of a game that is not over).
    pub fn choose<M: StateMachine>(&mut self, m: &mut M, h: &History<M::Move>) -> Result<Decision<M::Move>>
    where
        M::State: Hash,
    {
        let guesses = self.guess(m, h)?;
        let role = h.role;
        // Moves legal in every guess (the role knows its own moves in the true state).
        let mut moves = m.legal_moves(&guesses[0], role)?;
        for s in &guesses[1..] {
            let here = m.legal_moves(s, role)?;
            moves.retain(|x| here.contains(x));
        }
        if moves.is_empty() {
            return Err(RuntimeError::new(format!(
                "{} has no move legal in every state it thinks possible",
                m.roles()[role]
            )));
        }
        let per_move = (self.playouts / moves.len()).max(1);
        let mut best: Option<(f64, M::Move)> = None;
        for &mv in &moves {
            let mut total = 0.0;
            for k in 0..per_move {
                let s = &guesses[k % guesses.len()];
                let joint = self.joint_with(m, s, role, mv)?;
                let next = m.next_state(s, &joint)?;
                total += simulate(m, &next, &mut self.rng)?[role];
            }
            let mean = total / per_move as f64;
            if best.is_none_or(|(b, _)| mean > b) {
                best = Some((mean, mv));
            }
        }
        let (mean, chosen) = best.expect("at least one move");
        Ok(Decision { chosen, playouts: (per_move * moves.len()) as u64, expects: Some(100.0 * mean) })
    }

    /// States the game may be in, drawn as likely as random play by the others makes them.
    fn guess<M: StateMachine>(&mut self, m: &mut M, h: &History<M::Move>) -> Result<Vec<M::State>>
    where
        M::State: Hash,
    {
        let mut particles = vec![m.initial_state()];
        for (&own, seen) in h.moves.iter().zip(&h.percepts) {
            let mut next = Vec::new();
            let tries = self.particles * TRIES_PER_PARTICLE;
            for t in 0..tries {
                if next.len() == self.particles {
                    break;
                }
                let s = &particles[t % particles.len()];
                if m.is_terminal(s)? || !m.legal_moves(s, h.role)?.contains(&own) {
                    continue;
                }
                let joint = self.joint_with(m, s, h.role, own)?;
                if observe(m, s, &joint, h.role)? == *seen {
                    next.push(m.next_state(s, &joint)?);
                }
            }
            if next.is_empty() {
                // Percepts too rare for random guesses: the information set (a seeded sample).
                let set = information_set(m, h, self.particles, self.rng.next_u64())?;
                if set.states.is_empty() {
                    return Err(RuntimeError::new("no state of the game is consistent with this history"));
                }
                return Ok(set.states);
            }
            particles = next;
        }
        Ok(particles)
    }

    /// A joint move in `s` where `role` plays `own` and the others a random legal move.
    fn joint_with<M: StateMachine>(
        &mut self,
        m: &mut M,
        s: &M::State,
        role: usize,
        own: M::Move,
    ) -> Result<Vec<M::Move>> {
        let mut joint = Vec::new();
        for r in 0..m.roles().len() {
            if r == role {
                joint.push(own);
            } else {
                let moves = super::legal(m, s, r)?;
                joint.push(moves[self.rng.below(moves.len())]);
            }
        }
        Ok(joint)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::infoset::history;
    use crate::path::{parse_path, play};

    /// Honesty: the car behind door 1 or behind door 2, the candidate sees the same (it chose
    /// door 1, door 3 was opened): the same history, so the same choice, whichever is true.
    /// And it has learnt to switch.
    #[test]
    fn same_history_same_choice_and_it_switches() {
        let mut m = crate::shared::gdl2_reasoner("montyhall");
        let mut chosen = Vec::new();
        let mut truths = Vec::new();
        for car in ["(hide_car 1)", "(hide_car 2)"] {
            let path = parse_path(&format!("(choose 1), {car}; noop, (open_door 3)")).unwrap();
            let (states, joints) = play(&mut m, &path).unwrap();
            let h = history(&mut m, 0, &states, &joints).unwrap();
            let d = Honest::new(11, 60, 600).choose(&mut m, &h).unwrap();
            chosen.push(m.move_text(d.chosen));
            truths.push(states[2].clone());
        }
        assert_ne!(truths[0], truths[1]);
        assert_eq!(chosen, ["switch", "switch"]);
    }

    /// Deterministic per seed.
    #[test]
    fn same_seed_same_decision() {
        let mut m = crate::shared::gdl2_reasoner("kriegTTT_4x4");
        let (states, joints) = play(&mut m, &parse_path("(mark 1 1), (mark 2 2)").unwrap()).unwrap();
        let h = history(&mut m, 1, &states, &joints).unwrap();
        let a = Honest::new(3, 20, 100).choose(&mut m, &h).unwrap();
        let b = Honest::new(3, 20, 100).choose(&mut m, &h).unwrap();
        assert_eq!((a.chosen, a.expects), (b.chosen, b.expects));
    }
}
