//! Demand (magic-set) transformation: relations too big to compute in full are computed
//! only for the arguments their callers ask about.
//!
//! Generalised magic sets with one adorned copy per binding pattern: every call of a chosen
//! relation `p` binds some of its arguments (those bound by the caller's bound head
//! arguments and by the positive conditions written before the call, the order a Prolog
//! reasoner evaluates them in); the call reads the copy `p~bf..` (b: bound, f: free) whose
//! rules start with `magic~p~bf..(bound args)`, and a rule derives that demand from those
//! conditions. Recursive relations are transformed like any other (their demand is
//! recursive too). A call that binds nothing reads `p` as written, computed in full; then
//! `p`'s callers are put on demand as well, if they may be. The result is checked for
//! stratification; the caller falls back to the plain program when the transformation
//! cannot apply.

use crate::ast::{Term, RESERVED};
use crate::diagnostic::Span;
use crate::program::{graph_of, NLit, NRule};
use rustc_hash::{FxHashMap, FxHashSet};

type Key = (String, usize);

fn key(t: &Term) -> Key {
    (t.name().expect("named").to_string(), t.args().len())
}

/// Which arguments of a call are bound: `b` or `f` per argument.
type Adornment = String;

fn adorned_name(name: &str, a: &str) -> String {
    format!("{name}~{a}")
}

fn magic_name(name: &str, a: &str) -> String {
    format!("magic~{name}~{a}")
}

/// The relation of the rules as written that an adorned copy stands for (`None` for any
/// other relation, the demand relations `magic~...` included).
pub fn adorned(k: &Key) -> Option<Key> {
    match k.0.rsplit_once('~') {
        Some((name, a))
            if a.len() == k.1
                && a.bytes().all(|c| c == b'b' || c == b'f')
                && !name.starts_with("magic~")
                && !name.is_empty()
                && !name.ends_with('~') =>
        {
            Some((name.to_string(), k.1))
        }
        _ => None,
    }
}

/// The relation of the rules as written that a transformed relation stands for.
pub fn original(k: &Key) -> Key {
    adorned(k).unwrap_or_else(|| k.clone())
}

/// Transforms the rules so that the relations in `wanted` (and the callers they need) are
/// computed on demand. `None` if none of them can be.
pub fn transform(rules: &[NRule], wanted: &[Key]) -> Option<Vec<NRule>> {
    transform_asking(rules, wanted, &FxHashSet::default())
}

/// `transform`, where the negated calls of the relations in `asked` are asked but not read:
/// a chosen one gets its demand, then both leave the bodies (the grounder's relaxed program,
/// which drops negated dynamic literals but must compute the instances their atoms need).
pub fn transform_asking(rules: &[NRule], wanted: &[Key], asked: &FxHashSet<Key>) -> Option<Vec<NRule>> {
    let graph = graph_of(rules);
    let eligible =
        |k: &Key| graph.index.get(k).is_some_and(|&r| !RESERVED.contains(&k.0.as_str()) && graph.defined[r] && k.1 > 0);
    let chosen: FxHashSet<Key> = wanted.iter().filter(|k| eligible(k)).cloned().collect();
    // Demands that pass on what earlier chosen calls bound may join a stratum to a later
    // one (a relation asked both by `legal` and by something defined with `not legal`):
    // then demands come from the other conditions only.
    [true, false].into_iter().find_map(|sideways| {
        let mut chosen = chosen.clone();
        // Relations left as they were stay so (growing them back could loop).
        let mut dropped: FxHashSet<Key> = FxHashSet::default();
        loop {
            if chosen.is_empty() {
                return None;
            }
            let (out, reached) = rewrite(rules, &chosen, sideways, asked);
            // A relation read in full somewhere needs its callers on demand too (those that
            // may be); one that no call binds anything of is left as it was.
            let mut grow = Vec::new();
            let mut drop = Vec::new();
            for p in &chosen {
                let ads = reached.get(p).map_or(&[][..], Vec::as_slice);
                if ads.iter().all(|a| a.contains('b')) && !ads.is_empty() {
                    continue;
                }
                let new: Vec<Key> = (callers(rules, p).into_iter())
                    .filter(|c| !chosen.contains(c) && !dropped.contains(c) && eligible(c))
                    .collect();
                if !new.is_empty() {
                    grow.extend(new);
                } else if !ads.iter().any(|a| a.contains('b')) {
                    drop.push(p.clone());
                }
            }
            if grow.is_empty() && drop.is_empty() {
                return graph_of(&out).negative_cycle().is_none().then_some(out);
            }
            if grow.is_empty() {
                for p in drop {
                    chosen.remove(&p);
                    dropped.insert(p);
                }
            }
            chosen.extend(grow);
        }
    })
}

