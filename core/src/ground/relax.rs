//! The relaxed program: one fixpoint that gives the domains of every dynamic relation and
//! the ground instances of every dynamic rule.
//!
//! In the relaxed program `true` reads `base` and `does` reads `input`, negated dynamic
//! literals are dropped (so everything that could hold in some reachable state holds), and,
//! unless the description declares them, `base ⊇ init ∪ next` and `input ⊇ legal`. Each
//! dynamic rule `h :- body` gets a capture relation, `capture(V) :- body` (`legal~rule3`,
//! ...), holding the bindings `V` of the variables of the head and the dynamic literals
//! under which the relaxed body holds: the rule's ground instances.
//!
//! Relations too big to compute in full can be computed *on demand* (`crate::program::magic`, with
//! the captures of their rules, which the rules then read: `h :- capture(V)`, so that demand
//! reaches them): only for the arguments the rules that read them can ask
//! about, positively or under `not` (a negated dynamic literal is dropped from the relaxed
//! program, but its atom is in the ground program, so it is asked about too). A ground
//! instance whose head no instance reads, and no keyword, is not needed; the captures then
//! hold only the instances that are.

use crate::ast::Term;
use crate::deps::DepGraph;
use crate::diagnostic::Span;
use crate::program::magic;
use crate::program::{NLit, NRule, Program};
use rustc_hash::{FxHashMap, FxHashSet};

type Key = (String, usize);

/// Keyword relations whose facts the ground program keeps when they are static.
pub const KEPT_FACTS: [(&str, usize); 9] = [
    ("role", 1),
    ("init", 1),
    ("base", 1),
    ("input", 2),
    ("legal", 2),
    ("next", 1),
    ("terminal", 0),
    ("goal", 2),
    ("sees", 2),
];

/// The capture relation of one dynamic rule.
pub struct Capture {
    /// Index of the rule in the normal rules.
    pub rule: usize,
    pub name: String,
    /// The variables of the rule's head and dynamic literals, in the order of the capture's
    /// arguments.
    pub vars: Vec<String>,
    /// The relations of the evaluated program that hold its instances: the capture, or
    /// when it is computed on demand its copies per binding pattern (each with the
    /// capture's arguments).
    pub relations: Vec<String>,
}

pub struct Relaxed {
    pub rules: Vec<NRule>,
    pub captures: Vec<Capture>,
    /// Relations that depend on `true` or `does` (plus the keywords that always do).
    pub dynamic: FxHashSet<Key>,
    pub declared_base: bool,
    pub declared_input: bool,
}

fn var(name: &str) -> Term {
    Term::Var(name.into(), Span::default())
}

fn func(name: &str, args: Vec<Term>) -> Term {
    Term::Func(name.into(), args, Span::default())
}

pub(super) fn key(t: &Term) -> Key {
    (t.name().expect("named").to_string(), t.args().len())
}

/// `true` → `base`, `does` → `input`.
fn relax_atom(t: &Term) -> Term {
    match (t.name(), t) {
        (Some("true"), Term::Func(_, args, s)) => Term::Func("base".into(), args.clone(), *s),
        (Some("does"), Term::Func(_, args, s)) => Term::Func("input".into(), args.clone(), *s),
        _ => t.clone(),
    }
}

