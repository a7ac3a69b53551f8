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
        let n = self.rels.len();
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
                if let Some(e) = self.edges[v].get(*ei) {
                    *ei += 1;
                    let w = e.to;
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
                        cycle.extend(self.path_within(e.to, from, comp_of[from], &comp_of));
                        cycle.pop();
                        return Some((cycle, e.span));
                    }
                }
            }
        }
        None
    }

    /// A shortest path `from → .. → to` inside one component (breadth first).
    fn path_within(&self, from: usize, to: usize, comp: usize, comp_of: &[usize]) -> Vec<usize> {
        let mut prev = FxHashMap::default();
        let mut queue = std::collections::VecDeque::from([from]);
        prev.insert(from, from);
        while let Some(v) = queue.pop_front() {
            if v == to {
                break;
            }
            for e in &self.edges[v] {
                if comp_of[e.to] == comp && !prev.contains_key(&e.to) {
                    prev.insert(e.to, v);
                    queue.push_back(e.to);
                }
            }
        }
        let mut path = vec![to];
        let mut v = to;
        while v != from {
            v = prev[&v];
            path.push(v);
        }
        path.reverse();
        path
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