/// Every relation that may be computed on demand and depends on the state or the moves:
/// evaluating all of them on demand is what a top-down (Prolog) reasoner does.
pub fn dynamic(rules: &[NRule]) -> Vec<Key> {
    let graph = graph_of(rules);
    let inputs: Vec<usize> = [("true", 1), ("does", 2)].iter().filter_map(|&(n, a)| graph.get(n, a)).collect();
    (0..graph.rels.len())
        .filter(|&r| {
            let k = &graph.rels[r];
            graph.defined[r] && k.1 > 0 && !RESERVED.contains(&k.0.as_str()) && {
                let reach = graph.reachable([r]);
                inputs.iter().any(|&i| reach[i])
            }
        })
        .map(|r| graph.rels[r].clone())
        .collect()
}

/// The relations on a line of calls through one of `ks`: those whose rules call one of
/// them, directly or not, and those they call (relations with rules that have conditions,
/// not reserved ones: a relation of facts only is as small as it will ever be).
pub fn related(rules: &[NRule], ks: &[Key]) -> Vec<Key> {
    let graph = graph_of(rules);
    let of: Vec<usize> = ks.iter().filter_map(|k| graph.index.get(k).copied()).collect();
    let below = graph.reachable(of.iter().copied());
    (0..graph.rels.len())
        .filter(|&r| {
            let k = &graph.rels[r];
            !graph.edges[r].is_empty() && k.1 > 0 && !RESERVED.contains(&k.0.as_str()) && {
                below[r] || graph.reachable([r]).iter().enumerate().any(|(x, &on)| on && of.contains(&x))
            }
        })
        .map(|r| graph.rels[r].clone())
        .collect()
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

/// Whether every variable of `l` is in `bound`.
pub(crate) fn all_bound(l: &NLit, bound: &FxHashSet<String>) -> bool {
    let mut all = true;
    l.for_each_var(&mut |v, _| all &= bound.contains(v));
    all
}

fn vars_of(t: &Term, out: &mut FxHashSet<String>) {
    t.for_each_var(&mut |v, _| {
        out.insert(v.to_string());
    });
}

fn adornment(t: &Term, bound: &FxHashSet<String>) -> Adornment {
    t.args()
        .iter()
        .map(|arg| {
            let mut vs = FxHashSet::default();
            vars_of(arg, &mut vs);
            if vs.iter().all(|v| bound.contains(v)) {
                'b'
            } else {
                'f'
            }
        })
        .collect()
}

fn bound_args(t: &Term, a: &str) -> Vec<Term> {
    t.args().iter().zip(a.bytes()).filter(|(_, b)| *b == b'b').map(|(x, _)| x.clone()).collect()
}

fn atom(name: String, args: Vec<Term>, span: Span) -> Term {
    if args.is_empty() {
        Term::Const(name, span)
    } else {
        Term::Func(name, args, span)
    }
}

/// The rules with every call of a chosen relation reading its adorned copy, the copies'
/// rules and the demand rules; also the adornments reached per chosen relation.
fn rewrite(
    rules: &[NRule],
    chosen: &FxHashSet<Key>,
    sideways: bool,
    asked: &FxHashSet<Key>,
) -> (Vec<NRule>, FxHashMap<Key, Vec<Adornment>>) {
    let mut rules_of: FxHashMap<Key, Vec<&NRule>> = FxHashMap::default();
    for r in rules {
        rules_of.entry(key(&r.head)).or_default().push(r);
    }
    let mut reached: FxHashMap<Key, Vec<Adornment>> = FxHashMap::default();
    let mut queue: Vec<(Key, Option<Adornment>)> = Vec::new();
    let mut out = Vec::new();
    for r in rules.iter().filter(|r| !chosen.contains(&key(&r.head))) {
        out.extend(rewrite_rule(r, None, (chosen, asked), sideways, &mut reached, &mut queue));
    }
    while let Some((p, a)) = queue.pop() {
        for r in rules_of.get(&p).into_iter().flatten() {
            out.extend(rewrite_rule(r, a.as_deref(), (chosen, asked), sideways, &mut reached, &mut queue));
        }
    }
    (out, reached)
}

/// One rule of a relation as written (`head_ad: None`) or of its adorned copy: the rule and
/// the demand rules of the chosen relations it calls. New adornments join `queue`. With
/// `sideways`, each positive chosen call binds its variables for the chosen calls after it.
/// Negated calls of `asked` relations leave the body (a chosen one after its demand).
fn rewrite_rule(
    r: &NRule,
    head_ad: Option<&str>,
    (chosen, asked): (&FxHashSet<Key>, &FxHashSet<Key>),
    sideways: bool,
    reached: &mut FxHashMap<Key, Vec<Adornment>>,
    queue: &mut Vec<(Key, Option<Adornment>)>,
) -> Vec<NRule> {
    let is_chosen = |t: &Term| chosen.contains(&key(t));
    let mut bound = FxHashSet::default();
    let mut context: Vec<NLit> = Vec::new();
    let head = match head_ad {
        Some(a) => {
            let name = r.head.name().expect("named");
            for (arg, b) in r.head.args().iter().zip(a.bytes()) {
                if b == b'b' {
                    vars_of(arg, &mut bound);
                }
            }
            context.push(NLit::Pos(atom(magic_name(name, a), bound_args(&r.head, a), r.span)));
            atom(adorned_name(name, a), r.head.args().to_vec(), r.span)
        }
        None => r.head.clone(),
    };
    let mut body: Vec<NLit> = context.clone();
    let mut demands = Vec::new();
    // In the order written (the order a Prolog reasoner evaluates): each positive condition
    // binds its variables for the calls after it; a chosen call under `not` comes last.
    let negated = r.body.iter().filter(|l| matches!(l, NLit::Neg(t) if is_chosen(t)));
    for l in r.body.iter().filter(|l| !matches!(l, NLit::Neg(t) if is_chosen(t))).chain(negated) {
        let (t, negative) = match l {
            NLit::Pos(t) if is_chosen(t) => (t, false),
            NLit::Neg(t) if is_chosen(t) => (t, true),
            NLit::Neg(t) if asked.contains(&key(t)) => continue,
            NLit::Pos(t) => {
                vars_of(t, &mut bound);
                context.push(l.clone());
                body.push(l.clone());
                continue;
            }
            // A (non-)equality of bound terms filters what the calls after it are asked.
            NLit::Distinct(..) | NLit::Same(..) if all_bound(l, &bound) => {
                context.push(l.clone());
                body.push(l.clone());
                continue;
            }
            _ => {
                body.push(l.clone());
                continue;
            }
        };
        let k = key(t);
        let a = adornment(t, &bound);
        let seen = reached.entry(k.clone()).or_default();
        if !seen.contains(&a) {
            seen.push(a.clone());
            // Nothing bound: the relation as written, computed in full.
            queue.push((k.clone(), a.contains('b').then(|| a.clone())));
        }
        let call = if a.contains('b') {
            demands.push(NRule {
                head: atom(magic_name(&k.0, &a), bound_args(t, &a), r.span),
                body: context.clone(),
                span: r.span,
            });
            atom(adorned_name(&k.0, &a), t.args().to_vec(), t.span())
        } else {
            t.clone()
        };
        if negative {
            if !asked.contains(&k) {
                body.push(NLit::Neg(call));
            }
        } else {
            if sideways {
                vars_of(t, &mut bound);
                context.push(NLit::Pos(call.clone()));
            }
            body.push(NLit::Pos(call));
        }
    }
    demands.push(NRule { head, body, span: r.span });
    demands
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
            (magic~far~bb ?a 1) :- (true (at ?a))
            (legal p (go ?a)) :- (true (at ?a)) (not (far~bb ?a 1))
            (magic~big~bbf ?x ?y) :- (magic~far~bb ?x ?y)
            (far~bb ?x ?y) :- (magic~far~bb ?x ?y) (big~bbf ?x ?y ?z)
            (big~bbf ?x ?y ?z) :- (magic~big~bbf ?x ?y) (n ?x) (n ?y) (n ?z)"#]]
        .assert_eq(&text.join("\n"));
    }

    #[test]
    fn recursive_relations_get_one_copy_per_binding_pattern() {
        let rules = normalise(
            &parse(
                "(<= (legal p (go ?a)) (true (at ?a)) (path ?a home))\n\
                 (<= terminal (path ?x ?y) (true (at ?y)))\n\
                 (<= (path ?x ?y) (edge ?x ?y))\n\
                 (<= (path ?x ?y) (edge ?x ?z) (path ?z ?y))",
            )
            .description,
        )
        .unwrap();
        let out = transform(&rules, &[("path".into(), 2)]).unwrap();
        let text: Vec<String> = out.iter().map(ToString::to_string).collect();
        // `legal` asks with both arguments bound; `terminal` with none, so it reads `path`
        // as written.
        expect_test::expect![[r#"
            (magic~path~bb ?a home) :- (true (at ?a))
            (legal p (go ?a)) :- (true (at ?a)) (path~bb ?a home)
            terminal :- (path ?x ?y) (true (at ?y))
            (path ?x ?y) :- (edge ?x ?y)
            (magic~path~bf ?z) :- (edge ?x ?z)
            (path ?x ?y) :- (edge ?x ?z) (path~bf ?z ?y)
            (path~bf ?x ?y) :- (magic~path~bf ?x) (edge ?x ?y)
            (magic~path~bf ?z) :- (magic~path~bf ?x) (edge ?x ?z)
            (path~bf ?x ?y) :- (magic~path~bf ?x) (edge ?x ?z) (path~bf ?z ?y)
            (path~bb ?x ?y) :- (magic~path~bb ?x ?y) (edge ?x ?y)
            (magic~path~bb ?z ?y) :- (magic~path~bb ?x ?y) (edge ?x ?z)
            (path~bb ?x ?y) :- (magic~path~bb ?x ?y) (edge ?x ?z) (path~bb ?z ?y)"#]]
        .assert_eq(&text.join("\n"));
    }

    /// The top-down candidate of every corpus game: the transformation ends (choosing and
    /// dropping relations once looped on crossers3, AlexChess and others) and, when it
    /// applies, keeps every relation the keywords need.
    #[test]
    fn the_top_down_candidate_of_every_corpus_game() {
        let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus"));
        let Ok(subs) = std::fs::read_dir(dir) else { return };
        let mut applied = 0;
        for sub in subs.flatten() {
            let Ok(files) = std::fs::read_dir(sub.path()) else { continue };
            for path in files.flatten().map(|f| f.path()).filter(|p| p.extension().is_some_and(|e| e == "kif")) {
                let text = std::fs::read_to_string(&path).unwrap();
                let Ok(rules) = normalise(&parse(&text).description) else { continue };
                let Some(out) = transform(&rules, &dynamic(&rules)) else { continue };
                applied += 1;
                for k in ["legal", "next", "goal", "terminal"] {
                    let defined = |rs: &[NRule]| rs.iter().any(|r| r.head.name() == Some(k));
                    assert_eq!(defined(&rules), defined(&out), "{}: {k}", path.display());
                }
            }
        }
        assert!(applied > 300, "the transformation applied to {applied} corpus games only");
    }

    #[test]
    fn asked_negations_get_their_demand_and_leave_the_body() {
        // `far` (chosen) gets its demand and leaves the body; `near` (not chosen) leaves it.
        let rules = normalise(
            &parse(
                "(<= (legal p (go ?a)) (true (at ?a)) (not (far ?a 1)) (not (near ?a)))\n\
                 (<= (far ?x ?y) (n ?x) (n ?y) (true (at ?y)))\n(<= (near ?x) (true (at ?x)))",
            )
            .description,
        )
        .unwrap();
        let asked = [("far".to_string(), 2), ("near".to_string(), 1)].into_iter().collect();
        let out = transform_asking(&rules, &[("far".into(), 2)], &asked).unwrap();
        let text: Vec<String> = out.iter().map(ToString::to_string).collect();
        expect_test::expect![[r#"
            (magic~far~bb ?a 1) :- (true (at ?a))
            (legal p (go ?a)) :- (true (at ?a))
            (near ?x) :- (true (at ?x))
            (far~bb ?x ?y) :- (magic~far~bb ?x ?y) (n ?x) (n ?y) (true (at ?y))"#]]
        .assert_eq(&text.join("\n"));
    }

    #[test]
    fn keywords_and_unbound_calls_stay() {
        let rules = normalise(&parse("(<= (legal p ?x) (n ?x)) (<= (n ?x) (n ?x))").description).unwrap();
        assert!(transform(&rules, &[("legal".into(), 2)]).is_none());
        assert!(transform(&rules, &[("n".into(), 1)]).is_none());
    }
}
