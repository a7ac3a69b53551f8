//! Join execution: runs a plan over the relation stores by backtracking over the steps,
//! binding variable slots by matching patterns against ground facts, and collects the
//! values of the head's variables; heads are built afterwards, when the store may change.

use super::compile::{KeySrc, Lit, Pat, Plan, Step};
use super::store::{KeyHasher, RelStore, NONE};
use super::Deadline;
use crate::term::{SymId, TermId, TermStore, TooDeep};

/// The value of a slot no literal has bound yet.
pub const UNBOUND: TermId = TermId::MAX;

/// Buffers reused by every plan execution (no allocation per rule and state).
#[derive(Default)]
pub struct Scratch {
    pub bind: Vec<TermId>,
    trail: Vec<u16>,
    /// Values of the head's variables (`Plan::head_slots`), one group per solution.
    pub out: Vec<TermId>,
    pub tuple: Vec<TermId>,
}

/// The state of one plan execution.
pub struct Exec<'a> {
    rels: &'a [RelStore],
    store: &'a TermStore,
    /// `(lo, hi)` fact range per relation for `Delta` steps.
    delta: &'a [(u32, u32)],
    bind: &'a mut Vec<TermId>,
    trail: &'a mut Vec<u16>,
    out: &'a mut Vec<TermId>,
    /// Number of solutions found.
    solutions: usize,
    /// Facts this execution may still look at; the join stops when it reaches zero.
    budget: &'a mut u64,
    /// Most solutions before the join stops.
    max_solutions: usize,
    /// Set after a solution: the step to go back to (`usize::MAX`: none).
    cut: usize,
    /// The clock is read every `CLOCK_EVERY` steps; past the deadline the budget is spent.
    deadline: Option<Deadline>,
    late: bool,
}

/// Join steps between two readings of the clock (a reading costs about as much as 100 steps).
const CLOCK_EVERY: u64 = 1 << 14;

/// When a join must stop, besides its step budget.
#[derive(Clone, Copy)]
pub struct Stop {
    /// Most solutions before the join stops.
    pub max_solutions: usize,
    pub deadline: Option<Deadline>,
}

/// Why a join stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exhausted {
    /// It looked at more facts than the budget allows.
    Steps,
    /// It found more solutions than a relation may hold.
    Solutions,
    /// The request's deadline passed.
    Time,
}

impl<'a> Exec<'a> {
    /// Runs the plan, leaving in `scratch.out` the head variables' values per solution.
    /// Returns the number of solutions, or why it stopped early.
    pub fn run(
        rels: &'a [RelStore],
        store: &'a TermStore,
        delta: &'a [(u32, u32)],
        s: &'a mut Scratch,
        budget: &'a mut u64,
        stop: Stop,
        plan: &Plan,
    ) -> Result<usize, Exhausted> {
        s.bind.clear();
        s.bind.resize(plan.slots, UNBOUND);
        s.trail.clear();
        s.out.clear();
        let (bind, trail, out) = (&mut s.bind, &mut s.trail, &mut s.out);
        let mut exec = Exec {
            rels,
            store,
            delta,
            bind,
            trail,
            out,
            solutions: 0,
            budget,
            max_solutions: stop.max_solutions,
            cut: usize::MAX,
            deadline: stop.deadline,
            late: false,
        };
        exec.step(plan, 0);
        if exec.late {
            Err(Exhausted::Time)
        } else if exec.solutions > stop.max_solutions {
            Err(Exhausted::Solutions)
        } else if *exec.budget == 0 {
            Err(Exhausted::Steps)
        } else {
            Ok(exec.solutions)
        }
    }

