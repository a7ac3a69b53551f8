//! Call abstraction: which given arguments of a recursive relation's calls the top-down
//! evaluator leaves free, so that calls differing only there share one table.
//!
//! A recursive rule passes some arguments to its recursive call unchanged (a walk's far
//! end, a square to ignore) and changes the others (where the walk is). A call with every
//! changed argument given walks the same way whatever the passed-through ones are: asked
//! with a passed-through argument left free, one table answers every call that differs
//! there (each answered by a lookup, the join matching the given value). A passed-through
//! argument is left free only if every base rule (one not calling the relation) binds its
//! variable together with a changed argument, in one literal or in the head: then the free
//! call has about as many answers per table as the walk has steps, instead of a free
//! argument's whole domain (`(coordinate ?ignorex)` keeps the square to ignore given).
//! Only direct recursion is read (a relation calling itself in its own rules).

use crate::ast::Term;
use crate::program::{NLit, NRule};

/// The abstraction of one relation's calls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Abstraction {
    /// Arguments the recursive rules change (bit `i`: argument `i`): they must be given.
    pub changed: u64,
    /// Arguments left free in a call giving every changed one.
    pub freed: u64,
}

impl Abstraction {
    /// Leaves the freed arguments of a call free (`free`), if it gives every changed one.
    pub fn apply<T: Copy + PartialEq>(&self, args: &mut [T], free: T) {
        if self.freed == 0 {
            return;
        }
        let given = args.iter().take(64).enumerate().all(|(i, a)| self.changed & 1 << i == 0 || *a != free);
        if given {
            for (i, a) in args.iter_mut().take(64).enumerate() {
                if self.freed & 1 << i != 0 {
                    *a = free;
                }
            }
        }
    }
}

/// The abstraction of the relation `rules` define (all of one relation; none: nothing freed).
pub fn abstraction(rules: &[NRule]) -> Abstraction {
    let Some(first) = rules.first() else { return Abstraction::default() };
    let (name, arity) = (first.head.name(), first.head.args().len());
    if arity > 64 {
        return Abstraction::default();
    }
    let calls_itself = |lit| self_call(lit, name, arity);
    let (recursive, base): (Vec<&NRule>, Vec<&NRule>) =
        rules.iter().partition(|r| r.body.iter().any(|l| calls_itself(l).is_some()));
    if recursive.is_empty() || base.is_empty() {
        return Abstraction::default();
    }
    let passed = |i: usize| {
        recursive.iter().all(|r| match &r.head.args()[i] {
            Term::Var(v, _) => {
                r.body.iter().filter_map(calls_itself).all(|c| matches!(&c.args()[i], Term::Var(w, _) if w == v))
            }
            _ => false,
        })
    };
    let changed = (0..arity).filter(|&i| !passed(i)).fold(0u64, |m, i| m | 1 << i);
    if changed == 0 {
        return Abstraction::default();
    }
    let freed = (0..arity)
        .filter(|&i| changed & 1 << i == 0 && base.iter().all(|r| bound_with_changed(r, i, changed)))
        .fold(0u64, |m, i| m | 1 << i);
    Abstraction { changed, freed }
}

/// The literal's atom if it calls relation `name/arity`.
fn self_call<'a>(lit: &'a NLit, name: Option<&str>, arity: usize) -> Option<&'a Term> {
    match lit {
        NLit::Pos(t) if t.name() == name && t.args().len() == arity => Some(t),
        _ => None,
    }
}

/// Is head argument `i` of a base rule a variable that a changed head argument is, or that
/// shares a positive literal with a changed head argument's variable?
fn bound_with_changed(rule: &NRule, i: usize, changed: u64) -> bool {
    let Term::Var(v, _) = &rule.head.args()[i] else { return false };
    let mut changed_vars = Vec::new();
    for (j, a) in rule.head.args().iter().enumerate() {
        if changed & 1 << j != 0 {
            a.for_each_var(&mut |w, _| changed_vars.push(w));
        }
    }
    if changed_vars.contains(&v.as_str()) {
        return true;
    }
    rule.body.iter().any(|l| {
        let NLit::Pos(t) = l else { return false };
        let (mut has_v, mut has_changed) = (false, false);
        t.for_each_var(&mut |w, _| {
            has_v |= w == v;
            has_changed |= changed_vars.contains(&w);
        });
        has_v && has_changed
    })
}