impl Relaxed {
    /// The relaxed program of the rules, with the relations `on_demand` (and the callers
    /// `crate::program::magic` needs) computed on demand; `None` when the demand transformation does
    /// not apply to them.
    pub fn build(program: &Program, recompute_domains: bool, on_demand: &[Key]) -> Option<Relaxed> {
        let (rules, dynamic) = (program.rules(), dynamic_relations(program.graph()));
        let defines = |name: &str| rules.iter().any(|r| r.head.name() == Some(name));
        let declared_base = defines("base") && !recompute_domains;
        let declared_input = defines("input") && !recompute_domains;
        let is_dynamic = |t: &Term| dynamic.contains(&key(t));
        let mut out = Vec::new();
        let mut captures = Vec::new();
        // The captures of the relations on demand are on demand too.
        let mut wanted = on_demand.to_vec();
        for (i, rule) in rules.iter().enumerate() {
            let head_name = rule.head.name().expect("named");
            if (head_name == "base" && !declared_base) || (head_name == "input" && !declared_input) {
                continue;
            }
            // Negated literals stay until demand is computed (their atoms are asked about).
            let body: Vec<NLit> = (rule.body.iter())
                .map(|l| match l {
                    NLit::Pos(t) => NLit::Pos(relax_atom(t)),
                    other => other.clone(),
                })
                .collect();
            // On demand, bodies are read in the order that passes most bindings on.
            let body = if on_demand.is_empty() { body } else { demand_order(&rule.head, body, on_demand) };
            if !is_dynamic(&rule.head) {
                out.push(NRule { head: rule.head.clone(), body, span: rule.span });
                continue;
            }
            let mut vars: Vec<String> = Vec::new();
            let mut add = |v: &str, _| {
                if !vars.iter().any(|x| x == v) {
                    vars.push(v.to_string())
                }
            };
            // Variables only static literals mention are projected away: the ground
            // instance does not show them.
            rule.head.for_each_var(&mut add);
            (rule.body.iter())
                .filter(|l| matches!(l, NLit::Pos(t) | NLit::Neg(t) if is_dynamic(t)))
                .for_each(|l| l.for_each_var(&mut add));
            let name = format!("{head_name}~rule{}", captures.len() + 1);
            let capture = if vars.is_empty() {
                Term::Const(name.clone(), rule.span)
            } else {
                func(&name, vars.iter().map(|v| var(v)).collect())
            };
            if on_demand.contains(&key(&rule.head)) {
                wanted.push(key(&capture));
            }
            // The parts of a rule on demand (`decompose`) pass its demand on.
            if on_demand.iter().any(|k| head_name.strip_prefix(k.0.as_str()).is_some_and(|s| s.starts_with("~part"))) {
                wanted.push(key(&rule.head));
                wanted.push(key(&capture));
            }
            // On demand the rule reads its capture, so that demand reaches the capture; in full
            // both join the body (a projection of a wide capture costs more than the join).
            let body_of_head = if on_demand.is_empty() { body.clone() } else { vec![NLit::Pos(capture.clone())] };
            out.push(NRule { head: capture, body, span: rule.span });
            out.push(NRule { head: rule.head.clone(), body: body_of_head, span: rule.span });
            captures.push(Capture { rule: i, name, vars, relations: Vec::new() });
        }
        let f = || var("f");
        if !declared_base {
            for source in ["init", "next"] {
                out.push(NRule {
                    head: func("base", vec![f()]),
                    body: vec![NLit::Pos(func(source, vec![f()]))],
                    span: Span::default(),
                });
            }
        }
        if !declared_input {
            out.push(NRule {
                head: func("input", vec![var("r"), var("m")]),
                body: vec![NLit::Pos(func("legal", vec![var("r"), var("m")]))],
                span: Span::default(),
            });
        }
        if !on_demand.is_empty() {
            // Bindings first, so that the grounding does not depend on the order the
            // bodies are written in (a disguised merrills asks its count's loop with the
            // recursive call first).
            out = magic::transform_asking(&out, &wanted, &dynamic, magic::Passing::BindingsFirst)?;
        }
        // Negated dynamic literals (and their copies on demand) go.
        for rule in &mut out {
            rule.body.retain(|l| !matches!(l, NLit::Neg(t) if dynamic.contains(&magic::original(&key(t)))));
        }
        let out = project_demand(out);
        for capture in &mut captures {
            let k = (capture.name.clone(), capture.vars.len());
            for r in &out {
                let h = key(&r.head);
                if magic::original(&h) == k && !capture.relations.contains(&h.0) {
                    capture.relations.push(h.0);
                }
            }
        }
        Some(Relaxed { rules: out, captures, dynamic, declared_base, declared_input })
    }

    /// The relation of the rules as written that a relation of the relaxed program computes
    /// (for a capture: its rule's relation).
    pub fn source(&self, k: &Key, rules: &[NRule]) -> Key {
        let k = magic::original(k);
        match self.captures.iter().find(|c| c.name == k.0 && c.vars.len() == k.1) {
            Some(c) => key(&rules[c.rule].head),
            None => k,
        }
    }
}

