//! Fluents no move changes. When the only `next` rules that can make a fluent `f` are frame
//! rules that copy every `f` fluent (`(<= (next (f ?x ?y)) (true (f ?x ?y)))`, or
//! `(<= (next ?x) (true ?x))`), the `f` fluents of every reachable state are exactly those of
//! `init`. Reading `(true (f ...))` as `(init (f ...))` then makes the relations built on
//! them static: the grounder computes them once, and their negations stay in the relaxed
//! program (walls keep a maze's explorer on the board instead of walking it to every
//! coordinate). The ground program is the same on every reachable state.

use crate::ast::Term;
use crate::program::{NLit, NRule, Program};
use rustc_hash::FxHashSet;

type Key = (String, usize);

/// The rules with `true` atoms of fluents no move changes read from `init` (the frame rules
/// that keep those fluents stay as they are); the program itself, graph and all, when there
/// are none.
pub fn fold(program: Program) -> Program {
    let invariant = invariant_fluents(program.rules());
    if invariant.is_empty() {
        return program;
    }
    let fixed = |t: &Term| {
        t.name() == Some("true") && t.args().first().and_then(fluent).is_some_and(|k| invariant.contains(&k))
    };
    let as_init = |t: &Term| match t {
        Term::Func(_, args, span) => Term::Func("init".into(), args.clone(), *span),
        _ => t.clone(),
    };
    let rules = (program.into_rules().into_iter())
        .map(|mut r| {
            if copies(&r).is_none() {
                for l in &mut r.body {
                    match l {
                        NLit::Pos(t) | NLit::Neg(t) if fixed(t) => *t = as_init(t),
                        _ => {}
                    }
                }
            }
            r
        })
        .collect();
    Program::new(rules)
}

/// The fluents (name and arity) that only frame rules copying all of them make.
fn invariant_fluents(rules: &[NRule]) -> FxHashSet<Key> {
    let (mut copied, mut changed) = (FxHashSet::default(), FxHashSet::default());
    let mut copy_all = false;
    for r in rules.iter().filter(|r| r.head.name() == Some("next")) {
        let Some(made) = r.head.args().first() else { continue };
        match (copies(r), fluent(made)) {
            (Some(None), _) => copy_all = true,
            (Some(Some(k)), _) => {
                copied.insert(k);
            }
            (None, Some(k)) => {
                changed.insert(k);
            }
            // A rule that can make any fluent: none is sure to stay as it is.
            (None, None) => return FxHashSet::default(),
        }
    }
    if copy_all {
        // Every fluent `init` or a frame rule names is kept; those no other rule makes stay.
        copied.extend(
            rules
                .iter()
                .filter(|r| r.head.name() == Some("init"))
                .filter_map(|r| r.head.args().first().and_then(fluent)),
        );
    }
    copied.retain(|k| !changed.contains(k));
    copied
}

/// For a frame rule that copies every fluent of one kind to the next state, that kind
/// (`Some(None)` when it copies every fluent: `(<= (next ?x) (true ?x))`).
fn copies(r: &NRule) -> Option<Option<Key>> {
    let [NLit::Pos(read)] = r.body.as_slice() else { return None };
    let (made, kept) = (r.head.args().first()?, read.args().first()?);
    if r.head.name() != Some("next") || read.name() != Some("true") || !same_general(made, kept) {
        return None;
    }
    Some(fluent(made))
}

/// The name and arity of a fluent term (`None` for a variable).
fn fluent(t: &Term) -> Option<Key> {
    t.name().map(|n| (n.to_string(), t.args().len()))
}

/// Whether `a` and `b` are the same most general term: one variable, a constant, or a
/// function of distinct variables.
fn same_general(a: &Term, b: &Term) -> bool {
    match (a, b) {
        (Term::Var(x, _), Term::Var(y, _)) => x == y,
        (Term::Const(x, _), Term::Const(y, _)) => x == y,
        (Term::Func(f, xs, _), Term::Func(g, ys, _)) => {
            let mut seen = FxHashSet::default();
            f == g
                && xs.len() == ys.len()
                && xs.iter().zip(ys).all(
                    |(x, y)| matches!((x, y), (Term::Var(v, _), Term::Var(w, _)) if v == w && seen.insert(v.as_str())),
                )
        }
        _ => false,
    }
}
