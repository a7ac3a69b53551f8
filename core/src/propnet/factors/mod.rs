//! Factoring (Cox, Schkufza, Madsen, Genesereth 2009): the independent subgames of a game,
//! found on its ground program. Fluents and moves are linked when one's `next` or `legal`
//! rules read the other (through derived atoms); the factors are the connected components.
//!
//! Bookkeeping is set apart first, as the paper does: the largest set of fluents whose
//! `next` reads no move and only fluents of the set (the control fluent, a step counter)
//! runs like a clock whatever is played, so every factor may read it without linking them.
//! Derived atoms that read only bookkeeping do not link either. A move that changes and
//! reads nothing outside the bookkeeping (`noop`) belongs to no factor: it is *free*.
//! `terminal` and `goal` are not links: they combine the factors, and `Combination` says
//! how (one factor, a disjunction, a conjunction, or mixed).
//!
//! Invariant (soundness): the `next` of a factor's fluent and the `legal` of a factor's
//! move read only that factor's fluents and moves and the bookkeeping; the bookkeeping's
//! `next` reads only the bookkeeping.

use super::read::{Atom, Program};
use crate::ground::Ground;
pub use crate::machine::factors::{Combination, Factor, Factors, GoalCombination, RoleMove};

/// Union-find over node numbers.
struct Sets(Vec<u32>);

impl Sets {
    fn find(&mut self, mut x: u32) -> u32 {
        while self.0[x as usize] != x {
            let up = self.0[self.0[x as usize] as usize];
            self.0[x as usize] = up;
            x = up;
        }
        x
    }

    fn union(&mut self, a: u32, b: u32) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.0[a.max(b) as usize] = a.min(b);
        }
    }
}

/// The factors of the game `text` describes, or why there are none to find, in words.
pub fn of_text(text: &str) -> Result<Factors, String> {
    let loaded = crate::load(text, Default::default())
        .map_err(|_| "the rules have errors: fix them to see the game's factors".to_string())?;
    let g = crate::ground::ground(&loaded.description, Default::default(), &|| 0.0, &mut |_| {})
        .map_err(|d| format!("the game does not ground, so its factors are not found: {}", d.message))?;
    Ok(factors(&g))
}

/// The factors of a ground program.
pub fn factors(g: &Ground) -> Factors {
    of_program(&Program::read(g))
}

