//! Static checks of a game description: the rules of GDL that a well-formed tree can still
//! break (fixed arities, keyword placement, rule safety, stratification, the recursion
//! restriction, goal values), plus warnings for likely mistakes (undefined relations,
//! missing keywords).
//!
//! Every finding is a `Diagnostic` with a stable code and the span of the offending rule,
//! literal or term; `validate` returns them all, sorted by position.

use crate::ast::{Description, Literal, Rule, Term};
use crate::deps::{rel_key, DepGraph, RelKey};
use crate::diagnostic::{Diagnostic, Span};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;

/// Every error and warning about `desc`, sorted by span start.
pub fn validate(desc: &Description) -> Vec<Diagnostic> {
    let rules: Vec<&Rule> = desc.rules().collect();
    let graph = DepGraph::build(desc);
    let mut out = Vec::new();
    check_arities(&rules, &mut out);
    check_keyword_arities(&rules, &mut out);
    check_keyword_places(&rules, &mut out);
    check_roles(&rules, &mut out);
    check_goal_values(&rules, &mut out);
    for rule in &rules {
        check_safety(rule, &mut out);
    }
    check_dependencies(&rules, &graph, &mut out);
    check_stratification(&graph, &mut out);
    check_recursion(&rules, &graph, &mut out);
    check_undefined(&rules, &graph, &mut out);
    check_missing(&rules, &mut out);
    out.sort_by_key(|d| d.span.start);
    out
}

/// The GDL keywords that name relations, with their arity and what their arguments are.
const KEYWORDS: &[(&str, usize, &str)] = &[
    ("role", 1, "the role's name"),
    ("init", 1, "a fact of the initial state"),
    ("true", 1, "a fact of the current state"),
    ("does", 2, "a role and its move"),
    ("next", 1, "a fact of the next state"),
    ("legal", 2, "a role and a move"),
    ("goal", 2, "a role and a value from 0 to 100"),
    ("terminal", 0, "no arguments"),
    ("base", 1, "a possible fact of the state"),
    ("input", 2, "a role and a possible move"),
];

/// The keywords of the rule language itself, never relation names.
const CONNECTIVES: &[&str] = &["distinct", "not", "or", "and"];

fn keyword(name: &str) -> Option<(usize, &'static str)> {
    KEYWORDS.iter().find(|k| k.0 == name).map(|k| (k.1, k.2))
}

/// `1 argument`, `2 arguments`.
fn arguments(n: usize) -> String {
    if n == 1 {
        "1 argument".to_string()
    } else {
        format!("{n} arguments")
    }
}

fn slash(t: &Term) -> String {
    format!("{}/{}", t.name().unwrap_or("?"), t.args().len())
}

/// Every body atom of a rule with whether it is negated, left to right.
fn body_atoms(rule: &Rule) -> Vec<(&Term, bool)> {
    let mut atoms = Vec::new();
    for lit in &rule.body {
        lit.for_each_atom(false, &mut |t, negated| atoms.push((t, negated)));
    }
    atoms
}

/// Every sentence of a rule: the head, then the body atoms.
fn sentences(rule: &Rule) -> impl Iterator<Item = &Term> {
    std::iter::once(&rule.head).chain(body_atoms(rule).into_iter().map(|(t, _)| t))
}

/// Calls `f` on every function term inside `t` (not on `t` itself), outside in.
fn for_each_function<'a>(t: &'a Term, f: &mut impl FnMut(&'a Term)) {
    for a in t.args() {
        if let Term::Func(..) = a {
            f(a);
        }
        for_each_function(a, f);
    }
}

/// Calls `f` on every function term of a rule: in sentences and in `distinct`.
fn rule_functions<'a>(rule: &'a Rule, f: &mut impl FnMut(&'a Term)) {
    for s in sentences(rule) {
        for_each_function(s, f);
    }
    for lit in &rule.body {
        for_each_distinct_term(lit, &mut |t| {
            if let Term::Func(..) = t {
                f(t);
            }
            for_each_function(t, f);
        });
    }
}

fn for_each_distinct_term<'a>(lit: &'a Literal, f: &mut impl FnMut(&'a Term)) {
    match lit {
        Literal::Atom(_) => {}
        Literal::Distinct(a, b, _) => {
            f(a);
            f(b);
        }
        Literal::Not(l, _) => for_each_distinct_term(l, f),
        Literal::Or(ls, _) | Literal::And(ls, _) => ls.iter().for_each(|l| for_each_distinct_term(l, f)),
    }
}

