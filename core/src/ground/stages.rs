//! The grounding pipeline as a list of stages: passes over one program (normalised, fixed,
//! specialised, decomposed), then the domains and the ground program. Each stage is
//! recorded as it runs, with its name, what it does and how long it took, and, when asked,
//! the rules a pass left: the list the Grounded rules pane shows (`crate::grounded`).
//!
//! Invariant: the passes share one `Program`, whose dependency graph is computed once and
//! kept by every pass that leaves the rules as they are.

use super::{decompose, invariant, relax};
use crate::ast::Description;
use crate::diagnostic::Diagnostic;
use crate::program::specialise::specialise;
use crate::program::Program;
use serde::Serialize;

/// One stage of a grounding as it ran.
#[derive(Clone, Debug, Serialize)]
pub struct Stage {
    pub name: &'static str,
    /// What the stage does, in a sentence.
    pub explanation: &'static str,
    pub ms: f64,
    /// The rules a pass over the program left, one per line, when the grounding keeps them
    /// (`Options::record_rules`); `None` for the domains and the ground program, which the
    /// ground program itself holds.
    pub rules: Option<Vec<String>>,
}

/// What the passes work on: the program, and the part relations decomposition made.
pub(super) struct Prepared {
    pub program: Program,
    pub parts: Vec<String>,
}

/// A pass over the program after normalisation.
struct Pass {
    name: &'static str,
    explanation: &'static str,
    run: fn(Prepared) -> Prepared,
}

/// The first stage: the description normalised.
const NORMALISED: (&str, &str) = (
    "normalised",
    "every rule with a flat body: each 'or' split into rules of its own, 'not' pushed onto atoms, and relations \
     stratified only case by case split by their constant arguments",
);

/// The passes after normalisation, in order.
const PASSES: [Pass; 3] = [
    Pass {
        name: "fixed",
        explanation: "fluents no move changes read from 'init': the relations built on them become static",
        run: |p| Prepared { program: invariant::fold(p.program), ..p },
    },
    Pass {
        name: "specialised",
        explanation: "relations every rule uses with some constant arguments computed only for those arguments",
        run: |p| Prepared { program: specialise(p.program), ..p },
    },
    Pass {
        name: "decomposed",
        explanation: "dynamic rules split into parts that share fewer variables, so that they have fewer instances",
        run: |p| {
            let dynamic = relax::dynamic_relations(p.program.graph());
            let (rules, parts) = decompose::decompose(p.program.into_rules(), &dynamic);
            Prepared { program: Program::new(rules), parts }
        },
    },
];

/// The stage that computes the domains.
pub const DOMAINS: (&str, &str) = (
    "domains",
    "the fluents ('base') and moves ('input') of the game: declared, or computed by one fixpoint of the relaxed \
     program, which also gives every dynamic rule's instances",
);

/// The stage that builds the ground program.
pub const GROUND: (&str, &str) =
    ("ground", "one rule per instance, static literals gone, and the rules no keyword can use dropped");

impl Stage {
    pub(super) fn new((name, explanation): (&'static str, &'static str), ms: f64) -> Stage {
        Stage { name, explanation, ms, rules: None }
    }
}

/// The passes over the program, each recorded in `stages` (its rules printed when `record`
/// is set); `now` gives milliseconds.
pub(super) fn prepare(
    desc: &Description,
    record: bool,
    now: &dyn Fn() -> f64,
    stages: &mut Vec<Stage>,
) -> Result<Prepared, Diagnostic> {
    let mut clock = now();
    let mut done = |stage: (&'static str, &'static str), program: &Program, stages: &mut Vec<Stage>| {
        let t = now();
        let printed = record.then(|| program.rules().iter().map(ToString::to_string).collect());
        stages.push(Stage { rules: printed, ..Stage::new(stage, t - clock) });
        clock = now();
    };
    let mut prepared = Prepared { program: Program::normalised(desc)?, parts: Vec::new() };
    done(NORMALISED, &prepared.program, stages);
    for pass in &PASSES {
        prepared = (pass.run)(prepared);
        done((pass.name, pass.explanation), &prepared.program, stages);
    }
    Ok(prepared)
}
