//! Demand (magic-set) transformation: relations too big to compute in full are computed
//! only for the arguments their callers ask about.
//!
//! Generalised magic sets with one adorned copy per binding pattern: every call of a chosen
//! relation `p` binds some of its arguments (those bound by the caller's bound head
//! arguments, by its conditions on relations computed in full and by the chosen calls
//! placed before it: `Sips::order`, where the order the body was written in only breaks
//! ties); the call reads the copy `p~bf..` (b: bound, f: free) whose rules start with
//! `magic~p~bf..(bound args)`, and a rule derives that demand from the conditions linked to
//! it. Recursive relations are transformed like any other (their demand is
//! recursive too). A call that binds nothing reads `p` as written, computed in full; then
//! `p`'s callers are put on demand as well, if they may be. The result is checked for
//! stratification; the caller falls back to the plain program when the transformation
//! cannot apply.

use super::rules::{graph_of, NLit, NRule};
use crate::ast::{Term, RESERVED};
use crate::deps::DepGraph;
use crate::diagnostic::Span;
use rustc_hash::{FxHashMap, FxHashSet};

type Key = (String, usize);

fn key(t: &Term) -> Key {
    (t.name().expect("named").to_string(), t.args().len())
}

/// Which arguments of a call are bound: `b` or `f` per argument.
type Adornment = String;

fn adorned_name(name: &str, a: &str) -> String {
    format!("{name}~{a}")
}

fn magic_name(name: &str, a: &str) -> String {
    format!("magic~{name}~{a}")
}

/// The relation of the rules as written that an adorned copy stands for (`None` for any
/// other relation, the demand relations `magic~...` included).
pub fn adorned(k: &Key) -> Option<Key> {
    match k.0.rsplit_once('~') {
        Some((name, a))
            if a.len() == k.1
                && a.bytes().all(|c| c == b'b' || c == b'f')
                && !name.starts_with("magic~")
                && !name.is_empty()
                && !name.ends_with('~') =>
        {
            Some((name.to_string(), k.1))
        }
        _ => None,
    }
}

/// The relation a demand relation (`magic~p~bf`, or a projection of it: `projection_name`)
/// asks about (`None` for any other).
pub fn asked(k: &Key) -> Option<Key> {
    let demand = k.0.strip_prefix("magic~")?;
    let demand = match demand.rsplit_once("~proj") {
        Some((d, n)) if !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()) => d,
        _ => demand,
    };
    let (name, pattern) = demand.rsplit_once('~')?;
    Some((name.to_string(), pattern.len()))
}

/// The name of the `n`-th projection of the demand relation `magic` (a demand read with
/// only some of its arguments).
pub fn projection_name(magic: &str, n: usize) -> String {
    format!("{magic}~proj{n}")
}

/// The relation of the rules as written that a transformed relation stands for.
pub fn original(k: &Key) -> Key {
    adorned(k).unwrap_or_else(|| k.clone())
}

/// The order in which a rule's conditions pass their bindings on to the calls of the
/// relations on demand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Passing {
    /// The order written, as a Prolog reasoner evaluates (the author's order).
    AsWritten,
    /// What binds most safely first, whatever the order written (`Sips::order`); of
    /// conditions alike, the first written.
    BindingsFirst,
    /// The same; of conditions alike, the last written. Where two conditions alike bind a
    /// recursive call differently (ad_game_2x2's count over the cells may go on by its cells
    /// or by its counts), the rules alone cannot tell which is cheap: both are measured.
    BindingsFirstTiesLast,
}

/// Transforms the rules so that the relations in `wanted` (and the callers they need) are
/// computed on demand. `None` if none of them can be.
pub fn transform(rules: &[NRule], wanted: &[Key], passing: Passing) -> Option<Vec<NRule>> {
    transform_with(rules, wanted, &FxHashSet::default(), passing, false)
}

/// `transform` for the grounder's relaxed program, where the negated calls of the relations
/// in `asked` are asked but not read: a chosen one gets its demand, then both leave the
/// bodies (the relaxed program drops negated dynamic literals but must compute the
/// instances their atoms need). In the relaxed program a variable takes the values of
/// every reachable state at once, so a call that enters a recursion asks free what the
/// recursion only carries along (`Carried`).
pub fn transform_asking(
    rules: &[NRule],
    wanted: &[Key],
    asked: &FxHashSet<Key>,
    passing: Passing,
) -> Option<Vec<NRule>> {
    transform_with(rules, wanted, asked, passing, true)
}