// ---- 1. arity consistency ----

/// The uses of each symbol: its arity and span, in source order.
#[derive(Default)]
struct Uses<'a>(BTreeMap<&'a str, Vec<(usize, Span)>>);

impl<'a> Uses<'a> {
    fn add(&mut self, t: &'a Term) {
        if let Some(name) = t.name() {
            self.0.entry(name).or_default().push((t.args().len(), t.span()));
        }
    }

    /// One error per odd arity of a symbol, at its first use; the usual arity is the most
    /// used one (the first used on a tie).
    fn report(&self, kind: &str, out: &mut Vec<Diagnostic>) {
        for (name, uses) in &self.0 {
            let mut counts: Vec<(usize, usize, Span)> = Vec::new(); // arity, count, first span
            for &(arity, span) in uses {
                match counts.iter_mut().find(|c| c.0 == arity) {
                    Some(c) => c.1 += 1,
                    None => counts.push((arity, 1, span)),
                }
            }
            let usual = counts.iter().rev().max_by_key(|c| c.1).expect("used at least once").0;
            for &(arity, _, span) in counts.iter().filter(|c| c.0 != usual) {
                out.push(Diagnostic::error(
                    "arity-mismatch",
                    span,
                    format!(
                        "{kind} {name} has {} here ({name}/{arity}) but is used elsewhere with {} \
                         ({name}/{usual}); a {kind} must always have the same number of arguments",
                        arguments(arity),
                        arguments(usual)
                    ),
                ));
            }
        }
    }
}

/// Each relation and each function symbol is used with one arity. A name may be both a
/// relation and a function with different arities: GGP-Base keeps the two apart.
fn check_arities(rules: &[&Rule], out: &mut Vec<Diagnostic>) {
    let mut relations = Uses::default();
    let mut functions = Uses::default();
    for rule in rules {
        for s in sentences(rule).filter(|s| s.name().is_some_and(|n| keyword(n).is_none())) {
            relations.add(s);
        }
        rule_functions(rule, &mut |f| functions.add(f));
    }
    relations.report("relation", out);
    functions.report("function", out);
}

// ---- 2. keyword arities ----

fn check_keyword_arities(rules: &[&Rule], out: &mut Vec<Diagnostic>) {
    for s in rules.iter().flat_map(|r| sentences(r)) {
        let Some(name) = s.name() else { continue };
        let Some((arity, what)) = keyword(name) else { continue };
        if s.args().len() != arity {
            out.push(Diagnostic::error(
                "keyword-arity",
                s.span(),
                format!(
                    "'{name}' takes {} ({name}/{arity}: {what}), but here it has {}",
                    arguments(arity),
                    s.args().len()
                ),
            ));
        }
    }
    for rule in rules {
        rule_functions(rule, &mut |f| {
            let name = f.name().unwrap_or_default();
            if keyword(name).is_some() || CONNECTIVES.contains(&name) {
                out.push(Diagnostic::error(
                    "keyword-as-function",
                    f.span(),
                    format!("'{name}' is a GDL keyword and cannot be used as a function inside a term"),
                ));
            }
        });
    }
}

// ---- 3. where keywords may appear ----

fn check_keyword_places(rules: &[&Rule], out: &mut Vec<Diagnostic>) {
    for rule in rules {
        check_head_keyword(rule, out);
        for (atom, _) in body_atoms(rule) {
            if atom.name() == Some("next") {
                out.push(Diagnostic::error(
                    "next-in-body",
                    atom.span(),
                    "'next' cannot be used as a condition: it defines the following state; \
                     to test the current state use (true ...)",
                ));
            }
        }
    }
}

