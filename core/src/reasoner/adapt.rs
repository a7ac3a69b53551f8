//! Choosing how to evaluate a game, by measurement.
//!
//! Bottom-up evaluation computes every relation in full; many games define relations that
//! are huge in full but only ever asked about for a few arguments (sudoku's `exactlyFirst`
//! over nine cells, chess's `threatened_with_capture`, a count over a board's squares):
//! there a top-down (Prolog) reasoner wins. Each candidate program is loaded and probed
//! (every query along a few states of one line of play) under probe limits: the rules
//! evaluated top-down with tables first (`tabled`: only the calls the queries make, as a
//! Prolog reasoner with tabling; seldom far from the best, it sets how many states every
//! probe visits), then every state-dependent relation computed on demand (`crate::program::magic`),
//! then the program as written, then the program without `crate::program::specialise` when its
//! copies per constant use made the program much bigger, then, from the best bottom-up
//! program so far, with the relation that broke a limit, or the biggest one, on demand
//! (until one of these refinements does not pay). A program's cost is its work per state
//! (join steps, facts derived, plans run) plus a share of its load; a transformed program
//! is adopted only if it is clearly cheaper. Each candidate is a load, most of the time the
//! choice takes: a program known to fail loading is not loaded again. When nothing passes,
//! the program as written runs with the caller's limits and reports its own errors.

use super::{Deadline, Limits, LoadFailure, Reasoner, Tabled};
use crate::deps::DepGraph;
use crate::diagnostic::Diagnostic;
use crate::program::magic::{self, Passing};
use crate::program::{graph_of, NRule, Program};

/// Probe limits: a program passing them along the probe's states is a fair candidate.
const PROBE_FACTS: usize = 200_000;
const PROBE_JOIN_STEPS: u64 = 20_000_000;
/// Relations smaller than this are not worth computing on demand.
const MIN_SIZE: usize = 5_000;
/// Most programs probed.
const MAX_ATTEMPTS: usize = 12;
/// A transformed program must cost at most this share of the best one so far.
const GAIN: f64 = 0.95;
/// A specialised program this many times bigger than the rules is probed against them.
const SPECIALISED_GROWTH: f64 = 1.5;
/// With a clock (an interactive caller: the page's main thread, `--max-millis`), the choice
/// ends once a program passed and it has taken this long: there, the game must show at
/// once, and any program that passed answers a click in milliseconds (the page's playout
/// workers, without a clock, measure every candidate).
const CHOICE_MILLIS: f64 = 300.0;

type Key = (String, usize);

/// How a candidate evaluates the rules.
#[derive(Clone, Copy)]
enum How<'a> {
    /// Bottom-up, with these relations computed on demand (magic sets).
    BottomUp(&'a [Key]),
    /// Top-down with tables.
    Tabled,
}

enum Attempt {
    /// The program passed the probe; its cost.
    Ok(Box<Reasoner>, f64),
    /// A limit was reached while computing this relation (while loading the program or
    /// answering a probe's query).
    Limit(Option<Key>),
    /// The probe cost more than `cap`: the program cannot win.
    Dearer,
    /// The transformation does not apply.
    NotApplicable,
}

/// What every probe of one load shares.
struct Probing {
    limits: Limits,
    deadline: Option<Deadline>,
    /// The states every probe visits, once the first program passed.
    states: Option<usize>,
    /// Programs loaded so far.
    loads: usize,
    /// Relations that broke a limit while a program was loading, each with the rules that
    /// compute it (its dependencies' included, printed and sorted): a program with the same
    /// rules for it cannot load either, and is not loaded to learn it.
    unloadable: Vec<(Key, Vec<String>)>,
}

impl Probing {
    /// The relation that keeps `program` from loading, if a program computing it by the same
    /// rules could not load.
    fn known_failure(&self, program: &[NRule]) -> Option<Key> {
        if self.unloadable.is_empty() {
            return None;
        }
        let graph = graph_of(program);
        self.unloadable
            .iter()
            .find(|(rel, rules)| rules_computing(program, &graph, rel).as_ref() == Some(rules))
            .map(|(rel, _)| rel.clone())
    }
}

/// The rules of `program` that compute `rel`: its own and its dependencies', printed and
/// sorted (`None` when the program does not define it).
fn rules_computing(program: &[NRule], graph: &DepGraph, rel: &Key) -> Option<Vec<String>> {
    let root = graph.get(&rel.0, rel.1)?;
    let reach = graph.reachable([root]);
    let mut rules: Vec<String> = program
        .iter()
        .filter(|r| r.head.name().and_then(|n| graph.get(n, r.head.args().len())).is_some_and(|h| reach[h]))
        .map(ToString::to_string)
        .collect();
    crate::order::sort(&mut rules);
    Some(rules)
}