fn transform_with(
    rules: &[NRule],
    wanted: &[Key],
    asked: &FxHashSet<Key>,
    passing: Passing,
    every_state: bool,
) -> Option<Vec<NRule>> {
    let graph = graph_of(rules);
    let eligible =
        |k: &Key| graph.index.get(k).is_some_and(|&r| !RESERVED.contains(&k.0.as_str()) && graph.defined[r] && k.1 > 0);
    let chosen: FxHashSet<Key> = wanted.iter().filter(|k| eligible(k)).cloned().collect();
    // Each relation's recursion, for the order that passes bindings first.
    let mut component: FxHashMap<Key, usize> = FxHashMap::default();
    if passing != Passing::AsWritten {
        for (c, scc) in graph.sccs().into_iter().enumerate() {
            component.extend(scc.into_iter().map(|r| (graph.rels[r].clone(), c)));
        }
    }
    // Demands that pass on what earlier chosen calls bound may join a stratum to a later
    // one (a relation asked both by `legal` and by something defined with `not legal`):
    // then demands come from the other conditions only.
    [true, false].into_iter().find_map(|sideways| {
        let mut chosen = chosen.clone();
        // Relations left as they were stay so (growing them back could loop).
        let mut dropped: FxHashSet<Key> = FxHashSet::default();
        loop {
            if chosen.is_empty() {
                return None;
            }
            let carried = every_state.then(|| Carried::new(rules, &chosen));
            let carried = carried.as_ref();
            let how = Sips { chosen: &chosen, asked, component: &component, carried, sideways, passing };
            let (out, reached) = rewrite(rules, &how);
            // A relation read in full somewhere needs its callers on demand too (those that
            // may be); one that no call binds anything of is left as it was.
            let mut grow = Vec::new();
            let mut drop = Vec::new();
            for p in &chosen {
                let ads = reached.get(p).map_or(&[][..], Vec::as_slice);
                if ads.iter().all(|a| a.contains('b')) && !ads.is_empty() {
                    continue;
                }
                let new: Vec<Key> = (callers(rules, p).into_iter())
                    .filter(|c| !chosen.contains(c) && !dropped.contains(c) && eligible(c))
                    .collect();
                if !new.is_empty() {
                    grow.extend(new);
                } else if !ads.iter().any(|a| a.contains('b')) {
                    drop.push(p.clone());
                }
            }
            if grow.is_empty() && drop.is_empty() {
                return graph_of(&out).negative_cycle().is_none().then_some(out);
            }
            if grow.is_empty() {
                for p in drop {
                    chosen.remove(&p);
                    dropped.insert(p);
                }
            }
            chosen.extend(grow);
        }
    })
}

/// The arguments of each recursion on demand that it carries along unchanged: in every
/// rule of the recursion (a strongly connected component of the chosen relations' calls
/// of each other) that calls the recursion, the head's argument is a variable found
/// nowhere in the body but at carried arguments of those calls. Such an argument narrows
/// nothing until the recursion ends (a count's totals, passed down the loop over the pits
/// to its last step), so a call from outside that binds it to a variable would ask the
/// whole recursion again for every value the variable takes: in the grounder's relaxed
/// program, where a variable takes the values of every reachable state at once, it asks it
/// free, and the caller's join filters the answers. (Bound to a constant, it is one value:
/// it stays. In one state a variable takes few values, and freeing them costs: Zhadu's
/// `canGoBetween 123` calls `canGoBetween 1` with the same cells, which its other rules
/// use at once; the reasoner ran 3.5 times slower.)
struct Carried {
    component: FxHashMap<Key, usize>,
    args: FxHashMap<Key, Vec<bool>>,
}

