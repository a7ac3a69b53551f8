//! The robustness harness shared by the fuzz targets (`fuzz/`), the mutated-corpus sweep
//! (`src/bin/sweep.rs`) and the engines-agree property test: [`exercise`] drives a text
//! through every stage a user's text can reach — check, load, a few random joint moves,
//! grounding, the same moves replayed on the ground program and on the propositional
//! network compiled from it — under small limits, and says how far it got.
//!
//! Invariant checked here: when the reasoner plays a trace and an engine can be built from
//! the ground program, that engine replays the trace exactly (same states, legal moves,
//! terminal flags and goals); anything else is [`Outcome::Disagree`].

use gdl_core::ground::{self, Options};
use gdl_core::machine::{RuntimeError, StateMachine};
use gdl_core::parse::{parse, Syntax};
use gdl_core::print::print;
use gdl_core::propnet::{self, Propnet, Strategy};
use gdl_core::reasoner::{Limits, TimeLimit};
use gdl_core::rng::Rng;
use gdl_core::trace::{record_playout, replay, Playout};
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
    /// Also compile the ground program into a propositional network and replay on it.
    pub propnet: bool,
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
            propnet: true,
        }
    }

    /// The default limits with a time limit per request: what the mutated-corpus sweep uses.
    pub fn sweep(millis: f64) -> Budget {
        Budget {
            limits: Limits { time: Some(TimeLimit { millis, now: now_ms }), ..Limits::default() },
            steps: 6,
            max_rules: 50_000,
            propnet: true,
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
    if let Some(wrong) = replay_on(&mut engine, &trace) {
        return wrong;
    }
    if budget.propnet {
        // Both evaluation strategies, one per seed.
        let strategy = Some(if seed.is_multiple_of(2) { Strategy::Sweep } else { Strategy::Propagate });
        let options = propnet::Options { strategy, ..propnet::Options::default() };
        let mut net = match Propnet::new(&program, options, &now_ms) {
            Ok(n) => n,
            Err(d) => return Outcome::Played { ground_error: Some(d.message) },
        };
        if let Some(wrong) = replay_on(&mut net, &trace) {
            return wrong;
        }
    }
    Outcome::Played { ground_error: None }
}

/// The trace replayed on another engine: `None` if it agrees (or stops at a limit).
fn replay_on(engine: &mut impl StateMachine, trace: &Playout) -> Option<Outcome> {
    let name = engine.engine_name();
    match replay(engine, trace) {
        Ok(Ok(())) => None,
        Ok(Err(mismatch)) => Some(Outcome::Disagree(format!("{name}: {mismatch}"))),
        // A ground program may be slower to evaluate: a limit there is not a disagreement.
        Err(e) if e.message.contains("limit") => Some(Outcome::Played { ground_error: Some(e.message) }),
        Err(e) => Some(Outcome::Disagree(format!("the {name} engine fails where the reasoner does not: {e}"))),
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
