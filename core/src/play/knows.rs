//! What one role knows at the current position of a game (GDL-II), as the page draws it: its
//! own moves and what it perceived after each, and its information set (`crate::infoset`)
//! summed up per fluent: in what share of the possible states each fluent holds (1: the role
//! is sure of it). A belief board is the ordinary board drawn from those shares. Its size is
//! exact, or an estimate kept between the distinct states seen and 2^base (the game's base
//! facts), said in words (`Knowledge::count_text`) that the faces print as they are.
//!
//! Invariant: computed from the role's history alone (`Game::history_of`), never from the
//! true state; the work is bounded by `limit` as `infoset::information_set` says.

use crate::infoset::{information_set, History};
use crate::machine::StateMachine;
use serde::Serialize;
use std::hash::Hash;

/// One step as a role lived it: the move it played, then what it perceived.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct KnownStep {
    #[serde(rename = "move")]
    pub played: String,
    /// What it perceived after the joint move (sorted texts; in a game without `sees`, every
    /// role's move).
    pub percepts: Vec<String>,
}

/// A fluent that holds in at least one possible state, and in what share of them.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Belief {
    pub fluent: String,
    /// Share of the possible states (of the sample, when sampled) that hold it, in (0, 1].
    pub share: f64,
}

/// What a role knows after the moves played so far.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Knowledge {
    pub role: String,
    /// Its steps, from the initial state to the current position.
    pub steps: Vec<KnownStep>,
    /// How many states it cannot tell from the true one: exact, or estimated when `sampled`
    /// (then at least `seen` and at most `bound`).
    pub count: f64,
    /// `states` is a seeded sample of the possible states, `count` an estimate.
    pub sampled: bool,
    /// Distinct possible states found (a lower bound; the count when exact).
    pub seen: usize,
    /// For an estimate, the number of base facts of the game when known: no set holds more
    /// than 2^base distinct states, and `count` never exceeds it.
    pub base: Option<usize>,
    /// The count in words, as the faces print it: "4 possible states", or for an estimate
    /// "at least 4,025 distinct states seen; about 120,000 by estimate …".
    pub count_text: String,
    /// Every fluent of some possible state with its share, sorted by fluent.
    pub beliefs: Vec<Belief>,
    /// The possible states (or the sample), each its sorted fluents.
    pub states: Vec<Vec<String>>,
}

/// Ground rules at most when a game is grounded only to count its base facts.
const BASE_RULES: usize = 200_000;

/// The number of base facts of a game (declared, or computed by grounding it within
/// `BASE_RULES`), which bounds how many distinct states it has; `None` when it does not
/// ground within that bound.
pub fn base_facts(desc: &crate::ast::Description) -> Option<usize> {
    let options = crate::ground::Options { max_rules: BASE_RULES, ..Default::default() };
    crate::ground::ground(desc, options, &|| 0.0, &mut |_| {}).ok().map(|g| g.stats.base)
}

/// What a role knows after its history `h`: its information set exact up to `limit` states,
/// else sampled with `seed`; `base` gives the game's number of base facts when known, which
/// bounds an estimate (2^base distinct states at most), asked only for an estimate.
pub fn knowledge<M: StateMachine>(
    m: &mut M,
    h: History<M::Move>,
    limit: usize,
    seed: u64,
    base: &mut dyn FnMut() -> Option<usize>,
) -> crate::machine::Result<Knowledge>
where
    M::State: Hash,
{
    let set = information_set(m, &h, limit, seed)?;
    let steps =
        h.moves.iter().zip(h.percepts).map(|(&x, percepts)| KnownStep { played: m.move_text(x), percepts }).collect();
    let texts: Vec<Vec<String>> = set.states.iter().map(|s| m.state_text(s)).collect();
    let mut held: std::collections::BTreeMap<&str, usize> = Default::default();
    for f in texts.iter().flatten() {
        *held.entry(f.as_str()).or_default() += 1;
    }
    let n = texts.len().max(1) as f64;
    let beliefs = held.into_iter().map(|(f, k)| Belief { fluent: f.to_string(), share: k as f64 / n }).collect();
    let base = if set.estimate.is_some() { base() } else { None };
    let (count, count_text) = counted(set.estimate, set.seen, texts.len(), base);
    Ok(Knowledge {
        role: m.roles()[h.role].clone(),
        steps,
        count,
        sampled: set.estimate.is_some(),
        seen: set.seen,
        base,
        count_text,
        beliefs,
        states: texts,
    })
}

/// The count and its words: exact, or an estimate kept between the states seen and 2^`base`.
fn counted(estimate: Option<f64>, seen: usize, kept: usize, base: Option<usize>) -> (f64, String) {
    let plural = |n: f64| if n == 1.0 { "" } else { "s" };
    let Some(estimate) = estimate else {
        return (seen as f64, format!("{} possible state{}", thousands(seen as f64), plural(seen as f64)));
    };
    let bound = base.map(|b| 2f64.powi(b.min(1023) as i32));
    let count = estimate.max(seen as f64).min(bound.unwrap_or(f64::INFINITY));
    let mut text = format!(
        "at least {} distinct state{} seen; about {} by estimate (from sampled lines of play; a sample of {} shown)",
        thousands(seen as f64),
        plural(seen as f64),
        thousands(count),
        thousands(kept as f64)
    );
    if let Some(b) = base {
        let capped = if count < estimate { ", which caps the estimate" } else { "" };
        text += &format!("; at most 2^{b} by the game's {b} base facts{capped}");
    }
    (count, text)
}

/// A count with thousands separators ("306,707"), or in powers of ten beyond 10^15.
fn thousands(n: f64) -> String {
    let n = n.round();
    if n >= 1e15 {
        return format!("{:.1}×10^{}", n / 10f64.powi(n.log10().floor() as i32), n.log10().floor());
    }
    crate::solve::thousands(n as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_counts_are_counts() {
        assert_eq!(counted(None, 4, 4, Some(10)), (4.0, "4 possible states".into()));
        assert_eq!(counted(None, 1, 1, None).1, "1 possible state");
    }

    /// An estimate never goes above 2^base, nor below the states seen, and says what it is.
    #[test]
    fn estimates_stay_within_their_bounds() {
        let (n, text) = counted(Some(3.0e14), 4025, 1000, Some(20));
        assert_eq!(n, 1_048_576.0);
        assert_eq!(
            text,
            "at least 4,025 distinct states seen; about 1,048,576 by estimate (from sampled lines of play; \
             a sample of 1,000 shown); at most 2^20 by the game's 20 base facts, which caps the estimate"
        );
        assert_eq!(counted(Some(10.0), 4025, 1000, None).0, 4025.0);
        assert!(counted(Some(2.5e16), 5000, 1000, None).1.contains("about 2.5×10^16 by estimate"));
    }
}
