//! Rule compilation: each normal rule becomes join plans over interned patterns, with the
//! body reordered (most constrained literal first, `not`/`distinct` as soon as their
//! variables are bound) and an index chosen for every literal.
//!
//! A recursive rule gets one extra plan per body literal of its own component, with that
//! literal reading only the newest facts (semi-naive evaluation).

use super::store::{RelStore, SigNode};
use crate::ast::Term;
use crate::diagnostic::{Diagnostic, Span};
use crate::program::{NLit, NRule};
use crate::term::{SymId, TermId, TermStore, TooDeep};
use rustc_hash::FxHashMap;

pub type RelId = u32;
pub type Slot = u16;

/// A pattern: ground parts are interned, variables are slots of the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pat {
    Var(Slot),
    Const(TermId),
    Func(SymId, Box<[Pat]>),
}

/// Where a key value comes from when probing an index.
#[derive(Clone, Copy, Debug)]
pub enum KeySrc {
    Const(TermId),
    Var(Slot),
}

#[derive(Clone, Debug)]
pub struct Lit {
    pub rel: RelId,
    pub args: Box<[Pat]>,
    /// The index to probe and how to build its key; `None`: scan all facts.
    pub index: Option<(u16, Box<[KeySrc]>)>,
}

#[derive(Clone, Debug)]
pub enum Step {
    /// Join with every matching fact.
    Join(Lit),
    /// Join with the facts added in the previous round only.
    Delta(Lit),
    /// Continue only if no fact matches (unbound variables match anything).
    Neg(Lit),
    Distinct(Pat, Pat),
    Same(Pat, Pat),
}

#[derive(Clone, Debug)]
pub struct Plan {
    pub steps: Vec<Step>,
    pub head_rel: RelId,
    pub head: Box<[Pat]>,
    /// The distinct slots of the head, in the order `Exec` records their values.
    pub head_slots: Box<[Slot]>,
    /// The step after which every head slot is bound: later steps cannot change the head.
    pub head_ready: usize,
    pub slots: usize,
}

/// A compiled rule: the plan over all facts, and the semi-naive plans (empty if the rule is
/// not recursive).
#[derive(Clone, Debug)]
pub struct CRule {
    pub full: Plan,
    pub delta: Vec<Plan>,
}

/// Interns relation names as ids.
#[derive(Default, Debug)]
pub struct Relations {
    pub keys: Vec<(String, usize)>,
    pub index: FxHashMap<(String, usize), RelId>,
}

impl Relations {
    pub fn id(&mut self, name: &str, arity: usize) -> RelId {
        if let Some(&r) = self.index.get(&(name.to_string(), arity)) {
            return r;
        }
        let r = self.keys.len() as RelId;
        self.keys.push((name.to_string(), arity));
        self.index.insert((name.to_string(), arity), r);
        r
    }
    pub fn get(&self, name: &str, arity: usize) -> Option<RelId> {
        self.index.get(&(name.to_string(), arity)).copied()
    }
    pub fn of(&mut self, atom: &Term) -> RelId {
        self.id(atom.name().expect("atoms are named"), atom.args().len())
    }
    pub fn name(&self, r: RelId) -> String {
        let (n, a) = &self.keys[r as usize];
        format!("{n}/{a}")
    }
}

struct RuleCompiler<'a> {
    store: &'a mut TermStore,
    rels: &'a mut Relations,
    slots: FxHashMap<String, Slot>,
}

fn too_deep(span: Span, e: TooDeep) -> Diagnostic {
    Diagnostic::error("too-deep", span, format!("a term in this rule is nested more than {} deep", e.0))
}

impl RuleCompiler<'_> {
    fn pat(&mut self, t: &Term, span: Span) -> Result<Pat, Diagnostic> {
        Ok(match t {
            Term::Var(v, _) => {
                let n = self.slots.len() as Slot;
                Pat::Var(*self.slots.entry(v.clone()).or_insert(n))
            }
            Term::Const(c, _) => Pat::Const(self.store.constant(c)),
            Term::Func(f, args, _) => {
                let sym = self.store.symbol(f);
                let args: Vec<Pat> = args.iter().map(|a| self.pat(a, span)).collect::<Result<_, _>>()?;
                let ground: Option<Vec<TermId>> =
                    args.iter().map(|p| if let Pat::Const(c) = p { Some(*c) } else { None }).collect();
                match ground {
                    Some(ids) => Pat::Const(self.store.intern(sym, &ids).map_err(|e| too_deep(span, e))?),
                    None => Pat::Func(sym, args.into()),
                }
            }
        })
    }

    fn atom(&mut self, t: &Term, span: Span) -> Result<(RelId, Box<[Pat]>), Diagnostic> {
        let rel = self.rels.of(t);
        let args: Vec<Pat> = t.args().iter().map(|a| self.pat(a, span)).collect::<Result<_, _>>()?;
        Ok((rel, args.into()))
    }
}

