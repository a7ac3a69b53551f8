//! Static over-approximations of the state relations, so that the tabled evaluator refuses
//! a call no state can answer before it makes a table for it.
//!
//! A relation's rules with their `true`, `does` and `not` conditions dropped, reading the
//! relations they call relaxed in turn, derive at least what the rules derive in any state
//! (dropping a condition only lets more through). Where every relaxed rule stays safe and
//! the relaxation is small, it is evaluated once at load, like a static relation. A call
//! whose given arguments match none of its facts has no answer in any state: chess's walk
//! along a bishop's diagonal toward a king that is not on it, which otherwise walks to the
//! edge of the board.

use super::compile::{compile_rule, parts, RelId};
use super::eval::UNBOUND;
use super::store::{KeyHasher, SigNode, NONE};
use super::{Component, Limits, Phase, Reasoner};
use crate::ast::Term;
use crate::program::{graph_of, NLit, NRule};
use crate::term::TermId;

/// The most facts of one relaxed relation, and the join steps all of them may take at load.
const MAX_FACTS: usize = 1 << 17;
const MAX_JOIN_STEPS: u64 = 1 << 23;
/// Calls of a relation checked before its filter is judged; it is kept if it refused at
/// least one call in `KEEP_ONE_IN`.
const JUDGED_AFTER: u32 = 1 << 12;
const KEEP_ONE_IN: u32 = 16;

/// The relaxed relation that stands for one relation, with its indexes by given arguments.
struct Filter {
    rel: RelId,
    /// The index of each set of given arguments asked so far (bit `i`: argument `i`).
    indexes: Vec<(u64, u16)>,
    checks: u32,
    refused: u32,
}

/// The filters of the relations that have one.
#[derive(Default)]
pub(super) struct Relaxed {
    of: Vec<Option<Filter>>,
}

impl Relaxed {
    /// Whether a call of `rel` with `args` (`UNBOUND`: not given) has no answer in any state.
    pub(super) fn refuses(&mut self, r: &mut Reasoner, rel: RelId, args: &[TermId]) -> bool {
        let Some(Some(f)) = self.of.get_mut(rel as usize) else { return false };
        if args.len() > 64 {
            return false; // the given arguments would not fit their bits
        }
        let mut given = 0u64;
        let mut key = KeyHasher::new();
        for (i, &a) in args.iter().enumerate() {
            if a != UNBOUND {
                given |= 1 << i;
                key.add(a);
            }
        }
        if given == 0 {
            return false;
        }
        let ix = match f.indexes.iter().find(|x| x.0 == given) {
            Some(&(_, ix)) => ix,
            None => {
                let sig = (0..args.len())
                    .filter(|&i| args[i] != UNBOUND)
                    .map(|i| SigNode::Key { path: Box::new([i as u8]) })
                    .collect();
                let ix = r.facts[f.rel as usize].add_index(sig, &r.store);
                f.indexes.push((given, ix));
                ix
            }
        };
        // A chain under the key may hold only facts whose key collides: then the call runs.
        let refused = r.facts[f.rel as usize].chain_start(ix, key.finish()) == NONE;
        f.checks += 1;
        f.refused += refused as u32;
        if f.checks == JUDGED_AFTER && f.refused * KEEP_ONE_IN < f.checks {
            r.facts[f.rel as usize].take();
            self.of[rel as usize] = None;
        }
        refused
    }
}

impl Reasoner {
    /// Relaxes the relations `answered` marks (those answered top-down) whose relaxation
    /// is safe and small, and evaluates the relaxations.
    pub(super) fn relax(&mut self, rules: &[NRule], answered: &[bool]) -> Relaxed {
        let (r_true, r_does) = (self.r_true, self.r_does);
        let rel_of = |t: &Term| self.rels.get(t.name().expect("atoms are named"), t.args().len());
        let mut ok = answered.to_vec();
        let given = |t: &Term| rel_of(t).is_some_and(|q| q == r_true || q == r_does);
        let relaxed: Vec<(&NRule, RelId, Option<Vec<NLit>>)> = rules
            .iter()
            .filter_map(|rule| {
                let head = rel_of(&rule.head).filter(|&h| answered[h as usize])?;
                Some((rule, head, relaxed_body(rule, given)))
            })
            .collect();
        // A relation whose relaxed rule is unsafe, or reads one not relaxed, is not relaxed.
        let mut changed = true;
        while changed {
            changed = false;
            for (_, head, body) in &relaxed {
                let reads_unrelaxed = |body: &Vec<NLit>| {
                    body.iter().any(|l| match l {
                        NLit::Pos(t) => rel_of(t).is_some_and(|q| answered[q as usize] && !ok[q as usize]),
                        _ => false,
                    })
                };
                if ok[*head as usize] && body.as_ref().is_none_or(reads_unrelaxed) {
                    ok[*head as usize] = false;
                    changed = true;
                }
            }
        }
        let name = |rel: RelId| format!("relaxed~{}", self.rels.keys[rel as usize].0);
        let renamed: Vec<NRule> = (relaxed.iter())
            .filter(|(_, head, _)| ok[*head as usize])
            .map(|(rule, head, body)| {
                let rename = |t: &Term| match rel_of(t) {
                    Some(q) if ok[q as usize] => renamed_atom(t, &name(q)),
                    _ => t.clone(),
                };
                let body = body.as_ref().expect("relaxed").iter().map(|l| match l {
                    NLit::Pos(t) => NLit::Pos(rename(t)),
                    other => other.clone(),
                });
                NRule { head: renamed_atom(&rule.head, &name(*head)), body: body.collect(), span: rule.span }
            })
            .collect();
        let names: Vec<(RelId, String)> =
            (0..ok.len()).filter(|&q| ok[q]).map(|q| (q as RelId, name(q as RelId))).collect();
        let evaluated = self.evaluate_relaxed(&renamed);
        let mut of: Vec<Option<Filter>> = (0..answered.len()).map(|_| None).collect();
        for (q, name) in names {
            let arity = self.rels.keys[q as usize].1;
            if let Some(rel) = self.rels.get(&name, arity).filter(|&rel| evaluated.contains(&rel)) {
                of[q as usize] = Some(Filter { rel, indexes: Vec::new(), checks: 0, refused: 0 });
            }
        }
        Relaxed { of }
    }

