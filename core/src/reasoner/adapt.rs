//! Choosing how to evaluate a game, by measurement.
//!
//! Bottom-up evaluation computes every relation in full; a few games define relations that
//! are huge in full but only ever asked about for a few arguments (sudoku's `exactlyFirst`
//! over nine cells, chess's `threatened_with_capture`). Each candidate program is loaded
//! and probed (every query in the initial state and one joint move) under probe limits:
//! the program as written first, then with the relation that broke a limit, or the biggest
//! one, computed on demand (`crate::magic`). A transformed program is adopted only if it
//! probes clearly cheaper; when nothing passes, the program as written runs with the
//! caller's limits and reports its own errors.

use super::{Deadline, Limits, LoadFailure, Reasoner};
use crate::diagnostic::Diagnostic;
use crate::magic;
use crate::program::NRule;

/// Probe limits: a program passing them in the initial state is a fair candidate.
const PROBE_FACTS: usize = 200_000;
const PROBE_JOIN_STEPS: u64 = 20_000_000;
/// Relations smaller than this are not worth computing on demand.
const MIN_SIZE: usize = 5_000;
/// Most programs probed.
const MAX_ATTEMPTS: usize = 12;
/// A transformed program must cost at most this share of the best one so far.
const GAIN: f64 = 0.95;

type Key = (String, usize);

enum Attempt {
    Ok(Box<Reasoner>),
    /// A limit was reached while computing this relation.
    Limit(Option<Key>),
    /// The transformation does not apply.
    NotApplicable,
}

fn attempt(
    rules: &[NRule],
    on_demand: &[Key],
    limits: Limits,
    deadline: Option<Deadline>,
) -> Result<Attempt, Diagnostic> {
    let program = if on_demand.is_empty() { Some(rules.to_vec()) } else { magic::transform(rules, on_demand) };
    let Some(program) = program else { return Ok(Attempt::NotApplicable) };
    match Reasoner::build_within(program, limits, deadline) {
        Ok(mut r) => match r.probe() {
            Ok(()) => Ok(Attempt::Ok(Box::new(r))),
            Err(e) => Ok(Attempt::Limit(e.relation)),
        },
        Err(LoadFailure::Invalid(d)) => Err(d),
        Err(LoadFailure::Limit(e)) => Ok(Attempt::Limit(e.relation)),
    }
}

/// One load is one request: every candidate shares the deadline.
pub fn choose(rules: Vec<NRule>, limits: Limits) -> Result<Reasoner, Diagnostic> {
    let deadline = limits.time.map(|t| t.deadline());
    let probe = Limits {
        max_facts: limits.max_facts.min(PROBE_FACTS),
        max_join_steps: limits.max_join_steps.min(PROBE_JOIN_STEPS),
        ..limits
    };
    let mut best: Option<Box<Reasoner>> = None;
    let mut adopted: Vec<Key> = Vec::new();
    let mut tried: Vec<Key> = Vec::new();
    let mut trial: Vec<Key> = Vec::new();
    for _ in 0..MAX_ATTEMPTS {
        match attempt(&rules, &trial, probe, deadline)? {
            Attempt::Ok(r) => {
                if best.as_ref().is_none_or(|b| (r.work as f64) < b.work as f64 * GAIN) {
                    adopted = trial.clone();
                    best = Some(r);
                }
            }
            Attempt::Limit(Some(rel)) => {
                // Too big: compute it on demand; already on demand: its callers must pass
                // on more of their bindings.
                let more = if trial.contains(&rel) { magic::callers(&rules, &rel) } else { vec![rel] };
                let before = trial.len();
                trial.extend(more.into_iter().filter(|k| !trial.contains(k)).collect::<Vec<_>>());
                if trial.len() > before {
                    continue;
                }
            }
            Attempt::Limit(None) | Attempt::NotApplicable => {}
        }
        // Next: the biggest relation of the best program, on demand.
        let Some(b) = &best else { break };
        let skip: Vec<Key> = adopted.iter().chain(&tried).cloned().collect();
        let Some((rel, size)) = b.largest_relation(&skip) else { break };
        if size < MIN_SIZE {
            break;
        }
        tried.push(rel.clone());
        trial = adopted.iter().cloned().chain([rel]).collect();
    }
    match best {
        Some(mut r) => {
            r.limits = limits;
            Ok(r.loaded())
        }
        None => Reasoner::load(rules, limits, deadline),
    }
}
