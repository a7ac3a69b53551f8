//! The grounding pipeline as one list of stages (`STAGES`): passes over one program
//! (normalised, fixed, specialised, decomposed), then the domains, and passes over the
//! ground rules (instantiated, pruned, unfolded, put in order: the ground program).
//! One clock (`Timeline`) tells the progress callback each stage as it starts and records
//! it as it ends, with its name, what it does and how long it took, and, when asked, the
//! rules a pass left: the list the Grounded rules pane shows (`crate::grounded`).
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
    /// How many rules the stage left (`None` for the domains).
    pub count: Option<usize>,
    /// The rules a pass over the program left, one per line, when the grounding keeps them
    /// (`Options::record_rules`); `None` for the domains and the ground program, which the
    /// ground program itself holds.
    pub rules: Option<Vec<String>>,
}

/// Every stage of a grounding, in the order they run: its name and what it does, in a
/// sentence. The progress callback is told each name as its stage starts; the page's stage
/// list and progress bar are this list.
pub const STAGES: [(&str, &str); 9] = [
    (
        "normalised",
        "The rules are rewritten in a simpler form that means the same: a rule with an 'or' becomes one rule per \
         choice, and a 'not' is moved onto single facts.",
    ),
    (
        "fixed",
        "Facts that no move can ever change keep their starting value from 'init', so the rules that read them \
         are worked out once, before the game starts.",
    ),
    (
        "specialised",
        "Where the rules only ever ask a relation about a few fixed values, it is worked out for those values \
         alone.",
    ),
    (
        "decomposed",
        "Long rules are cut into shorter ones that share fewer variables, so that there are fewer ways to fill \
         them in.",
    ),
    (
        "domains",
        "The game's possible facts ('base') and moves ('input') are listed: as the game declares them, or found \
         by one pass over the rules that ignores every 'not'.",
    ),
    (
        "instantiated",
        "Every variable is replaced by each value it can take, giving rules without variables; conditions on facts \
         known before the game starts are checked once and left out.",
    ),
    ("pruned", "Rules that no game question (legal, next, goal, terminal, sees) can ever read are dropped."),
    ("unfolded", "Where cutting a long rule did not make the rules fewer, its pieces are put back together."),
    (
        "ground",
        "The rules without variables are put in a fixed order, with no rule twice: the ground program the game \
         plays on.",
    ),
];

/// Where the stages after the passes over the program are in `STAGES`.
pub(super) const DOMAINS: usize = 4;
pub(super) const INSTANTIATED: usize = 5;
pub(super) const PRUNED: usize = 6;
pub(super) const UNFOLDED: usize = 7;
pub(super) const GROUND: usize = 8;

/// The one clock of a grounding: tells `progress` each stage as it starts and records it,
/// timed, as it ends.
pub(super) struct Timeline<'a> {
    now: &'a dyn Fn() -> f64,
    progress: &'a mut dyn FnMut(&str),
    /// The stage running (its index in `STAGES`) and when it started.
    running: (usize, f64),
    pub stages: Vec<Stage>,
}

impl<'a> Timeline<'a> {
    pub fn new(now: &'a dyn Fn() -> f64, progress: &'a mut dyn FnMut(&str)) -> Timeline<'a> {
        Timeline { now, progress, running: (0, 0.0), stages: Vec::new() }
    }

    /// Stage `i` of `STAGES` starts.
    pub fn start(&mut self, i: usize) {
        (self.progress)(STAGES[i].0);
        self.running = (i, (self.now)());
    }

    /// The stage started last ends, having left `count` rules (`rules`, printed, if they
    /// are kept).
    pub fn end(&mut self, count: Option<usize>, rules: Option<Vec<String>>) {
        let (i, started) = self.running;
        let (name, explanation) = STAGES[i];
        let ms = (self.now)() - started;
        self.stages.push(Stage { name, explanation, ms, count, rules });
    }
}

/// What the passes work on: the program, and the part relations decomposition made.
pub(super) struct Prepared {
    pub program: Program,
    pub parts: Vec<String>,
}

/// The passes over the program after normalisation, in the order of `STAGES`.
const PASSES: [fn(Prepared) -> Prepared; 3] = [
    |p| Prepared { program: invariant::fold(p.program), ..p },
    |p| Prepared { program: specialise(p.program), ..p },
    |p| {
        let dynamic = relax::dynamic_relations(p.program.graph());
        let (rules, parts) = decompose::decompose(p.program.into_rules(), &dynamic);
        Prepared { program: Program::new(rules), parts }
    },
];

/// The description normalised and the passes over the program, each a stage of `timeline`
/// (its rules printed when `record` is set).
pub(super) fn prepare(desc: &Description, record: bool, timeline: &mut Timeline) -> Result<Prepared, Diagnostic> {
    let printed = |program: &Program| record.then(|| program.rules().iter().map(ToString::to_string).collect());
    timeline.start(0);
    let mut prepared = Prepared { program: Program::normalised(desc)?, parts: Vec::new() };
    timeline.end(Some(prepared.program.rules().len()), printed(&prepared.program));
    for (i, pass) in PASSES.iter().enumerate() {
        timeline.start(i + 1);
        prepared = pass(prepared);
        timeline.end(Some(prepared.program.rules().len()), printed(&prepared.program));
    }
    Ok(prepared)
}
