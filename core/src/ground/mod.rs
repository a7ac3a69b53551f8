//! The grounder: turns a description with variables into an equivalent one without.
//!
//! Following Vittaut & Méhat (2014): rules are normalised (no `or`), relations labelled
//! static or dynamic (dynamic = depends on `true`/`does`); the domains of `base` and `input`
//! come from the description or from ONE fixpoint of the *relaxed* program (negated dynamic
//! literals dropped, `true`→`base`, `does`→`input`, `base ⊇ init ∪ next`, `input ⊇ legal`).
//! In the same fixpoint every dynamic rule gets a *capture* relation whose facts are the
//! variable bindings under which its relaxed body holds: its ground instances. Static
//! literals then vanish (they hold by construction), dynamic ones stay, and instances
//! whose head nothing can use are dropped.
//!
//! Invariants: the ground program has no variables; every `true` atom in it names a
//! `base` fact and every `does` atom an `input` fact; static relations other than the GDL
//! keywords do not appear in it.

mod relax;

use crate::ast::{Description, Item, Literal, Rule, Term};
use crate::diagnostic::{Diagnostic, Span};
use crate::parse::Syntax;
use crate::program::{normalise, NRule};
use crate::reasoner::{Limits, Reasoner};
use crate::term::{TermId, TermStore};
use relax::{Capture, Relaxed};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;
use std::collections::BTreeMap;

/// How to ground.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Compute `base` and `input` even when the description declares them.
    pub recompute_domains: bool,
    /// Most ground rules; larger programs stop with an error.
    pub max_rules: usize,
    pub limits: Limits,
}

impl Default for Options {
    fn default() -> Self {
        Options { recompute_domains: false, max_rules: 1_000_000, limits: Limits::default() }
    }
}

/// The phases of grounding, reported to a progress callback and timed in the statistics.
pub const PHASES: [&str; 4] = ["normalise", "domains", "instantiate", "simplify"];

/// Figures about a grounding.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    pub base: usize,
    pub input: usize,
    /// Whether `base`/`input` came from the description (false: computed).
    pub declared_base: bool,
    pub declared_input: bool,
    pub rules: usize,
    pub rules_per_relation: BTreeMap<String, usize>,
    /// Milliseconds per phase, in `PHASES` order.
    pub phase_ms: BTreeMap<String, f64>,
}

/// A ground program: rules without variables over interned atoms, in a fixed order
/// (keyword facts first, roles in declaration order, then rules by head relation and text).
#[derive(Debug)]
pub struct Ground {
    store: TermStore,
    rules: Vec<GRule>,
    pub stats: Stats,
}

impl Ground {
    /// One rule per line, in prefix or infix syntax.
    pub fn print(&self, syntax: Syntax) -> String {
        let mut out = String::new();
        for r in &self.rules {
            self.write_atom(r.head, syntax, &mut out);
            for (i, &(neg, a)) in r.body.iter().enumerate() {
                match syntax {
                    Syntax::Prefix => out.push_str(if neg { " (not " } else { " " }),
                    Syntax::Infix => out.push_str(match (i, neg) {
                        (0, false) => " :- ",
                        (0, true) => " :- ~",
                        (_, false) => " & ",
                        (_, true) => " & ~",
                    }),
                }
                self.write_atom(a, syntax, &mut out);
                if neg && syntax == Syntax::Prefix {
                    out.push(')');
                }
            }
            if syntax == Syntax::Prefix && !r.body.is_empty() {
                out.insert_str(out.rfind('\n').map_or(0, |i| i + 1), "(<= ");
                out.push(')');
            }
            out.push('\n');
        }
        out
    }

    fn write_atom(&self, t: TermId, syntax: Syntax, out: &mut String) {
        let store = &self.store;
        match syntax {
            Syntax::Prefix => out.push_str(store.text(t)),
            Syntax::Infix => {
                out.push_str(store.symbol_name(store.sym(t)));
                let args = store.args(t);
                if !args.is_empty() {
                    out.push('(');
                    for (i, &a) in args.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        self.write_atom(a, syntax, out);
                    }
                    out.push(')');
                }
            }
        }
    }

    /// The ground program as a syntax tree (to load it into an engine).
    pub fn description(&self) -> Description {
        let store = &self.store;
        let items = self
            .rules
            .iter()
            .map(|r| {
                let body = r
                    .body
                    .iter()
                    .map(|&(neg, a)| {
                        let lit = Literal::Atom(to_term(store, a));
                        if neg {
                            Literal::Not(Box::new(lit), Span::default())
                        } else {
                            lit
                        }
                    })
                    .collect();
                Item::Rule(Rule { head: to_term(store, r.head), body, span: Span::default() })
            })
            .collect();
        Description { items }
    }
}