fn pat_vars(p: &Pat, out: &mut Vec<Slot>) {
    match p {
        Pat::Var(v) => out.push(*v),
        Pat::Const(_) => {}
        Pat::Func(_, args) => args.iter().for_each(|a| pat_vars(a, out)),
    }
}

/// The index signature of `args` given the bound slots, and the key sources in order.
fn signature(args: &[Pat], bound: &[bool]) -> (Vec<SigNode>, Vec<KeySrc>) {
    fn go(p: &Pat, path: &mut Vec<u8>, bound: &[bool], sig: &mut Vec<SigNode>, keys: &mut Vec<KeySrc>) {
        match p {
            Pat::Var(v) if bound[*v as usize] => {
                sig.push(SigNode::Key { path: path.as_slice().into() });
                keys.push(KeySrc::Var(*v));
            }
            Pat::Var(_) => {}
            Pat::Const(c) => {
                sig.push(SigNode::Key { path: path.as_slice().into() });
                keys.push(KeySrc::Const(*c));
            }
            Pat::Func(sym, sub) => {
                sig.push(SigNode::Guard { path: path.as_slice().into(), sym: *sym, arity: sub.len() as u16 });
                for (i, s) in sub.iter().enumerate() {
                    path.push(i as u8);
                    go(s, path, bound, sig, keys);
                    path.pop();
                }
            }
        }
    }
    let (mut sig, mut keys) = (Vec::new(), Vec::new());
    for (i, a) in args.iter().enumerate() {
        let mut path = vec![i as u8];
        go(a, &mut path, bound, &mut sig, &mut keys);
    }
    (sig, keys)
}

/// The index of the join step that binds the last head slot (0 if the head has none).
fn head_ready(steps: &[Step], head: &[Slot]) -> usize {
    let mut missing: Vec<Slot> = head.to_vec();
    for (k, s) in steps.iter().enumerate() {
        if let Step::Join(l) | Step::Delta(l) = s {
            let mut v = Vec::new();
            l.args.iter().for_each(|a| pat_vars(a, &mut v));
            missing.retain(|x| !v.contains(x));
        }
        if missing.is_empty() {
            return k;
        }
    }
    steps.len()
}

/// Bodies with at most this many positive literals left avoid a cross product with one
/// step of lookahead (each choice weighs every following literal).
const LOOKAHEAD: usize = 12;

/// A positive literal not yet placed: its place in the body, relation and arguments.
type Candidate<'a> = (usize, RelId, &'a [Pat]);

/// Estimates how many facts a positive literal matches once the `bound` slots are known.
pub type Estimate<'a> = &'a dyn Fn(RelId, &[Pat], &[bool]) -> f64;

/// A body literal before ordering.
pub(super) enum Pending {
    Pos(RelId, Box<[Pat]>),
    Neg(RelId, Box<[Pat]>),
    Distinct(Pat, Pat),
    Same(Pat, Pat),
}

impl Pending {
    fn vars(&self) -> Vec<Slot> {
        let mut v = Vec::new();
        match self {
            Pending::Pos(_, args) | Pending::Neg(_, args) => args.iter().for_each(|a| pat_vars(a, &mut v)),
            Pending::Distinct(a, b) | Pending::Same(a, b) => {
                pat_vars(a, &mut v);
                pat_vars(b, &mut v);
            }
        }
        v
    }
}

/// A rule's head and body as patterns, with its slot names (for messages).
pub(super) struct Parts {
    pub(super) head_rel: RelId,
    pub(super) head: Box<[Pat]>,
    pub(super) body: Vec<Pending>,
    slot_names: Vec<String>,
}

pub(super) fn parts(rule: &NRule, store: &mut TermStore, rels: &mut Relations) -> Result<Parts, Diagnostic> {
    let mut c = RuleCompiler { store, rels, slots: FxHashMap::default() };
    let (head_rel, head) = c.atom(&rule.head, rule.span)?;
    let mut body = Vec::new();
    for lit in &rule.body {
        body.push(match lit {
            NLit::Pos(t) => {
                let (r, a) = c.atom(t, rule.span)?;
                Pending::Pos(r, a)
            }
            NLit::Neg(t) => {
                let (r, a) = c.atom(t, rule.span)?;
                Pending::Neg(r, a)
            }
            NLit::Distinct(a, b) => Pending::Distinct(c.pat(a, rule.span)?, c.pat(b, rule.span)?),
            NLit::Same(a, b) => Pending::Same(c.pat(a, rule.span)?, c.pat(b, rule.span)?),
        });
    }
    let mut slot_names = vec![String::new(); c.slots.len()];
    for (name, &s) in &c.slots {
        slot_names[s as usize] = name.clone();
    }
    Ok(Parts { head_rel, head, body, slot_names })
}