fn check_head_keyword(rule: &Rule, out: &mut Vec<Diagnostic>) {
    let (code, message) = match rule.head.name() {
        Some("true") => (
            "true-in-head",
            "'true' cannot be defined by a rule or fact: the current state comes from 'init' and \
             'next'; write (init ...) for the initial state or (next ...) for the following one"
                .to_string(),
        ),
        Some("does") => (
            "does-in-head",
            "'does' cannot be defined by a rule or fact: it holds the moves the players choose; \
             to say which moves are allowed, define 'legal'"
                .to_string(),
        ),
        Some("role") if !rule.body.is_empty() => (
            "role-rule",
            "roles must be listed as facts like (role white), not defined by a rule with conditions"
                .to_string(),
        ),
        Some(name) if CONNECTIVES.contains(&name) => (
            "keyword-head",
            format!("'{name}' is a GDL keyword and can only be a condition, not the head of a rule or a fact"),
        ),
        _ => return,
    };
    out.push(Diagnostic::error(code, rule.head.span(), message));
}

// ---- 9. roles and role arguments ----

/// Role names are distinct constants; `legal`, `does`, `goal` and `input` name a role (or a
/// variable) first.
fn check_roles(rules: &[&Rule], out: &mut Vec<Diagnostic>) {
    let mut roles: FxHashSet<&str> = FxHashSet::default();
    for rule in rules.iter().filter(|r| r.head.name() == Some("role") && r.head.args().len() == 1) {
        match &rule.head.args()[0] {
            Term::Const(name, span) => {
                if !roles.insert(name) {
                    out.push(Diagnostic::error("duplicate-role", *span, format!("role {name} is declared twice")));
                }
            }
            Term::Func(_, _, span) => out.push(Diagnostic::error(
                "role-not-constant",
                *span,
                "a role name must be a constant like white, not a compound term",
            )),
            Term::Var(..) => {} // reported as an unsafe variable
        }
    }
    if roles.is_empty() {
        return;
    }
    for s in rules.iter().flat_map(|r| sentences(r)) {
        if matches!(s.name(), Some("legal" | "does" | "goal" | "input")) && s.args().len() == 2 {
            check_role_argument(s, &roles, out);
        }
    }
}

fn check_role_argument(s: &Term, roles: &FxHashSet<&str>, out: &mut Vec<Diagnostic>) {
    let kw = s.name().unwrap_or_default();
    match &s.args()[0] {
        Term::Const(name, span) if !roles.contains(name.as_str()) => out.push(Diagnostic::warning(
            "unknown-role",
            *span,
            format!("{name} is not a role of this game (no fact (role {name})), so this '{kw}' never applies"),
        )),
        Term::Func(_, _, span) => out.push(Diagnostic::error(
            "role-argument",
            *span,
            format!("the first argument of '{kw}' must be a role (a constant) or a variable, not a compound term"),
        )),
        _ => {}
    }
}

// ---- 7. goal values ----

fn check_goal_values(rules: &[&Rule], out: &mut Vec<Diagnostic>) {
    for rule in rules.iter().filter(|r| r.head.name() == Some("goal") && r.head.args().len() == 2) {
        let value = &rule.head.args()[1];
        let ok = match value {
            Term::Var(..) => true,
            Term::Const(c, _) => c.parse::<u32>().is_ok_and(|v| v <= 100),
            Term::Func(..) => false,
        };
        if !ok {
            out.push(Diagnostic::error(
                "goal-value",
                value.span(),
                format!("a goal value must be a whole number from 0 to 100, not {value}"),
            ));
        }
    }
}

// ---- 4. rule safety ----

type Vars<'a> = FxHashSet<&'a str>;

/// The variables a literal binds: those of its positive atoms; for `or`, only those bound
/// in every alternative.
fn bound_by(lit: &Literal) -> Vars<'_> {
    match lit {
        Literal::Atom(t) => {
            let mut vars = Vars::default();
            t.for_each_var(&mut |v, _| {
                vars.insert(v);
            });
            vars
        }
        Literal::Not(..) | Literal::Distinct(..) => Vars::default(),
        Literal::And(ls, _) => bound_by_all(ls),
        Literal::Or(alts, _) => {
            let mut sets = alts.iter().map(bound_by);
            let first = sets.next().unwrap_or_default();
            sets.fold(first, |acc, s| acc.intersection(&s).copied().collect())
        }
    }
}

fn bound_by_all(lits: &[Literal]) -> Vars<'_> {
    lits.iter().flat_map(bound_by).collect()
}

