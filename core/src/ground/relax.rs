//! The relaxed program: one fixpoint that gives the domains of every dynamic relation and
//! the ground instances of every dynamic rule.
//!
//! In the relaxed program `true` reads `base` and `does` reads `input`, negated dynamic
//! literals are dropped (so everything that could hold in some reachable state holds), and,
//! unless the description declares them, `base ⊇ init ∪ next` and `input ⊇ legal`. For each
//! dynamic rule a capture relation (`legal~rule3`, ...) holds the bindings of the variables
//! of its head and dynamic literals under which the relaxed body holds: its ground instances.

use crate::ast::Term;
use crate::diagnostic::Span;
use crate::program::{graph_of, NLit, NRule};
use rustc_hash::FxHashSet;

/// Keyword relations whose facts the ground program keeps when they are static.
pub const KEPT_FACTS: [(&str, usize); 8] =
    [("role", 1), ("init", 1), ("base", 1), ("input", 2), ("legal", 2), ("next", 1), ("terminal", 0), ("goal", 2)];

/// The capture relation of one dynamic rule.
pub struct Capture {
    /// Index of the rule in the normal rules.
    pub rule: usize,
    pub name: String,
    /// The variables of the rule's head and dynamic literals, in the order of the capture's
    /// arguments.
    pub vars: Vec<String>,
}

pub struct Relaxed {
    pub rules: Vec<NRule>,
    pub captures: Vec<Capture>,
    /// Relations that depend on `true` or `does` (plus the keywords that always do).
    pub dynamic: FxHashSet<(String, usize)>,
    pub declared_base: bool,
    pub declared_input: bool,
}

fn var(name: &str) -> Term {
    Term::Var(name.into(), Span::default())
}

fn func(name: &str, args: Vec<Term>) -> Term {
    Term::Func(name.into(), args, Span::default())
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
    pub fn build(rules: &[NRule], recompute_domains: bool) -> Relaxed {
        let dynamic = dynamic_relations(rules);
        let defines = |name: &str| rules.iter().any(|r| r.head.name() == Some(name));
        let declared_base = defines("base") && !recompute_domains;
        let declared_input = defines("input") && !recompute_domains;
        let mut out = Vec::new();
        let mut captures = Vec::new();
        for (i, rule) in rules.iter().enumerate() {
            let head_name = rule.head.name().expect("named");
            if (head_name == "base" && !declared_base) || (head_name == "input" && !declared_input) {
                continue;
            }
            let is_dynamic = |t: &Term| dynamic.contains(&(t.name().expect("named").to_string(), t.args().len()));
            let is_dynamic_lit = |l: &NLit| matches!(l, NLit::Pos(t) | NLit::Neg(t) if is_dynamic(t));
            let body: Vec<NLit> = rule
                .body
                .iter()
                .filter_map(|l| match l {
                    NLit::Pos(t) => Some(NLit::Pos(relax_atom(t))),
                    NLit::Neg(t) if is_dynamic(t) => None,
                    other => Some(other.clone()),
                })
                .collect();
            out.push(NRule { head: rule.head.clone(), body: body.clone(), span: rule.span });
            if is_dynamic(&rule.head) {
                let mut vars: Vec<String> = Vec::new();
                let mut add = |v: &str, _| {
                    if !vars.iter().any(|x| x == v) {
                        vars.push(v.to_string())
                    }
                };
                // Variables only static literals mention are projected away: the ground
                // instance does not show them.
                rule.head.for_each_var(&mut add);
                rule.body.iter().filter(|l| is_dynamic_lit(l)).for_each(|l| l.for_each_var(&mut add));
                let name = format!("{head_name}~rule{}", captures.len() + 1);
                let head = if vars.is_empty() {
                    Term::Const(name.clone(), rule.span)
                } else {
                    func(&name, vars.iter().map(|v| var(v)).collect())
                };
                out.push(NRule { head, body, span: rule.span });
                captures.push(Capture { rule: i, name, vars });
            }
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
        Relaxed { rules: out, captures, dynamic, declared_base, declared_input }
    }
}

/// Relations that depend on `true` or `does`.
pub fn dynamic_relations(rules: &[NRule]) -> FxHashSet<(String, usize)> {
    let graph = graph_of(rules);
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
