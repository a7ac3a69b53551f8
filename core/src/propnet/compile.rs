//! Compiles a read ground program into gates: every derived atom becomes a literal over
//! AND gates (an OR is a negated AND of negated inputs, so one gate kind covers AND, OR and
//! NOT and identical gates merge whatever they were written as). Constants fold as gates are
//! made; positive recursion becomes a *cyclic block* of explicit OR/AND gates evaluated to
//! its least fixpoint.
//!
//! A literal (`Lit`) is `node << 1 | negated`; node 0 is the constant false, nodes
//! `1..=fluents` the state bits, then one node per move, then the gates.
//!
//! Seed optimisations (each switchable, see `Opt`):
//! - *frame*: a fluent's `next` rules split into frame rules (those reading `(true f)`) and
//!   the others: `next f = (f ∧ keep) ∨ gain`, where `keep` no longer reads `f`. The state
//!   update applies what turns false (`f ∧ ¬keep ∧ ¬gain`) and what turns true.
//! - *persist*: fluents labelled permanent (can never change: folded into constants, repeated
//!   until nothing new folds), persistent (`keep` is true: once true, stays true) or
//!   ephemeral (`keep` is false: the value is `gain` alone).

use super::read::{Atom, Program};
use hashbrown::HashTable;
use rustc_hash::{FxHashMap, FxHasher};
use std::hash::{Hash, Hasher};
use std::ops::Range;

pub type Lit = u32;
pub const FALSE: Lit = 0;
pub const TRUE: Lit = 1;

/// Which seed optimisations to apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Opt {
    pub frame: bool,
    pub persist: bool,
}

/// How a fluent's value in the next state is computed: `(f ∧ keep) ∨ gain`. Without the
/// frame rewriting `keep` is false and `gain` is `next f` (unless a label says more).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Update {
    pub keep: Lit,
    pub gain: Lit,
}

/// A fluent's label (`persist`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// Never changes: folded into a constant.
    Permanent,
    /// Once true, stays true (`keep` is true).
    Persistent,
    /// Holds only when re-derived (`keep` is false).
    Ephemeral,
    Plain,
}

/// A gate: AND of its inputs, or OR in a cyclic block.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Gate {
    pub or: bool,
    pub inputs: Vec<Lit>,
}

/// The network before layout: gates in creation order (every gate after its inputs, except
/// inside cyclic blocks) and the outputs.
pub struct Built {
    /// Number of leaf nodes: the constant, the fluents, the moves.
    pub leaves: u32,
    pub gates: Vec<Gate>,
    pub cycles: Vec<Range<u32>>,
    pub terminal: Lit,
    pub legal: Vec<Lit>,
    pub goals: Vec<Vec<Lit>>,
    /// Per role, the literal of each percept (GDL-II), in the order of `read::Program::sees`.
    pub sees: Vec<Vec<Lit>>,
    pub updates: Vec<Update>,
    pub labels: Vec<Label>,
    /// Compile rounds (more than one when permanent fluents were folded).
    pub rounds: usize,
}

struct Builder<'p> {
    p: &'p Program<'p>,
    fixed: &'p [Option<bool>],
    leaves: u32,
    gates: Vec<Gate>,
    /// The AND gates by their inputs (indices into `gates`).
    merged: HashTable<u32>,
    cycles: Vec<Range<u32>>,
    /// Literal of each derived atom, once compiled.
    atom: Vec<Lit>,
    /// Per role, the nodes of its moves.
    role_moves: Vec<Range<u32>>,
}

fn hash_lits(lits: &[Lit]) -> u64 {
    let mut h = FxHasher::default();
    lits.hash(&mut h);
    h.finish()
}

fn gate_lit(leaves: u32, g: usize) -> Lit {
    (leaves + g as u32) << 1
}