/// Every variable of the head, of a `not` and of a `distinct` occurs in a positive atom of
/// the body (inside an alternative of `or`: of that alternative, or outside the `or`).
/// Each unsafe variable is reported once per rule, at its first unsafe occurrence.
fn check_safety(rule: &Rule, out: &mut Vec<Diagnostic>) {
    let bound = bound_by_all(&rule.body);
    let mut seen: FxHashSet<String> = FxHashSet::default();
    let mut positive = Vars::default();
    for (atom, negated) in body_atoms(rule) {
        if !negated {
            atom.for_each_var(&mut |v, _| {
                positive.insert(v);
            });
        }
    }
    let mut unsafe_var = |v: &str, span: Span, place: Place| {
        if seen.insert(v.to_string()) {
            out.push(unsafe_message(v, span, place, rule.body.is_empty(), positive.contains(v)));
        }
    };
    rule.head.for_each_var(&mut |v, span| {
        if !bound.contains(v) {
            unsafe_var(v, span, Place::Head);
        }
    });
    check_conditions(&rule.body, &bound, &mut unsafe_var);
}

#[derive(Clone, Copy)]
enum Place {
    Head,
    Not,
    Distinct,
}

fn check_conditions(lits: &[Literal], scope: &Vars, unsafe_var: &mut impl FnMut(&str, Span, Place)) {
    for lit in lits {
        match lit {
            Literal::Atom(_) => {}
            Literal::Not(..) | Literal::Distinct(..) => {
                let place = if matches!(lit, Literal::Not(..)) { Place::Not } else { Place::Distinct };
                lit.for_each_var(&mut |v, span| {
                    if !scope.contains(v) {
                        unsafe_var(v, span, place);
                    }
                });
            }
            Literal::And(ls, _) => check_conditions(ls, scope, unsafe_var),
            Literal::Or(alts, _) => {
                for alt in alts {
                    let mut inner = scope.clone();
                    inner.extend(bound_by(alt));
                    check_conditions(std::slice::from_ref(alt), &inner, unsafe_var);
                }
            }
        }
    }
}

fn unsafe_message(v: &str, span: Span, place: Place, is_fact: bool, in_some_or: bool) -> Diagnostic {
    let mut message = match place {
        Place::Head if is_fact => format!(
            "a fact cannot contain variables: nothing says which values ?{v} takes; write the values \
             out, or make it a rule with a condition that gives ?{v} its values"
        ),
        Place::Head => format!(
            "variable ?{v} in the head never occurs in a positive condition of the body, so the rule \
             would not say which values ?{v} takes"
        ),
        Place::Not => format!(
            "variable ?{v} in this 'not' never occurs in a positive condition of the body; 'not' can \
             only check values that are known, so add a condition that gives ?{v} its values"
        ),
        Place::Distinct => format!(
            "variable ?{v} in this 'distinct' never occurs in a positive condition of the body; \
             'distinct' can only compare values that are known, so add a condition that gives ?{v} \
             its values"
        ),
    };
    if in_some_or {
        message += &format!(
            " (?{v} occurs in only some alternatives of an 'or': it must occur in every one, or outside the 'or')"
        );
    }
    Diagnostic::error("unsafe-variable", span, message)
}

// ---- 3. keywords that must not depend on the state or the moves ----

/// `init`, `role`, `base` and `input` do not depend on `true` or `does`; `legal`, `goal`
/// and `terminal` do not depend on `does`. Reported once per rule, at the first culprit.
fn check_dependencies(rules: &[&Rule], graph: &DepGraph, out: &mut Vec<Diagnostic>) {
    let on_true = depends_on(graph, "true");
    let on_does = depends_on(graph, "does");
    for rule in rules {
        let Some(head) = rule.head.name() else { continue };
        let (forbidden, why): (&[(&[bool], &str)], &str) = match head {
            "init" => (&[(&on_true, "true"), (&on_does, "does")], "it describes the state before the game starts"),
            "role" => (&[(&on_true, "true"), (&on_does, "does")], "the players are fixed for the whole game"),
            "base" | "input" => (&[(&on_true, "true"), (&on_does, "does")], "it describes every possible state"),
            "legal" => (&[(&on_does, "does")], "legal moves must be known before the players choose"),
            "goal" | "terminal" => (&[(&on_does, "does")], "it is evaluated in a state, without moves"),
            _ => continue,
        };
        'atoms: for (atom, _) in body_atoms(rule) {
            let Some(r) = rel_key(atom).and_then(|k| graph.index.get(&k).copied()) else { continue };
            for &(deps, kw) in forbidden {
                if deps[r] {
                    out.push(dependency_error(head, kw, why, atom, graph, r));
                    break 'atoms;
                }
            }
        }
    }
}

