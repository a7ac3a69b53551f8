//! Demand (magic-set) transformation: relations too big to compute in full are computed
//! only for the arguments their callers ask about.
//!
//! For each chosen relation `p` an adornment (the argument positions every caller binds) is
//! found; `p`'s rules get a first literal `magic~p(bound args)`, and each call of `p` adds a
//! rule deriving `magic~p` from the caller's other positive conditions (and the caller's
//! own magic literal, when the caller is transformed too). A caller whose call binds
//! nothing is transformed as well, if it may be. The result is checked for stratification;
//! the caller falls back to the plain program when the transformation cannot apply.

use crate::ast::{Term, RESERVED};
use crate::diagnostic::Span;
use crate::program::{graph_of, NLit, NRule};
use rustc_hash::{FxHashMap, FxHashSet};

type Key = (String, usize);

fn key(t: &Term) -> Key {
    (t.name().expect("named").to_string(), t.args().len())
}

fn magic_name(k: &Key) -> String {
    format!("magic~{}~{}", k.0, k.1)
}

/// Transforms the rules so that the relations in `wanted` (and the callers they need) are
/// computed on demand. `None` if none of them can be.
pub fn transform(rules: &[NRule], wanted: &[Key]) -> Option<Vec<NRule>> {
    let graph = graph_of(rules);
    let eligible = |k: &Key| {
        graph.index.get(k).is_some_and(|&r| {
            let recursive = graph.reachable(graph.edges[r].iter().map(|e| e.to))[r];
            !RESERVED.contains(&k.0.as_str()) && graph.defined[r] && !recursive && k.1 > 0
        })
    };
    let mut chosen: FxHashSet<Key> = wanted.iter().filter(|k| eligible(k)).cloned().collect();
    let adornments = loop {
        if chosen.is_empty() {
            return None;
        }
        let ad = adornments(rules, &chosen);
        // A relation nobody binds needs its callers transformed too.
        let mut grow = Vec::new();
        let mut drop = Vec::new();
        for p in &chosen {
            if ad[p].iter().any(|&b| b) {
                continue;
            }
            let new: Vec<Key> = callers(rules, p).into_iter().filter(|c| !chosen.contains(c) && eligible(c)).collect();
            if new.is_empty() {
                drop.push(p.clone());
            } else {
                grow.extend(new);
            }
        }
        if grow.is_empty() && drop.is_empty() {
            break ad;
        }
        if grow.is_empty() {
            drop.iter().for_each(|p| {
                chosen.remove(p);
            });
        }
        chosen.extend(grow);
    };
    let out = rewrite(rules, &chosen, &adornments);
    graph_of(&out).negative_cycle().is_none().then_some(out)
}