impl Builder<'_> {
    fn lit(&self, (neg, a): (bool, Atom)) -> Lit {
        let l = match a {
            Atom::Fluent(f) => match self.fixed[f as usize] {
                Some(v) => Lit::from(v),
                None => (1 + f) << 1,
            },
            Atom::Move(m) => (1 + self.p.fluents.len() as u32 + m) << 1,
            Atom::Derived(d) => self.atom[d as usize],
            Atom::Never => FALSE,
        };
        l ^ Lit::from(neg)
    }

    /// AND of `lits` with constants folded and identical gates merged.
    fn and(&mut self, mut lits: Vec<Lit>) -> Lit {
        if lits.contains(&FALSE) {
            return FALSE;
        }
        lits.retain(|&l| l != TRUE);
        lits.sort_unstable();
        lits.dedup();
        if lits.windows(2).any(|w| w[0] ^ 1 == w[1]) {
            return FALSE;
        }
        if let Some(fewer) = self.one_move_each(&lits) {
            return self.and(fewer);
        }
        match lits.len() {
            0 => TRUE,
            1 => lits[0],
            _ => {
                let hash = hash_lits(&lits);
                let gates = &self.gates;
                if let Some(&g) = self.merged.find(hash, |&g| gates[g as usize].inputs == lits) {
                    return gate_lit(self.leaves, g as usize);
                }
                let g = self.gates.len();
                self.gates.push(Gate { or: false, inputs: lits });
                let gates = &self.gates;
                self.merged.insert_unique(hash, g as u32, |&g| hash_lits(&gates[g as usize].inputs));
                gate_lit(self.leaves, g)
            }
        }
    }

    /// `lits` (sorted) with "none of these moves" of a role that names most of its moves
    /// replaced by "one of its other moves", when that reads fewer inputs; `None` when no
    /// role is worth it. Wherever moves are read a role does exactly one of its moves (a
    /// joint move), so the two agree there; breakthrough's frame conditions ("no move leaves
    /// or enters this cell") name every move but the few that touch the cell.
    fn one_move_each(&mut self, lits: &[Lit]) -> Option<Vec<Lit>> {
        let roles = self.role_moves.len();
        let named = |r: usize| {
            let nodes = &self.role_moves[r];
            lits.iter().filter(move |&&l| l & 1 == 1 && nodes.contains(&(l >> 1)))
        };
        // The complement costs a gate of its own unless it is a single move.
        let worth = |r: usize| {
            let (n, all) = (named(r).count(), self.role_moves[r].len());
            let rest = all - n;
            n > 0 && (rest == 0 || rest + usize::from(rest > 1) < n)
        };
        let rewrite: Vec<usize> = (0..roles).filter(|&r| worth(r)).collect();
        if rewrite.is_empty() {
            return None;
        }
        let mut out: Vec<Lit> = lits.to_vec();
        for r in rewrite {
            let nodes = self.role_moves[r].clone();
            out.retain(|&l| !(l & 1 == 1 && nodes.contains(&(l >> 1))));
            let others: Vec<Lit> =
                nodes.filter(|&n| lits.binary_search(&(n << 1 | 1)).is_err()).map(|n| n << 1).collect();
            out.push(self.or(others));
        }
        Some(out)
    }

    fn or(&mut self, lits: Vec<Lit>) -> Lit {
        self.and(lits.into_iter().map(|l| l ^ 1).collect()) ^ 1
    }

    fn rule(&mut self, r: u32, skip: Option<(bool, Atom)>) -> Lit {
        let lits = self.p.body_of(r).iter().filter(|&&l| Some(l) != skip).map(|&l| self.lit(l)).collect();
        self.and(lits)
    }

    fn atom_or(&mut self, a: u32) -> Lit {
        let lits = self.p.rules_of[a as usize].iter().map(|&r| self.rule(r, None)).collect();
        self.or(lits)
    }

    /// A recursive component: folded when its inputs from outside are constant, otherwise a
    /// cyclic block (one OR per atom, one AND per rule).
    fn cyclic(&mut self, comp: &[usize]) -> Result<(), String> {
        let member: FxHashMap<u32, usize> = comp.iter().enumerate().map(|(i, &a)| (a as u32, i)).collect();
        // Per member, per rule: the rule's literals, members as `Err(index)`.
        let mut rules: Vec<Vec<Vec<Result<Lit, usize>>>> = Vec::new();
        for &a in comp {
            let mut mine = Vec::new();
            'rule: for &r in &self.p.rules_of[a] {
                let mut lits = Vec::new();
                for &(neg, atom) in self.p.body_of(r) {
                    match atom {
                        Atom::Derived(d) if member.contains_key(&d) => {
                            if neg {
                                let atom = self.p.store.text(self.p.atoms[a]);
                                return Err(format!("{atom} depends on itself through negation"));
                            }
                            lits.push(Err(member[&d]));
                        }
                        _ => match self.lit((neg, atom)) {
                            FALSE => continue 'rule,
                            TRUE => {}
                            l => lits.push(Ok(l)),
                        },
                    }
                }
                mine.push(lits);
            }
            rules.push(mine);
        }
        if rules.iter().flatten().flatten().all(|l| l.is_err()) {
            // Only members: the least fixpoint is a constant.
            let mut holds = vec![false; comp.len()];
            let mut changed = true;
            while changed {
                changed = false;
                for (i, mine) in rules.iter().enumerate() {
                    if !holds[i] && mine.iter().any(|b| b.iter().all(|l| l.map_or_else(|m| holds[m], |_| true))) {
                        holds[i] = true;
                        changed = true;
                    }
                }
            }
            for (i, &a) in comp.iter().enumerate() {
                self.atom[a] = Lit::from(holds[i]);
            }
            return Ok(());
        }
        let start = self.gates.len();
        let count: usize = rules.iter().map(Vec::len).sum();
        let mut and = start + comp.len();
        for (i, mine) in rules.iter().enumerate() {
            self.atom[comp[i]] = gate_lit(self.leaves, start + i);
            let inputs = (and..and + mine.len()).map(|g| gate_lit(self.leaves, g)).collect();
            self.gates.push(Gate { or: true, inputs });
            and += mine.len();
        }
        for body in rules.iter().flatten() {
            let inputs = body.iter().map(|l| l.unwrap_or_else(|m| gate_lit(self.leaves, start + m))).collect();
            self.gates.push(Gate { or: false, inputs });
        }
        debug_assert_eq!(self.gates.len(), start + comp.len() + count);
        self.cycles.push(start as u32..self.gates.len() as u32);
        Ok(())
    }
}

