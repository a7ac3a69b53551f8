//! What a role knows (GDL-II): its history — its own move at each step and what it perceived
//! after it — and its information set, the states it cannot tell apart from the true one: every
//! state reached by a line of play where the role played its own moves (legal there) and
//! perceived the same things, the other roles playing any legal moves.
//!
//! In a game without `sees` every role perceives the whole joint move (GDL's perfect
//! information), so the information set is the true state alone.
//!
//! Invariant: the information set is computed from the history only, never from the true
//! states. Each step tries at most `TRIES_PER_STATE × limit` joint moves in all (shared among
//! the states kept): it is exact while it holds at most `limit` states and every joint move
//! could be tried; beyond, it is a seeded sample of `limit` states (the same for the same seed)
//! with an estimate of the size, and `InfoSet::estimate` says so. Nothing grows past those
//! bounds, whatever the game.

use crate::machine::{Result, RuntimeError, StateMachine};
use crate::rng::Rng;
use rustc_hash::FxHashSet;
use std::hash::Hash;

/// Joint moves a step may try per state of the limit.
pub const TRIES_PER_STATE: usize = 16;

/// A role's own view of a game: its moves and, after each, its percepts.
#[derive(Clone, Debug, PartialEq)]
pub struct History<Mv> {
    pub role: usize,
    /// Its move at each step.
    pub moves: Vec<Mv>,
    /// What it perceived after each step (sorted texts).
    pub percepts: Vec<Vec<String>>,
}

/// The states consistent with a history.
#[derive(Clone, Debug)]
pub struct InfoSet<S> {
    /// Every consistent state (exact), or a seeded sample of them.
    pub states: Vec<S>,
    /// `None` when `states` is the whole information set; else the estimated number of
    /// consistent states, of which `states` is a sample.
    pub estimate: Option<f64>,
    /// Distinct consistent states found at the last step before sampling: a lower bound of
    /// the information set's size (its size when exact).
    pub seen: usize,
}

impl<Mv> History<Mv> {
    /// A role's history before the first move.
    pub fn new(role: usize) -> History<Mv> {
        History { role, moves: Vec::new(), percepts: Vec::new() }
    }

    /// One more step: the role played `own`, then perceived `percepts` (canonical texts, put
    /// in order here, duplicates dropped) — as a protocol player learns them from the referee.
    pub fn push(&mut self, own: Mv, mut percepts: Vec<String>) {
        crate::order::sort(&mut percepts);
        percepts.dedup();
        self.moves.push(own);
        self.percepts.push(percepts);
    }
}

/// Whether the game defines `sees` (GDL-II), asked of the initial state with each role's
/// first legal move (a game over at once, or where a role cannot move, hides nothing).
pub fn defines_sees<M: StateMachine>(m: &mut M) -> Result<bool> {
    let s = m.initial_state();
    if m.is_terminal(&s)? {
        return Ok(false);
    }
    let mut joint = Vec::new();
    for r in 0..m.roles().len() {
        match m.legal_moves(&s, r)?.first() {
            Some(&mv) => joint.push(mv),
            None => return Ok(false),
        }
    }
    Ok(m.percepts(&s, &joint)?.is_some())
}

/// What `role` perceives when `joint` is played in `state`: its percepts, or in a game
/// without `sees` the whole joint move.
pub fn observe<M: StateMachine>(m: &mut M, state: &M::State, joint: &[M::Move], role: usize) -> Result<Vec<String>> {
    Ok(match m.percepts(state, joint)? {
        Some(mut all) => std::mem::take(&mut all[role]),
        None => joint.iter().map(|&x| m.move_text(x)).collect(),
    })
}

/// The history of `role` along a line of play (`states[i]` and `joints[i]` lead to
/// `states[i + 1]`, as `crate::path::play` gives them).
pub fn history<M: StateMachine>(
    m: &mut M,
    role: usize,
    states: &[M::State],
    joints: &[Vec<M::Move>],
) -> Result<History<M::Move>> {
    let mut percepts = Vec::new();
    for (s, j) in states.iter().zip(joints) {
        percepts.push(observe(m, s, j, role)?);
    }
    Ok(History { role, moves: joints.iter().map(|j| j[role]).collect(), percepts })
}

/// The information set of a history (see the module's invariant for `limit` and `seed`).
pub fn information_set<M: StateMachine>(
    m: &mut M,
    h: &History<M::Move>,
    limit: usize,
    seed: u64,
) -> Result<InfoSet<M::State>>
where
    M::State: Hash,
{
    if limit == 0 {
        return Err(RuntimeError::new("the limit of an information set must be at least 1 state"));
    }
    let mut rng = Rng::new(seed);
    let mut current = vec![m.initial_state()];
    // The estimated number of states `current` stands for (`None`: exactly its length).
    let mut estimate: Option<f64> = None;
    let mut distinct = 1;
    for (own, seen) in h.moves.iter().zip(&h.percepts) {
        let mut next: Vec<M::State> = Vec::new();
        let mut known: FxHashSet<M::State> = FxHashSet::default();
        let (mut weight, mut found_all) = (0.0, 0);
        let mut sampled = false;
        let tries = (TRIES_PER_STATE.saturating_mul(limit) / current.len().max(1)).max(1);
        for s in &current {
            let found = successors(m, s, h.role, *own, seen, tries, &mut rng)?;
            sampled |= found.scale > 1.0;
            weight += found.states.len() as f64 * found.scale;
            found_all += found.states.len();
            for t in found.states {
                if known.insert(t.clone()) {
                    next.push(t);
                }
            }
        }
        distinct = next.len();
        if estimate.is_some() || sampled || next.len() > limit {
            let per_state = estimate.unwrap_or(current.len() as f64) / current.len().max(1) as f64;
            // Lines of play that meet in one state count once: the paths found are scaled by
            // the share of them that were distinct states (`weight` counts paths).
            let merged = next.len() as f64 / found_all.max(1) as f64;
            estimate =
                Some(if estimate.is_none() && !sampled { next.len() as f64 } else { per_state * weight * merged });
            // A seeded sample of `limit` states: the first `limit` of a partial shuffle.
            for i in 0..limit.min(next.len()) {
                let j = i + rng.below(next.len() - i);
                next.swap(i, j);
            }
            next.truncate(limit);
        }
        current = next;
    }
    Ok(InfoSet { states: current, estimate, seen: distinct })
}