/// A ground rule over interned atoms (`(true (cell 1 1 b))` is one term).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct GRule {
    head: TermId,
    body: Vec<(bool, TermId)>,
}

/// Grounds a description. `now` gives milliseconds (for the phase times); `progress` is told
/// each phase as it starts.
pub fn ground(
    desc: &Description,
    options: Options,
    now: &dyn Fn() -> f64,
    progress: &mut dyn FnMut(&str),
) -> Result<Ground, Diagnostic> {
    let mut stats = Stats::default();
    let mut clock = now();
    let mut lap = |stats: &mut Stats, phase: &str| {
        let t = now();
        stats.phase_ms.insert(phase.to_string(), t - clock);
        clock = t;
    };

    progress(PHASES[0]);
    let rules = crate::specialise::specialise(normalise(desc)?);
    lap(&mut stats, PHASES[0]);

    progress(PHASES[1]);
    let relaxed = Relaxed::build(&rules, options.recompute_domains);
    stats.declared_base = relaxed.declared_base;
    stats.declared_input = relaxed.declared_input;
    let mut limits = options.limits;
    limits.max_facts = limits.max_facts.max(options.max_rules);
    let mut engine = Reasoner::from_rules(relaxed.rules.clone(), limits)?;
    engine.evaluate_all().map_err(|e| Diagnostic::error("grounding", Span::default(), e.message))?;
    stats.base = engine.facts("base", 1).len();
    stats.input = engine.facts("input", 2).len();
    lap(&mut stats, PHASES[1]);

    progress(PHASES[2]);
    let mut out = Vec::new();
    for capture in &relaxed.captures {
        instantiate(capture, &rules[capture.rule], &mut engine, &relaxed.dynamic, &mut out);
        if out.len() > options.max_rules {
            return Err(too_many(&out, options.max_rules, engine.store()));
        }
    }
    for (name, arity) in relax::KEPT_FACTS {
        if !relaxed.dynamic.contains(&(name.to_string(), arity)) {
            let facts: Vec<Vec<TermId>> = engine.facts(name, arity).into_iter().map(<[TermId]>::to_vec).collect();
            let store = engine.store_mut();
            for args in facts {
                let head = atom(store, name, &args);
                out.push(GRule { head, body: Vec::new() });
            }
        }
    }
    lap(&mut stats, PHASES[2]);

    progress(PHASES[3]);
    let out = keep_used(out, engine.store());
    for r in &out {
        let t = engine.store().sym(r.head);
        let key = format!("{}/{}", engine.store().symbol_name(t), engine.store().args(r.head).len());
        *stats.rules_per_relation.entry(key).or_default() += 1;
    }
    stats.rules = out.len();
    let rules = in_order(out, engine.store());
    lap(&mut stats, PHASES[3]);
    Ok(Ground { store: std::mem::take(engine.store_mut()), rules, stats })
}

fn too_many(out: &[GRule], max: usize, store: &TermStore) -> Diagnostic {
    let mut per: FxHashMap<u32, usize> = FxHashMap::default();
    for r in out {
        *per.entry(store.sym(r.head)).or_default() += 1;
    }
    let (sym, n) = per.into_iter().max_by_key(|&(_, n)| n).unwrap_or_default();
    Diagnostic::error(
        "too-many-ground-rules",
        Span::default(),
        format!(
            "the ground program would have more than {max} rules ({n} of them for {}): raise the limit \
             max_rules, or keep playing with the first-order reasoner",
            store.symbol_name(sym)
        ),
    )
}

/// The atom `name(args)` as one term.
fn atom(store: &mut TermStore, name: &str, args: &[TermId]) -> TermId {
    let sym = store.symbol(name);
    store.intern_atom(sym, args)
}

