//! Matching rule bodies against a computed model: bindings of a rule's variables to ground
//! terms, instantiation for display, and a backtracking search for the instances of one
//! rule that also remembers how far the best failed attempt got.
//!
//! Invariant: the search never derives anything itself; every positive literal is matched
//! against facts the reasoner computed, every `not` is checked against them.

use crate::ast::Term;
use crate::program::{NLit, NRule};
use crate::reasoner::Reasoner;
use crate::term::{TermId, TermStore};

/// Variable bindings of one rule, in the order they were made (undone by truncating).
pub type Bindings<'r> = Vec<(&'r str, TermId)>;

fn bound(b: &Bindings, v: &str) -> Option<TermId> {
    b.iter().find(|(x, _)| *x == v).map(|&(_, t)| t)
}

/// Matches pattern `p` against the ground term `t`, extending `b`; on failure `b` may hold
/// extra bindings (the caller truncates).
pub fn matches<'r>(store: &TermStore, p: &'r Term, t: TermId, b: &mut Bindings<'r>) -> bool {
    match p {
        Term::Var(v, _) => match bound(b, v) {
            Some(x) => x == t,
            None => {
                b.push((v, t));
                true
            }
        },
        Term::Const(c, _) => store.args(t).is_empty() && store.symbol_name(store.sym(t)) == c,
        Term::Func(f, args, _) => {
            let targs = store.args(t);
            targs.len() == args.len()
                && store.symbol_name(store.sym(t)) == f
                && args.iter().zip(targs).all(|(a, &x)| matches(store, a, x, b))
        }
    }
}

/// The ground term `p` stands for under `b`, if it is ground and was ever built.
pub fn ground(store: &TermStore, p: &Term, b: &Bindings) -> Option<TermId> {
    match p {
        Term::Var(v, _) => bound(b, v),
        Term::Const(c, _) => store.lookup(store.find_symbol(c)?, &[]),
        Term::Func(f, args, _) => {
            let ids = args.iter().map(|a| ground(store, a, b)).collect::<Option<Vec<_>>>()?;
            store.lookup(store.find_symbol(f)?, &ids)
        }
    }
}

/// `p` under `b` as prefix text; unbound variables stay `?x`.
pub fn show(store: &TermStore, p: &Term, b: &Bindings) -> String {
    match p {
        Term::Var(v, _) => bound(b, v).map_or_else(|| format!("?{v}"), |t| store.text(t).to_string()),
        Term::Const(c, _) => c.clone(),
        Term::Func(f, args, _) => {
            let inner: Vec<String> = args.iter().map(|a| show(store, a, b)).collect();
            format!("({f} {})", inner.join(" "))
        }
    }
}

pub fn show_literal(store: &TermStore, l: &NLit, b: &Bindings) -> String {
    match l {
        NLit::Pos(t) => show(store, t, b),
        NLit::Neg(t) => format!("(not {})", show(store, t, b)),
        NLit::Distinct(x, y) => format!("(distinct {} {})", show(store, x, b), show(store, y, b)),
        NLit::Same(x, y) => format!("(not (distinct {} {}))", show(store, x, b), show(store, y, b)),
    }
}

/// Whether every variable of `t` is bound.
pub fn is_bound(t: &Term, b: &Bindings) -> bool {
    let mut all = true;
    t.for_each_var(&mut |v, _| all &= bound(b, v).is_some());
    all
}

/// Relation key of an atom pattern.
pub fn key(t: &Term) -> (&str, usize) {
    (t.name().unwrap_or(""), t.args().len())
}

/// Whether the ground atom `name(args)` is among the model's facts.
pub fn holds(model: &Reasoner, name: &str, args: &[TermId]) -> bool {
    model.facts(name, args.len()).contains(&args)
}