/// The states one step from `s` where `role` plays `own` and perceives `seen`, with the
/// factor by which they stand for more (joint moves drawn rather than all tried).
struct Found<S> {
    states: Vec<S>,
    scale: f64,
}

fn successors<M: StateMachine>(
    m: &mut M,
    s: &M::State,
    role: usize,
    own: M::Move,
    seen: &[String],
    most: usize,
    rng: &mut Rng,
) -> Result<Found<M::State>> {
    let none = Found { states: Vec::new(), scale: 1.0 };
    if m.is_terminal(s)? {
        return Ok(none);
    }
    let mut legal = Vec::new();
    for r in 0..m.roles().len() {
        let moves = m.legal_moves(s, r)?;
        if r == role {
            if !moves.contains(&own) {
                return Ok(none);
            }
            legal.push(vec![own]);
        } else {
            legal.push(moves);
        }
    }
    let count = legal.iter().fold(1usize, |n, ms| n.saturating_mul(ms.len()));
    let (tries, scale) = if count <= most { (count, 1.0) } else { (most, count as f64 / most as f64) };
    let mut states = Vec::new();
    for k in 0..tries {
        // Joint move number k in mixed radix (all of them), or one drawn at random.
        let mut rest = k;
        let joint: Vec<M::Move> = (legal.iter())
            .map(|ms| {
                let i = if scale > 1.0 { rng.below(ms.len()) } else { rest % ms.len() };
                rest /= ms.len();
                ms[i]
            })
            .collect();
        if observe(m, s, &joint, role)? == seen {
            states.push(m.next_state(s, &joint)?);
        }
    }
    Ok(Found { states, scale })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::{parse_path, play};

    /// After choosing door 1 and seeing door 3 opened, the candidate cannot tell whether the
    /// car is behind door 1 or 2: two states, and the true one is among them.
    #[test]
    fn monty_hall_candidate_knows_two_doors() {
        let mut m = crate::shared::gdl2_reasoner("montyhall");
        let (states, joints) =
            play(&mut m, &parse_path("(choose 1), (hide_car 2); noop, (open_door 3)").unwrap()).unwrap();
        let h = history(&mut m, 0, &states, &joints).unwrap();
        assert_eq!(h.percepts[1], ["(does candidate noop)", "(open_door 3)"]);
        let set = information_set(&mut m, &h, 100, 1).unwrap();
        assert_eq!(set.estimate, None);
        assert_eq!(set.states.len(), 2);
        assert!(set.states.contains(&states[2]));
        let cars: Vec<Vec<String>> = (set.states.iter())
            .map(|s| m.state_text(s).into_iter().filter(|f| f.starts_with("(car")).collect())
            .collect();
        assert!(cars.contains(&vec!["(car 1)".to_string()]) && cars.contains(&vec!["(car 2)".to_string()]));
        // Nature sees everything: one state.
        let h = history(&mut m, 1, &states, &joints).unwrap();
        assert_eq!(information_set(&mut m, &h, 100, 1).unwrap().states, [states[2].clone()]);
    }

    /// Beyond the limit: a sample of `limit` states, the same for the same seed, with an
    /// estimate of the whole.
    #[test]
    fn beyond_the_limit_a_seeded_sample_with_an_estimate() {
        let mut m = crate::shared::gdl2_reasoner("kriegTTT_5x5");
        let mut rng = Rng::new(4);
        let (mut states, mut joints) = (vec![m.initial_state()], Vec::new());
        for _ in 0..4 {
            let s = states.last().unwrap().clone();
            let joint: Vec<_> =
                (0..2).map(|r| m.legal_moves(&s, r).unwrap()).map(|ms| ms[rng.below(ms.len())]).collect();
            states.push(m.next_state(&s, &joint).unwrap());
            joints.push(joint);
        }
        let h = history(&mut m, 0, &states, &joints).unwrap();
        let exact = information_set(&mut m, &h, 100_000, 1).unwrap();
        assert_eq!(exact.estimate, None);
        assert!(exact.states.len() > 3 && exact.states.contains(&states[4]), "{}", exact.states.len());
        let a = information_set(&mut m, &h, 3, 7).unwrap();
        let b = information_set(&mut m, &h, 3, 7).unwrap();
        assert_eq!(a.states.len(), 3);
        assert_eq!(a.states, b.states);
        assert!(a.estimate.is_some_and(|e| e >= 3.0), "{:?}", a.estimate);
        assert!(a.states.iter().all(|s| exact.states.contains(s)));
    }

    /// Without `sees`, every role sees every move: it knows the state.
    #[test]
    fn perfect_information_knows_the_state() {
        let mut m = crate::load(include_str!("../../games/tictactoe.kif"), Default::default()).unwrap().reasoner;
        let (states, joints) = play(&mut m, &parse_path("(mark 1 1); (mark 2 2)").unwrap()).unwrap();
        let h = history(&mut m, 1, &states, &joints).unwrap();
        assert_eq!(information_set(&mut m, &h, 10, 1).unwrap().states, [states[2].clone()]);
    }
}
