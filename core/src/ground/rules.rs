//! The ground program's storage: rules stored flat over interned atoms, with the passes
//! that prune, deduplicate and order them.
//!
//! Rule `r` has head `heads[r]` and body `lits[starts[r]..starts[r + 1]]`; a literal is an
//! atom id with `NEG` set when the literal is negated. About 4 bytes per literal and
//! 8 per rule, so memory follows the size of the program.

use crate::term::{SymId, TermId, TermStore};
use rustc_hash::{FxHashMap, FxHashSet};
use std::cmp::Ordering;

const NEG: u32 = 1 << 31;

#[derive(Debug, Default)]
pub struct Rules {
    heads: Vec<TermId>,
    starts: Vec<u32>,
    lits: Vec<u32>,
}

impl Rules {
    pub fn len(&self) -> usize {
        self.heads.len()
    }

    pub fn push(&mut self, head: TermId, body: impl IntoIterator<Item = (bool, TermId)>) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.heads.push(head);
        self.lits.extend(body.into_iter().map(|(neg, a)| if neg { a | NEG } else { a }));
        self.starts.push(self.lits.len() as u32);
    }

    /// Gives back the room that growing left unused.
    fn shrink_to_fit(&mut self) {
        self.heads.shrink_to_fit();
        self.starts.shrink_to_fit();
        self.lits.shrink_to_fit();
    }

    pub fn head(&self, r: usize) -> TermId {
        self.heads[r]
    }

    fn raw_body(&self, r: usize) -> &[u32] {
        &self.lits[self.starts[r] as usize..self.starts[r + 1] as usize]
    }

    /// `(negated, atom)` for each body literal of rule `r`.
    pub fn body(&self, r: usize) -> impl Iterator<Item = (bool, TermId)> + '_ {
        self.raw_body(r).iter().map(|&l| (l & NEG != 0, l & !NEG))
    }

    /// The rules at `order`, in that order, without repeating a rule equal to the one before,
    /// each body literal `l` stored as `lit(l)`. Memory is reserved exactly, as the rules fill
    /// most of what the grounder holds.
    fn select(&self, order: &[u32], lit: impl Fn(u32) -> u32) -> Rules {
        let mut out = Rules::default();
        out.heads.reserve_exact(order.len());
        out.starts.reserve_exact(order.len() + 1);
        out.lits.reserve_exact(order.iter().map(|&r| self.raw_body(r as usize).len()).sum());
        out.starts.push(0);
        let mut last = None;
        for &r in order {
            let r = r as usize;
            let same = |o: usize| self.heads[o] == self.heads[r] && self.raw_body(o) == self.raw_body(r);
            if !last.is_some_and(same) {
                out.heads.push(self.heads[r]);
                out.lits.extend(self.raw_body(r).iter().map(|&l| lit(l)));
                out.starts.push(out.lits.len() as u32);
                last = Some(r);
            }
        }
        out
    }

    /// Unfolds the part atoms (see `decompose`) that do not pay. `parts` numbers the part
    /// relations in the order they were made: a part's definitions use only earlier parts.
    /// A rule stands for `times` rules once the atoms unfolded into it are substituted; a
    /// part atom stands for `D` rules, the sum of its definitions' `times`. Atoms are taken
    /// earlier parts first (so that `D` is known), by increasing `D` within a part; each is
    /// unfolded when the rules it adds (over all its uses, `times` each, multiplied by `D - 1`)
    /// are at most the `D` it saves. Parts are used only positively and never in their own
    /// definitions.
    pub fn unfold_parts(&self, store: &TermStore, parts: &FxHashMap<SymId, usize>) -> Rules {
        let is_part = |a: u32| a & NEG == 0 && parts.contains_key(&store.sym(a));
        // `(part atom, rule)` for the rules defining each part atom and those using it,
        // grouped by atom (flat pairs: there can be hundreds of thousands).
        let mut defs: Vec<(TermId, u32)> = Vec::new();
        let mut uses: Vec<(TermId, u32)> = Vec::new();
        for r in 0..self.len() {
            if is_part(self.heads[r]) {
                defs.push((self.heads[r], r as u32));
            }
            uses.extend(self.raw_body(r).iter().filter(|&&l| is_part(l)).map(|&l| (l, r as u32)));
        }
        defs.sort_unstable();
        uses.sort_unstable();
        let mut times = vec![1usize; self.len()];
        let mut atoms: Vec<(usize, usize, TermId)> = defs
            .chunk_by(|x, y| x.0 == y.0)
            .map(|group| (parts[&store.sym(group[0].0)], group.len(), group[0].0))
            .collect();
        atoms.sort_unstable();
        let mut unfolded: FxHashSet<TermId> = FxHashSet::default();
        for group in atoms.chunk_by(|x, y| x.0 == y.0) {
            // Within a part relation the definitions' `times` are final: order by `D`.
            let mut sized: Vec<(usize, TermId)> = group
                .iter()
                .map(|&(_, _, a)| {
                    (of(&defs, a).iter().map(|&(_, r)| times[r as usize]).fold(0, usize::saturating_add), a)
                })
                .collect();
            sized.sort_unstable();
            for (d, a) in sized {
                let uses = of(&uses, a);
                let added: usize =
                    uses.iter().map(|&(_, r)| times[r as usize].saturating_mul(d - 1)).fold(0, usize::saturating_add);
                if added <= d {
                    unfolded.insert(a);
                    uses.iter().for_each(|&(_, r)| times[r as usize] = times[r as usize].saturating_mul(d));
                }
            }
        }
        drop(uses);
        let unfold = |a: u32| unfolded.contains(&a);
        let mut out = Rules::default();
        let (mut todo, mut body): (Vec<u32>, Vec<u32>) = (Vec::new(), Vec::new());
        for r in 0..self.len() {
            if !unfold(self.heads[r]) {
                todo.extend(self.raw_body(r).iter().rev());
                self.expand(self.heads[r], &mut todo, &defs, &unfold, &mut body, &mut out);
                todo.clear();
            }
        }
        out.shrink_to_fit();
        out
    }

    /// Pushes the rule with head `head` and body `body` followed by the literals of `todo`
    /// (a stack: the next literal last), unfolded atoms substituted by each of their
    /// definitions (themselves unfolded), a literal already in the body not repeated.
    /// `todo` and `body` are given back as they were.
    fn expand(
        &self,
        head: TermId,
        todo: &mut Vec<u32>,
        defs: &[(TermId, u32)],
        unfold: &impl Fn(u32) -> bool,
        body: &mut Vec<u32>,
        out: &mut Rules,
    ) {
        let Some(l) = todo.pop() else {
            out.push(head, body.iter().map(|&l| (l & NEG != 0, l & !NEG)));
            return;
        };
        if unfold(l) {
            let len = todo.len();
            for &(_, d) in of(defs, l) {
                todo.extend(self.raw_body(d as usize).iter().rev());
                self.expand(head, todo, defs, unfold, body, out);
                todo.truncate(len);
            }
        } else if body.contains(&l) {
            self.expand(head, todo, defs, unfold, body, out);
        } else {
            body.push(l);
            self.expand(head, todo, defs, unfold, body, out);
            body.pop();
        }
        todo.push(l);
    }

    /// Keeps the rules whose head some GDL keyword can reach: an atom is needed if it
    /// belongs to a keyword relation or occurs in the body of a rule for a needed atom.
    pub fn keep_used(&self, store: &TermStore) -> Rules {
        // `(head, rule)` sorted: the rules for an atom are one run.
        let mut by_head: Vec<(TermId, u32)> = (0..self.len()).map(|r| (self.heads[r], r as u32)).collect();
        by_head.sort_unstable();
        let keyword = |t: TermId| crate::ast::RESERVED.contains(&store.symbol_name(store.sym(t)));
        let mut needed = rustc_hash::FxHashSet::default();
        let mut work: Vec<TermId> =
            by_head.chunk_by(|x, y| x.0 == y.0).map(|g| g[0].0).filter(|&h| keyword(h)).collect();
        while let Some(a) = work.pop() {
            if needed.insert(a) {
                for &(_, r) in of(&by_head, a) {
                    work.extend(self.raw_body(r as usize).iter().map(|&l| l & !NEG).filter(|b| !needed.contains(b)));
                }
            }
        }
        let kept: Vec<u32> = (0..self.len() as u32).filter(|&r| needed.contains(&self.heads[r as usize])).collect();
        drop((by_head, needed));
        self.select(&kept, |l| l)
    }

    /// The rules in a fixed order, without duplicates: keyword facts first (roles in
    /// declaration order, the order of the players), then by head relation, head and body,
    /// comparing terms by their names. Body atoms are replaced by their rank in that order
    /// while sorting (in place: no copy of the literals), and put back when copying.
    pub fn in_order(mut self, store: &TermStore) -> Rules {
        const ORDER: [&str; 9] = ["role", "init", "base", "input", "legal", "next", "terminal", "goal", "sees"];
        let rank = |t: TermId| {
            let name = store.symbol_name(store.sym(t));
            ORDER.iter().position(|&k| k == name).unwrap_or(ORDER.len())
        };
        // Rank every atom once; rules then compare as lists of integers.
        let mut atoms: Vec<TermId> = self.heads.iter().copied().chain(self.lits.iter().map(|&l| l & !NEG)).collect();
        atoms.sort_unstable();
        atoms.dedup();
        atoms.shrink_to_fit();
        atoms.sort_by(|&a, &b| compare(store, a, b));
        let position: FxHashMap<TermId, u32> = atoms.iter().enumerate().map(|(i, &a)| (a, i as u32)).collect();
        for l in &mut self.lits {
            *l = position[&(*l & !NEG)] << 1 | u32::from(*l & NEG != 0);
        }
        // Sort keys held inline (head rank and position, the first two body literals), so
        // that most comparisons need not look at the bodies.
        let mut keys: Vec<(u64, u64, u32)> = (0..self.len())
            .map(|r| {
                let rank = rank(self.heads[r]) as u64;
                // Roles keep their position: it is the order of the players.
                let head = if rank == 0 { r as u32 } else { position[&self.heads[r]] };
                let b = self.raw_body(r);
                let lit = |i: usize| b.get(i).map_or(0, |&l| u64::from(l) + 1);
                (rank << 32 | u64::from(head), lit(0) << 32 | lit(1), r as u32)
            })
            .collect();
        drop(position);
        // Equal rules end up next to each other, and `select` keeps one of each.
        keys.sort_unstable_by(|a, b| {
            (a.0, a.1).cmp(&(b.0, b.1)).then_with(|| self.raw_body(a.2 as usize).cmp(self.raw_body(b.2 as usize)))
        });
        let mut order = Vec::with_capacity(keys.len());
        order.extend(keys.iter().map(|k| k.2));
        drop(keys);
        self.select(&order, |l| atoms[(l >> 1) as usize] | if l & 1 != 0 { NEG } else { 0 })
    }
}

/// The pairs of `pairs` (sorted) whose atom is `a`.
fn of(pairs: &[(TermId, u32)], a: TermId) -> &[(TermId, u32)] {
    let start = pairs.partition_point(|p| p.0 < a);
    &pairs[start..start + pairs[start..].partition_point(|p| p.0 == a)]
}

/// A total order on terms by symbol names (constants before compound terms).
pub fn compare(store: &TermStore, a: TermId, b: TermId) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    let (xa, xb) = (store.args(a), store.args(b));
    (!xa.is_empty())
        .cmp(&!xb.is_empty())
        .then_with(|| store.symbol_name(store.sym(a)).cmp(store.symbol_name(store.sym(b))))
        .then_with(|| xa.len().cmp(&xb.len()))
        .then_with(|| {
            xa.iter().zip(xb).map(|(&p, &q)| compare(store, p, q)).find(|o| o.is_ne()).unwrap_or(Ordering::Equal)
        })
}