    /// Evaluates the relaxed rules as static components, dependencies first, within small
    /// limits; returns the relations evaluated in full (a component past a limit is
    /// dropped, and so is every component reading it).
    fn evaluate_relaxed(&mut self, rules: &[NRule]) -> Vec<RelId> {
        let graph = graph_of(rules);
        let limits = self.limits;
        self.limits = Limits { max_facts: MAX_FACTS.min(limits.max_facts), ..limits };
        let budget_before = self.work;
        let mut evaluated = Vec::new();
        let mut failed: Vec<RelId> = Vec::new();
        for scc in graph.sccs() {
            let rels: Vec<RelId> = scc.iter().map(|&g| self.rels.id(&graph.rels[g].0, graph.rels[g].1)).collect();
            while self.facts.len() < self.rels.keys.len() {
                self.facts.push(super::store::RelStore::new(self.rels.keys[self.facts.len()].1));
                self.delta.push((0, 0));
            }
            let own: Vec<&NRule> = rules
                .iter()
                .filter(|r| {
                    scc.contains(&graph.get(r.head.name().expect("named"), r.head.args().len()).expect("in graph"))
                })
                .collect();
            if own.is_empty() {
                continue; // a static relation the relaxed rules read
            }
            let is_failed =
                |t: &Term| self.rels.get(t.name().expect("named"), t.args().len()).is_some_and(|q| failed.contains(&q));
            let reads_failed = own.iter().any(|r| r.body.iter().any(|l| matches!(l, NLit::Pos(t) if is_failed(t))));
            let spent = self.work - budget_before;
            let mut ok = !reads_failed && spent < MAX_JOIN_STEPS;
            if ok {
                ok = self.evaluate_component_of(&rels, &own, graph.is_recursive(&scc), MAX_JOIN_STEPS - spent);
            }
            if ok {
                evaluated.extend(&rels);
            } else {
                for &rel in &rels {
                    self.facts[rel as usize].take();
                    failed.push(rel);
                }
            }
        }
        self.limits = limits;
        evaluated
    }

    /// Compiles and evaluates one static component of relaxed rules within `steps` join
    /// steps; false if a limit stopped it.
    fn evaluate_component_of(&mut self, rels: &[RelId], rules: &[&NRule], recursive: bool, steps: u64) -> bool {
        let c = self.comps.len();
        let mut crules = Vec::new();
        for rule in rules {
            let same = |rel: RelId| rels.contains(&rel);
            let sizes = &self.sizes;
            let estimate = |rel: RelId, args: &[super::compile::Pat], bound: &[bool]| sizes.estimate(rel, args, bound);
            let compiled = parts(rule, &mut self.store, &mut self.rels).and_then(|p| {
                compile_rule(rule, &p, &mut self.store, &mut self.rels, &mut self.facts, &same, &estimate)
            });
            match compiled {
                Ok(cr) => crules.push(cr),
                Err(_) => return false,
            }
        }
        self.comps.push(Component { rels: rels.to_vec(), rules: crules, recursive, phase: Phase::Static });
        self.done.push(false);
        let cap = self.work_cap;
        self.work_cap = self.work.saturating_add(steps);
        let result = self.evaluate(&[c]);
        self.work_cap = cap;
        result.is_ok()
    }
}

/// A rule's body with its `true`, `does` and `not` conditions dropped (`given` tells the
/// atoms of `true` and `does`); `None` if a variable of the head or of a `distinct` is then
/// bound by no condition left.
fn relaxed_body(rule: &NRule, given: impl Fn(&Term) -> bool) -> Option<Vec<NLit>> {
    let body: Vec<NLit> = rule
        .body
        .iter()
        .filter(|l| match l {
            NLit::Pos(t) => !given(t),
            NLit::Neg(_) => false,
            NLit::Distinct(..) | NLit::Same(..) => true,
        })
        .cloned()
        .collect();
    let mut bound = Vec::new();
    for l in &body {
        if let NLit::Pos(t) = l {
            t.for_each_var(&mut |v, _| bound.push(v));
        }
    }
    let mut safe = true;
    let mut check = |v: &str, _| safe &= bound.contains(&v);
    rule.head.for_each_var(&mut check);
    for l in &body {
        if let NLit::Distinct(a, b) | NLit::Same(a, b) = l {
            a.for_each_var(&mut check);
            b.for_each_var(&mut check);
        }
    }
    safe.then_some(body)
}

/// The atom `t` with its relation renamed.
fn renamed_atom(t: &Term, name: &str) -> Term {
    match t {
        Term::Func(_, args, span) => Term::Func(name.to_string(), args.clone(), *span),
        other => Term::Const(name.to_string(), other.span()),
    }
}
