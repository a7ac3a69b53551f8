//! Interned ground terms: every distinct ground term gets one `TermId`, so that equality is
//! an integer comparison and facts are tuples of integers.
//!
//! Invariant: a term's arguments are interned before the term itself, so ids of arguments
//! are smaller than the id of the term; the depth of every term is at most `max_depth`.

use hashbrown::HashTable;
use rustc_hash::FxHasher;
use std::cell::OnceCell;
use std::hash::Hasher;

pub type TermId = u32;
pub type SymId = u32;

#[derive(Clone, Copy, Debug)]
struct TermData {
    sym: SymId,
    args_start: u32,
    arity: u16,
    depth: u16,
}

/// The term store: symbols and ground terms, interned.
#[derive(Debug)]
pub struct TermStore {
    symbols: Vec<Box<str>>,
    symbol_table: HashTable<SymId>,
    terms: Vec<TermData>,
    args: Vec<TermId>,
    term_table: HashTable<TermId>,
    text: Vec<OnceCell<Box<str>>>,
    /// Deeper terms are refused (infinitely growing terms stop here).
    pub max_depth: u16,
}

impl Default for TermStore {
    fn default() -> Self {
        TermStore {
            symbols: Vec::new(),
            symbol_table: HashTable::new(),
            terms: Vec::new(),
            args: Vec::new(),
            term_table: HashTable::new(),
            text: Vec::new(),
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

/// Default limit on the nesting depth of terms built by rules.
pub const DEFAULT_MAX_DEPTH: u16 = 64;

fn hash_str(s: &str) -> u64 {
    let mut h = FxHasher::default();
    h.write(s.as_bytes());
    h.finish()
}

fn hash_term(sym: SymId, args: &[TermId]) -> u64 {
    let mut h = FxHasher::default();
    h.write_u32(sym);
    for &a in args {
        h.write_u32(a);
    }
    h.finish()
}

/// A term would be deeper than the store's limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooDeep(pub u16);

impl TermStore {
    pub fn with_max_depth(max_depth: u16) -> TermStore {
        TermStore { max_depth, ..TermStore::default() }
    }

    pub fn symbol(&mut self, name: &str) -> SymId {
        let symbols = &self.symbols;
        let h = hash_str(name);
        if let Some(&id) = self.symbol_table.find(h, |&id| &*symbols[id as usize] == name) {
            return id;
        }
        let id = self.symbols.len() as SymId;
        self.symbols.push(name.into());
        let symbols = &self.symbols;
        self.symbol_table.insert_unique(h, id, |&id| hash_str(&symbols[id as usize]));
        id
    }

    pub fn find_symbol(&self, name: &str) -> Option<SymId> {
        self.symbol_table.find(hash_str(name), |&id| &*self.symbols[id as usize] == name).copied()
    }

    pub fn symbol_count(&self) -> usize {
        self.symbols.len()
    }

    pub fn symbol_name(&self, s: SymId) -> &str {
        &self.symbols[s as usize]
    }

    /// Interns `sym(args)` (a constant when `args` is empty).
    pub fn intern(&mut self, sym: SymId, args: &[TermId]) -> Result<TermId, TooDeep> {
        let h = hash_term(sym, args);
        if let Some(id) = self.lookup_hashed(h, sym, args) {
            return Ok(id);
        }
        let depth = args.iter().map(|&a| self.terms[a as usize].depth + 1).max().unwrap_or(0);
        if depth > self.max_depth {
            return Err(TooDeep(self.max_depth));
        }
        let id = self.terms.len() as TermId;
        self.terms.push(TermData { sym, args_start: self.args.len() as u32, arity: args.len() as u16, depth });
        self.args.extend_from_slice(args);
        self.text.push(OnceCell::new());
        let (terms, all_args) = (&self.terms, &self.args);
        self.term_table.insert_unique(h, id, |&t| {
            let d = terms[t as usize];
            hash_term(d.sym, &all_args[d.args_start as usize..d.args_start as usize + d.arity as usize])
        });
        Ok(id)
    }

    /// Interns a sentence `sym(args)` (an atom such as `(true (cell 1 b))`): the depth
    /// limit is for terms built by rules, not for the sentences made of them.
    pub fn intern_atom(&mut self, sym: SymId, args: &[TermId]) -> TermId {
        let max = std::mem::replace(&mut self.max_depth, u16::MAX);
        let t = self.intern(sym, args);
        self.max_depth = max;
        t.expect("no depth limit")
    }

    /// The id of `sym(args)` if it was interned already.
    pub fn lookup(&self, sym: SymId, args: &[TermId]) -> Option<TermId> {
        self.lookup_hashed(hash_term(sym, args), sym, args)
    }

    fn lookup_hashed(&self, h: u64, sym: SymId, args: &[TermId]) -> Option<TermId> {
        self.term_table.find(h, |&t| self.sym(t) == sym && self.args(t) == args).copied()
    }

    pub fn constant(&mut self, name: &str) -> TermId {
        let s = self.symbol(name);
        self.intern(s, &[]).expect("a constant has depth 0")
    }

    #[inline]
    pub fn sym(&self, t: TermId) -> SymId {
        self.terms[t as usize].sym
    }

    #[inline]
    pub fn args(&self, t: TermId) -> &[TermId] {
        let d = self.terms[t as usize];
        &self.args[d.args_start as usize..d.args_start as usize + d.arity as usize]
    }

    pub fn len(&self) -> usize {
        self.terms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// Canonical text (trace format): lower-case prefix KIF, `(f a b)`; cached.
    pub fn text(&self, t: TermId) -> &str {
        self.text[t as usize].get_or_init(|| {
            let mut s = String::new();
            self.write_text(t, &mut s);
            s.into()
        })
    }

    fn write_text(&self, t: TermId, out: &mut String) {
        let args = self.args(t);
        if args.is_empty() {
            out.push_str(self.symbol_name(self.sym(t)));
        } else {
            out.push('(');
            out.push_str(self.symbol_name(self.sym(t)));
            for &a in args {
                out.push(' ');
                out.push_str(self.text(a));
            }
            out.push(')');
        }
    }

    /// The integer value of a constant such as `100`, if it is one.
    pub fn as_int(&self, t: TermId) -> Option<i64> {
        if self.args(t).is_empty() {
            self.symbol_name(self.sym(t)).parse().ok()
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_is_unique_and_text_is_canonical() {
        let mut s = TermStore::default();
        let cell = s.symbol("cell");
        let one = s.constant("1");
        let b = s.constant("b");
        let t1 = s.intern(cell, &[one, one, b]).unwrap();
        let t2 = s.intern(cell, &[one, one, b]).unwrap();
        assert_eq!(t1, t2);
        assert_eq!(s.text(t1), "(cell 1 1 b)");
        assert_eq!(s.lookup(cell, &[one, b, b]), None);
        assert_eq!(s.as_int(one), Some(1));
    }

    #[test]
    fn depth_limit_stops_growing_terms() {
        let mut s = TermStore::with_max_depth(3);
        let f = s.symbol("f");
        let mut t = s.constant("z");
        for _ in 0..3 {
            t = s.intern(f, &[t]).unwrap();
        }
        assert_eq!(s.intern(f, &[t]), Err(TooDeep(3)));
    }
}