    fn step(&mut self, plan: &Plan, k: usize) {
        // A head without variables needs one solution only.
        if (plan.head_slots.is_empty() && self.solutions > 0) || *self.budget == 0 {
            return;
        }
        let Some(step) = plan.steps.get(k) else {
            self.emit(plan);
            return;
        };
        match step {
            Step::Join(lit) => self.join(plan, k, lit, 0, u32::MAX),
            Step::Delta(lit) => {
                let (lo, hi) = self.delta[lit.rel as usize];
                self.join(plan, k, lit, lo, hi)
            }
            Step::Neg(lit) => {
                if !self.exists(lit) {
                    self.step(plan, k + 1)
                }
            }
            Step::Distinct(a, b) => {
                if !self.same(a, b) {
                    self.step(plan, k + 1)
                }
            }
            Step::Same(a, b) => {
                if self.same(a, b) {
                    self.step(plan, k + 1)
                }
            }
        }
    }

    /// For each fact of `lit.rel` with index in `lo..hi` matching the literal: bind, go on.
    fn join(&mut self, plan: &Plan, k: usize, lit: &Lit, lo: u32, hi: u32) {
        let rels = self.rels;
        let rel = &rels[lit.rel as usize];
        let hi = hi.min(rel.len());
        let mark = self.trail.len();
        match &lit.index {
            Some((ix, keys)) => {
                let mut f = rel.chain_start(*ix, self.key(keys));
                // Chains run newest first: skip facts at or above `hi`, stop below `lo`.
                while f != NONE && f >= lo && self.spend() {
                    if f < hi {
                        if self.match_args(&lit.args, rel.tuple(f)) {
                            self.step(plan, k + 1);
                        }
                        self.undo(mark);
                        if self.cut_here(k) {
                            return;
                        }
                    }
                    f = rel.chain_next(*ix, f);
                }
            }
            None => {
                for f in lo..hi {
                    if !self.spend() {
                        return;
                    }
                    if self.match_args(&lit.args, rel.tuple(f)) {
                        self.step(plan, k + 1);
                    }
                    self.undo(mark);
                    if self.cut_here(k) {
                        return;
                    }
                }
            }
        }
    }

    /// Takes one step from the budget; false when none is left (or the deadline passed).
    #[inline]
    fn spend(&mut self) -> bool {
        if *self.budget == 0 {
            return false;
        }
        *self.budget -= 1;
        if self.budget.is_multiple_of(CLOCK_EVERY) && self.deadline.is_some_and(|d| d.passed()) {
            self.late = true;
            *self.budget = 0;
        }
        true
    }

    /// After a solution, steps past the one that bound the whole head stop: their other
    /// matches could only derive the same head again. True if step `k` must stop.
    #[inline]
    fn cut_here(&mut self, k: usize) -> bool {
        if self.cut == usize::MAX {
            return false;
        }
        if k > self.cut {
            return true;
        }
        self.cut = usize::MAX;
        false
    }

    fn exists(&mut self, lit: &Lit) -> bool {
        let rels = self.rels;
        let rel = &rels[lit.rel as usize];
        let mark = self.trail.len();
        let mut found = false;
        match &lit.index {
            Some((ix, keys)) => {
                let mut f = rel.chain_start(*ix, self.key(keys));
                while f != NONE && !found {
                    found = self.match_args(&lit.args, rel.tuple(f));
                    self.undo(mark);
                    f = rel.chain_next(*ix, f);
                }
            }
            None => {
                for f in 0..rel.len() {
                    found = self.match_args(&lit.args, rel.tuple(f));
                    self.undo(mark);
                    if found {
                        break;
                    }
                }
            }
        }
        found
    }

    #[inline]
    fn key(&self, keys: &[KeySrc]) -> u64 {
        let mut h = KeyHasher::new();
        for k in keys {
            h.add(match *k {
                KeySrc::Const(c) => c,
                KeySrc::Var(v) => self.bind[v as usize],
            });
        }
        h.finish()
    }

    #[inline]
    fn undo(&mut self, mark: usize) {
        for v in self.trail.drain(mark..) {
            self.bind[v as usize] = UNBOUND;
        }
    }