/// The relation whose dynamic rules' instances are sure to be more than `max_instances`
/// (of such relations, the one with most), found before any evaluation: so that
/// its grounding starts on demand instead of failing after the full evaluation reached the
/// limit (ruleDepthQuadratic's `prereq19` over 19 bits: its 2¹⁹ instances took a second to
/// reach it). A rule's instances are its bindings of the head's and dynamic literals'
/// variables (its capture); the facts of a relation given by facts alone bound them: a set
/// of such literals that share no variable and mention each of these variables ranges over
/// the product of the facts each matches. Only a guess for the rule (its other literals
/// may hold for none of them), it is taken when the relation's rules together are past
/// the limit (specialised copies of one rule, each over some of the bits, add up).
pub fn overflowing(program: &Program, max_instances: usize) -> Option<Key> {
    let (rules, dynamic) = (program.rules(), dynamic_relations(program.graph()));
    let mut facts: FxHashMap<Key, Vec<&Term>> = FxHashMap::default();
    for r in rules {
        facts.entry(key(&r.head)).or_default().push(&r.head);
    }
    let given = |k: &Key| rules.iter().filter(|r| key(&r.head) == *k).all(|r| r.body.is_empty());
    facts.retain(|k, _| given(k));
    // Per relation, the instances its rules are sure to have.
    let mut instances: FxHashMap<Key, f64> = FxHashMap::default();
    for rule in rules.iter().filter(|r| dynamic.contains(&key(&r.head))) {
        let mut vars: FxHashSet<&str> = FxHashSet::default();
        rule.head.for_each_var(&mut |v, _| {
            vars.insert(v);
        });
        (rule.body.iter()).filter(|l| matches!(l, NLit::Pos(t) | NLit::Neg(t) if dynamic.contains(&key(t)))).for_each(
            |l| {
                l.for_each_var(&mut |v, _| {
                    vars.insert(v);
                })
            },
        );
        let mut covered: FxHashSet<&str> = FxHashSet::default();
        let mut product = 1.0;
        for l in &rule.body {
            let NLit::Pos(t) = l else { continue };
            let Some(given) = facts.get(&key(t)) else { continue };
            let mut own = Vec::new();
            t.for_each_var(&mut |v, _| own.push(v));
            if own.iter().any(|v| covered.contains(v)) || !own.iter().any(|v| vars.contains(v)) {
                continue;
            }
            covered.extend(own);
            product *= given.iter().filter(|f| matches(t, f, &mut Vec::new())).count() as f64;
        }
        if vars.iter().all(|v| covered.contains(v)) {
            *instances.entry(key(&rule.head)).or_default() += product;
        }
    }
    let (k, most) = instances.into_iter().max_by(|a, b| a.1.total_cmp(&b.1).then_with(|| b.0.cmp(&a.0)))?;
    (most > max_instances as f64).then_some(k)
}

/// Whether the ground `fact` is an instance of `pattern` (under `bound`, which it extends).
pub(super) fn matches<'a>(pattern: &'a Term, fact: &'a Term, bound: &mut Vec<(&'a str, &'a Term)>) -> bool {
    match (pattern, fact) {
        (Term::Var(v, _), _) => match bound.iter().find(|(w, _)| w == v) {
            Some((_, t)) => *t == fact,
            None => {
                bound.push((v, fact));
                true
            }
        },
        (Term::Func(f, xs, _), Term::Func(g, ys, _)) => {
            f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| matches(x, y, bound))
        }
        _ => pattern == fact,
    }
}

/// The body in the order that passes most bindings on to the calls of relations on demand
/// (`crate::program::magic` passes them in the order written): from the head's variables, a
/// positive literal of a relation not on demand that shares a bound variable, else the
/// first positive literal as written; each (non-)equality as soon as its variables are
/// bound (it then filters what the calls after it are asked); negated literals last, as
/// written. An order only changes which instances are asked about, not the answers.
fn demand_order(head: &Term, body: Vec<NLit>, on_demand: &[Key]) -> Vec<NLit> {
    let mut bound: FxHashSet<String> = FxHashSet::default();
    head.for_each_var(&mut |v, _| {
        bound.insert(v.to_string());
    });
    let (mut positive, others): (Vec<NLit>, Vec<NLit>) = body.into_iter().partition(|l| matches!(l, NLit::Pos(_)));
    let (mut filters, negated): (Vec<NLit>, Vec<NLit>) = others.into_iter().partition(|l| !matches!(l, NLit::Neg(_)));
    let mut out = Vec::with_capacity(positive.len() + filters.len() + negated.len());
    loop {
        let (ready, waiting) = filters.into_iter().partition(|l| magic::all_bound(l, &bound));
        out.extend::<Vec<NLit>>(ready);
        filters = waiting;
        if positive.is_empty() {
            break;
        }
        let binds = |l: &NLit| {
            let NLit::Pos(t) = l else { return false };
            let mut shares = false;
            t.for_each_var(&mut |v, _| shares |= bound.contains(v));
            shares && !on_demand.contains(&key(t))
        };
        let next = positive.iter().position(binds).unwrap_or(0);
        let l = positive.remove(next);
        l.for_each_var(&mut |v, _| {
            bound.insert(v.to_string());
        });
        out.push(l);
    }
    out.extend(filters);
    out.extend(negated);
    out
}