/// The factors of a ground program read into numbers.
pub(super) fn of_program(p: &Program) -> Factors {
    let (nf, nm, na) = (p.fluents.len(), p.moves.len(), p.atoms.len());
    let (bookkeeping, impure) = bookkeeping(p);
    // Nodes: fluents, then moves, then derived atoms.
    let node = |a: &Atom| match *a {
        Atom::Fluent(f) => (!bookkeeping[f as usize]).then_some(f),
        Atom::Move(m) => Some(nf as u32 + m),
        Atom::Derived(d) => impure[d as usize].then_some((nf + nm) as u32 + d),
        Atom::Never => None,
    };
    let mut sets = Sets((0..(nf + nm + na) as u32).collect());
    // The atoms `next` and `legal` read, and only those: terminal and goals do not link.
    let mut needed = vec![false; na];
    let mut stack: Vec<u32> = Vec::new();
    for (f, next) in p.next.iter().enumerate() {
        if let (Some(a), false) = (next, bookkeeping[f]) {
            sets.union(f as u32, (nf + nm) as u32 + a);
            stack.push(*a);
        }
    }
    for (m, legal) in p.legal.iter().enumerate() {
        if let Some(a) = legal.filter(|&a| impure[a as usize]) {
            sets.union((nf + m) as u32, (nf + nm) as u32 + a);
            stack.push(a);
        }
    }
    while let Some(a) = stack.pop() {
        if std::mem::replace(&mut needed[a as usize], true) || !impure[a as usize] {
            continue;
        }
        for &r in &p.rules_of[a as usize] {
            for (_, b) in p.body_of(r) {
                if let Some(n) = node(b) {
                    sets.union((nf + nm) as u32 + a, n);
                }
                if let Atom::Derived(d) = b {
                    stack.push(*d);
                }
            }
        }
    }
    // Components with a fluent are factors; moves outside them are free.
    let mut index = rustc_hash::FxHashMap::default();
    let mut component = vec![None; nf];
    for f in (0..nf).filter(|&f| !bookkeeping[f]) {
        let next = index.len();
        component[f] = Some(*index.entry(sets.find(f as u32)).or_insert(next));
    }
    let move_component: Vec<Option<usize>> = (0..nm).map(|m| index.get(&sets.find((nf + m) as u32)).copied()).collect();
    // Components that terminal or a goal reads in a mixed way (a line across cells that
    // change apart) are one subgame: merge them until every combination is simple.
    let mut factor_of = component.clone();
    loop {
        let mut combine = Combiner { p, factor_of: &factor_of, memo: vec![None; na], merges: Vec::new() };
        combine.outputs();
        if combine.merges.is_empty() {
            break;
        }
        let mut merged = Sets((0..index.len() as u32).collect());
        for v in &combine.merges {
            v.windows(2).for_each(|w| merged.union(w[0] as u32, w[1] as u32));
        }
        factor_of = factor_of.iter().map(|k| k.map(|k| merged.find(k as u32) as usize)).collect();
    }
    let mut parts: Vec<Factor> = Vec::new();
    let mut number = rustc_hash::FxHashMap::default();
    let mut part = |k: usize, parts: &mut Vec<Factor>| {
        *number.entry(k).or_insert_with(|| {
            parts.push(Factor {
                moves: Vec::new(),
                fluents: Vec::new(),
                move_numbers: Vec::new(),
                fluent_bits: Vec::new(),
            });
            parts.len() - 1
        })
    };
    // The factor of each component: that of its first fluent.
    let mut of_component = vec![0; index.len()];
    for f in 0..nf {
        if let (Some(c), Some(k)) = (component[f], factor_of[f]) {
            let i = part(k, &mut parts);
            of_component[c] = i;
            parts[i].fluent_bits.push(f as u32);
        }
    }
    let store = p.store;
    let role_move = |m: usize| RoleMove {
        role: store.text(p.roles[p.moves[m].0 as usize]).to_string(),
        text: store.text(p.moves[m].1).to_string(),
    };
    let mut free_moves = Vec::new();
    for (m, c) in move_component.iter().enumerate() {
        match c {
            Some(c) => parts[of_component[*c]].move_numbers.push(m as u32),
            None => free_moves.push(role_move(m)),
        }
    }
    // Largest first.
    parts.sort_by_key(|f| (std::cmp::Reverse((f.fluent_bits.len(), f.move_numbers.len())), f.fluent_bits[0]));
    let mut factor_of = vec![None; nf];
    for (k, part) in parts.iter_mut().enumerate() {
        part.fluent_bits.iter().for_each(|&f| factor_of[f as usize] = Some(k));
        part.fluents = part.fluent_bits.iter().map(|&f| store.text(p.fluents[f as usize]).to_string()).collect();
        part.moves = part.move_numbers.iter().map(|&m| role_move(m as usize)).collect();
    }
    let mut combine = Combiner { p, factor_of: &factor_of, memo: vec![None; na], merges: Vec::new() };
    let (terminal, goals) = combine.outputs();
    let relevant = Factors::read_by(&terminal, &goals);
    Factors {
        factors: parts,
        bookkeeping: (0..nf).filter(|&f| bookkeeping[f]).map(|f| store.text(p.fluents[f]).to_string()).collect(),
        free_moves,
        terminal,
        goals,
        relevant,
    }
}

/// The bookkeeping fluents, and per derived atom whether it is *impure*: reads (through
/// its rules) a move or a fluent outside the bookkeeping. The bookkeeping is the largest set
/// of fluents whose `next` is pure; its complement is found in one pass up from the moves.
fn bookkeeping(p: &Program) -> (Vec<bool>, Vec<bool>) {
    let (nf, na) = (p.fluents.len(), p.atoms.len());
    let mut atom_readers: Vec<Vec<u32>> = vec![Vec::new(); na];
    let mut fluent_readers: Vec<Vec<u32>> = vec![Vec::new(); nf];
    let mut stack = Vec::new();
    for (a, rules) in p.rules_of.iter().enumerate() {
        for &r in rules {
            for (_, b) in p.body_of(r) {
                match *b {
                    Atom::Move(_) => stack.push(a as u32),
                    Atom::Fluent(f) => fluent_readers[f as usize].push(a as u32),
                    Atom::Derived(d) => atom_readers[d as usize].push(a as u32),
                    Atom::Never => {}
                }
            }
        }
    }
    let mut next_of = vec![None; na];
    p.next.iter().enumerate().for_each(|(f, a)| a.iter().for_each(|&a| next_of[a as usize] = Some(f)));
    let (mut kept, mut impure) = (vec![true; nf], vec![false; na]);
    while let Some(a) = stack.pop() {
        if std::mem::replace(&mut impure[a as usize], true) {
            continue;
        }
        stack.extend(&atom_readers[a as usize]);
        if let Some(f) = next_of[a as usize].filter(|&f| kept[f]) {
            kept[f] = false;
            stack.extend(&fluent_readers[f]);
        }
    }
    (kept, impure)
}

