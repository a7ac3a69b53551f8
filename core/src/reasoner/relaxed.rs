//! Static over-approximations of the state relations, so that the tabled evaluator refuses
//! a call no state can answer before it makes a table for it.
//!
//! A relation's rules with their `true`, `does` and `not` conditions dropped, reading the
//! relations they call relaxed in turn, derive at least what the rules derive in any state
//! (dropping a condition only lets more through); so does a relaxation that leaves out the
//! argument positions a relaxed rule no longer binds. What is left, when small, is
//! evaluated once at load like a static relation. A call whose given arguments, on the
//! positions kept, match none of its facts has no answer in any state: chess's walk along a
//! bishop's diagonal toward a king not on it, which otherwise walks to the board's edge.

use super::compile::{compile_rule, parts, RelId};
use super::eval::UNBOUND;
use super::store::KeyHasher;
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

/// The relaxed relation that stands for one relation, with the keys of its facts by given
/// arguments.
struct Filter {
    rel: RelId,
    /// The positions of the relation the relaxed one keeps, in order.
    kept: Vec<usize>,
    /// The keys of each set of given arguments asked so far (bit `j`: kept position `j`).
    keys: Vec<(u64, KeySet)>,
    checks: u32,
    refused: u32,
}

/// The key hashes of a relation's facts on some positions, one bit per hash slot: a call
/// whose slot is clear matches no fact (a set one may be another key's: the call runs).
/// Eight bits a fact keep a check to one cache line of a small array, where a hash index
/// of 100k facts costs two misses.
struct KeySet {
    bits: Vec<u64>,
    shift: u32,
}

impl KeySet {
    fn new(facts: usize) -> KeySet {
        let slots = (facts.max(8) * 8).next_power_of_two();
        KeySet { bits: vec![0; slots / 64], shift: 64 - slots.trailing_zeros() }
    }

    fn slot(&self, hash: u64) -> (usize, u64) {
        let s = (hash >> self.shift) as usize;
        (s / 64, 1 << (s % 64))
    }

    fn insert(&mut self, hash: u64) {
        let (w, bit) = self.slot(hash);
        self.bits[w] |= bit;
    }

