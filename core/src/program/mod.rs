//! Programs in normal form and the passes over them: a description is flattened
//! (`flatten`: no `or`, no nested `and`, `not` on atoms only) and, where it is stratified
//! only once some relations are split by their constant arguments, split (`strata`);
//! `specialise` copies relations per constant use, `magic` computes relations on demand.
//! This module composes the passes; each pass reads and writes the rules of `rules`, as a
//! `Program` that keeps their dependency graph until a pass changes them.
//!
//! Invariant: a normal rule's body holds only `Pos`, `Neg`, `Distinct` and `Same` literals,
//! and auxiliary relation names contain `~`, which no parsed symbol can contain.

pub mod asked;
pub mod flatten;
pub mod magic;
mod rules;
pub mod specialise;
pub mod strata;

pub use flatten::flatten;
pub use rules::{graph_of, NLit, NRule};

use crate::ast::Description;
use crate::deps::DepGraph;
use crate::diagnostic::Diagnostic;
use std::cell::OnceCell;

/// Rules in normal form and their dependency graph, computed when first asked for and kept
/// while the rules stay as they are: a pass that changes the rules makes a new `Program`,
/// one that leaves them returns the same, graph and all.
#[derive(Debug)]
pub struct Program {
    rules: Vec<NRule>,
    graph: OnceCell<DepGraph>,
}

impl Program {
    pub fn new(rules: Vec<NRule>) -> Program {
        Program { rules, graph: OnceCell::new() }
    }

    /// Rules whose dependency graph is known already (a pass that built it to check them).
    pub fn with_graph(rules: Vec<NRule>, graph: DepGraph) -> Program {
        Program { rules, graph: OnceCell::from(graph) }
    }

    /// A description normalised (`normalise`).
    pub fn normalised(desc: &Description) -> Result<Program, Diagnostic> {
        flatten(desc).map(|rules| strata::stratify(Program::new(rules)))
    }

    pub fn rules(&self) -> &[NRule] {
        &self.rules
    }

    pub fn into_rules(self) -> Vec<NRule> {
        self.rules
    }

    /// The dependency graph of the rules (`graph_of`).
    pub fn graph(&self) -> &DepGraph {
        self.graph.get_or_init(|| graph_of(&self.rules))
    }

    /// The rules and their dependency graph (computed now if no pass has).
    pub fn into_parts(mut self) -> (Vec<NRule>, DepGraph) {
        let graph = self.graph.take().unwrap_or_else(|| graph_of(&self.rules));
        (self.rules, graph)
    }
}

/// Normalises every rule of the description; relations that are only locally stratified
/// are split by their constant arguments (`strata`).
pub fn normalise(desc: &Description) -> Result<Vec<NRule>, Diagnostic> {
    Program::normalised(desc).map(Program::into_rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn show(text: &str) -> String {
        let rules = normalise(&parse(text).description).unwrap();
        rules.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn or_splits_and_not_is_pushed_inwards() {
        let out = show(
            "(<= (p ?x) (q ?x) (or (r ?x) (and (s ?x) (or (t ?x) (u ?x)))))\n\
             (<= (w ?x) (q ?x) (not (or (r ?x) (not (distinct ?x a)))))\n\
             (<= (v ?x) (q ?x) (not (and (r ?x) (s ?y))))",
        );
        expect_test::expect![[r#"
            (p ?x) :- (q ?x) (r ?x)
            (p ?x) :- (q ?x) (s ?x) (t ?x)
            (p ?x) :- (q ?x) (s ?x) (u ?x)
            (w ?x) :- (q ?x) (not (r ?x)) (distinct ?x a)
            (aux~1 ?x) :- (r ?x) (s ?y)
            (v ?x) :- (q ?x) (not (aux~1 ?x))"#]]
        .assert_eq(&out);
    }

    /// The readings of `crate::gdl2`: a `sees` for every role, a `not` over values of its own,
    /// ignored declarations.
    #[test]
    fn gdl2_readings_are_normal_rules() {
        let out = show(
            "(<= (sees ?r (seen ?m)) (does p ?m))\n\
             (<= (q ?x) (p ?x) (not (r ?x ?y)))\n\
             (input p (m ?x) (r ?x))\n(base (f ?x))",
        );
        expect_test::expect![[r#"
            (sees ?r (seen ?m)) :- (role ?r) (does p ?m)
            (aux~1 ?x) :- (r ?x ?y)
            (q ?x) :- (p ?x) (not (aux~1 ?x))"#]]
        .assert_eq(&out);
    }

    #[test]
    fn exploding_or_is_refused() {
        let lit = "(or (a) (b) (c) (d))".repeat(8);
        let d = parse(&format!("(<= p {lit})")).description;
        assert_eq!(normalise(&d).unwrap_err().code, "too-many-alternatives");
    }
}
