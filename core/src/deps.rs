//! The relation dependency graph of a description: which relation's rules use which
//! relations, positively or under `not`; its strongly connected components and strata.
//!
//! Invariant: `sccs()` lists components so that every component comes after all the
//! components it depends on (dependencies first), the order in which to evaluate them.

use crate::ast::{Description, Term};
use crate::diagnostic::Span;
use rustc_hash::FxHashMap;

/// A relation: its name and its number of arguments.
pub type RelKey = (String, usize);

/// One use of a relation in a rule body.
#[derive(Clone, Debug)]
pub struct Edge {
    pub to: usize,
    pub negative: bool,
    /// Where the body literal is.
    pub span: Span,
}

#[derive(Debug, Default)]
pub struct DepGraph {
    pub rels: Vec<RelKey>,
    pub index: FxHashMap<RelKey, usize>,
    /// `edges[head]`: the relations the rules for `head` use.
    pub edges: Vec<Vec<Edge>>,
    /// Whether some rule or fact defines the relation.
    pub defined: Vec<bool>,
}

/// The relation key of a sentence, `None` for a variable.
pub fn rel_key(t: &Term) -> Option<RelKey> {
    t.name().map(|n| (n.to_string(), t.args().len()))
}

/// Strongly connected components of a graph of `n` nodes, dependencies first (Tarjan,
/// iterative, so deep graphs cannot overflow the stack). `edge(v, i)` is the `i`-th successor
/// of `v`, `None` past the last one.
pub fn sccs(n: usize, edge: impl Fn(usize, usize) -> Option<usize>) -> Vec<Vec<usize>> {
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    let mut next = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // (node, next edge to look at)
        let mut work = vec![(root, 0)];
        while let Some(&mut (v, ref mut ei)) = work.last_mut() {
            if *ei == 0 && index[v] == usize::MAX {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(w) = edge(v, *ei) {
                *ei += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                loop {
                    let w = stack.pop().expect("on stack");
                    on_stack[w] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                comp.sort_unstable();
                out.push(comp);
            }
        }
    }
    out
}

impl DepGraph {
    pub fn build(desc: &Description) -> DepGraph {
        let mut g = DepGraph::default();
        for rule in desc.rules() {
            let mut body = Vec::new();
            for lit in &rule.body {
                lit.for_each_atom(false, &mut |atom, negative| body.push((atom, negative)));
            }
            g.add_rule(&rule.head, body);
        }
        g
    }

    /// Adds the edges of one rule: `body` lists its atoms with whether each is negated.
    pub fn add_rule<'a>(&mut self, head: &Term, body: impl IntoIterator<Item = (&'a Term, bool)>) {
        let Some(head) = rel_key(head) else { return };
        let h = self.id(head);
        self.defined[h] = true;
        for (atom, negative) in body {
            if let Some(k) = rel_key(atom) {
                let to = self.id(k);
                self.edges[h].push(Edge { to, negative, span: atom.span() });
            }
        }
    }

    /// The id of a relation, adding it if new.
    pub fn id(&mut self, key: RelKey) -> usize {
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        let i = self.rels.len();
        self.index.insert(key.clone(), i);
        self.rels.push(key);
        self.edges.push(Vec::new());
        self.defined.push(false);
        i
    }

    pub fn get(&self, name: &str, arity: usize) -> Option<usize> {
        self.index.get(&(name.to_string(), arity)).copied()
    }

    /// Strongly connected components, dependencies first (Tarjan, iterative).
    pub fn sccs(&self) -> Vec<Vec<usize>> {
        sccs(self.rels.len(), |v, i| self.edges[v].get(i).map(|e| e.to))
    }

    /// Is the relation recursive (in a cycle, possibly with itself)?
    pub fn is_recursive(&self, scc: &[usize]) -> bool {
        scc.len() > 1 || self.edges[scc[0]].iter().any(|e| e.to == scc[0])
    }

    /// A cycle through negation, if any: the relations on it (first = last omitted) and the
    /// negative edge's span.
    pub fn negative_cycle(&self) -> Option<(Vec<usize>, Span)> {
        let sccs = self.sccs();
        let mut comp_of = vec![0; self.rels.len()];
        for (c, comp) in sccs.iter().enumerate() {
            for &r in comp {
                comp_of[r] = c;
            }
        }
        for comp in &sccs {
            for &from in comp {
                for e in &self.edges[from] {
                    if e.negative && comp_of[e.to] == comp_of[from] {
                        let mut cycle = vec![from];
                        let comp = comp_of[from];
                        let path = self.shortest_path(e.to, |v| v == from, |v| comp_of[v] == comp);
                        cycle.extend(path.expect("a component is strongly connected"));
                        cycle.pop();
                        return Some((cycle, e.span));
                    }
                }
            }
        }
        None
    }

    /// A shortest path from `from` to the first relation `is_target` accepts, following
    /// only edges into relations `allowed` accepts (breadth first); `None` if none is
    /// reachable.
    pub fn shortest_path(
        &self,
        from: usize,
        is_target: impl Fn(usize) -> bool,
        allowed: impl Fn(usize) -> bool,
    ) -> Option<Vec<usize>> {
        let mut prev = FxHashMap::default();
        let mut queue = std::collections::VecDeque::from([from]);
        prev.insert(from, from);
        while let Some(v) = queue.pop_front() {
            if is_target(v) {
                let mut path = vec![v];
                let mut at = v;
                while at != from {
                    at = prev[&at];
                    path.push(at);
                }
                path.reverse();
                return Some(path);
            }
            for e in &self.edges[v] {
                if allowed(e.to) && !prev.contains_key(&e.to) {
                    prev.insert(e.to, v);
                    queue.push_back(e.to);
                }
            }
        }
        None
    }

    /// Every relation reachable from `roots` by following edges (roots included).
    pub fn reachable(&self, roots: impl IntoIterator<Item = usize>) -> Vec<bool> {
        let mut seen = vec![false; self.rels.len()];
        let mut stack: Vec<usize> = roots.into_iter().collect();
        while let Some(v) = stack.pop() {
            if !std::mem::replace(&mut seen[v], true) {
                stack.extend(self.edges[v].iter().map(|e| e.to));
            }
        }
        seen
    }

    /// `name/arity` for messages.
    pub fn name(&self, r: usize) -> String {
        let (n, a) = &self.rels[r];
        format!("{n}/{a}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    #[test]
    fn sccs_come_dependencies_first_and_negative_cycles_are_found() {
        let d = parse("(<= (a ?x) (b ?x)) (<= (b ?x) (c ?x)) (<= (c ?x) (b ?x)) (<= (c ?x) (d ?x))").description;
        let g = DepGraph::build(&d);
        let order: Vec<Vec<String>> = g.sccs().iter().map(|c| c.iter().map(|&r| g.name(r)).collect()).collect();
        assert_eq!(order, vec![vec!["d/1".to_string()], vec!["b/1".into(), "c/1".into()], vec!["a/1".into()]]);
        assert!(g.negative_cycle().is_none());

        let d = parse("(<= p (q a)) (<= (q ?x) (r ?x) (not p))").description;
        let g = DepGraph::build(&d);
        let (cycle, _) = g.negative_cycle().unwrap();
        let names: Vec<String> = cycle.iter().map(|&r| g.name(r)).collect();
        assert_eq!(names, vec!["q/1", "p/0"]);
    }
}

/// The relation graph as plain data, for display: nodes with their stratum and whether they
/// depend on the state, edges with their sign.
#[derive(Clone, Debug, serde::Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct RuleGraph {
    pub nodes: Vec<GraphNode>,
    pub edges: Vec<GraphEdge>,
}