    fn may_hold(&self, hash: u64) -> bool {
        let (w, bit) = self.slot(hash);
        self.bits[w] & bit != 0
    }
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
        let mut given = 0u64;
        let mut key = KeyHasher::new();
        for (j, &i) in f.kept.iter().enumerate() {
            if args[i] != UNBOUND {
                given |= 1 << j;
                key.add(args[i]);
            }
        }
        if given == 0 {
            return false;
        }
        let keys = match f.keys.iter().position(|x| x.0 == given) {
            Some(k) => &f.keys[k].1,
            None => {
                let facts = &r.facts[f.rel as usize];
                let mut keys = KeySet::new(facts.len() as usize);
                for i in 0..facts.len() {
                    let mut h = KeyHasher::new();
                    let tuple = facts.tuple(i);
                    (0..f.kept.len()).filter(|&j| given & 1 << j != 0).for_each(|j| h.add(tuple[j]));
                    keys.insert(h.finish());
                }
                f.keys.push((given, keys));
                &f.keys[f.keys.len() - 1].1
            }
        };
        let refused = !keys.may_hold(key.finish());
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
    /// Relaxes the relations `answered` marks (those answered top-down) that a rule calls,
    /// and evaluates the relaxations small enough.
    pub(super) fn relax(&mut self, rules: &[NRule], answered: &[bool]) -> Relaxed {
        let rels = &self.rels;
        let rel_of = |t: &Term| rels.get(t.name().expect("atoms are named"), t.args().len());
        let (r_true, r_does) = (self.r_true, self.r_does);
        let mine: Vec<(&NRule, RelId)> = (rules.iter())
            .filter_map(|rule| rel_of(&rule.head).filter(|&h| answered[h as usize]).map(|h| (rule, h)))
            .collect();
        // The relations a rule calls, and those their relaxed rules read.
        let mut needed = vec![false; answered.len()];
        for (rule, _) in &mine {
            for l in &rule.body {
                if let NLit::Pos(t) | NLit::Neg(t) = l {
                    if let Some(q) = rel_of(t).filter(|&q| answered[q as usize]) {
                        needed[q as usize] = true;
                    }
                }
            }
        }
        let mut kept: Vec<Vec<bool>> = (0..answered.len()).map(|q| vec![needed[q]; rels.keys[q].1]).collect();
        let lit = |t: &Term| match rel_of(t) {
            Some(q) if q == r_true || q == r_does => Lit::Dropped,
            Some(q) if answered[q as usize] => Lit::Relaxed(q),
            _ => Lit::Static,
        };
        // A position is left out when one rule leaves it out, until no rule leaves out more.
        let mut changed = true;
        while changed {
            changed = false;
            for (rule, head) in &mine {
                if !needed[*head as usize] {
                    continue;
                }
                let keeps = relaxed_rule(rule, &kept, &lit).1;
                for (i, k) in keeps.into_iter().enumerate() {
                    changed |= kept[*head as usize][i] && !k;
                    kept[*head as usize][i] &= k;
                }
            }
        }
        let name = |q: RelId| format!("relaxed~{}/{}", rels.keys[q as usize].0, rels.keys[q as usize].1);
        let relaxed: Vec<NRule> = (mine.iter())
            .filter(|(_, head)| needed[*head as usize])
            .map(|(rule, head)| {
                let (body, _) = relaxed_rule(rule, &kept, &lit);
                let body = body.into_iter().map(|l| match l {
                    NLit::Pos(t) => match lit(&t) {
                        Lit::Relaxed(q) => NLit::Pos(projected(&t, &name(q), &kept[q as usize])),
                        _ => NLit::Pos(t),
                    },
                    other => other,
                });
                let head = projected(&rule.head, &name(*head), &kept[*head as usize]);
                NRule { head, body: body.collect(), span: rule.span }
            })
            .collect();
        let names: Vec<(RelId, String)> =
            (0..needed.len()).filter(|&q| needed[q]).map(|q| (q as RelId, name(q as RelId))).collect();
        let evaluated = self.evaluate_relaxed(&relaxed);
        let mut of: Vec<Option<Filter>> = (0..answered.len()).map(|_| None).collect();
        for (q, name) in names {
            let positions: Vec<usize> = (0..kept[q as usize].len()).filter(|&i| kept[q as usize][i]).collect();
            let rel = self.rels.get(&name, positions.len()).filter(|rel| evaluated.contains(rel));
            if let (Some(rel), false, true) = (rel, positions.is_empty(), positions.len() <= 64) {
                of[q as usize] = Some(Filter { rel, kept: positions, keys: Vec::new(), checks: 0, refused: 0 });
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
            self.grow_stores();
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

/// What a relaxed rule does with a positive condition.
enum Lit {
    /// `true` or `does`: dropped.
    Dropped,
    /// A relation answered top-down: read relaxed, on its kept positions.
    Relaxed(RelId),
    /// A static relation: kept.
    Static,
}

/// A rule relaxed: its body without `true`, `does` and `not` (relaxed relations read on
/// their kept positions, `distinct` kept where what it compares stays bound), and the head
/// positions it can keep: those `kept` keeps whose variables the body still binds.
fn relaxed_rule(rule: &NRule, kept: &[Vec<bool>], lit: &dyn Fn(&Term) -> Lit) -> (Vec<NLit>, Vec<bool>) {
    let mut in_head: Vec<&str> = Vec::new();
    rule.head.for_each_var(&mut |v, _| in_head.push(v));
    let mut bound: Vec<&str> = Vec::new();
    for l in &rule.body {
        let NLit::Pos(t) = l else { continue };
        let does = lit(t);
        match does {
            Lit::Dropped => {}
            Lit::Relaxed(q) => (t.args().iter().zip(&kept[q as usize]))
                .filter(|(_, &k)| k)
                .for_each(|(a, _)| a.for_each_var(&mut |v, _| bound.push(v))),
            Lit::Static if type_test(t, &does).is_some() => {}
            Lit::Static => t.for_each_var(&mut |v, _| bound.push(v)),
        }
    }
    // A variable only type tests bind says nothing of the others (its position is left out,
    // with its tests), unless it stands twice in the head: that equality is kept.
    let mut body = Vec::new();
    for l in &rule.body {
        let NLit::Pos(t) = l else { continue };
        let does = lit(t);
        if let Lit::Dropped = does {
            continue;
        }
        if let Some(v) = type_test(t, &does) {
            if !bound.contains(&v) && in_head.iter().filter(|&&h| h == v).count() < 2 {
                continue;
            }
            bound.push(v);
        }
        body.push(l.clone());
    }
    let is_bound = |t: &Term| {
        let mut all = true;
        t.for_each_var(&mut |v, _| all &= bound.contains(&v));
        all
    };
    for l in &rule.body {
        if let NLit::Distinct(a, b) | NLit::Same(a, b) = l {
            if is_bound(a) && is_bound(b) {
                body.push(l.clone());
            }
        }
    }
    let head_kept = match lit(&rule.head) {
        Lit::Relaxed(q) => &kept[q as usize],
        _ => unreachable!("the rules relaxed define relations answered top-down"),
    };
    let keeps = (rule.head.args().iter().zip(head_kept)).map(|(a, &k)| k && is_bound(a)).collect();
    (body, keeps)
}

/// The variable a type test tests: a static condition (`does`: what the relaxed rule does
/// with `t`) on one variable alone, such as `(coordinate ?x)`.
fn type_test<'t>(t: &'t Term, does: &Lit) -> Option<&'t str> {
    match (does, t.args()) {
        (Lit::Static, [Term::Var(v, _)]) => Some(v.as_str()),
        _ => None,
    }
}

/// The atom `t` renamed, with only the argument positions `kept` keeps.
fn projected(t: &Term, name: &str, kept: &[bool]) -> Term {
    let args: Vec<Term> = (t.args().iter().zip(kept)).filter(|(_, &k)| k).map(|(a, _)| a.clone()).collect();
    if args.is_empty() {
        Term::Const(name.to_string(), t.span())
    } else {
        Term::Func(name.to_string(), args, t.span())
    }
}
