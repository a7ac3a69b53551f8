//! Size estimates for ordering rule bodies: how many facts a body literal matches once some
//! of its variables are known.
//!
//! Measured where facts exist when the rules are compiled: every static relation once
//! evaluated (all its facts), and `true` from the initial state (a sample: the board a game
//! starts with shows which fluents there are and how many values each position takes, but
//! a fluent it lacks, the pieces of a game starting on an empty board, may still come). A
//! measure counts the facts, the different values at every argument position, nested ones
//! included (the `?x` of `cell(?x, ?y, ?p)` inside `true`), how often each value comes
//! where there are few, and the functors found there; a literal's estimate multiplies the
//! facts by the share its functors and constants match (the one marker among a board of
//! empty cells matches once, not a quarter of the board) and divides it by the values of
//! every position a bound variable takes. Relations not measured, and functors or values
//! a sample lacks, are guessed.
//!
//! Invariant: an estimate never depends on the order the body was written in, so the plans
//! do not either (save ties).

use super::compile::{Pat, RelId};
use super::store::RelStore;
use crate::term::{SymId, TermId, TermStore};
use rustc_hash::FxHashMap;

/// Guessed number of facts of a relation not measured.
const DYNAMIC_GUESS: f64 = 30.0;
/// Guessed number of values of an argument position not measured.
pub(super) const VALUES_GUESS: f64 = 4.0;
/// Facts looked at per relation (evenly spread over the relation).
const SAMPLE: u32 = 20_000;
/// Deepest nested position measured.
const DEPTH: usize = 4;
/// Positions with at most this many values keep how often each comes.
const COUNTED: usize = 256;

/// An argument position: the argument, then for each nested term its functor and the
/// argument inside it (`symbol << 8 | argument`).
type Path = Vec<u64>;

/// What the facts of one relation look like.
#[derive(Clone, Default)]
struct Measured {
    facts: f64,
    /// Every fact was seen (not a sample).
    complete: bool,
    /// Different values per position.
    values: FxHashMap<Path, f64>,
    /// Per position with few values: facts with this value there, and facts with the
    /// position at all.
    counts: FxHashMap<(Path, TermId), f64>,
    at: FxHashMap<Path, f64>,
    /// Facts with this functor (symbol and arity) at this position.
    functors: FxHashMap<(Path, SymId, usize), f64>,
}

#[derive(Default)]
pub(super) struct Sizes {
    known: Vec<Option<Measured>>,
    does: RelId,
}

impl Sizes {
    pub(super) fn new(relations: usize, does: RelId) -> Sizes {
        Sizes { known: vec![None; relations], does }
    }

    /// Measures `rel` from its facts in `f`.
    pub(super) fn measure(&mut self, rel: RelId, f: &RelStore, store: &TermStore) {
        let tuples = (0..f.len()).map(|i| f.tuple(i));
        self.measure_tuples(rel, f.len(), tuples, true, store);
    }

    /// Measures `rel` from the `n` tuples of `tuples`: all its facts if `complete`, else a
    /// sample of them (so are the facts looked at of a relation bigger than `SAMPLE`).
    pub(super) fn measure_tuples<'a>(
        &mut self,
        rel: RelId,
        n: u32,
        tuples: impl Iterator<Item = &'a [TermId]>,
        complete: bool,
        store: &TermStore,
    ) {
        let stride = n.div_ceil(SAMPLE).max(1) as usize;
        let scale = stride as f64;
        let mut values: FxHashMap<Path, FxHashMap<TermId, f64>> = FxHashMap::default();
        let mut functors: FxHashMap<(Path, SymId, usize), f64> = FxHashMap::default();
        let mut path = Path::new();
        for t in tuples.step_by(stride) {
            for (i, &a) in t.iter().enumerate() {
                path.clear();
                path.push(i as u64);
                walk(a, &mut path, store, &mut values, &mut functors, scale);
            }
        }
        let measured = Measured {
            facts: n as f64,
            complete: complete && stride == 1,
            counts: (values.iter().filter(|(_, m)| m.len() <= COUNTED))
                .flat_map(|(p, m)| m.iter().map(|(&v, &c)| ((p.clone(), v), c)))
                .collect(),
            at: values.iter().map(|(p, m)| (p.clone(), m.values().sum())).collect(),
            values: values.into_iter().map(|(p, m)| (p, m.len().max(1) as f64)).collect(),
            functors,
        };
        if rel as usize >= self.known.len() {
            self.known.resize(rel as usize + 1, None);
        }
        self.known[rel as usize] = Some(measured);
    }

    /// How many facts of `rel` match `args` once the `bound` slots are known.
    pub(super) fn estimate(&self, rel: RelId, args: &[Pat], bound: &[bool]) -> f64 {
        let known = if rel == self.does { None } else { self.known.get(rel as usize).and_then(Option::as_ref) };
        let mut e = Estimate { known, bound, est: 0.0, all_bound: true, path: Path::new() };
        e.est = match known {
            _ if rel == self.does => 2.0,
            // A sample may lack every fact (a game starting from the empty state).
            Some(k) => {
                if k.complete {
                    k.facts
                } else {
                    k.facts.max(1.0)
                }
            }
            None => DYNAMIC_GUESS,
        };
        for (i, a) in args.iter().enumerate() {
            e.path.clear();
            e.path.push(i as u64);
            e.pat(a);
        }
        if e.all_bound {
            // A pure test: cheaper than any join.
            e.est = e.est.min(1.0) * 0.5;
        }
        e.est
    }
}