/// One compile round with the fluents in `fixed` replaced by constants; also each fluent's
/// `(keep, gain)`.
fn round(p: &Program, opt: Opt, fixed: &[Option<bool>]) -> Result<(Built, Vec<(Lit, Lit)>), String> {
    let leaves = 1 + (p.fluents.len() + p.moves.len()) as u32;
    let mut b = Builder {
        p,
        fixed,
        leaves,
        gates: Vec::new(),
        merged: HashTable::new(),
        cycles: Vec::new(),
        atom: vec![FALSE; p.atoms.len()],
        role_moves: (0..p.roles.len() as u32)
            .map(|r| {
                let node = |r| 1 + p.fluents.len() as u32 + p.moves.partition_point(|m| m.0 < r) as u32;
                node(r)..node(r + 1)
            })
            .collect(),
    };
    let edges: Vec<Vec<usize>> = (0..p.atoms.len())
        .map(|a| {
            let rules = p.rules_of[a].iter().flat_map(|&r| p.body_of(r));
            rules.filter_map(|&(_, at)| if let Atom::Derived(d) = at { Some(d as usize) } else { None }).collect()
        })
        .collect();
    for comp in crate::deps::sccs(p.atoms.len(), |v, i| edges[v].get(i).copied()) {
        if comp.len() == 1 && !edges[comp[0]].contains(&comp[0]) {
            b.atom[comp[0]] = b.atom_or(comp[0] as u32);
        } else {
            b.cyclic(&comp)?;
        }
    }
    let output = |b: &Builder, o: Option<u32>| o.map_or(FALSE, |a| b.atom[a as usize]);
    let terminal = output(&b, p.terminal);
    let legal = p.legal.iter().map(|&a| output(&b, a)).collect();
    let goals = p.goals.iter().map(|g| g.iter().map(|&(_, a)| b.atom[a as usize]).collect()).collect();
    let sees = p.sees.iter().flatten().map(|s| s.iter().map(|&(_, a)| b.atom[a as usize]).collect()).collect();
    let mut updates = Vec::with_capacity(p.fluents.len());
    let mut frames = Vec::with_capacity(p.fluents.len());
    let mut labels = Vec::with_capacity(p.fluents.len());
    for (f, fix) in fixed.iter().enumerate() {
        let (keep, gain) = frame(&mut b, f);
        frames.push((keep, gain));
        let (label, update) = match fix {
            Some(_) => (Label::Permanent, Update { keep: TRUE, gain: FALSE }),
            None if opt.persist && keep == TRUE => (Label::Persistent, Update { keep, gain }),
            None if opt.persist && keep == FALSE => (Label::Ephemeral, Update { keep, gain }),
            None if opt.frame => (Label::Plain, Update { keep, gain }),
            None => (Label::Plain, Update { keep: FALSE, gain: output(&b, p.next[f]) }),
        };
        updates.push(update);
        labels.push(label);
    }
    let built =
        Built { leaves, gates: b.gates, cycles: b.cycles, terminal, legal, goals, sees, updates, labels, rounds: 1 };
    Ok((built, frames))
}

/// `(keep, gain)` of fluent `f`: its frame rules without `(true f)`, and its other rules.
fn frame(b: &mut Builder, f: usize) -> (Lit, Lit) {
    let Some(next) = b.p.next[f] else { return (FALSE, FALSE) };
    let me = (false, Atom::Fluent(f as u32));
    let (mut keep, mut gain) = (Vec::new(), Vec::new());
    for &r in &b.p.rules_of[next as usize] {
        if b.p.body_of(r).contains(&me) {
            keep.push(b.rule(r, Some(me)));
        } else {
            gain.push(b.rule(r, None));
        }
    }
    (b.or(keep), b.or(gain))
}

/// Compiles the program; with `persist`, repeats while new permanent fluents appear: a
/// fluent that holds initially and whose `keep` is true, or that does not hold initially and
/// whose `gain` is false, never changes.
pub fn compile(p: &Program, opt: Opt) -> Result<Built, String> {
    let mut fixed: Vec<Option<bool>> = vec![None; p.fluents.len()];
    let mut rounds = 1;
    loop {
        let (mut built, frames) = round(p, opt, &fixed)?;
        let mut more = false;
        if opt.persist {
            for (f, &(keep, gain)) in frames.iter().enumerate() {
                if fixed[f].is_none() && ((p.init[f] && keep == TRUE) || (!p.init[f] && gain == FALSE)) {
                    fixed[f] = Some(p.init[f]);
                    more = true;
                }
            }
        }
        if !more {
            built.rounds = rounds;
            return Ok(built);
        }
        rounds += 1;
    }
}