/// The rules with each demand they read (`magic~...`) projected first onto the variables the
/// rest of the rule reads: `magic~p~bf..~projN(kept) :- magic~p~bf..(all)`. A demand is
/// as wide as its caller's bound arguments, and a rule deriving another demand from it
/// joins every one of its facts with the conditions before the call, though the call may
/// read only some of its arguments; projected, each combination of those is joined once
/// (chess: the squares a move leaves, which only the rays read, no longer multiply the
/// joins that ask about the attackers' pieces). Facts and answers stay the same.
fn project_demand(rules: Vec<NRule>) -> Vec<NRule> {
    let mut made: FxHashMap<String, Term> = FxHashMap::default();
    let mut projections: Vec<NRule> = Vec::new();
    let mut out = Vec::with_capacity(rules.len());
    for mut rule in rules {
        for i in 0..rule.body.len() {
            let NLit::Pos(t) = rule.body[i].clone() else { continue };
            let Some(name) = t.name().filter(|n| n.starts_with("magic~")) else { continue };
            let mut elsewhere: FxHashSet<&str> = FxHashSet::default();
            rule.head.for_each_var(&mut |v, _| {
                elsewhere.insert(v);
            });
            for (_, l) in rule.body.iter().enumerate().filter(|&(j, _)| j != i) {
                l.for_each_var(&mut |v, _| {
                    elsewhere.insert(v);
                });
            }
            let (mut kept, mut dropped): (Vec<&str>, bool) = (Vec::new(), false);
            t.for_each_var(&mut |v, _| {
                if !elsewhere.contains(v) {
                    dropped = true;
                } else if !kept.contains(&v) {
                    kept.push(v);
                }
            });
            if !dropped {
                continue;
            }
            let text = format!("{t} {kept:?}");
            let head = made.entry(text).or_insert_with(|| {
                let name = magic::projection_name(name, projections.len() + 1);
                let head = if kept.is_empty() {
                    Term::Const(name, t.span())
                } else {
                    func(&name, kept.iter().map(|v| var(v)).collect())
                };
                projections.push(NRule { head: head.clone(), body: vec![NLit::Pos(t.clone())], span: rule.span });
                head
            });
            rule.body[i] = NLit::Pos(head.clone());
        }
        out.push(rule);
    }
    out.extend(projections);
    out
}

/// Relations that depend on `true` or `does`, given the program's dependency graph.
pub fn dynamic_relations(graph: &DepGraph) -> FxHashSet<Key> {
    let mut dynamic = vec![false; graph.rels.len()];
    for scc in graph.sccs() {
        let d = scc.iter().any(|&r| {
            matches!(graph.rels[r].0.as_str(), "true" | "does") || graph.edges[r].iter().any(|e| dynamic[e.to])
        });
        for &r in &scc {
            dynamic[r] = d;
        }
    }
    graph.rels.iter().zip(dynamic).filter(|(_, d)| *d).map(|(k, _)| k.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;
    use crate::program::normalise;

    /// The rules of `text` with `magic_` read as the demand prefix `magic~` (which the parser
    /// refuses in names).
    fn rules(text: &str) -> Vec<NRule> {
        fn demand(t: &Term) -> Term {
            let name = |n: &str| n.replacen("magic_", "magic~", 1);
            match t {
                Term::Func(n, args, s) => Term::Func(name(n), args.iter().map(demand).collect(), *s),
                Term::Const(n, s) => Term::Const(name(n), *s),
                v => v.clone(),
            }
        }
        let lit = |l: &NLit| match l {
            NLit::Pos(t) => NLit::Pos(demand(t)),
            other => other.clone(),
        };
        let rules = normalise(&parse(text).description).unwrap();
        rules
            .iter()
            .map(|r| NRule { head: demand(&r.head), body: r.body.iter().map(lit).collect(), span: r.span })
            .collect()
    }

    #[test]
    fn a_demand_is_read_with_only_the_arguments_the_rule_needs() {
        // The demand for `far` asks about squares `?x ?y` and a square `?u` it leaves; the
        // demand it passes on to `path` reads only `?y`.
        let text = "(<= (magic_path_bb ?y ?z) (magic_far_bbb ?x ?y ?u) (link ?y ?z))\n\
                    (<= (magic_ray_bb ?x ?y) (magic_far_bbb ?x ?y ?u) (link ?x ?y) (magic_far_bbb ?y ?x ?x))\n\
                    (<= (far_bbb ?x ?y ?u) (magic_far_bbb ?x ?y ?u) (link ?y ?x))";
        let out: Vec<String> = project_demand(rules(text)).iter().map(ToString::to_string).collect();
        expect_test::expect![[r#"
            (magic~path_bb ?y ?z) :- (magic~far_bbb~proj1 ?y) (link ?y ?z)
            (magic~ray_bb ?x ?y) :- (magic~far_bbb~proj2 ?x ?y) (link ?x ?y) (magic~far_bbb ?y ?x ?x)
            (far_bbb ?x ?y ?u) :- (magic~far_bbb ?x ?y ?u) (link ?y ?x)
            (magic~far_bbb~proj1 ?y) :- (magic~far_bbb ?x ?y ?u)
            (magic~far_bbb~proj2 ?x ?y) :- (magic~far_bbb ?x ?y ?u)"#]]
        .assert_eq(&out.join("\n"));
        // A projection asks about what its demand asks about.
        let k = (magic::projection_name("magic~far~bbb", 1), 1);
        assert_eq!(magic::asked(&k), Some(("far".to_string(), 3)));
    }
}