fn dependency_error(head: &str, kw: &str, why: &str, atom: &Term, graph: &DepGraph, from: usize) -> Diagnostic {
    let path = path_to(graph, from, kw);
    let how = if path.len() == 1 {
        "this condition uses it directly".to_string()
    } else {
        let names: Vec<String> = path.iter().map(|&r| graph.name(r)).collect();
        format!("this condition does: {}", names.join(" → "))
    };
    let code = if kw == "true" { "state-dependent" } else { "move-dependent" };
    Diagnostic::error(code, atom.span(), format!("'{head}' cannot depend on '{kw}' ({why}), but {how}"))
}

/// Whether each relation depends (transitively, or is) a relation named `name`.
fn depends_on(graph: &DepGraph, name: &str) -> Vec<bool> {
    let mut dep: Vec<bool> = graph.rels.iter().map(|(n, _)| n == name).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for r in 0..graph.rels.len() {
            if !dep[r] && graph.edges[r].iter().any(|e| dep[e.to]) {
                dep[r] = true;
                changed = true;
            }
        }
    }
    dep
}

/// A shortest dependency path from `from` to a relation named `name` (breadth first).
fn path_to(graph: &DepGraph, from: usize, name: &str) -> Vec<usize> {
    let mut prev: FxHashMap<usize, usize> = FxHashMap::default();
    let mut queue = std::collections::VecDeque::from([from]);
    prev.insert(from, from);
    while let Some(v) = queue.pop_front() {
        if graph.rels[v].0 == name {
            let mut path = vec![v];
            while *path.last().expect("non-empty") != from {
                path.push(prev[path.last().expect("non-empty")]);
            }
            path.reverse();
            return path;
        }
        for e in &graph.edges[v] {
            if let std::collections::hash_map::Entry::Vacant(slot) = prev.entry(e.to) {
                slot.insert(v);
                queue.push_back(e.to);
            }
        }
    }
    vec![from]
}

// ---- 5. stratification ----

fn check_stratification(graph: &DepGraph, out: &mut Vec<Diagnostic>) {
    let Some((cycle, span)) = graph.negative_cycle() else { return };
    let mut names: Vec<String> = cycle.iter().map(|&r| graph.name(r)).collect();
    let p = names[0].clone();
    names.push(p.clone());
    out.push(Diagnostic::error(
        "unstratified",
        span,
        format!(
            "{p} depends on itself through 'not': {}; GDL forbids cycles through negation because such \
             rules have no clear meaning, so rewrite them so that no relation depends on its own negation",
            names.join(" → ")
        ),
    ));
}

// ---- 6. the recursion restriction ----

/// For a rule with head p(t1..tn) and a positive body atom q(s1..sk) with q recursive with
/// p, each sj is ground, one of the ti, or an argument of a positive condition (outside any
/// `or`) whose relation is not recursive with p (GDL specification, Love et al. 2008).
fn check_recursion(rules: &[&Rule], graph: &DepGraph, out: &mut Vec<Diagnostic>) {
    let sccs = graph.sccs();
    let mut comp_of = vec![0; graph.rels.len()];
    for (c, comp) in sccs.iter().enumerate() {
        comp.iter().for_each(|&r| comp_of[r] = c);
    }
    let comp = |t: &Term| rel_key(t).and_then(|k| graph.index.get(&k)).map(|&r| comp_of[r]);
    for rule in rules {
        let Some(c) = comp(&rule.head).filter(|&c| graph.is_recursive(&sccs[c])) else { continue };
        let mut anchors: Vec<&Term> = rule.head.args().iter().collect();
        for lit in &rule.body {
            for atom in conjunct_atoms(lit) {
                if comp(atom) != Some(c) {
                    anchors.extend(atom.args());
                }
            }
        }
        for (atom, negated) in body_atoms(rule) {
            if negated || comp(atom) != Some(c) {
                continue;
            }
            for arg in atom.args().iter().filter(|a| !a.is_ground() && !anchors.contains(a)) {
                out.push(recursion_warning(&rule.head, atom, arg));
            }
        }
    }
}

