//! The game's own orders: static two-argument relations that put values one after another,
//! whatever they are called (`(succ 1 2)`, `(next_file a b)`, an obfuscated `(xqv kp zr)`).
//! A board draws its rows and columns in these orders, so that a move of one file is a move
//! of one column whatever the files are named.
//!
//! A relation is successor-like when no value has two successors or two predecessors; its
//! chains are its paths from a value without predecessor (cycles and self-loops left out).
//! Symmetric relations (`adjacent` both ways) and whole orders (`(less 1 3)`) are not.

use crate::ast::Description;
use crate::deps::DepGraph;
use crate::reasoner::Reasoner;
use crate::term::TermId;
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;

/// Values of one relation in the order the relation puts them, e.g. `next_file`: a … h.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Chain {
    pub relation: String,
    pub values: Vec<String>,
}

/// A relation with more facts is not read (no board has such sides).
const MAX_FACTS: usize = 10_000;

/// The chains of every static relation of two arguments of `desc` that is not a keyword,
/// read from `m`, a reasoner that evaluated every static relation (`evaluate_all`).
pub fn chains(desc: &Description, m: &Reasoner) -> Vec<Chain> {
    let graph = DepGraph::build(desc).rule_graph();
    let mut out = Vec::new();
    for node in graph.nodes {
        let keyword = matches!(node.name.as_str(), "legal" | "goal" | "input" | "does");
        if node.arity != 2 || node.kind != "static" || !node.defined || keyword {
            continue;
        }
        let facts = m.facts(&node.name, 2);
        if facts.len() > MAX_FACTS {
            continue;
        }
        for chain in successor_chains(facts.iter().map(|t| (t[0], t[1]))) {
            let values = chain.iter().map(|&v| m.store().text(v).to_string()).collect();
            out.push(Chain { relation: node.name.clone(), values });
        }
    }
    out
}

/// The chains of a successor-like relation given by its pairs, of two values or more, in
/// the order their first values appear; none if some value has two successors or two
/// predecessors.
fn successor_chains(pairs: impl Iterator<Item = (TermId, TermId)>) -> Vec<Vec<TermId>> {
    let mut next: FxHashMap<TermId, TermId> = FxHashMap::default();
    let mut followers: FxHashSet<TermId> = FxHashSet::default();
    let mut firsts = Vec::new();
    for (a, b) in pairs.filter(|(a, b)| a != b) {
        if next.insert(a, b).is_some() || !followers.insert(b) {
            return Vec::new();
        }
        firsts.push(a);
    }
    let mut chains = Vec::new();
    for start in firsts.into_iter().filter(|a| !followers.contains(a)) {
        let mut chain = vec![start];
        while let Some(&v) = next.get(chain.last().expect("never empty")) {
            chain.push(v);
        }
        chains.push(chain);
    }
    chains
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::Program;

    fn chains_of(text: &str) -> Vec<(String, Vec<String>)> {
        let parsed = crate::parse::parse(text);
        let desc = parsed.description;
        let mut m = Reasoner::from_program(Program::normalised(&desc).unwrap(), Default::default()).unwrap();
        m.evaluate_all().unwrap();
        chains(&desc, &m).into_iter().map(|c| (c.relation, c.values)).collect()
    }

    #[test]
    fn successor_chains_whatever_their_names() {
        let text =
            "(role p) (init (at zq)) (<= (legal p go) (true (at ?x))) (<= (next (at ?y)) (true (at ?x)) (xqv ?x ?y)) \
                    (<= terminal (true (at kp))) (goal p 100) \
                    (xqv mu zq) (xqv zq alpha) (xqv alpha kp) (xqv 1 2) \
                    (<= (less ?x ?y) (xqv ?x ?y)) (<= (less ?x ?z) (xqv ?x ?y) (less ?y ?z))";
        let got = chains_of(text);
        let strs = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(got.contains(&("xqv".into(), strs(&["mu", "zq", "alpha", "kp"]))), "{got:?}");
        assert!(got.contains(&("xqv".into(), strs(&["1", "2"]))), "{got:?}");
        // Neither the whole order `less` (a value has several successors), nor the state
        // relation `next`, nor keywords.
        assert!(got.iter().all(|(r, _)| r == "xqv"), "{got:?}");
    }

    #[test]
    fn symmetric_branching_and_cyclic_relations_have_no_chains() {
        let text = "(role p) (init s) (legal p a) (<= terminal (true s)) (goal p 100) \
                    (adj a b) (adj b a) (adj b c) (adj c b) \
                    (fork a b) (fork a c) \
                    (ring a b) (ring b c) (ring c a) \
                    (loop a a) (loop a b)";
        let got = chains_of(text);
        let strs = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        // A self-loop (a reflexive order such as less-or-equal) is ignored.
        assert_eq!(got, vec![("loop".to_string(), strs(&["a", "b"]))]);
    }
}