/// Loads the rules evaluated `how` and probes them along `probing.states` states (the first
/// program that passes sets it), giving up once the probe's work passes `cap`. Relations on
/// demand are asked with the bindings passed in the order written and bindings first, with
/// ties broken by the order written and, when that asks something differently, against it
/// (`magic::Passing`, in the order of `on_demand_programs`): the cheapest program wins (one
/// program when orders give the same).
fn attempt(rules: &[NRule], how: How, probing: &mut Probing, cap: f64) -> Result<Attempt, Diagnostic> {
    let programs = match how {
        How::BottomUp(on_demand) if !on_demand.is_empty() => on_demand_programs(rules, on_demand),
        _ => vec![(rules.to_vec(), true)],
    };
    let mut result = Attempt::NotApplicable;
    let mut cap = cap;
    for (program, as_written) in programs {
        let this = match probing.known_failure(&program) {
            Some(rel) => Attempt::Limit(Some(rel)),
            None => probe(rules, program, how, probing, cap)?,
        };
        match (&result, this) {
            (_, Attempt::Ok(r, cost)) => {
                cap = cost;
                result = Attempt::Ok(r, cost);
            }
            (Attempt::Ok(..), _) => {}
            // The written order's failure is the one reported, else the first one's.
            (_, other) if as_written || matches!(result, Attempt::NotApplicable) => result = other,
            _ => {}
        }
    }
    Ok(result)
}

/// The relations to compute on demand next when `rel` (of the program with `trial` on
/// demand) reached a limit: it, when it is not on demand yet; else its callers, which must
/// pass on more of their bindings. Too much asked of a relation (its demand relation
/// `magic~rel~...` reached the limit) is a limit of the relation.
pub(super) fn on_demand_after(rules: &[NRule], trial: &[Key], rel: &Key) -> Vec<Key> {
    let rel = magic::asked(rel).unwrap_or_else(|| magic::original(rel));
    if trial.contains(&rel) {
        magic::callers(rules, &rel)
    } else {
        vec![rel]
    }
}

/// The programs that compute `on_demand` on demand, in the order they are probed, each with
/// whether it keeps the order written. Bindings first comes before the order written, so
/// that its cost caps the other's probe: a written order that passes few bindings on (a
/// description reordered) is found dearer early instead of after a whole probe
/// (amazonsTorus disguised: 0.4 s of its load).
pub(super) fn on_demand_programs(rules: &[NRule], on_demand: &[Key]) -> Vec<(Vec<NRule>, bool)> {
    let written = magic::transform(rules, on_demand, Passing::AsWritten);
    let first = magic::transform(rules, on_demand, Passing::BindingsFirst);
    let last = magic::transform(rules, on_demand, Passing::BindingsFirstTiesLast);
    let same = |a: &[NRule], b: &[NRule]| a.iter().map(ToString::to_string).eq(b.iter().map(ToString::to_string));
    let mut programs: Vec<(Vec<NRule>, bool)> = match (written, first) {
        (Some(w), Some(f)) if same(&w, &f) => vec![(w, true)],
        (w, f) => f.map(|f| (f, false)).into_iter().chain(w.map(|w| (w, true))).collect(),
    };
    // Ties broken the other way matter only where they ask something differently.
    if let Some(last) = last.filter(|l| programs.iter().all(|(p, _)| !same_but_order(p, l))) {
        programs.push((last, false));
    }
    programs
}

/// Whether two programs have the same rules, but for the order of the rules and of their
/// conditions (which the compiler chooses anew).
fn same_but_order(a: &[NRule], b: &[NRule]) -> bool {
    let canonical = |p: &[NRule]| {
        let mut rules: Vec<(String, Vec<String>)> = (p.iter())
            .map(|r| {
                let mut body: Vec<String> = r.body.iter().map(ToString::to_string).collect();
                crate::order::sort(&mut body);
                (r.head.to_string(), body)
            })
            .collect();
        crate::order::sort(&mut rules);
        rules
    };
    a.len() == b.len() && canonical(a) == canonical(b)
}

/// Loads one program and probes it (see `attempt`).
fn probe(
    rules: &[NRule],
    program: Vec<NRule>,
    how: How,
    probing: &mut Probing,
    cap: f64,
) -> Result<Attempt, Diagnostic> {
    probing.loads += 1;
    match Reasoner::build_within(Program::new(program.clone()), probing.limits, probing.deadline) {
        Ok(mut r) => {
            if let How::Tabled = how {
                r.tabled = Some(Box::new(Tabled::new(&mut r, rules)));
            }
            r.work_cap = r.work.saturating_add(cap.min(u64::MAX as f64) as u64);
            let probed = r.probe_cost(probing.states);
            let dearer = r.work >= r.work_cap;
            r.work_cap = u64::MAX;
            match probed {
                Ok((cost, visited)) if cost < cap => {
                    probing.states.get_or_insert(visited);
                    Ok(Attempt::Ok(Box::new(r), cost))
                }
                Ok(_) => Ok(Attempt::Dearer),
                Err(_) if dearer => Ok(Attempt::Dearer),
                Err(e) => Ok(Attempt::Limit(e.relation)),
            }
        }
        Err(LoadFailure::Invalid(d)) => Err(d),
        Err(LoadFailure::Limit(e)) => {
            if let Some(rel) = &e.relation {
                if let Some(rules) = rules_computing(&program, &graph_of(&program), rel) {
                    probing.unloadable.push((rel.clone(), rules));
                }
            }
            Ok(Attempt::Limit(e.relation))
        }
    }
}

