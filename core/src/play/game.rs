//! The history of one game: the positions visited from the initial state, the joint moves
//! that led there (as text), and a cursor that undo, redo and go-to move.
//!
//! Invariant: `states[0]` is the initial state, `joints[i]` leads from `states[i]` to
//! `states[i + 1]`, and `cursor < states.len()`; positions after the cursor are the redo
//! history, dropped when another move is played.

use super::position::Position;
use crate::infoset::{observe, History};
use crate::machine::StateMachine;
use crate::path::move_named;

/// A game played on the machine `M`, with its history.
pub struct Game<M: StateMachine> {
    machine: M,
    states: Vec<M::State>,
    joints: Vec<Vec<String>>,
    cursor: usize,
}

impl<M: StateMachine> Game<M> {
    /// The game at its initial state, with no history.
    pub fn new(machine: M) -> Game<M> {
        let states = vec![machine.initial_state()];
        Game { machine, states, joints: Vec::new(), cursor: 0 }
    }

    pub fn machine(&self) -> &M {
        &self.machine
    }

    /// The machine and the current state, to ask the machine about it.
    pub fn here(&mut self) -> (&mut M, &M::State) {
        (&mut self.machine, &self.states[self.cursor])
    }

    /// Joint moves played to reach the current position.
    pub fn step(&self) -> usize {
        self.cursor
    }

    /// Every joint move of the history, including those after the cursor that redo replays.
    pub fn history(&self) -> &[Vec<String>] {
        &self.joints
    }

    /// The joint moves that lead from the initial state to the current position.
    pub fn played(&self) -> &[Vec<String>] {
        &self.joints[..self.cursor]
    }

    /// The current position: its fluents, legal moves, whether it is terminal, its goals.
    pub fn position(&mut self) -> Result<Position, String> {
        let (m, state) = self.here();
        Position::of(m, state).map_err(|e| e.message)
    }

    /// Plays one joint move (a move text per role, in role order) from the current position;
    /// the redo history is dropped.
    pub fn play(&mut self, joint: &[String]) -> Result<(), String> {
        let (m, state) = self.here();
        let roles = m.roles().to_vec();
        if joint.len() != roles.len() {
            return Err(format!("a joint move needs one move per role ({}), got {}", roles.len(), joint.len()));
        }
        if m.is_terminal(state).map_err(|e| e.message)? {
            return Err("the game is over: no more moves can be played".into());
        }
        let moves = joint_named(m, state, joint)?;
        let next = m.next_state(state, &moves).map_err(|e| e.message)?;
        self.states.truncate(self.cursor + 1);
        self.joints.truncate(self.cursor);
        self.states.push(next);
        self.joints.push(joint.to_vec());
        self.cursor += 1;
        Ok(())
    }

    /// Goes back to the initial state, drops the history and plays `moves` while they are
    /// legal and `time_up` says no; returns how many were played.
    pub fn replay(&mut self, moves: &[Vec<String>], time_up: &dyn Fn() -> bool) -> usize {
        self.states.truncate(1);
        self.joints.clear();
        self.cursor = 0;
        for (i, joint) in moves.iter().enumerate() {
            if time_up() || self.play(joint).is_err() {
                return i;
            }
        }
        moves.len()
    }

    /// What `role` has seen up to the current position: its moves and, after each, its
    /// percepts (GDL-II; in a game without `sees`, every joint move).
    pub fn history_of(&mut self, role: usize) -> Result<History<M::Move>, String> {
        let mut h = History::new(role);
        for (state, texts) in self.states.iter().zip(&self.joints[..self.cursor]) {
            let joint = joint_named(&mut self.machine, state, texts)?;
            let seen = observe(&mut self.machine, state, &joint, role).map_err(|e| e.message)?;
            h.push(joint[role], seen);
        }
        Ok(h)
    }

    pub fn undo(&mut self) -> Result<(), String> {
        self.cursor = self.cursor.checked_sub(1).ok_or("nothing to undo: this is the initial state")?;
        Ok(())
    }

    pub fn redo(&mut self) -> Result<(), String> {
        if self.cursor + 1 >= self.states.len() {
            return Err("nothing to redo".into());
        }
        self.cursor += 1;
        Ok(())
    }

    /// Moves to the position after `step` joint moves of the history (0: initial state).
    pub fn go_to(&mut self, step: usize) -> Result<(), String> {
        if step >= self.states.len() {
            return Err(format!("step {step} is beyond the history ({} moves)", self.states.len() - 1));
        }
        self.cursor = step;
        Ok(())
    }
}

/// The moves named by `texts` (one per role, in role order), each legal in `state`.
fn joint_named<M: StateMachine>(m: &mut M, state: &M::State, texts: &[String]) -> Result<Vec<M::Move>, String> {
    let mut moves = Vec::with_capacity(texts.len());
    for (r, text) in texts.iter().enumerate() {
        let legal = m.legal_moves(state, r).map_err(|e| e.message)?;
        match move_named(m, &legal, text) {
            Some(x) => moves.push(x),
            None => return Err(format!("{text} is not a legal move for {} here", m.roles()[r])),
        }
    }
    Ok(moves)
}