/// Compiles one normal rule, given as its `parts`. `same_component(rel)` tells whether a
/// body relation belongs to the head's component (then semi-naive plans are made). Errors:
/// the head has a variable no positive literal binds.
pub fn compile_rule(
    rule: &NRule,
    parts: &Parts,
    store: &mut TermStore,
    rels: &mut Relations,
    rel_stores: &mut Vec<RelStore>,
    same_component: &dyn Fn(RelId) -> bool,
    estimate: Estimate,
) -> Result<CRule, Diagnostic> {
    let full = plan(rule, parts, None, &[], store, rels, rel_stores, estimate)?;
    let mut delta = Vec::new();
    for (i, b) in parts.body.iter().enumerate() {
        if let Pending::Pos(r, _) = b {
            if same_component(*r) {
                delta.push(plan(rule, parts, Some(i), &[], store, rels, rel_stores, estimate)?);
            }
        }
    }
    Ok(CRule { full, delta })
}

/// Compiles one normal rule for a call that gives the values of the head arguments marked
/// in `given` (top-down evaluation), without the tests `domains` implies: the body is
/// ordered with their variables bound, and `head_slots` lists only the head variables the
/// body binds.
pub fn compile_call(
    rule: &NRule,
    given: &[bool],
    store: &mut TermStore,
    rels: &mut Relations,
    rel_stores: &mut Vec<RelStore>,
    estimate: Estimate,
    domains: Option<&super::domains::Domains>,
) -> Result<Plan, Diagnostic> {
    let mut parts = parts(rule, store, rels)?;
    if let Some(d) = domains {
        d.drop_implied_tests(&mut parts.body);
    }
    plan(rule, &parts, None, given, store, rels, rel_stores, estimate)
}

/// The plan of a rule: `first` is the body literal reading the newest facts only (semi-naive),
/// `given` the head arguments whose values are known before the body runs.
#[allow(clippy::too_many_arguments)]
fn plan(
    rule: &NRule,
    parts: &Parts,
    first: Option<usize>,
    given: &[bool],
    store: &mut TermStore,
    rels: &Relations,
    rel_stores: &mut Vec<RelStore>,
    estimate: Estimate,
) -> Result<Plan, Diagnostic> {
    let slots = parts.slot_names.len();
    while rel_stores.len() < rels.keys.len() {
        let arity = rels.keys[rel_stores.len()].1;
        rel_stores.push(RelStore::new(arity));
    }
    let mut bound = vec![false; slots];
    for (a, _) in parts.head.iter().zip(given).filter(|(_, &g)| g) {
        let mut v = Vec::new();
        pat_vars(a, &mut v);
        v.into_iter().for_each(|x| bound[x as usize] = true);
    }
    let given_slots = bound.clone();
    let steps = order(&parts.body, first, bound.clone(), rel_stores, store, estimate);
    for s in &steps {
        if let Step::Join(l) | Step::Delta(l) = s {
            let mut v = Vec::new();
            l.args.iter().for_each(|a| pat_vars(a, &mut v));
            v.into_iter().for_each(|x| bound[x as usize] = true);
        }
    }
    let mut hv = Vec::new();
    parts.head.iter().for_each(|a| pat_vars(a, &mut hv));
    if let Some(&v) = hv.iter().find(|&&v| !bound[v as usize]) {
        return Err(Diagnostic::error(
            "unsafe-variable",
            rule.span,
            format!(
                "variable ?{} of the head is not bound by any positive condition of the body",
                parts.slot_names[v as usize]
            ),
        ));
    }
    hv.retain(|&v| !given_slots[v as usize]);
    hv.sort_unstable();
    hv.dedup();
    let head_ready = head_ready(&steps, &hv);
    Ok(Plan { steps, head_rel: parts.head_rel, head: parts.head.clone(), head_slots: hv.into(), head_ready, slots })
}