/// The positive atoms a literal requires for sure: itself, or those of an `and`.
fn conjunct_atoms(lit: &Literal) -> Vec<&Term> {
    match lit {
        Literal::Atom(t) => vec![t],
        Literal::And(ls, _) => ls.iter().flat_map(conjunct_atoms).collect(),
        _ => Vec::new(),
    }
}

fn recursion_warning(head: &Term, atom: &Term, arg: &Term) -> Diagnostic {
    let (p, q) = (slash(head), slash(atom));
    let with = if p == q { String::new() } else { format!(", which is recursive with {p},") };
    Diagnostic::warning(
        "recursion-restriction",
        arg.span(),
        format!(
            "the argument {arg} of {q}{with} breaks GDL's recursion restriction: it should be ground, an \
             argument of the head, or an argument of a condition that is not recursive with {p}; \
             otherwise the recursion may build ever larger terms"
        ),
    )
}

// ---- 8. warnings: undefined relations, missing keywords ----

/// Relations used in a body that no rule or fact defines (except `true` and `does`),
/// once per relation at its first use.
fn check_undefined(rules: &[&Rule], graph: &DepGraph, out: &mut Vec<Diagnostic>) {
    let mut reported: FxHashSet<RelKey> = FxHashSet::default();
    for (atom, _) in rules.iter().flat_map(|r| body_atoms(r)) {
        let Some(key) = rel_key(atom) else { continue };
        if matches!(key.0.as_str(), "true" | "does") || graph.index.get(&key).is_some_and(|&r| graph.defined[r]) {
            continue;
        }
        if reported.insert(key.clone()) {
            let mut message = format!("{}/{} is never defined, so it is always false", key.0, key.1);
            if let Some(other) = (0..graph.rels.len()).find(|&r| graph.defined[r] && graph.rels[r].0 == key.0) {
                message += &format!("; did you mean {}, which is defined?", graph.name(other));
            }
            out.push(Diagnostic::warning("undefined-relation", atom.span(), message));
        }
    }
}

/// The keywords every game needs, and what goes wrong without them.
const NEEDED: &[(&str, &str)] = &[
    ("role", "the game has no roles: list the players with facts like (role white)"),
    ("init", "the game never defines 'init', so it starts from the empty state"),
    ("legal", "the game never defines 'legal', so no player ever has a move"),
    ("terminal", "the game never defines 'terminal', so it never ends"),
    ("goal", "the game never defines 'goal', so no player can score"),
];

fn check_missing(rules: &[&Rule], out: &mut Vec<Diagnostic>) {
    for (kw, message) in NEEDED {
        if !rules.iter().any(|r| r.head.name() == Some(kw)) {
            out.push(Diagnostic::warning("missing-keyword", Span::default(), *message));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::LineIndex;
    use crate::parse::parse;
    use expect_test::{expect, Expect};

    fn check(text: &str, expect: Expect) {
        let parsed = parse(text);
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        let idx = LineIndex::new(text);
        let out: Vec<String> = validate(&parsed.description).iter().map(|d| idx.render("game.kif", d)).collect();
        expect.assert_eq(&out.join("\n"));
    }

    fn corpus_games() -> Vec<(String, String)> {
        let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus"));
        let mut games = Vec::new();
        let Ok(subs) = std::fs::read_dir(dir) else { return games };
        for sub in subs.flatten() {
            let Ok(files) = std::fs::read_dir(sub.path()) else { continue };
            for f in files.flatten().filter(|f| f.path().extension().is_some_and(|e| e == "kif")) {
                let name = format!("{}/{}", sub.file_name().to_string_lossy(), f.file_name().to_string_lossy());
                games.push((name, std::fs::read_to_string(f.path()).unwrap()));
            }
        }
        games.sort();
        games
    }

    #[test]
    fn corpus_stats() {
        let mut counts: BTreeMap<(bool, &str), usize> = BTreeMap::new();
        for (name, text) in corpus_games() {
            let parsed = parse(&text);
            let idx = LineIndex::new(&text);
            for d in validate(&parsed.description) {
                *counts.entry((d.is_error(), d.code)).or_default() += 1;
                println!("{}", idx.render(&name, &d));
            }
        }
        println!("{counts:?}");
    }
}