    #[inline]
    fn match_args(&mut self, pats: &[Pat], tuple: &[TermId]) -> bool {
        pats.iter().zip(tuple).all(|(p, &t)| self.match_pat(p, t))
    }

    #[inline]
    fn match_pat(&mut self, p: &Pat, t: TermId) -> bool {
        match_pat(self.store, self.bind, self.trail, p, t)
    }

    fn same(&self, a: &Pat, b: &Pat) -> bool {
        same(self.store, self.bind, a, b)
    }

    /// Records the values of the head's variables for this solution.
    fn emit(&mut self, plan: &Plan) {
        self.solutions += 1;
        self.cut = plan.head_ready;
        if self.solutions > self.max_solutions {
            *self.budget = 0;
        }
        self.out.extend(plan.head_slots.iter().map(|&v| self.bind[v as usize]));
    }
}

/// Are the two patterns the same term under the bindings? Unbound parts are only equal to
/// themselves.
pub fn same(store: &TermStore, bind: &[TermId], a: &Pat, b: &Pat) -> bool {
    match (ground(store, bind, a), ground(store, bind, b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// The term id of a pattern under the bindings, if it is ground and already exists.
fn ground(store: &TermStore, bind: &[TermId], p: &Pat) -> Option<TermId> {
    match p {
        Pat::Const(c) => Some(*c),
        Pat::Var(v) => Some(bind[*v as usize]).filter(|&t| t != UNBOUND),
        Pat::Func(sym, args) => {
            let ids: Option<Vec<TermId>> = args.iter().map(|a| ground(store, bind, a)).collect();
            // A term never interned cannot equal an existing one: use a fresh marker.
            Some(store.lookup(*sym, &ids?).unwrap_or(UNBOUND - 1))
        }
    }
}

/// Matches a pattern against a ground term, binding unbound slots (recorded on the trail).
/// Variables and constants, most of the patterns met, are matched inline; compound
/// patterns by `match_func`.
#[inline(always)]
pub fn match_pat(store: &TermStore, bind: &mut [TermId], trail: &mut Vec<u16>, p: &Pat, t: TermId) -> bool {
    match p {
        Pat::Const(c) => *c == t,
        Pat::Var(v) => {
            let b = &mut bind[*v as usize];
            if *b == UNBOUND {
                *b = t;
                trail.push(*v);
                true
            } else {
                *b == t
            }
        }
        Pat::Func(sym, args) => match_func(store, bind, trail, *sym, args, t),
    }
}

/// Matches a compound pattern `sym(args)` against a ground term.
fn match_func(
    store: &TermStore,
    bind: &mut [TermId],
    trail: &mut Vec<u16>,
    sym: SymId,
    args: &[Pat],
    t: TermId,
) -> bool {
    store.sym(t) == sym && {
        let targs = store.args(t);
        targs.len() == args.len() && args.iter().zip(targs).all(|(p, &a)| match_pat(store, bind, trail, p, a))
    }
}

/// Builds the ground term of a head pattern from the slot values `bind`: variables and
/// constants inline, compound patterns by `build_func`.
#[inline(always)]
pub fn build(store: &mut TermStore, bind: &[TermId], p: &Pat) -> Result<TermId, TooDeep> {
    match p {
        Pat::Const(c) => Ok(*c),
        Pat::Var(v) => Ok(bind[*v as usize]),
        Pat::Func(sym, args) => build_func(store, bind, *sym, args),
    }
}

fn build_func(store: &mut TermStore, bind: &[TermId], sym: SymId, args: &[Pat]) -> Result<TermId, TooDeep> {
    let mut ids = [0 as TermId; 8];
    if args.len() <= 8 {
        for (i, a) in args.iter().enumerate() {
            ids[i] = build(store, bind, a)?;
        }
        store.intern(sym, &ids[..args.len()])
    } else {
        let ids: Vec<TermId> = args.iter().map(|a| build(store, bind, a)).collect::<Result<_, _>>()?;
        store.intern(sym, &ids)
    }
}