/// Emits one ground rule per capture fact of a rule: its head and dynamic body literals.
fn instantiate(
    capture: &Capture,
    rule: &NRule,
    engine: &mut Reasoner,
    dynamic: &FxHashSet<(String, usize)>,
    out: &mut Vec<GRule>,
) {
    let bindings: Vec<Vec<TermId>> =
        engine.facts(&capture.name, capture.vars.len()).into_iter().map(<[TermId]>::to_vec).collect();
    let slot: FxHashMap<&str, usize> = capture.vars.iter().enumerate().map(|(i, v)| (v.as_str(), i)).collect();
    let store = engine.store_mut();
    let is_dynamic = |t: &Term| dynamic.contains(&(t.name().expect("named").to_string(), t.args().len()));
    for b in bindings {
        let head = ground_atom(store, &rule.head, &slot, &b);
        let mut body = Vec::new();
        for lit in &rule.body {
            match lit {
                crate::program::NLit::Pos(t) if is_dynamic(t) => body.push((false, ground_atom(store, t, &slot, &b))),
                crate::program::NLit::Neg(t) if is_dynamic(t) => body.push((true, ground_atom(store, t, &slot, &b))),
                _ => {}
            }
        }
        out.push(GRule { head, body });
    }
}

fn ground_atom(store: &mut TermStore, t: &Term, slot: &FxHashMap<&str, usize>, b: &[TermId]) -> TermId {
    let args: Vec<TermId> = t.args().iter().map(|a| ground_term(store, a, slot, b)).collect();
    atom(store, t.name().expect("named"), &args)
}

fn ground_term(store: &mut TermStore, t: &Term, slot: &FxHashMap<&str, usize>, b: &[TermId]) -> TermId {
    match t {
        Term::Var(v, _) => b[slot[v.as_str()]],
        Term::Const(c, _) => store.constant(c),
        Term::Func(f, args, _) => {
            let ids: Vec<TermId> = args.iter().map(|a| ground_term(store, a, slot, b)).collect();
            atom(store, f, &ids)
        }
    }
}

/// Keeps the rules whose head some GDL keyword can reach: an atom is needed if it belongs to
/// a keyword relation or occurs in the body of a rule for a needed atom. Duplicates go too.
fn keep_used(rules: Vec<GRule>, store: &TermStore) -> Vec<GRule> {
    let mut by_head: FxHashMap<TermId, Vec<usize>> = FxHashMap::default();
    for (i, r) in rules.iter().enumerate() {
        by_head.entry(r.head).or_default().push(i);
    }
    let keyword = |t: TermId| crate::ast::RESERVED.contains(&store.symbol_name(store.sym(t)));
    let mut needed: FxHashSet<TermId> = FxHashSet::default();
    let mut work: Vec<TermId> = by_head.keys().copied().filter(|&h| keyword(h)).collect();
    while let Some(a) = work.pop() {
        if !needed.insert(a) {
            continue;
        }
        for &i in by_head.get(&a).into_iter().flatten() {
            work.extend(rules[i].body.iter().map(|&(_, b)| b));
        }
    }
    let mut seen = FxHashSet::default();
    rules.into_iter().filter(|r| needed.contains(&r.head) && seen.insert(r.clone())).collect()
}

/// The ground rules in their fixed order: keyword facts first (roles in declaration
/// order), then rules by head relation and text.
fn in_order(rules: Vec<GRule>, store: &TermStore) -> Vec<GRule> {
    const ORDER: [&str; 8] = ["role", "init", "base", "input", "legal", "next", "terminal", "goal"];
    let rank = |t: TermId| {
        let name = store.symbol_name(store.sym(t));
        ORDER.iter().position(|&k| k == name).unwrap_or(ORDER.len())
    };
    let mut numbered: Vec<(usize, GRule)> = rules.into_iter().enumerate().collect();
    numbered.sort_by_cached_key(|(i, r)| {
        let rank = rank(r.head);
        // Roles keep their position: it is the order of the players.
        let position = if rank == 0 { *i } else { 0 };
        let body: Vec<(bool, &str)> = r.body.iter().map(|&(neg, t)| (neg, store.text(t))).collect();
        (rank, position, store.text(r.head), body)
    });
    numbered.into_iter().map(|(_, r)| r).collect()
}

fn to_term(store: &TermStore, t: TermId) -> Term {
    let name = store.symbol_name(store.sym(t)).to_string();
    let args = store.args(t);
    if args.is_empty() {
        Term::Const(name, Span::default())
    } else {
        Term::Func(name, args.iter().map(|&a| to_term(store, a)).collect(), Span::default())
    }
}

#[cfg(test)]
mod tests;
