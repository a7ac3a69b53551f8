//! The game's own orders: static two-argument relations that put values one after another,
//! whatever they are called (`(succ 1 2)`, `(next_file a b)`, an obfuscated `(xqv kp zr)`,
//! or a whole order such as `(less 1 3)`). A board draws its rows and columns in these
//! orders, so that a move of one file is a move of one column whatever the files are named.
//!
//! A chain is a weakly connected part of a relation's graph that is ordered one way only:
//! no cycle, and a single topological order (each value is followed by the next one).
//! Symmetric relations (`adjacent` both ways) and branching ones (`(knight_move a 1 b 3)`
//! has four arguments anyway) are not chains.

use crate::ast::Description;
use crate::deps::DepGraph;
use crate::reasoner::Reasoner;
use crate::term::TermId;
use rustc_hash::FxHashMap;
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

/// Relations of two arguments that are static (neither `true` nor `does` below them), not
/// keywords and not made by a program pass (names with `~`).
fn static_pairs(desc: &Description) -> Vec<String> {
    const KEYWORDS: [&str; 4] = ["legal", "goal", "input", "does"];
    let graph = DepGraph::build(desc).rule_graph();
    graph
        .nodes
        .into_iter()
        .filter(|n| n.arity == 2 && n.kind == "static" && n.defined && !KEYWORDS.contains(&n.name.as_str()))
        .map(|n| n.name)
        .filter(|n| !n.contains('~'))
        .collect()
}

/// The chains of every static relation of two arguments of `desc`, read from `m`, a
/// reasoner that evaluated every static relation (`Reasoner::evaluate_all`).
pub fn chains(desc: &Description, m: &Reasoner) -> Vec<Chain> {
    let mut out = Vec::new();
    for relation in static_pairs(desc) {
        let facts = m.facts(&relation, 2);
        if facts.len() > MAX_FACTS {
            continue;
        }
        let pairs: Vec<(TermId, TermId)> = facts.iter().map(|t| (t[0], t[1])).collect();
        for part in ordered_parts(&pairs) {
            let values = part.iter().map(|&v| m.store().text(v).to_string()).collect();
            out.push(Chain { relation: relation.clone(), values });
        }
    }
    out
}

/// The weakly connected parts of the graph of `pairs` (self-loops ignored) that have a
/// single topological order, of two values or more, in that order.
fn ordered_parts(pairs: &[(TermId, TermId)]) -> Vec<Vec<TermId>> {
    // Values in order of first appearance, so that the result does not depend on hashing.
    let mut index: FxHashMap<TermId, usize> = FxHashMap::default();
    let mut values = Vec::new();
    let mut id = |v: TermId| {
        *index.entry(v).or_insert_with(|| {
            values.push(v);
            values.len() - 1
        })
    };
    let edges: Vec<(usize, usize)> = pairs.iter().filter(|(a, b)| a != b).map(|&(a, b)| (id(a), id(b))).collect();
    let n = values.len();
    let mut out_edges = vec![Vec::new(); n];
    let mut in_degree = vec![0usize; n];
    // Union-find over the undirected graph: the weakly connected parts.
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut v: usize) -> usize {
        while parent[v] != v {
            parent[v] = parent[parent[v]];
            v = parent[v];
        }
        v
    }
    let mut seen = rustc_hash::FxHashSet::default();
    for &(a, b) in &edges {
        if !seen.insert((a, b)) {
            continue;
        }
        out_edges[a].push(b);
        in_degree[b] += 1;
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        parent[ra] = rb;
    }
    let mut parts: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    let mut roots = Vec::new();
    for v in 0..n {
        let r = root(&mut parent, v);
        parts.entry(r).or_insert_with(|| {
            roots.push(r);
            Vec::new()
        });
        parts.get_mut(&r).expect("just inserted").push(v);
    }
    let mut chains = Vec::new();
    for r in roots {
        let part = &parts[&r];
        if part.len() < 2 {
            continue;
        }
        // Kahn's algorithm; the order is unique when there is one source at every step.
        let mut sources: Vec<usize> = part.iter().copied().filter(|&v| in_degree[v] == 0).collect();
        let mut order = Vec::with_capacity(part.len());
        while sources.len() == 1 {
            let v = sources.pop().expect("one source");
            order.push(values[v]);
            for &w in &out_edges[v] {
                in_degree[w] -= 1;
                if in_degree[w] == 0 {
                    sources.push(w);
                }
            }
        }
        if order.len() == part.len() {
            chains.push(order);
        }
    }
    chains
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::normalise;

    fn chains_of(text: &str) -> Vec<(String, Vec<String>)> {
        let parsed = crate::parse::parse(text);
        let desc = parsed.description;
        let mut m = Reasoner::from_rules(normalise(&desc).unwrap(), Default::default()).unwrap();
        m.evaluate_all().unwrap();
        chains(&desc, &m).into_iter().map(|c| (c.relation, c.values)).collect()
    }

    #[test]
    fn successor_chains_and_total_orders_whatever_their_names() {
        let text =
            "(role p) (init (at zq)) (<= (legal p go) (true (at ?x))) (<= (next (at ?y)) (true (at ?x)) (xqv ?x ?y)) \
                    (<= terminal (true (at kp))) (goal p 100) \
                    (xqv mu zq) (xqv zq alpha) (xqv alpha kp) (xqv 1 2) \
                    (<= (less ?x ?y) (xqv ?x ?y)) (<= (less ?x ?z) (xqv ?x ?y) (less ?y ?z))";
        let got = chains_of(text);
        let strs = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(got.contains(&("xqv".into(), strs(&["mu", "zq", "alpha", "kp"]))), "{got:?}");
        assert!(got.contains(&("xqv".into(), strs(&["1", "2"]))), "{got:?}");
        // The transitive closure orders the same values the same way.
        assert!(got.contains(&("less".into(), strs(&["mu", "zq", "alpha", "kp"]))), "{got:?}");
        // The state relation `next` and keywords are never read.
        assert!(got.iter().all(|(r, _)| r == "xqv" || r == "less"), "{got:?}");
    }

    #[test]
    fn symmetric_branching_and_cyclic_relations_are_not_chains() {
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