/// The path element of argument `j` of a term with functor `sym`.
fn nested(sym: SymId, j: usize) -> u64 {
    (sym as u64) << 8 | (j as u64 & 0xff)
}

fn walk(
    t: TermId,
    path: &mut Path,
    store: &TermStore,
    values: &mut FxHashMap<Path, FxHashMap<TermId, f64>>,
    functors: &mut FxHashMap<(Path, SymId, usize), f64>,
    scale: f64,
) {
    *values.entry(path.clone()).or_default().entry(t).or_default() += scale;
    let args = store.args(t);
    if args.is_empty() || path.len() >= DEPTH {
        return;
    }
    let sym = store.sym(t);
    *functors.entry((path.clone(), sym, args.len())).or_default() += scale;
    for (j, &a) in args.iter().enumerate() {
        path.push(nested(sym, j));
        walk(a, path, store, values, functors, scale);
        path.pop();
    }
}

/// One literal's estimate, built position by position.
struct Estimate<'a> {
    known: Option<&'a Measured>,
    bound: &'a [bool],
    est: f64,
    all_bound: bool,
    path: Path,
}

impl Estimate<'_> {
    /// Values of the current position, measured or guessed.
    /// The share of the facts with constant `c` at the current position: counted if its
    /// values are, else one over its values.
    fn share(&self, c: TermId) -> f64 {
        let Some(k) = self.known else { return 1.0 / VALUES_GUESS };
        match (k.counts.get(&(self.path.clone(), c)), k.at.get(&self.path)) {
            (Some(n), Some(at)) => n / at,
            // Counted, and not there: nothing matches, unless the facts are a sample.
            (None, Some(at)) if k.complete && k.values.get(&self.path).is_some_and(|&v| v as usize <= COUNTED) => {
                0.5 / at
            }
            _ => 1.0 / self.values(),
        }
    }

    fn values(&self) -> f64 {
        match self.known.and_then(|k| k.values.get(&self.path).map(|&v| (k, v))) {
            Some((k, v)) if k.complete => v,
            // A sample may lack values that come later (the pieces of an empty board).
            Some((_, v)) => v.max(VALUES_GUESS),
            None => VALUES_GUESS,
        }
    }

    fn pat(&mut self, p: &Pat) {
        match p {
            Pat::Const(c) => self.est *= self.share(*c),
            Pat::Var(v) if self.bound[*v as usize] => self.est /= self.values(),
            Pat::Var(_) => self.all_bound = false,
            Pat::Func(f, sub) => {
                let seen = self
                    .known
                    .filter(|_| self.path.len() < DEPTH)
                    .map(|k| (k, k.functors.get(&(self.path.clone(), *f, sub.len())).copied().unwrap_or(0.0)));
                self.est *= match seen {
                    Some((k, n)) if n > 0.0 || k.complete => n.max(0.5) / k.facts.max(1.0),
                    // Not in the sample: as if the relation were not measured.
                    Some((k, _)) if self.path.len() == 1 => 0.7 * DYNAMIC_GUESS / k.facts.max(1.0),
                    _ => 0.7,
                };
                for (j, s) in sub.iter().enumerate() {
                    self.path.push(nested(*f, j));
                    self.pat(s);
                    self.path.pop();
                }
            }
        }
    }
}
