//! Join execution: runs a plan over the relation stores by backtracking over the steps,
//! binding variable slots by matching patterns against ground facts, and collects the
//! instantiated heads.

use super::compile::{KeySrc, Lit, Pat, Plan, Step};
use super::store::{KeyHasher, RelStore, NONE};
use crate::term::{TermId, TermStore, TooDeep};

const UNBOUND: TermId = TermId::MAX;

/// The state of one plan execution.
pub struct Exec<'a> {
    pub rels: &'a [RelStore],
    pub store: &'a mut TermStore,
    /// `(lo, hi)` fact range per relation for `Delta` steps.
    pub delta: &'a [(u32, u32)],
    bind: Vec<TermId>,
    trail: Vec<u16>,
    /// Instantiated heads, flat.
    pub out: Vec<TermId>,
    /// Number of solutions found (heads emitted).
    pub solutions: usize,
    pub error: Option<TooDeep>,
}

impl<'a> Exec<'a> {
    pub fn new(rels: &'a [RelStore], store: &'a mut TermStore, delta: &'a [(u32, u32)], out: Vec<TermId>) -> Self {
        Exec { rels, store, delta, bind: Vec::new(), trail: Vec::new(), out, solutions: 0, error: None }
    }

    /// Runs the plan, appending one head tuple per solution to `out`.
    pub fn run(&mut self, plan: &Plan) {
        self.bind.clear();
        self.bind.resize(plan.slots, UNBOUND);
        self.trail.clear();
        self.step(plan, 0);
    }

    fn step(&mut self, plan: &Plan, k: usize) {
        // A proposition (no head arguments) needs one solution only.
        if self.error.is_some() || (plan.head.is_empty() && self.solutions > 0) {
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
                while f != NONE && f >= lo {
                    if f < hi {
                        if self.match_args(&lit.args, rel.tuple(f)) {
                            self.step(plan, k + 1);
                        }
                        self.undo(mark);
                    }
                    f = rel.chain_next(*ix, f);
                }
            }
            None => {
                for f in lo..hi {
                    if self.match_args(&lit.args, rel.tuple(f)) {
                        self.step(plan, k + 1);
                    }
                    self.undo(mark);
                }
            }
        }
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

    fn match_pat(&mut self, p: &Pat, t: TermId) -> bool {
        match p {
            Pat::Const(c) => *c == t,
            Pat::Var(v) => {
                let b = &mut self.bind[*v as usize];
                if *b == UNBOUND {
                    *b = t;
                    self.trail.push(*v);
                    true
                } else {
                    *b == t
                }
            }
            Pat::Func(sym, args) => {
                if self.store.sym(t) != *sym {
                    return false;
                }
                let targs = self.store.args(t);
                if targs.len() != args.len() {
                    return false;
                }
                // Copy the (short) argument list out so that the store is not borrowed.
                let mut buf = [0 as TermId; 8];
                if targs.len() <= 8 {
                    buf[..targs.len()].copy_from_slice(targs);
                    let n = targs.len();
                    args.iter().zip(&buf[..n]).all(|(p, &a)| self.match_pat(p, a))
                } else {
                    let owned = targs.to_vec();
                    args.iter().zip(owned).all(|(p, a)| self.match_pat(p, a))
                }
            }
        }
    }

    /// Are the two patterns the same term? Unbound parts are only equal to themselves.
    fn same(&self, a: &Pat, b: &Pat) -> bool {
        match (self.ground(a), self.ground(b)) {
            (Some(x), Some(y)) => x == y,
            _ => a == b,
        }
    }

    /// The term id of a pattern under the bindings, if it is ground and already exists.
    fn ground(&self, p: &Pat) -> Option<TermId> {
        match p {
            Pat::Const(c) => Some(*c),
            Pat::Var(v) => Some(self.bind[*v as usize]).filter(|&t| t != UNBOUND),
            Pat::Func(sym, args) => {
                let ids: Option<Vec<TermId>> = args.iter().map(|a| self.ground(a)).collect();
                // A term never interned cannot equal an existing one: use a fresh marker.
                Some(self.store.lookup(*sym, &ids?).unwrap_or(UNBOUND - 1))
            }
        }
    }

    fn emit(&mut self, plan: &Plan) {
        self.solutions += 1;
        for p in plan.head.iter() {
            match self.build(p) {
                Ok(t) => self.out.push(t),
                Err(e) => {
                    self.error = Some(e);
                    return;
                }
            }
        }
    }

    fn build(&mut self, p: &Pat) -> Result<TermId, TooDeep> {
        match p {
            Pat::Const(c) => Ok(*c),
            Pat::Var(v) => Ok(self.bind[*v as usize]),
            Pat::Func(sym, args) => {
                let mut ids = [0 as TermId; 8];
                if args.len() <= 8 {
                    for (i, a) in args.iter().enumerate() {
                        ids[i] = self.build(a)?;
                    }
                    self.store.intern(*sym, &ids[..args.len()])
                } else {
                    let ids: Vec<TermId> = args.iter().map(|a| self.build(a)).collect::<Result<_, _>>()?;
                    self.store.intern(*sym, &ids)
                }
            }
        }
    }
}
