//! The robustness harness shared by the fuzz targets (`fuzz/`), the mutated-corpus sweep
//! (`src/bin/sweep.rs`) and the engines-agree property test: [`exercise`] drives a text
//! through every stage a user's text can reach — check, load, a few random joint moves,
//! grounding, and the same moves replayed on the ground program — under small limits, and
//! says how far it got.
//!
//! Invariant checked here: when the reasoner plays a trace and the ground engine can load
//! the ground program, the ground engine replays that trace exactly (same states, legal
//! moves, terminal flags and goals); anything else is [`Outcome::Disagree`].

use gdl_core::ground::{self, Options};
use gdl_core::machine::RuntimeError;
use gdl_core::parse::{parse, Syntax};
use gdl_core::print::print;
use gdl_core::reasoner::{Limits, TimeLimit};
use gdl_core::rng::Rng;
use gdl_core::trace::{record_playout, replay};
use gdl_core::validate::validate;
use std::sync::OnceLock;
use std::time::Instant;

/// How much work one text may cost.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub limits: Limits,
    /// Joint moves played at most.
    pub steps: usize,
    /// Most ground rules.
    pub max_rules: usize,
}

impl Budget {
    /// Small limits for fuzzing: thousands of inputs a second on ordinary games.
    pub fn fuzz() -> Budget {
        Budget {
            limits: Limits {
                max_term_depth: 12,
                max_facts: 5_000,
                max_join_steps: 200_000,
                time: Some(TimeLimit { millis: 2_000.0, now: now_ms }),
                ..Limits::default()
            },
            steps: 6,
            max_rules: 5_000,
        }
    }

    /// The default limits with a time limit per request: what the mutated-corpus sweep uses.
    pub fn sweep(millis: f64) -> Budget {
        Budget {
            limits: Limits { time: Some(TimeLimit { millis, now: now_ms }), ..Limits::default() },
            steps: 6,
            max_rules: 50_000,
        }
    }
}

/// Milliseconds since the first call (the clock the engine's time limit reads).
pub fn now_ms() -> f64 {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e3
}

/// How far a text got. Every variant but `Disagree` is an acceptable answer to bad input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `check` found an error (syntax, validation, or the reasoner cannot load it).
    Rejected,
    /// Loading or playing stopped at a limit; the message names it.
    Limit(String),
    /// The game misbehaves at run time (no legal move, no roles, ...).
    GameError(String),
    /// Played; then grounding stopped with a clear error (`None`: grounded and replayed).
    Played { ground_error: Option<String> },
    /// The ground engine disagrees with the reasoner on a trace.
    Disagree(String),
}

impl Outcome {
    /// A short label for tables.
    pub fn label(&self) -> &'static str {
        match self {
            Outcome::Rejected => "rejected",
            Outcome::Limit(_) => "limit",
            Outcome::GameError(_) => "game error",
            Outcome::Played { ground_error: None } => "played + grounded",
            Outcome::Played { ground_error: Some(_) } => "played, ground error",
            Outcome::Disagree(_) => "DISAGREE",
        }
    }
}

fn runtime(e: RuntimeError) -> Outcome {
    if e.message.contains("limit") {
        Outcome::Limit(e.message)
    } else {
        Outcome::GameError(e.message)
    }
}

/// Loads (what `check` does), plays up to `budget.steps` random joint moves (seeded), grounds, and
/// replays the same trace on the ground program.
pub fn exercise(text: &str, seed: u64, budget: &Budget) -> Outcome {
    let loaded = match gdl_core::load(text, budget.limits) {
        Ok(l) => l,
        Err(d) => {
            let limit = d.iter().find(|d| d.is_error() && d.message.contains("limit"));
            return limit.map_or(Outcome::Rejected, |d| Outcome::Limit(d.message.clone()));
        }
    };
    let mut reasoner = loaded.reasoner;
    let trace = match record_playout(&mut reasoner, &mut Rng::new(seed), budget.steps) {
        Ok(t) => t,
        Err(e) => return runtime(e),
    };
    let options = Options { max_rules: budget.max_rules, limits: budget.limits, ..Options::default() };
    let program = match ground::ground(&loaded.description, options, &now_ms, &mut |_| {}) {
        Ok(g) => g,
        Err(d) => return Outcome::Played { ground_error: Some(d.message) },
    };
    let mut engine = match program.reasoner(budget.limits) {
        Ok(e) => e,
        Err(d) => return Outcome::Played { ground_error: Some(d.message) },
    };
    match replay(&mut engine, &trace) {
        Ok(Ok(())) => Outcome::Played { ground_error: None },
        Ok(Err(mismatch)) => Outcome::Disagree(mismatch.to_string()),
        // The ground program may be slower to evaluate: a limit there is not a disagreement.
        Err(e) if e.message.contains("limit") => Outcome::Played { ground_error: Some(e.message) },
        Err(e) => Outcome::Disagree(format!("the ground engine fails where the reasoner does not: {e}")),
    }
}

/// The parser's promise: a text that parses without errors prints, in either syntax, to a
/// text that parses back to the same tree. Panics with the difference otherwise.
pub fn assert_round_trip(text: &str) {
    let parsed = parse(text);
    if parsed.diagnostics.iter().any(|d| d.is_error()) {
        return;
    }
    for syntax in [Syntax::Prefix, Syntax::Infix] {
        let printed = print(&parsed.description, syntax);
        let again = parse(&printed);
        assert!(
            !again.diagnostics.iter().any(|d| d.is_error()),
            "printed {syntax:?} text does not parse: {:?}\n{printed}",
            again.diagnostics
        );
        assert!(again.description == parsed.description, "{syntax:?} round trip changes the tree:\n{printed}");
    }
}

/// The validator's promise: any tree the parser builds (even after syntax errors) is
/// checked, and every diagnostic points inside the text.
pub fn assert_validates(text: &str) {
    let parsed = parse(text);
    for d in validate(&parsed.description).iter().chain(&parsed.diagnostics) {
        assert!(d.span.start <= d.span.end && d.span.end as usize <= text.len(), "span {:?} outside the text", d.span);
    }
}