/// The relations whose rules call `p`.
pub fn callers(rules: &[NRule], p: &Key) -> Vec<Key> {
    let mut out: Vec<Key> = Vec::new();
    for r in rules.iter().filter(|r| r.body.iter().any(|l| calls(l, p))) {
        let k = key(&r.head);
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

fn calls(l: &NLit, p: &Key) -> bool {
    matches!(l, NLit::Pos(t) | NLit::Neg(t) if &key(t) == p)
}

fn vars_of(t: &Term, out: &mut FxHashSet<String>) {
    t.for_each_var(&mut |v, _| {
        out.insert(v.to_string());
    });
}

/// Variables a rule binds before calling anything chosen: its positive literals of other
/// relations, and the head's bound arguments when the head is chosen.
fn context_vars(r: &NRule, chosen: &FxHashSet<Key>, ad: &FxHashMap<Key, Vec<bool>>) -> FxHashSet<String> {
    let mut bound = FxHashSet::default();
    for l in &r.body {
        if let NLit::Pos(t) = l {
            if !chosen.contains(&key(t)) {
                vars_of(t, &mut bound);
            }
        }
    }
    if let Some(a) = ad.get(&key(&r.head)) {
        for (arg, &b) in r.head.args().iter().zip(a) {
            if b {
                vars_of(arg, &mut bound);
            }
        }
    }
    bound
}

/// The positions every call binds, for each chosen relation (greatest fixpoint).
fn adornments(rules: &[NRule], chosen: &FxHashSet<Key>) -> FxHashMap<Key, Vec<bool>> {
    let mut ad: FxHashMap<Key, Vec<bool>> = chosen.iter().map(|k| (k.clone(), vec![true; k.1])).collect();
    loop {
        let mut changed = false;
        for r in rules {
            let bound = context_vars(r, chosen, &ad);
            for l in &r.body {
                let (NLit::Pos(t) | NLit::Neg(t)) = l else { continue };
                let k = key(t);
                let Some(a) = ad.get(&k).cloned() else { continue };
                let mut next = a.clone();
                for (i, arg) in t.args().iter().enumerate() {
                    let mut vs = FxHashSet::default();
                    vars_of(arg, &mut vs);
                    if !vs.iter().all(|v| bound.contains(v)) {
                        next[i] = false;
                    }
                }
                if next != a {
                    ad.insert(k, next);
                    changed = true;
                }
            }
        }
        if !changed {
            return ad;
        }
    }
}

fn bound_args(t: &Term, a: &[bool]) -> Vec<Term> {
    t.args().iter().zip(a).filter(|(_, &b)| b).map(|(x, _)| x.clone()).collect()
}

fn magic_atom(k: &Key, args: Vec<Term>, span: Span) -> Term {
    if args.is_empty() {
        Term::Const(magic_name(k), span)
    } else {
        Term::Func(magic_name(k), args, span)
    }
}

fn rewrite(rules: &[NRule], chosen: &FxHashSet<Key>, ad: &FxHashMap<Key, Vec<bool>>) -> Vec<NRule> {
    let mut out = Vec::new();
    for r in rules {
        let head_key = key(&r.head);
        let head_magic = ad.get(&head_key).map(|a| magic_atom(&head_key, bound_args(&r.head, a), r.span));
        // Demand for every chosen relation this rule calls.
        let context: Vec<NLit> = head_magic
            .iter()
            .map(|m| NLit::Pos(m.clone()))
            .chain(r.body.iter().filter(|l| matches!(l, NLit::Pos(t) if !chosen.contains(&key(t)))).cloned())
            .collect();
        for l in &r.body {
            let (NLit::Pos(t) | NLit::Neg(t)) = l else { continue };
            let k = key(t);
            if let Some(a) = ad.get(&k) {
                out.push(NRule { head: magic_atom(&k, bound_args(t, a), r.span), body: context.clone(), span: r.span });
            }
        }
        let mut body: Vec<NLit> = head_magic.into_iter().map(NLit::Pos).collect();
        body.extend(r.body.iter().cloned());
        out.push(NRule { head: r.head.clone(), body, span: r.span });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;
    use crate::program::normalise;

    #[test]
    fn demand_flows_from_callers() {
        let rules = normalise(
            &parse(
                "(<= (legal p (go ?a)) (true (at ?a)) (not (far ?a 1)))\n\
                 (<= (far ?x ?y) (big ?x ?y ?z))\n\
                 (<= (big ?x ?y ?z) (n ?x) (n ?y) (n ?z))",
            )
            .description,
        )
        .unwrap();
        let out = transform(&rules, &[("big".into(), 3)]).unwrap();
        let text: Vec<String> = out.iter().map(ToString::to_string).collect();
        expect_test::expect![[r#"
            (magic~far~2 ?a 1) :- (true (at ?a))
            (legal p (go ?a)) :- (true (at ?a)) (not (far ?a 1))
            (magic~big~3 ?x ?y) :- (magic~far~2 ?x ?y)
            (far ?x ?y) :- (magic~far~2 ?x ?y) (big ?x ?y ?z)
            (big ?x ?y ?z) :- (magic~big~3 ?x ?y) (n ?x) (n ?y) (n ?z)"#]]
        .assert_eq(&text.join("\n"));
    }

    #[test]
    fn keywords_and_recursive_relations_stay() {
        let rules = normalise(&parse("(<= (legal p ?x) (n ?x)) (<= (n ?x) (n ?x))").description).unwrap();
        assert!(transform(&rules, &[("legal".into(), 2)]).is_none());
        assert!(transform(&rules, &[("n".into(), 1)]).is_none());
    }
}
