//! Values from the rules that ask (GDL-II's Prolog reading): a head variable that no positive
//! condition binds takes the values the rules using the relation ask it with.
//!
//! The reference tools evaluate rules top-down, so in `(<= (points ?p 0) (not (most ?p)))`
//! the caller gives `?p`: `(goal ?p ?n)` is asked for each role, passes `?p` on to
//! `(playerpoints ?p ?n)`, which asks `(points ?p ?m)`. Bottom-up, such a rule gets the
//! condition `(points~asked1of2 ?p)`, a relation holding what its callers ask at that place:
//! at each call, the term there under the conditions before it (all positive conditions for
//! a `not`, which the tools evaluate once its variables are bound), and, for a variable those
//! leave unbound, what the calling rule's own callers ask at the place of its head that holds
//! it — a role for `legal`, `goal` and `sees`, which the tools ask role by role.
//!
//! A call that leaves such a variable unbound in a rule of another keyword (`next`,
//! `terminal`, ...) or only inside its body has no reading here (Prolog would go on with an
//! unknown value): the rule is refused, naming that call.
//!
//! Invariant: a program without such head variables is left as it is; the relations added
//! contain `~` and hold only terms the program asks about, so every answer to what the game
//! asks is the same as Prolog's.

use super::rules::{NLit, NRule};
use crate::ast::{Term, RESERVED};
use crate::diagnostic::Diagnostic;
use rustc_hash::FxHashSet;

/// A place: a relation (name, arity) and an argument position.
type Place = (String, usize, usize);

fn asked_name((name, arity, i): &Place) -> String {
    format!("{name}~asked{}of{arity}", i + 1)
}

fn asked_atom(place: &Place, arg: &Term) -> Term {
    Term::Func(asked_name(place), vec![arg.clone()], arg.span())
}

fn place_of(atom: &Term, i: usize) -> Place {
    (atom.name().unwrap_or_default().to_string(), atom.args().len(), i)
}

fn vars(t: &Term) -> FxHashSet<&str> {
    let mut out = FxHashSet::default();
    t.for_each_var(&mut |v, _| {
        out.insert(v);
    });
    out
}

/// The head variables of `rule` that no positive condition binds.
fn unbound_head_variables(rule: &NRule) -> Vec<&str> {
    let mut bound = FxHashSet::default();
    for l in &rule.body {
        if let NLit::Pos(t) = l {
            bound.extend(vars(t));
        }
    }
    let mut out: Vec<&str> = Vec::new();
    rule.head.for_each_var(&mut |v, _| {
        if !bound.contains(v) && !out.contains(&v) {
            out.push(v);
        }
    });
    out
}

/// Adds to every rule of a relation that is not a keyword the conditions that give its
/// unbound head variables the values its callers ask with, and the rules of those
/// conditions' relations. Errs, at the call, where a caller leaves such a value unknown.
pub fn bind_from_callers(rules: &mut Vec<NRule>) -> Result<(), Diagnostic> {
    let mut todo: Vec<Place> = Vec::new();
    let mut guarded: Vec<(usize, Vec<usize>)> = Vec::new();
    for (r, rule) in rules.iter().enumerate() {
        let name = rule.head.name().unwrap_or_default();
        let unbound = unbound_head_variables(rule);
        if unbound.is_empty() || RESERVED.contains(&name) {
            continue;
        }
        let places: Vec<usize> = (0..rule.head.args().len())
            .filter(|&i| vars(&rule.head.args()[i]).iter().any(|v| unbound.contains(v)))
            .collect();
        todo.extend(places.iter().map(|&i| place_of(&rule.head, i)));
        guarded.push((r, places));
    }
    if guarded.is_empty() {
        return Ok(());
    }
    let mut done: FxHashSet<Place> = FxHashSet::default();
    let mut added: Vec<NRule> = Vec::new();
    while let Some(place) = todo.pop() {
        if !done.insert(place.clone()) {
            continue;
        }
        for rule in rules.iter() {
            for (k, lit) in rule.body.iter().enumerate() {
                let (NLit::Pos(call) | NLit::Neg(call)) = lit else { continue };
                if place_of(call, place.2) != place {
                    continue;
                }
                let before = if matches!(lit, NLit::Pos(_)) { k } else { rule.body.len() };
                let mut body: Vec<NLit> =
                    rule.body[..before].iter().filter(|l| matches!(l, NLit::Pos(_))).cloned().collect();
                let mut bound: FxHashSet<String> = FxHashSet::default();
                for l in &body {
                    l.for_each_var(&mut |v, _| {
                        bound.insert(v.to_string());
                    });
                }
                let arg = &call.args()[place.2];
                let mut free: Vec<&str> = vars(arg).into_iter().filter(|v| !bound.contains(*v)).collect();
                free.sort_unstable();
                for v in free {
                    let from = caller_place(&rule.head, v).ok_or_else(|| unknown_value(v, call, &rule.head))?;
                    let condition = if crate::gdl2::asked_by_role(&from.0) && from.2 == 0 {
                        Term::Func("role".into(), vec![rule.head.args()[0].clone()], call.span())
                    } else if RESERVED.contains(&from.0.as_str()) {
                        return Err(unknown_value(v, call, &rule.head));
                    } else {
                        todo.push(from.clone());
                        asked_atom(&from, &rule.head.args()[from.2])
                    };
                    if !body.iter().any(|l| matches!(l, NLit::Pos(t) if *t == condition)) {
                        body.push(NLit::Pos(condition));
                    }
                }
                let head = asked_atom(&place, arg);
                if !body.iter().any(|l| matches!(l, NLit::Pos(t) if *t == head)) {
                    added.push(NRule { head, body, span: rule.span });
                }
            }
        }
    }
    for (r, places) in guarded {
        let rule = &mut rules[r];
        let conditions: Vec<NLit> =
            places.iter().map(|&i| NLit::Pos(asked_atom(&place_of(&rule.head, i), &rule.head.args()[i]))).collect();
        rule.body.splice(0..0, conditions);
    }
    rules.extend(added);
    Ok(())
}

/// The place of `head` whose argument holds variable `v`, if any.
fn caller_place(head: &Term, v: &str) -> Option<Place> {
    (0..head.args().len()).find(|&i| vars(&head.args()[i]).contains(v)).map(|i| place_of(head, i))
}

fn unknown_value(v: &str, call: &Term, head: &Term) -> Diagnostic {
    let name = call.name().unwrap_or_default();
    Diagnostic::error(
        "unsafe-variable",
        call.span(),
        format!(
            "a rule of {name} has a head variable that no positive condition binds, so it takes its values \
             from the rules that ask (as the GDL-II reference tools, written in Prolog, do); but this rule \
             of {} asks {name} with ?{v} still unknown. Add a condition that gives ?{v} its values before it, \
             or to the rules of {name}",
            head.name().unwrap_or_default()
        ),
    )
}