/// The body order used: source order, except that `not` and `distinct` wait until their
/// variables are bound (rules are safe, so each finds a place).
pub fn body_order(rule: &NRule) -> Vec<usize> {
    let mut bound_vars: Vec<&str> = Vec::new();
    rule.head.for_each_var(&mut |v, _| bound_vars.push(v));
    let mut order = Vec::new();
    let mut left: Vec<usize> = (0..rule.body.len()).collect();
    while !left.is_empty() {
        let ready = |i: &usize| {
            let l = &rule.body[*i];
            if matches!(l, NLit::Pos(_)) {
                return true;
            }
            let mut all = true;
            l.for_each_var(&mut |v, _| all &= bound_vars.contains(&v));
            all
        };
        let pick = left.iter().position(ready).unwrap_or(0);
        let i = left.remove(pick);
        rule.body[i].for_each_var(&mut |v, _| bound_vars.push(v));
        order.push(i);
    }
    order
}

/// Most facts one search may try before it gives up.
pub const MAX_SEARCH_STEPS: u64 = 1_000_000;

/// A search for instances of one rule's body in a model.
pub struct Search<'r, 'm> {
    pub model: &'m Reasoner,
    pub rule: &'r NRule,
    pub order: Vec<usize>,
    /// Extra test on the facts matched by positive literals (used for derivation ranks).
    pub accept: &'m dyn Fn(&str, &[TermId]) -> bool,
    /// Stop at the first complete instance.
    pub first_only: bool,
    pub steps: u64,
    /// Complete instances found.
    pub found: Vec<Bindings<'r>>,
    /// The deepest failed attempt: how many literals (in `order`) held, and the bindings.
    pub best: Option<(usize, Bindings<'r>)>,
}

impl<'r, 'm> Search<'r, 'm> {
    pub fn new(model: &'m Reasoner, rule: &'r NRule, accept: &'m dyn Fn(&str, &[TermId]) -> bool) -> Self {
        Search {
            model,
            rule,
            order: body_order(rule),
            accept,
            first_only: true,
            steps: 0,
            found: Vec::new(),
            best: None,
        }
    }

    /// Whether the step limit stopped the search.
    pub fn stopped(&self) -> bool {
        self.steps > MAX_SEARCH_STEPS
    }

    /// Searches from `b` (the head's bindings); returns true when it should stop.
    pub fn run(&mut self, b: &mut Bindings<'r>) -> bool {
        self.go(0, b)
    }

    fn fail(&mut self, i: usize, b: &Bindings<'r>) -> bool {
        if self.best.as_ref().is_none_or(|(d, _)| i > *d) {
            self.best = Some((i, b.clone()));
        }
        self.stopped()
    }

    fn go(&mut self, i: usize, b: &mut Bindings<'r>) -> bool {
        if i == self.order.len() {
            self.found.push(b.clone());
            return self.first_only;
        }
        let store = self.model.store();
        let rule: &'r NRule = self.rule;
        match &rule.body[self.order[i]] {
            NLit::Pos(t) => {
                let (name, arity) = key(t);
                let mut any = false;
                for tuple in self.model.facts(name, arity) {
                    self.steps += 1;
                    if self.stopped() {
                        return true;
                    }
                    let mark = b.len();
                    if t.args().iter().zip(tuple).all(|(p, &x)| matches(store, p, x, b)) && (self.accept)(name, tuple) {
                        any = true;
                        if self.go(i + 1, b) {
                            return true;
                        }
                    }
                    b.truncate(mark);
                }
                if !any {
                    return self.fail(i, b);
                }
                false
            }
            NLit::Neg(t) => {
                let args: Option<Vec<TermId>> = t.args().iter().map(|a| ground(store, a, b)).collect();
                let (name, _) = key(t);
                if args.is_some_and(|a| holds(self.model, name, &a)) {
                    return self.fail(i, b);
                }
                self.go(i + 1, b)
            }
            NLit::Distinct(x, y) | NLit::Same(x, y) => {
                let differ = show(store, x, b) != show(store, y, b);
                if differ == matches!(rule.body[self.order[i]], NLit::Distinct(..)) {
                    self.go(i + 1, b)
                } else {
                    self.fail(i, b)
                }
            }
        }
    }
}
