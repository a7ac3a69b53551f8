//! Argument domains: for each argument of each relation, the terms it can hold in any state
//! and after any move (an over-approximation computed once at load), so that a plan can drop
//! the tests the rules make true by construction.
//!
//! A static relation evaluated at load holds exactly its facts; `true`, `does` and any
//! relation not evaluated hold anything (a state or a move may come from outside the game's
//! rules); a relation the dynamic rules derive holds what their heads can build, to a
//! fixpoint: a constant, or the values of a variable, which are those every positive body
//! literal mentioning it at the top allows. A test of a one-argument static relation (a type
//! such as `(bit ?b)` or `(index ?x)`) on a variable another literal of the body binds from
//! an argument whose domain lies inside that relation always succeeds: `drop_implied_tests`
//! removes it before the body is ordered, bottom-up and top-down alike (ruleDepthExponential
//! checked 19 bits of every fact it joined, each a hash probe).

use super::compile::{Parts, Pat, Pending, RelId};
use super::store::RelStore;
use crate::term::TermId;
use rustc_hash::FxHashSet;

/// A domain with more values than this is taken as "anything".
const MAX_VALUES: usize = 4096;
/// An exact relation with more facts than this is not read: its domains are "anything".
const MAX_EXACT: u32 = 50_000;

#[derive(Clone, Debug, PartialEq)]
enum Dom {
    Set(FxHashSet<TermId>),
    Any,
}

impl Dom {
    /// Adds `other`'s values; true if this changed.
    fn union(&mut self, other: &Dom) -> bool {
        match (&mut *self, other) {
            (Dom::Any, _) => false,
            (Dom::Set(_), Dom::Any) => {
                *self = Dom::Any;
                true
            }
            (Dom::Set(s), Dom::Set(o)) => {
                let before = s.len();
                s.extend(o.iter().copied());
                let grew = s.len() > before;
                if s.len() > MAX_VALUES {
                    *self = Dom::Any;
                }
                grew
            }
        }
    }

    /// Whether every value of this domain is one of `outer`'s (never known when either is
    /// "anything").
    fn within(&self, outer: &Dom) -> bool {
        matches!((self, outer), (Dom::Set(s), Dom::Set(o)) if s.is_subset(o))
    }
}

/// The domains of every relation's arguments, and which relations hold their facts exactly.
pub(super) struct Domains {
    of: Vec<Vec<Dom>>,
    exact: Vec<bool>,
}

impl Domains {
    /// Infers the domains from the facts of the relations `exact` marks (static relations
    /// evaluated at load) and `rules`: every rule of every relation that is neither exact
    /// nor open to outside terms, grouped by component in dependency order (each group is
    /// widened to its fixpoint once, after those it reads).
    pub(super) fn infer(facts: &[RelStore], exact: Vec<bool>, rules: &[Vec<Parts>]) -> Domains {
        let derived: FxHashSet<RelId> = rules.iter().flatten().map(|p| p.head_rel).collect();
        let mut of: Vec<Vec<Dom>> = (facts.iter().enumerate())
            .map(|(r, f)| {
                let dom = if derived.contains(&(r as RelId)) { Dom::Set(FxHashSet::default()) } else { Dom::Any };
                vec![dom; f.arity]
            })
            .collect();
        // An exact relation's values, where a rule's body holds a variable (the others are
        // never read), and unless it is too big to be a type.
        let mut read = FxHashSet::default();
        for rule in rules.iter().flatten() {
            for lit in &rule.body {
                let Pending::Pos(r, args) = lit else { continue };
                let (r, f) = (*r as usize, &facts[*r as usize]);
                if !exact[r] || f.len() > MAX_EXACT {
                    continue;
                }
                for (j, _) in args.iter().enumerate().filter(|(j, a)| matches!(a, Pat::Var(_)) && read.insert((r, *j)))
                {
                    let values: FxHashSet<TermId> = (0..f.len()).map(|k| f.tuple(k)[j]).collect();
                    if values.len() <= MAX_VALUES {
                        of[r][j] = Dom::Set(values);
                    }
                }
            }
        }
        let mut d = Domains { of, exact };
        for group in rules {
            while group.iter().fold(false, |changed, rule| d.widen(rule) | changed) {}
        }
        d
    }

    /// Adds to the head's domains what one application of `rule` can build; true if any grew.
    fn widen(&mut self, rule: &Parts) -> bool {
        if self.of[rule.head_rel as usize].iter().all(|d| *d == Dom::Any) {
            return false;
        }
        let mut changed = false;
        for (i, p) in rule.head.iter().enumerate() {
            let value = match p {
                Pat::Const(c) => Dom::Set([*c].into_iter().collect()),
                Pat::Var(v) => self.of_var(*v, &rule.body),
                Pat::Func(..) => Dom::Any,
            };
            changed |= self.of[rule.head_rel as usize][i].union(&value);
        }
        changed
    }

    /// The values variable `v` can take: those allowed where positive literals hold it at
    /// the top.
    fn of_var(&self, v: u16, body: &[Pending]) -> Dom {
        let mut dom = Dom::Any;
        for lit in body {
            let Pending::Pos(r, args) = lit else { continue };
            for (j, a) in args.iter().enumerate() {
                if *a != Pat::Var(v) {
                    continue;
                }
                dom = match (dom, &self.of[*r as usize][j]) {
                    (d, Dom::Any) => d,
                    (Dom::Any, s) => s.clone(),
                    (Dom::Set(s), Dom::Set(o)) => Dom::Set(s.intersection(o).copied().collect()),
                };
            }
        }
        dom
    }

    /// Removes from a rule's body the literals of a one-argument exact relation whose
    /// variable another positive literal (one kept) holds at the top, at an argument whose
    /// values are all of that relation: that literal binds the variable, so the test always
    /// succeeds. Mutually implied tests keep the last one.
    pub(super) fn drop_implied_tests(&self, body: &mut Vec<Pending>) {
        let mut dropped = vec![false; body.len()];
        for i in 0..body.len() {
            let Pending::Pos(rel, args) = &body[i] else { continue };
            let (&[Pat::Var(v)], true) = (&args[..], self.exact[*rel as usize]) else { continue };
            let types = &self.of[*rel as usize][0];
            dropped[i] = (body.iter().enumerate()).any(|(k, lit)| match lit {
                Pending::Pos(r, a) if k != i && !dropped[k] => {
                    (a.iter().enumerate()).any(|(j, a)| *a == Pat::Var(v) && self.of[*r as usize][j].within(types))
                }
                _ => false,
            });
        }
        let mut keep = dropped.iter().map(|d| !d);
        body.retain(|_| keep.next().expect("one flag per literal"));
    }
}