#[derive(Clone, Debug, serde::Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct GraphNode {
    /// `name/arity`.
    pub id: String,
    pub name: String,
    pub arity: usize,
    /// 0 for relations with no negation below them; +1 across each `not`.
    pub stratum: usize,
    /// `static` (no `true`/`does` below), `state` (depends on `true`) or `move` (on `does`).
    #[cfg_attr(feature = "tsify", tsify(type = "\"static\" | \"state\" | \"move\""))]
    pub kind: &'static str,
    pub recursive: bool,
    pub defined: bool,
}

#[derive(Clone, Debug, serde::Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct GraphEdge {
    /// The relation whose rules use `to`.
    pub from: String,
    pub to: String,
    pub negative: bool,
}

impl DepGraph {
    /// Strata and kinds of every relation (meaningful for stratified graphs).
    pub fn rule_graph(&self) -> RuleGraph {
        let sccs = self.sccs();
        let n = self.rels.len();
        let mut stratum = vec![0; n];
        let mut kind = vec!["static"; n];
        let mut recursive = vec![false; n];
        for scc in &sccs {
            // Iterate inside a component until strata settle (bounded: no negative cycle
            // means at most one pass per member).
            for _ in 0..scc.len() {
                for &r in scc {
                    for e in &self.edges[r] {
                        let s = stratum[e.to] + usize::from(e.negative && !scc.contains(&e.to));
                        stratum[r] = stratum[r].max(s);
                    }
                }
            }
            let mut k = "static";
            for &r in scc {
                match self.rels[r].0.as_str() {
                    "does" => k = "move",
                    "true" if k == "static" => k = "state",
                    _ => {}
                }
                for e in &self.edges[r] {
                    if kind[e.to] == "move" || (kind[e.to] == "state" && k == "static") {
                        k = kind[e.to];
                    }
                }
            }
            let rec = self.is_recursive(scc);
            for &r in scc {
                kind[r] = k;
                recursive[r] = rec;
            }
        }
        let nodes = (0..n)
            .map(|r| GraphNode {
                id: self.name(r),
                name: self.rels[r].0.clone(),
                arity: self.rels[r].1,
                stratum: stratum[r],
                kind: kind[r],
                recursive: recursive[r],
                defined: self.defined[r],
            })
            .collect();
        let mut edges: Vec<GraphEdge> = Vec::new();
        for (from, es) in self.edges.iter().enumerate() {
            for e in es {
                let edge = GraphEdge { from: self.name(from), to: self.name(e.to), negative: e.negative };
                if !edges.iter().any(|x| x.from == edge.from && x.to == edge.to && x.negative == edge.negative) {
                    edges.push(edge);
                }
            }
        }
        RuleGraph { nodes, edges }
    }
}

#[cfg(test)]
mod graph_tests {
    use super::*;
    use crate::parse::parse;

    #[test]
    fn strata_and_kinds() {
        let d = parse(
            "(succ 1 2) (<= (less ?x ?y) (succ ?x ?y)) (<= (less ?x ?z) (less ?x ?y) (succ ?y ?z))\n\
             (<= open (true (cell ?x b))) (<= (legal p (go ?x)) (succ ?x ?y) (not open))\n\
             (<= (next (cell ?x b)) (does p (go ?x)))",
        )
        .description;
        let g = DepGraph::build(&d).rule_graph();
        let node = |id: &str| g.nodes.iter().find(|n| n.id == id).unwrap();
        assert_eq!((node("less/2").stratum, node("less/2").kind, node("less/2").recursive), (0, "static", true));
        assert_eq!((node("open/0").stratum, node("open/0").kind), (0, "state"));
        assert_eq!((node("legal/2").stratum, node("legal/2").kind), (1, "state"));
        assert_eq!(node("next/1").kind, "move");
        assert!(g.edges.iter().any(|e| e.from == "legal/2" && e.to == "open/0" && e.negative));
    }
}
