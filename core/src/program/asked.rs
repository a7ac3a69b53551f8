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
//! Where the call's argument at a place is unknown, the call's known arguments matched
//! against the head of each rule that reads the place give it, as Prolog's unification
//! does: `(sort ?a ?b ?c ?d)` with `?a`, `?b` known gives `(<= (sort ?x ?y ?x ?y) ..)`
//! every value.
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
use rustc_hash::{FxHashMap, FxHashSet};

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

/// Where a variable of a calling rule gets its value: a condition before the call binds it
/// (`None`), or the rule's own callers give it (a condition to add).
type Supply = Option<(Term, Option<Place>)>;

/// How variable `v` of the rule with head `head` is known at a call, given the variables
/// `bound` by the positive conditions before it: bound there, a role (for the first
/// argument of `legal`, `goal`, `sees`) or what the rule's callers ask at the place of its
/// head that holds it. `None` when nothing gives it a value.
fn supply(v: &str, bound: &FxHashSet<String>, head: &Term, span: crate::diagnostic::Span) -> Option<Supply> {
    if bound.contains(v) {
        return Some(None);
    }
    let from = caller_place(head, v)?;
    if crate::gdl2::asked_by_role(&from.0) && from.2 == 0 {
        Some(Some((Term::Func("role".into(), vec![head.args()[0].clone()], span), None)))
    } else if RESERVED.contains(&from.0.as_str()) {
        None
    } else {
        Some(Some((asked_atom(&from, &head.args()[from.2]), Some(from))))
    }
}

/// The supplies of every variable of `t` (sorted by name), or the first one nothing gives.
fn supplies<'a>(
    t: &'a Term,
    bound: &FxHashSet<String>,
    head: &Term,
    span: crate::diagnostic::Span,
) -> Result<Vec<Supply>, &'a str> {
    let mut free: Vec<&str> = vars(t).into_iter().collect();
    crate::order::sort(&mut free);
    free.into_iter().map(|v| supply(v, bound, head, span).ok_or(v)).collect()
}

/// Binds the variables of `pattern` (a head argument of a called rule) to the parts of the
/// call's `arg` that are known; false when the two cannot match.
fn bind_known(pattern: &Term, arg: &Term, known: &dyn Fn(&Term) -> bool, subst: &mut FxHashMap<String, Term>) -> bool {
    match (pattern, arg) {
        (Term::Var(v, _), _) => {
            if known(arg) {
                subst.entry(v.clone()).or_insert_with(|| arg.clone());
            }
            true
        }
        (_, Term::Var(..)) => true,
        (Term::Const(a, _), Term::Const(b, _)) => a == b,
        (Term::Func(f, xs, _), Term::Func(g, ys, _)) if f == g && xs.len() == ys.len() => {
            xs.iter().zip(ys).all(|(x, y)| bind_known(x, y, known, subst))
        }
        _ => false,
    }
}

/// Adds to every rule of a relation that is not a keyword the conditions that give its
/// unbound head variables the values its callers ask with, and the rules of those
/// conditions' relations. Errs, at the call, where a caller leaves such a value unknown.
///
/// A place's value comes from the call's argument there when that is known; otherwise, for
/// each rule that needs the place, from the call's known arguments matched against that
/// rule's head (in `(<= (sort ?x ?y ?x ?y) ..)`, a call giving the first two arguments
/// gives the last two as well).
pub fn bind_from_callers(rules: &mut Vec<NRule>) -> Result<(), Diagnostic> {
    let mut todo: Vec<Place> = Vec::new();
    let mut guarded: Vec<(usize, Vec<usize>)> = Vec::new();
    // The rules that read each place's asked values, by index.
    let mut readers: FxHashMap<Place, Vec<usize>> = FxHashMap::default();
    for (r, rule) in rules.iter().enumerate() {
        let name = rule.head.name().unwrap_or_default();
        let unbound = unbound_head_variables(rule);
        if unbound.is_empty() || RESERVED.contains(&name) {
            continue;
        }
        let places: Vec<usize> = (0..rule.head.args().len())
            .filter(|&i| vars(&rule.head.args()[i]).iter().any(|v| unbound.contains(v)))
            .collect();
        for &i in &places {
            readers.entry(place_of(&rule.head, i)).or_default().push(r);
            todo.push(place_of(&rule.head, i));
        }
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
        let place_readers = readers.get(&place).cloned().unwrap_or_default();
        for (c, rule) in rules.iter().enumerate() {
            for (k, lit) in rule.body.iter().enumerate() {
                let (NLit::Pos(call) | NLit::Neg(call)) = lit else { continue };
                if place_of(call, place.2) != place {
                    continue;
                }
                let before = if matches!(lit, NLit::Pos(_)) { k } else { rule.body.len() };
                let body: Vec<NLit> =
                    rule.body[..before].iter().filter(|l| matches!(l, NLit::Pos(_))).cloned().collect();
                let mut bound: FxHashSet<String> = FxHashSet::default();
                for l in &body {
                    l.for_each_var(&mut |v, _| {
                        bound.insert(v.to_string());
                    });
                }
                let refused = |v: &str| unknown_value(v, call, &rule.head);
                let arg = &call.args()[place.2];
                // The values asked at the place, with what gives their variables values.
                let asked: Vec<(Term, Vec<Supply>)> = match supplies(arg, &bound, &rule.head, call.span()) {
                    Ok(s) => vec![(arg.clone(), s)],
                    Err(unknown) => {
                        let known = |t: &Term| supplies(t, &bound, &rule.head, call.span()).is_ok();
                        let mut out = Vec::new();
                        for &r in &place_readers {
                            let head = &rules[r].head;
                            let mut subst = FxHashMap::default();
                            let matched =
                                head.args().iter().zip(call.args()).all(|(p, a)| bind_known(p, a, &known, &mut subst));
                            if !matched {
                                continue;
                            }
                            let wanted = &head.args()[place.2];
                            if vars(wanted).iter().any(|v| !subst.contains_key(*v)) {
                                return Err(refused(unknown));
                            }
                            let value = super::specialise::apply(wanted, &subst);
                            let s = supplies(&value, &bound, &rule.head, call.span()).map_err(refused)?;
                            out.push((value, s));
                        }
                        out
                    }
                };
                for (value, sources) in asked {
                    let mut body = body.clone();
                    for (condition, from) in sources.into_iter().flatten() {
                        if let Some(from) = from {
                            let reading = readers.entry(from.clone()).or_default();
                            if !reading.contains(&c) {
                                reading.push(c);
                                done.remove(&from);
                            }
                            todo.push(from);
                        }
                        if !body.iter().any(|l| matches!(l, NLit::Pos(t) if *t == condition)) {
                            body.push(NLit::Pos(condition));
                        }
                    }
                    let head = asked_atom(&place, &value);
                    let new = !body.iter().any(|l| matches!(l, NLit::Pos(t) if *t == head))
                        && !added.iter().any(|a| a.head == head && a.body == body);
                    if new {
                        added.push(NRule { head, body, span: rule.span });
                    }
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
