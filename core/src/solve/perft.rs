//! Depth-limited node counts, like the "perft" of chess programs: how many lines of play of
//! each length start at the initial state. A checksum of an engine's legal moves and next
//! states that another engine (the first-order reasoner) can confirm.

use super::every_joint;
use crate::machine::{Result, StateMachine};
use serde::Serialize;

/// Counts per depth k = 0..=depth.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Perft {
    /// Lines of play of exactly k joint moves (positions reached, with repetitions).
    pub nodes: Vec<u64>,
    /// Those of them that end in a terminal state.
    pub terminal: Vec<u64>,
}

/// Counts the lines of play of up to `depth` joint moves from the initial state.
pub fn perft<M: StateMachine>(m: &mut M, depth: usize) -> Result<Perft> {
    let mut p = Perft { nodes: vec![0; depth + 1], terminal: vec![0; depth + 1] };
    let s = m.initial_state();
    walk(m, &s, 0, depth, &mut p)?;
    Ok(p)
}

fn walk<M: StateMachine>(m: &mut M, s: &M::State, k: usize, depth: usize, p: &mut Perft) -> Result<()> {
    p.nodes[k] += 1;
    if m.is_terminal(s)? {
        p.terminal[k] += 1;
        return Ok(());
    }
    if k == depth {
        return Ok(());
    }
    let legal: Vec<Vec<M::Move>> = (0..m.roles().len()).map(|r| m.legal_moves(s, r)).collect::<Result<_>>()?;
    for joint in every_joint(&legal) {
        let next = m.next_state(s, &joint)?;
        walk(m, &next, k + 1, depth, p)?;
    }
    Ok(())
}
