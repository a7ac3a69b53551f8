//! The normal form every pass over a program reads and writes: rules whose bodies are
//! conjunctions of plain literals, and their dependency graph.

use crate::ast::Term;
use crate::deps::DepGraph;
use crate::diagnostic::Span;

/// A literal of a normal rule body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NLit {
    Pos(Term),
    Neg(Term),
    Distinct(Term, Term),
    /// `(not (distinct a b))`: the two terms are equal.
    Same(Term, Term),
}

impl NLit {
    pub fn for_each_var<'a>(&'a self, f: &mut impl FnMut(&'a str, Span)) {
        match self {
            NLit::Pos(t) | NLit::Neg(t) => t.for_each_var(f),
            NLit::Distinct(a, b) | NLit::Same(a, b) => {
                a.for_each_var(f);
                b.for_each_var(f);
            }
        }
    }
}

impl std::fmt::Display for NLit {
    /// Prefix text; `Same` prints as `(not (distinct a b))`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NLit::Pos(t) => write!(f, "{t}"),
            NLit::Neg(t) => write!(f, "(not {t})"),
            NLit::Distinct(a, b) => write!(f, "(distinct {a} {b})"),
            NLit::Same(a, b) => write!(f, "(not (distinct {a} {b}))"),
        }
    }
}

/// A rule with a flat body.
#[derive(Clone, Debug)]
pub struct NRule {
    pub head: Term,
    pub body: Vec<NLit>,
    /// The source rule it comes from.
    pub span: Span,
}

/// The dependency graph of normal rules.
pub fn graph_of(rules: &[NRule]) -> DepGraph {
    let mut graph = DepGraph::default();
    for r in rules {
        graph.add_rule(
            &r.head,
            r.body.iter().filter_map(|l| match l {
                NLit::Pos(t) => Some((t, false)),
                NLit::Neg(t) => Some((t, true)),
                _ => None,
            }),
        );
    }
    graph
}

impl std::fmt::Display for NRule {
    /// `head :- lit lit ...` on one line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} :-", self.head)?;
        self.body.iter().try_for_each(|l| write!(f, " {l}"))
    }
}