/// Chooses how to evaluate the normalised rules `plain`. One load is one request: every
/// candidate shares the deadline.
pub fn choose(plain: Vec<NRule>, limits: Limits) -> Result<Reasoner, Diagnostic> {
    let rules = crate::program::specialise::specialise(Program::new(plain.clone())).into_rules();
    let limits_of_probes = Limits {
        max_facts: limits.max_facts.min(PROBE_FACTS),
        max_join_steps: limits.max_join_steps.min(PROBE_JOIN_STEPS),
        ..limits
    };
    let deadline = limits.time.map(|t| t.deadline());
    let started = limits.time.map(|t| (t.now, (t.now)()));
    let out_of_time = || started.is_some_and(|(now, at)| now() - at > CHOICE_MILLIS);
    let mut probing = Probing { limits: limits_of_probes, deadline, states: None, loads: 0, unloadable: Vec::new() };
    // The best program so far and its score: its cost, or for the program as written
    // `GAIN` times its cost (a transformed program must be clearly cheaper to win).
    let mut best: Option<(Box<Reasoner>, f64)> = None;
    let mut adopted: Vec<Key> = Vec::new();
    let mut tried: Vec<Key> = Vec::new();
    // Top-down with tables first: seldom far from the best, rarely hitting a limit, it
    // sets how many states every probe visits (as many as its work allows) and bounds the
    // probes of the others.
    if let Attempt::Ok(r, cost) = attempt(&rules, How::Tabled, &mut probing, f64::INFINITY)? {
        best = Some((r, cost));
    }
    // Then every dynamic relation on demand (magic sets), then the program as written.
    let mut candidates = vec![Vec::new(), magic::dynamic(&rules)];
    let mut trial: Vec<Key> = candidates.pop().expect("two candidates");
    // After the program as written, the same without specialisation, when specialisation
    // made it much bigger (its copies then cost more than they save).
    let mut unspecialised = (rules.len() as f64 > plain.len() as f64 * SPECIALISED_GROWTH).then_some(plain);
    // Whether the trial refines the best program (one more relation on demand).
    let mut refining = false;
    for _ in 0..MAX_ATTEMPTS {
        if best.is_some() && out_of_time() {
            break;
        }
        let as_written = trial.is_empty();
        let weight = if as_written { GAIN } else { 1.0 / GAIN };
        let cap = best.as_ref().map_or(f64::INFINITY, |b| b.1 / weight);
        match attempt(&rules, How::BottomUp(&trial), &mut probing, cap)? {
            Attempt::Ok(r, cost) => {
                adopted = trial.clone();
                best = Some((r, if as_written { cost * GAIN } else { cost }));
            }
            Attempt::Limit(Some(rel)) => {
                let more = on_demand_after(&rules, &trial, &rel);
                let before = trial.len();
                trial.extend(more.into_iter().filter(|k| !trial.contains(k)).collect::<Vec<_>>());
                if trial.len() > before {
                    continue;
                }
            }
            Attempt::Limit(None) | Attempt::Dearer | Attempt::NotApplicable => {}
        }
        // A refinement that did not pay ends them: the relations left are smaller, and
        // each probe costs a load (gt_two_thirds_6p: ten probes, 0.6 s, none adopted).
        if refining && !adopted.iter().eq(trial.iter()) {
            break;
        }
        if let Some(c) = candidates.pop() {
            trial = c;
            continue;
        }
        if let Some(plain) = unspecialised.take() {
            // Adopted only if clearly cheaper than the best so far.
            let cap = best.as_ref().map_or(f64::INFINITY, |b| b.1 * GAIN);
            if let Attempt::Ok(r, cost) = attempt(&plain, How::BottomUp(&[]), &mut probing, cap)? {
                adopted.clear();
                best = Some((r, cost * GAIN));
            }
        }
        // Next: the biggest relation of the best program, on demand (a refinement of
        // bottom-up evaluation: none when top-down evaluation won).
        let Some((b, _)) = best.as_ref().filter(|b| !b.0.is_tabled()) else { break };
        let skip: Vec<Key> = adopted.iter().chain(&tried).cloned().collect();
        let Some((rel, size)) = b.largest_relation(&skip) else { break };
        if size < MIN_SIZE {
            break;
        }
        tried.push(rel.clone());
        trial = adopted.iter().cloned().chain([rel]).collect();
        refining = true;
    }
    match best {
        Some((mut r, _)) => {
            r.limits = limits;
            r.loads = probing.loads;
            Ok(r.loaded())
        }
        None => {
            let mut r = Reasoner::load(Program::new(rules), limits, deadline)?;
            r.loads = probing.loads + 1;
            Ok(r)
        }
    }
}