/// Classifies derived atoms by how they read the factors.
struct Combiner<'p> {
    p: &'p Program<'p>,
    factor_of: &'p [Option<usize>],
    /// Factors read in a mixed way, to merge (each is then counted as its first).
    merges: Vec<Vec<usize>>,
    /// `Some(None)`: being classified (a recursive atom reads its factors in a mixed way).
    memo: Vec<Option<Option<Combination>>>,
}

/// The factors of several combinations together, sorted.
fn union_of<'a>(parts: impl Iterator<Item = &'a Combination>) -> Vec<usize> {
    let mut v: Vec<usize> = parts.flat_map(Combination::factors).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// One factor or none, when `factors` has at most one.
fn single(factors: &[usize]) -> Option<Combination> {
    match factors {
        [] => Some(Combination::Bookkeeping),
        [k] => Some(Combination::One(*k)),
        _ => None,
    }
}

impl Combiner<'_> {
    /// How terminal and each goal read the factors.
    fn outputs(&mut self) -> (Combination, Vec<GoalCombination>) {
        let (p, store) = (self.p, self.p.store);
        let terminal = p.terminal.map_or(Combination::Bookkeeping, |t| self.atom(t));
        let mut goals = Vec::new();
        for (r, values) in p.goals.iter().enumerate() {
            for (value, a) in values {
                goals.push(GoalCombination {
                    role: store.text(p.roles[r]).to_string(),
                    value: crate::solve::goal_text(value),
                    combination: self.atom(*a),
                });
            }
        }
        (terminal, goals)
    }

    fn atom(&mut self, a: u32) -> Combination {
        match &self.memo[a as usize] {
            Some(Some(c)) => return c.clone(),
            Some(None) => return Combination::Mixed(Vec::new()),
            None => {}
        }
        self.memo[a as usize] = Some(None);
        let rules: Vec<Combination> = self.p.rules_of[a as usize].clone().into_iter().map(|r| self.rule(r)).collect();
        let all = union_of(rules.iter());
        let c = single(&all).unwrap_or_else(|| {
            if rules.iter().all(|r| matches!(r, Combination::Bookkeeping | Combination::One(_) | Combination::Any(_))) {
                Combination::Any(all)
            } else if let [only] = rules.as_slice() {
                only.clone()
            } else {
                Combination::Mixed(all)
            }
        });
        let c = match c {
            Combination::Mixed(v) if v.len() > 1 => {
                self.merges.push(v.clone());
                Combination::One(v[0])
            }
            c => c,
        };
        self.memo[a as usize] = Some(Some(c.clone()));
        c
    }

    fn rule(&mut self, r: u32) -> Combination {
        let literals: Vec<(bool, Combination)> = self
            .p
            .body_of(r)
            .iter()
            .map(|&(negated, b)| {
                let c = match b {
                    Atom::Fluent(f) => self.factor_of[f as usize].map_or(Combination::Bookkeeping, Combination::One),
                    Atom::Derived(d) => self.atom(d),
                    Atom::Move(_) | Atom::Never => Combination::Bookkeeping,
                };
                (negated, c)
            })
            .collect();
        let all = union_of(literals.iter().map(|(_, c)| c));
        let reading: Vec<&(bool, Combination)> =
            literals.iter().filter(|(_, c)| *c != Combination::Bookkeeping).collect();
        if let [(negated, c)] = reading.as_slice() {
            // One literal reads factors: the rule is that literal (negated: the dual).
            return match (negated, c) {
                (true, Combination::Any(v)) => Combination::All(v.clone()),
                (true, Combination::All(v)) => Combination::Any(v.clone()),
                (_, c) => c.clone(),
            };
        }
        single(&all).unwrap_or_else(|| {
            // A conjunction of parts each in one factor, or of conjunctions (a negated
            // disjunction is a conjunction of negations).
            let conjunctive = literals.iter().all(|(negated, c)| match c {
                Combination::Bookkeeping | Combination::One(_) => true,
                Combination::All(_) => !negated,
                Combination::Any(_) => *negated,
                Combination::Mixed(_) => false,
            });
            if conjunctive {
                Combination::All(all)
            } else {
                Combination::Mixed(all)
            }
        })
    }
}

#[cfg(test)]
mod tests;