impl Carried {
    fn new(rules: &[NRule], chosen: &FxHashSet<Key>) -> Carried {
        let calls: Vec<NRule> = (rules.iter())
            .filter(|r| chosen.contains(&key(&r.head)))
            .map(|r| NRule {
                head: r.head.clone(),
                body: r
                    .body
                    .iter()
                    .filter(|l| matches!(l, NLit::Pos(t) if chosen.contains(&key(t))))
                    .cloned()
                    .collect(),
                span: r.span,
            })
            .collect();
        let graph = graph_of(&calls);
        let mut args: FxHashMap<Key, Vec<bool>> = FxHashMap::default();
        let mut component: FxHashMap<Key, usize> = FxHashMap::default();
        for (c, scc) in graph.sccs().into_iter().enumerate().filter(|(_, scc)| graph.is_recursive(scc)) {
            for r in scc {
                let k = graph.rels[r].clone();
                args.insert(k.clone(), vec![true; k.1]);
                component.insert(k, c);
            }
        }
        let recursive: Vec<&NRule> = rules.iter().filter(|r| component.contains_key(&key(&r.head))).collect();
        // The greatest such sets: drop what a rule contradicts until none does.
        loop {
            let mut changed = false;
            for r in &recursive {
                let own = component[&key(&r.head)];
                let calls_own = |t: &Term| component.get(&key(t)) == Some(&own);
                if !r.body.iter().any(|l| matches!(l, NLit::Pos(t) if calls_own(t))) {
                    continue;
                }
                for (i, arg) in r.head.args().iter().enumerate() {
                    if args[&key(&r.head)][i] && !Self::carries(&args, r, arg, &calls_own) {
                        args.get_mut(&key(&r.head)).expect("recursive")[i] = false;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        args.retain(|_, c| c.iter().any(|&c| c));
        Carried { component, args }
    }

    /// Whether the head's argument `arg` of `r` is a variable the body has only as whole
    /// carried arguments of calls of the recursion, at least once.
    fn carries(args: &FxHashMap<Key, Vec<bool>>, r: &NRule, arg: &Term, calls_own: &impl Fn(&Term) -> bool) -> bool {
        let Term::Var(v, _) = arg else { return false };
        let (mut carried, mut elsewhere) = (0, 0);
        for l in &r.body {
            let mut n = 0;
            l.for_each_var(&mut |w, _| n += usize::from(w == v));
            let here = match l {
                NLit::Pos(t) if n > 0 && calls_own(t) => (t.args().iter().enumerate())
                    .filter(|(j, a)| matches!(a, Term::Var(w, _) if w == v) && args[&key(t)][*j])
                    .count(),
                _ => 0,
            };
            carried += here;
            elsewhere += n - here;
        }
        carried > 0 && elsewhere == 0
    }

    /// The adornment `a` of the call `t` in a rule for `caller`, with the arguments its
    /// recursion carries free when the call enters the recursion from outside bound to
    /// variables.
    fn adornment(&self, caller: &Key, t: &Term, a: Adornment) -> Adornment {
        let k = key(t);
        let Some(carried) = self.args.get(&k) else { return a };
        if self.component.get(caller) == self.component.get(&k) {
            return a;
        }
        let free = |(i, b): (usize, u8)| if carried[i] && !t.args()[i].is_ground() { 'f' } else { b as char };
        a.bytes().enumerate().map(free).collect()
    }
}

/// Every relation that may be computed on demand and depends on the state or the moves:
/// evaluating all of them on demand is what a top-down (Prolog) reasoner does.
pub fn dynamic(rules: &[NRule]) -> Vec<Key> {
    let graph = graph_of(rules);
    let inputs: Vec<usize> = [("true", 1), ("does", 2)].iter().filter_map(|&(n, a)| graph.get(n, a)).collect();
    (0..graph.rels.len())
        .filter(|&r| {
            let k = &graph.rels[r];
            graph.defined[r] && k.1 > 0 && !RESERVED.contains(&k.0.as_str()) && {
                let reach = graph.reachable([r]);
                inputs.iter().any(|&i| reach[i])
            }
        })
        .map(|r| graph.rels[r].clone())
        .collect()
}

/// The relations on a line of calls through one of `ks`: those whose rules call one of
/// them, directly or not, and those they call (relations with rules that have conditions,
/// not reserved ones: a relation of facts only is as small as it will ever be), given the
/// program's dependency graph.
pub fn related(graph: &DepGraph, ks: &[Key]) -> Vec<Key> {
    let of: Vec<usize> = ks.iter().filter_map(|k| graph.index.get(k).copied()).collect();
    let below = graph.reachable(of.iter().copied());
    (0..graph.rels.len())
        .filter(|&r| {
            let k = &graph.rels[r];
            !graph.edges[r].is_empty() && k.1 > 0 && !RESERVED.contains(&k.0.as_str()) && {
                below[r] || graph.reachable([r]).iter().enumerate().any(|(x, &on)| on && of.contains(&x))
            }
        })
        .map(|r| graph.rels[r].clone())
        .collect()
}

/// The relations whose rules call `p`.
pub fn callers(rules: &[NRule], p: &Key) -> Vec<Key> {
    let mut out: Vec<Key> = Vec::new();
    for r in rules.iter().filter(|r| r.body.iter().any(|l| calls(l, p))) {
        let k = key(&r.head);
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

fn calls(l: &NLit, p: &Key) -> bool {
    matches!(l, NLit::Pos(t) | NLit::Neg(t) if &key(t) == p)
}

/// Whether every variable of `l` is in `bound`.
pub(crate) fn all_bound(l: &NLit, bound: &FxHashSet<String>) -> bool {
    let mut all = true;
    l.for_each_var(&mut |v, _| all &= bound.contains(v));
    all
}

fn vars_of(t: &Term, out: &mut FxHashSet<String>) {
    t.for_each_var(&mut |v, _| {
        out.insert(v.to_string());
    });
}

fn adornment(t: &Term, bound: &FxHashSet<String>) -> Adornment {
    t.args()
        .iter()
        .map(|arg| {
            let mut vs = FxHashSet::default();
            vars_of(arg, &mut vs);
            if vs.iter().all(|v| bound.contains(v)) {
                'b'
            } else {
                'f'
            }
        })
        .collect()
}

fn bound_args(t: &Term, a: &str) -> Vec<Term> {
    t.args().iter().zip(a.bytes()).filter(|(_, b)| *b == b'b').map(|(x, _)| x.clone()).collect()
}

fn atom(name: String, args: Vec<Term>, span: Span) -> Term {
    if args.is_empty() {
        Term::Const(name, span)
    } else {
        Term::Func(name, args, span)
    }
}

/// The rules with every call of a chosen relation reading its adorned copy, the copies'
/// rules and the demand rules; also the adornments reached per chosen relation.
fn rewrite(rules: &[NRule], how: &Sips) -> (Vec<NRule>, FxHashMap<Key, Vec<Adornment>>) {
    let mut rules_of: FxHashMap<Key, Vec<&NRule>> = FxHashMap::default();
    for r in rules {
        rules_of.entry(key(&r.head)).or_default().push(r);
    }
    let mut reached: FxHashMap<Key, Vec<Adornment>> = FxHashMap::default();
    let mut queue: Vec<(Key, Option<Adornment>)> = Vec::new();
    let mut out = Vec::new();
    for r in rules.iter().filter(|r| !how.is_chosen(&r.head)) {
        out.extend(rewrite_rule(r, None, how, &mut reached, &mut queue));
    }
    while let Some((p, a)) = queue.pop() {
        for r in rules_of.get(&p).into_iter().flatten() {
            out.extend(rewrite_rule(r, a.as_deref(), how, &mut reached, &mut queue));
        }
    }
    (out, reached)
}

/// One rule of a relation as written (`head_ad: None`) or of its adorned copy: the rule and
/// the demand rules of the chosen relations it calls, in `how`'s order. New adornments
/// join `queue`. Negated calls of `asked` relations leave the body (a chosen one after its
/// demand).
fn rewrite_rule(
    r: &NRule,
    head_ad: Option<&str>,
    how: &Sips,
    reached: &mut FxHashMap<Key, Vec<Adornment>>,
    queue: &mut Vec<(Key, Option<Adornment>)>,
) -> Vec<NRule> {
    let (is_chosen, asked) = (|t: &Term| how.is_chosen(t), how.asked);
    let mut bound = FxHashSet::default();
    let mut context: Vec<NLit> = Vec::new();
    let head = match head_ad {
        Some(a) => {
            let name = r.head.name().expect("named");
            for (arg, b) in r.head.args().iter().zip(a.bytes()) {
                if b == b'b' {
                    vars_of(arg, &mut bound);
                }
            }
            context.push(NLit::Pos(atom(magic_name(name, a), bound_args(&r.head, a), r.span)));
            atom(adorned_name(name, a), r.head.args().to_vec(), r.span)
        }
        None => r.head.clone(),
    };
    let mut body: Vec<NLit> = context.clone();
    let mut demands = Vec::new();
    for l in how.order(r, &bound) {
        let (t, negative) = match l {
            NLit::Pos(t) if is_chosen(t) => (t, false),
            NLit::Neg(t) if is_chosen(t) => (t, true),
            NLit::Neg(t) if asked.contains(&key(t)) => continue,
            NLit::Pos(t) => {
                vars_of(t, &mut bound);
                context.push(l.clone());
                body.push(l.clone());
                continue;
            }
            // A (non-)equality of bound terms filters what the calls after it are asked.
            NLit::Distinct(..) | NLit::Same(..) if all_bound(l, &bound) => {
                context.push(l.clone());
                body.push(l.clone());
                continue;
            }
            _ => {
                body.push(l.clone());
                continue;
            }
        };
        let k = key(t);
        let mut a = adornment(t, &bound);
        if let Some(carried) = how.carried {
            a = carried.adornment(&key(&r.head), t, a);
        }
        let seen = reached.entry(k.clone()).or_default();
        if !seen.contains(&a) {
            seen.push(a.clone());
            // Nothing bound: the relation as written, computed in full.
            queue.push((k.clone(), a.contains('b').then(|| a.clone())));
        }
        let call = if a.contains('b') {
            let asks = bound_args(t, &a);
            demands.push(NRule {
                head: atom(magic_name(&k.0, &a), asks.clone(), r.span),
                body: match how.passing {
                    Passing::AsWritten => context.clone(),
                    Passing::BindingsFirst | Passing::BindingsFirstTiesLast => {
                        connected(&context, usize::from(head_ad.is_some()), &asks)
                    }
                },
                span: r.span,
            });
            atom(adorned_name(&k.0, &a), t.args().to_vec(), t.span())
        } else {
            t.clone()
        };
        if negative {
            if !asked.contains(&k) {
                body.push(NLit::Neg(call));
            }
        } else {
            if how.sideways {
                vars_of(t, &mut bound);
                context.push(NLit::Pos(call.clone()));
            }
            body.push(NLit::Pos(call));
        }
    }
    demands.push(NRule { head, body, span: r.span });
    demands
}

/// How the bindings pass through a rule's body (sideways information passing).
struct Sips<'a> {
    chosen: &'a FxHashSet<Key>,
    asked: &'a FxHashSet<Key>,
    /// Each relation's strongly connected component (its recursion; `BindingsFirst` only).
    component: &'a FxHashMap<Key, usize>,
    /// The arguments each recursion carries along unchanged, asked free (relaxed programs).
    carried: Option<&'a Carried>,
    /// Each positive chosen call binds its variables for the chosen calls after it.
    sideways: bool,
    passing: Passing,
}

impl Sips<'_> {
    fn is_chosen(&self, t: &Term) -> bool {
        self.chosen.contains(&key(t))
    }

    /// The order the conditions of `r` pass on their bindings in, whatever the order
    /// written (`bound`: the variables its head is asked with), step by step: a condition
    /// on a relation computed in full that shares a variable with those bound and leaves at
    /// most one free, or has an argument that is not a variable, or any condition computed in
    /// full when nothing is bound yet (it narrows what the calls after it ask); else a
    /// chosen call with some argument bound, the one with the fewest free and, among those,
    /// one outside the rule's own recursion (a recursive call asked with more arguments free
    /// asks its callees the same: the demand spreads); else a condition computed in full that
    /// enumerates combinations (two free variables or more: `add ?a ?b ?p` with `?p` bound)
    /// or shares nothing (a generator: before the calls it would only multiply their
    /// demand); else a chosen call with nothing bound (it reads its relation in full). Among
    /// conditions computed in full, the one with the fewest free variables first. Each
    /// (non-)equality as soon as its variables are bound, the chosen calls under `not`
    /// last; the order written breaks the remaining ties.
    fn order<'r>(&self, r: &'r NRule, bound: &FxHashSet<String>) -> Vec<&'r NLit> {
        if self.passing == Passing::AsWritten {
            // A chosen call under `not` comes last.
            let negated = |l: &&NLit| matches!(l, NLit::Neg(t) if self.is_chosen(t));
            return r.body.iter().filter(|l| !negated(l)).chain(r.body.iter().filter(negated)).collect();
        }
        let mut bound = bound.clone();
        let mut order: Vec<&NLit> = Vec::with_capacity(r.body.len());
        let mut left: Vec<&NLit> = r.body.iter().collect();
        let own = self.component.get(&key(&r.head));
        loop {
            // Tests whose variables are bound.
            left.retain(|l| {
                let ready = matches!(l, NLit::Distinct(..) | NLit::Same(..)) && all_bound(l, &bound);
                if ready {
                    order.push(l);
                }
                !ready
            });
            let rank = |t: &Term| {
                let a = adornment(t, &bound);
                let free = a.bytes().filter(|&b| b == b'f').count();
                if !self.is_chosen(t) {
                    // Linked to what is bound, or anchored by a constant or a functor of its
                    // own: it narrows; a relation of free variables only is a generator,
                    // after the calls it would multiply. Linked but with two variables or
                    // more still free, it enumerates combinations (`add ?p4 ?p1 ?p` with
                    // `?p` bound): after the calls with something bound, which may bind
                    // one of them to a single value.
                    let anchored = t.args().iter().any(|x| !matches!(x, Term::Var(..)));
                    let narrows = (free < a.len() && free < 2) || anchored || bound.is_empty();
                    (if narrows { 0 } else { 2 }, free, false)
                } else {
                    let recursive = own.is_some() && self.component.get(&key(t)) == own;
                    (if free < a.len() { 1 } else { 3 }, free, recursive)
                }
            };
            let next = (left.iter().enumerate())
                .filter_map(|(i, l)| match l {
                    NLit::Pos(t) => Some((i, rank(t))),
                    _ => None,
                })
                // The first of the cheapest.
                .reduce(|best, x| if x.1 < best.1 { x } else { best });
            let Some((mut i, cheapest)) = next else { break };
            if self.passing == Passing::BindingsFirstTiesLast {
                // The last of the cheapest instead, if it binds a recursive call otherwise.
                let last = (left.iter().enumerate())
                    .rposition(|(_, l)| matches!(l, NLit::Pos(t) if rank(t) == cheapest))
                    .expect("the cheapest is one");
                if last != i && self.binds_recursion_otherwise(r, &left, &bound, i, last) {
                    i = last;
                }
            }
            let l = left.remove(i);
            if let NLit::Pos(t) = l {
                if self.sideways || !self.is_chosen(t) {
                    vars_of(t, &mut bound);
                }
            }
            order.push(l);
        }
        let (negated, rest): (Vec<&NLit>, Vec<&NLit>) =
            left.into_iter().partition(|l| matches!(l, NLit::Neg(t) if self.is_chosen(t)));
        order.extend(rest);
        order.extend(negated);
        order
    }

    /// Whether taking condition `a` or `b` of `left` next asks a recursive call of `r` left
    /// (one of its own recursion, chosen) with other arguments bound.
    fn binds_recursion_otherwise(
        &self,
        r: &NRule,
        left: &[&NLit],
        bound: &FxHashSet<String>,
        a: usize,
        b: usize,
    ) -> bool {
        let Some(own) = self.component.get(&key(&r.head)) else { return false };
        let after = |i: usize| {
            let mut after = bound.clone();
            if let NLit::Pos(t) = left[i] {
                vars_of(t, &mut after);
            }
            after
        };
        let (after_a, after_b) = (after(a), after(b));
        left.iter().enumerate().any(|(i, l)| match l {
            NLit::Pos(t) if i != a && i != b && self.is_chosen(t) && self.component.get(&key(t)) == Some(own) => {
                adornment(t, &after_a) != adornment(t, &after_b)
            }
            _ => false,
        })
    }
}

/// The conditions of `context` a demand for `asks` needs: the first `keep` (the demand for
/// the rule itself), those without variables, and those linked to the arguments asked by
/// shared variables (the others would only multiply the demand rule's work).
fn connected(context: &[NLit], keep: usize, asks: &[Term]) -> Vec<NLit> {
    let mut vars = FxHashSet::default();
    asks.iter().for_each(|t| vars_of(t, &mut vars));
    let mut taken = vec![false; context.len()];
    taken[..keep.min(context.len())].iter_mut().for_each(|t| *t = true);
    loop {
        let mut grew = false;
        for (i, l) in context.iter().enumerate() {
            if taken[i] {
                continue;
            }
            // A condition without variables is a test: it may stop every demand.
            let (mut linked, mut ground) = (false, true);
            l.for_each_var(&mut |v, _| {
                linked |= vars.contains(v);
                ground = false;
            });
            if linked || ground {
                taken[i] = true;
                grew = true;
                l.for_each_var(&mut |v, _| {
                    vars.insert(v.to_string());
                });
            }
        }
        if !grew {
            break;
        }
    }
    context.iter().zip(taken).filter(|(_, t)| *t).map(|(l, _)| l.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;
    use crate::program::normalise;

    #[test]
    fn demand_flows_from_callers() {
        let rules = normalise(
            &parse(
                "(<= (legal p (go ?a)) (true (at ?a)) (not (far ?a 1)))\n\
                 (<= (far ?x ?y) (big ?x ?y ?z))\n\
                 (<= (big ?x ?y ?z) (n ?x) (n ?y) (n ?z))",
            )
            .description,
        )
        .unwrap();
        let out = transform(&rules, &[("big".into(), 3)], Passing::AsWritten).unwrap();
        let text: Vec<String> = out.iter().map(ToString::to_string).collect();
        expect_test::expect![[r#"
            (magic~far~bb ?a 1) :- (true (at ?a))
            (legal p (go ?a)) :- (true (at ?a)) (not (far~bb ?a 1))
            (magic~big~bbf ?x ?y) :- (magic~far~bb ?x ?y)
            (far~bb ?x ?y) :- (magic~far~bb ?x ?y) (big~bbf ?x ?y ?z)
            (big~bbf ?x ?y ?z) :- (magic~big~bbf ?x ?y) (n ?x) (n ?y) (n ?z)"#]]
        .assert_eq(&text.join("\n"));
    }

    #[test]
    fn recursive_relations_get_one_copy_per_binding_pattern() {
        let rules = normalise(
            &parse(
                "(<= (legal p (go ?a)) (true (at ?a)) (path ?a home))\n\
                 (<= terminal (path ?x ?y) (true (at ?y)))\n\
                 (<= (path ?x ?y) (edge ?x ?y))\n\
                 (<= (path ?x ?y) (edge ?x ?z) (path ?z ?y))",
            )
            .description,
        )
        .unwrap();
        let out = transform(&rules, &[("path".into(), 2)], Passing::AsWritten).unwrap();
        let text: Vec<String> = out.iter().map(ToString::to_string).collect();
        // In the order written: `legal` asks with both arguments bound; `terminal` with
        // none, so it reads `path` as written.
        expect_test::expect![[r#"
            (magic~path~bb ?a home) :- (true (at ?a))
            (legal p (go ?a)) :- (true (at ?a)) (path~bb ?a home)
            terminal :- (path ?x ?y) (true (at ?y))
            (path ?x ?y) :- (edge ?x ?y)
            (magic~path~bf ?z) :- (edge ?x ?z)
            (path ?x ?y) :- (edge ?x ?z) (path~bf ?z ?y)
            (path~bf ?x ?y) :- (magic~path~bf ?x) (edge ?x ?y)
            (magic~path~bf ?z) :- (magic~path~bf ?x) (edge ?x ?z)
            (path~bf ?x ?y) :- (magic~path~bf ?x) (edge ?x ?z) (path~bf ?z ?y)
            (path~bb ?x ?y) :- (magic~path~bb ?x ?y) (edge ?x ?y)
            (magic~path~bb ?z ?y) :- (magic~path~bb ?x ?y) (edge ?x ?z)
            (path~bb ?x ?y) :- (magic~path~bb ?x ?y) (edge ?x ?z) (path~bb ?z ?y)"#]]
        .assert_eq(&text.join("\n"));
    }

    /// The order written does not matter: a call asked with no argument bound waits for
    /// one that binds it (`list` after `step`, though written first), and a demand rule
    /// keeps only the conditions linked to what it asks (not `noise`).
    #[test]
    fn demand_follows_bindings_not_the_order_written() {
        let rules = normalise(
            &parse(
                "(<= (legal r (go ?x)) (ok ?x) (true (at ?x)))\n\
                 (<= (ok ?x) (list ?l) (true (noise ?n)) (step ?x ?l))\n\
                 (<= (list nil)) (<= (list (c ?a ?l)) (list ?l) (item ?a))",
            )
            .description,
        )
        .unwrap();
        let out =
            transform(&rules, &[("ok".into(), 1), ("list".into(), 1), ("step".into(), 2)], Passing::BindingsFirst)
                .unwrap();
        let text: Vec<String> = out.iter().map(ToString::to_string).collect();
        expect_test::expect![[r#"
            (magic~ok~b ?x) :- (true (at ?x))
            (legal r (go ?x)) :- (true (at ?x)) (ok~b ?x)
            (magic~list~b ?l) :- (magic~ok~b ?x) (step ?x ?l)
            (ok~b ?x) :- (magic~ok~b ?x) (true (noise ?n)) (step ?x ?l) (list~b ?l)
            (list~b nil) :- (magic~list~b nil)
            (magic~list~b ?l) :- (magic~list~b (c ?a ?l))
            (list~b (c ?a ?l)) :- (magic~list~b (c ?a ?l)) (item ?a) (list~b ?l)"#]]
        .assert_eq(&text.join("\n"));
    }

    #[test]
    fn a_condition_that_enumerates_combinations_waits_for_a_call_that_binds() {
        // `points` is asked with both arguments bound. `sum ?a ?b ?p` with `?p` bound still
        // enumerates every pair adding up to it: taken first, it would ask `half` about
        // each; `half ?c ?a` with `?c` bound gives `?a` (one value) and leaves `sum` a test.
        let rules = normalise(
            &parse(
                "(<= (legal r (go ?p)) (true (at ?c)) (true (goal ?p)) (points ?c ?p))\n\
                 (<= (points ?c ?p) (sum ?a ?b ?p) (half ?c ?a) (half ?c ?b))\n\
                 (<= (half ?c ?a) (true (value ?c ?a)))",
            )
            .description,
        )
        .unwrap();
        let out = transform(&rules, &[("points".into(), 2), ("half".into(), 2)], Passing::BindingsFirst).unwrap();
        let text: Vec<String> = out.iter().map(ToString::to_string).collect();
        expect_test::expect![[r#"
            (magic~points~bb ?c ?p) :- (true (at ?c)) (true (goal ?p))
            (legal r (go ?p)) :- (true (at ?c)) (true (goal ?p)) (points~bb ?c ?p)
            (magic~half~bf ?c) :- (magic~points~bb ?c ?p)
            (magic~half~bb ?c ?b) :- (magic~points~bb ?c ?p) (half~bf ?c ?a) (sum ?a ?b ?p)
            (points~bb ?c ?p) :- (magic~points~bb ?c ?p) (half~bf ?c ?a) (sum ?a ?b ?p) (half~bb ?c ?b)
            (half~bb ?c ?a) :- (magic~half~bb ?c ?a) (true (value ?c ?a))
            (half~bf ?c ?a) :- (magic~half~bf ?c) (true (value ?c ?a))"#]]
        .assert_eq(&text.join("\n"));
    }

    /// merrills counts its stones by a loop over the pits that carries the totals along
    /// unchanged to its last step; a goal asks for totals that a static relation
    /// enumerates. Asked with the totals bound, the loop would run again for each pair of
    /// them; it is asked with the pit and the running counts only (`loop~bbbff`), whatever
    /// the order written. Asked with a constant total, that one value stays bound (`loop~bbbbf`).
    #[test]
    fn what_a_recursion_only_carries_is_asked_free() {
        let recursion = ["(step ?x ?w1 ?b1 ?w2 ?b2)", "(next ?x ?y)", "(loop ?y ?w2 ?b2 ?w ?b)"];
        for order in [[0, 1, 2], [2, 1, 0]] {
            let body: Vec<&str> = order.iter().map(|&i| recursion[i]).collect();
            let text = format!(
                "(<= (goal white 100) (smaller ?b ?w) (count ?w ?b))\n\
                 (<= (goal black 100) (loop first 0 0 3 ?b))\n\
                 (<= (count ?w ?b) (loop first 0 0 ?w ?b))\n\
                 (<= (loop last ?w1 ?b1 ?w ?b) (step last ?w1 ?b1 ?w ?b))\n\
                 (<= (loop ?x ?w1 ?b1 ?w ?b) {})\n\
                 (<= (step ?x ?w1 ?b ?w ?b) (true (pit ?x white)) (succ ?w1 ?w) (number ?b))",
                body.join(" ")
            );
            let rules = normalise(&parse(&text).description).unwrap();
            let wanted = [("count".into(), 2), ("loop".into(), 5), ("step".into(), 5)];
            let out = transform_asking(&rules, &wanted, &FxHashSet::default(), Passing::BindingsFirst).unwrap();
            let mut ads: Vec<&str> =
                out.iter().filter_map(|r| r.head.name().filter(|n| n.starts_with("loop~"))).collect();
            ads.sort();
            ads.dedup();
            assert_eq!(ads, ["loop~bbbbf", "loop~bbbff"], "order {order:?}");
        }
    }

    /// A count over the cells of a board, asked with its counts bound: after the cell's
    /// colour, `nextcell` and `update` are alike (two free variables each) and bind the
    /// recursive call by its cells or by its counts. Whatever the order written, one of the
    /// two orders that pass bindings first goes on by the cells (`count~bbff`), the cheap
    /// way, and the other by the counts: the reasoner measures both (ad_game_2x2's variant
    /// ran 4.6 times slower when only the order written decided).
    #[test]
    fn conditions_alike_are_ordered_both_ways() {
        let conditions = [
            "(getcolour ?r ?c ?colour)",
            "(nextcell ?r ?c ?nr ?nc)",
            "(count ?nr ?nc ?b1 ?r1)",
            "(update ?colour ?b1 ?r1 ?b ?rd)",
        ];
        for order in [[0, 1, 2, 3], [3, 2, 0, 1]] {
            let body: Vec<&str> = order.iter().map(|&i| conditions[i]).collect();
            let text = format!(
                "(<= (goal red 100) (wins ?b ?rd) (count 1 1 ?b ?rd))\n\
                 (<= (count ?r ?c ?b ?rd) {})\n\
                 (<= (getcolour ?r ?c ?colour) (true (cell ?r ?c ?colour)))",
                body.join(" ")
            );
            let rules = normalise(&parse(&text).description).unwrap();
            let wanted = [("count".into(), 4), ("getcolour".into(), 3)];
            let adorned = |passing| {
                let out = transform(&rules, &wanted, passing).unwrap();
                let mut ads: Vec<String> = out
                    .iter()
                    .filter_map(|r| r.head.name().filter(|n| n.starts_with("count~")).map(str::to_string))
                    .collect();
                ads.sort();
                ads.dedup();
                ads.join(" ")
            };
            let both = [adorned(Passing::BindingsFirst), adorned(Passing::BindingsFirstTiesLast)];
            assert!(both.iter().any(|a| a == "count~bbbb count~bbff"), "{order:?}: {both:?}");
            assert!(both.iter().any(|a| a == "count~bbbb count~ffbb"), "{order:?}: {both:?}");
        }
    }

    /// The top-down candidate of every corpus game: the transformation ends (choosing and
    /// dropping relations once looped on crossers3, AlexChess and others) and, when it
    /// applies, keeps every relation the keywords need.
    #[test]
    fn the_top_down_candidate_of_every_corpus_game() {
        let mut applied = 0;
        for path in crate::shared::corpus_games() {
            let text = std::fs::read_to_string(&path).unwrap();
            let Ok(rules) = normalise(&parse(&text).description) else { continue };
            let Some(out) = transform(&rules, &dynamic(&rules), Passing::BindingsFirst) else { continue };
            applied += 1;
            for k in ["legal", "next", "goal", "terminal"] {
                let defined = |rs: &[NRule]| rs.iter().any(|r| r.head.name() == Some(k));
                assert_eq!(defined(&rules), defined(&out), "{}: {k}", path.display());
            }
        }
        assert!(applied > 300, "the transformation applied to {applied} corpus games only");
    }

    #[test]
    fn asked_negations_get_their_demand_and_leave_the_body() {
        // `far` (chosen) gets its demand and leaves the body; `near` (not chosen) leaves it.
        let rules = normalise(
            &parse(
                "(<= (legal p (go ?a)) (true (at ?a)) (not (far ?a 1)) (not (near ?a)))\n\
                 (<= (far ?x ?y) (n ?x) (n ?y) (true (at ?y)))\n(<= (near ?x) (true (at ?x)))",
            )
            .description,
        )
        .unwrap();
        let asked = [("far".to_string(), 2), ("near".to_string(), 1)].into_iter().collect();
        let out = transform_asking(&rules, &[("far".into(), 2)], &asked, Passing::AsWritten).unwrap();
        let text: Vec<String> = out.iter().map(ToString::to_string).collect();
        expect_test::expect![[r#"
            (magic~far~bb ?a 1) :- (true (at ?a))
            (legal p (go ?a)) :- (true (at ?a))
            (near ?x) :- (true (at ?x))
            (far~bb ?x ?y) :- (magic~far~bb ?x ?y) (n ?x) (n ?y) (true (at ?y))"#]]
        .assert_eq(&text.join("\n"));
    }

    #[test]
    fn keywords_and_unbound_calls_stay() {
        let rules = normalise(&parse("(<= (legal p ?x) (n ?x)) (<= (n ?x) (n ?x))").description).unwrap();
        assert!(transform(&rules, &[("legal".into(), 2)], Passing::AsWritten).is_none());
        assert!(transform(&rules, &[("n".into(), 1)], Passing::AsWritten).is_none());
    }
}