/// Orders the body (`bound`: the slots known before it runs): the delta literal first (if
/// any), then greedily the positive literal expected to match fewest facts, with tests
/// placed as soon as their variables are bound.
fn order(
    body: &[Pending],
    first: Option<usize>,
    mut bound: Vec<bool>,
    rel_stores: &mut [RelStore],
    store: &TermStore,
    estimate: Estimate,
) -> Vec<Step> {
    let mut done = vec![false; body.len()];
    let mut steps = Vec::new();
    let lit = |rel: RelId, args: &[Pat], bound: &[bool], rel_stores: &mut [RelStore]| {
        let (sig, keys) = signature(args, bound);
        let index = if sig.is_empty() {
            None
        } else {
            Some((rel_stores[rel as usize].add_index(sig, store), keys.into_boxed_slice()))
        };
        Lit { rel, args: args.into(), index }
    };
    let bind = |args: &[Pat], bound: &mut Vec<bool>| {
        let mut v = Vec::new();
        args.iter().for_each(|a| pat_vars(a, &mut v));
        v.into_iter().for_each(|x| bound[x as usize] = true);
    };
    if let Some(i) = first {
        if let Pending::Pos(r, args) = &body[i] {
            steps.push(Step::Delta(lit(*r, args, &bound, rel_stores)));
            bind(args, &mut bound);
            done[i] = true;
        }
    }
    loop {
        // Tests whose variables are all bound.
        for (i, b) in body.iter().enumerate() {
            if done[i] || matches!(b, Pending::Pos(..)) || !b.vars().iter().all(|&v| bound[v as usize]) {
                continue;
            }
            done[i] = true;
            steps.push(match b {
                Pending::Neg(r, args) => Step::Neg(lit(*r, args, &bound, rel_stores)),
                Pending::Distinct(a, b) => Step::Distinct(a.clone(), b.clone()),
                Pending::Same(a, b) => Step::Same(a.clone(), b.clone()),
                Pending::Pos(..) => unreachable!("skipped above"),
            });
        }
        let left: Vec<Candidate> = (body.iter().enumerate())
            .filter_map(|(i, b)| match b {
                Pending::Pos(r, args) if !done[i] => Some((i, *r, &args[..])),
                _ => None,
            })
            .collect();
        // The first of the cheapest by `cost`.
        let cheapest = |cost: &dyn Fn(&Candidate) -> f64| {
            (left.iter()).map(|c| (c.0, cost(c))).reduce(|best, x| if x.1 < best.1 { x } else { best }).map(|x| x.0)
        };
        let mut best = cheapest(&|&(_, r, args)| estimate(r, args, &bound));
        // A cross product (the cheapest shares no variable with those bound, which it
        // multiplies: battle's `coordinate ?u` after the player's pieces) is weighed
        // against the literals linked to what is bound by the work each causes: its
        // matches, each joined with the cheapest literal after it (one step of lookahead,
        // for short bodies).
        let crosses = |i: usize| {
            let Pending::Pos(_, args) = &body[i] else { return false };
            let mut vs = Vec::new();
            args.iter().for_each(|a| pat_vars(a, &mut vs));
            bound.iter().any(|&b| b) && !vs.is_empty() && !vs.iter().any(|&v| bound[v as usize])
        };
        if let Some(b) = best.filter(|&b| crosses(b) && left.len() <= LOOKAHEAD) {
            // Against the literals linked to what is bound.
            best = cheapest(&|&(i, r, args)| {
                if i != b && crosses(i) {
                    return f64::INFINITY;
                }
                let mut after = bound.clone();
                bind(args, &mut after);
                let next = (left.iter().filter(|d| d.0 != i))
                    .map(|&(_, r, args)| estimate(r, args, &after))
                    .fold(f64::INFINITY, f64::min);
                estimate(r, args, &bound) * (1.0 + if next.is_finite() { next } else { 0.0 })
            });
        }
        let Some(i) = best else { break };
        let Pending::Pos(r, args) = &body[i] else { unreachable!("filtered") };
        steps.push(Step::Join(lit(*r, args, &bound, rel_stores)));
        bind(args, &mut bound);
        done[i] = true;
    }
    // Tests with variables no positive literal binds (unsafe): last, with Prolog's reading.
    for (i, b) in body.iter().enumerate() {
        if !done[i] {
            steps.push(match b {
                Pending::Neg(r, args) => Step::Neg(lit(*r, args, &bound, rel_stores)),
                Pending::Distinct(a, b) => Step::Distinct(a.clone(), b.clone()),
                Pending::Same(a, b) => Step::Same(a.clone(), b.clone()),
                Pending::Pos(..) => unreachable!("all positive literals are placed"),
            });
        }
    }
    steps
}
