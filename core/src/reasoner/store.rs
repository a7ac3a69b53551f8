//! Fact storage for one relation: tuples of term ids in one flat vector, a set for
//! duplicates, and hash indexes on chosen argument paths.
//!
//! An index is described by a signature: guards (this sub-term has functor f/n) and key
//! paths (the ids found there are hashed). A fact enters an index only if it passes the
//! guards; facts with the same key hash are chained, newest first, through `next`.
//! Invariant: `next` of every index has exactly one entry per stored fact.

use crate::term::{SymId, TermId, TermStore};
use hashbrown::HashTable;
use rustc_hash::{FxHashMap, FxHasher};
use std::hash::Hasher;

pub const NONE: u32 = u32::MAX;

/// One node of an index signature, in pre-order over the pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SigNode {
    /// The sub-term at `path` must be `sym` with `arity` arguments.
    Guard { path: Box<[u8]>, sym: SymId, arity: u16 },
    /// The id of the sub-term at `path` is part of the key.
    Key { path: Box<[u8]> },
}

#[derive(Debug)]
pub struct Index {
    pub sig: Vec<SigNode>,
    heads: FxHashMap<u64, u32>,
    next: Vec<u32>,
}

impl Index {
    /// Makes the link that reaches fact `from` in the chain of `key` reach `to` instead
    /// (`NONE`: the chain skips `from`).
    fn relink(&mut self, key: u64, from: u32, to: u32) {
        let head = self.heads.get_mut(&key).expect("a stored fact is in its chain");
        if *head == from {
            if to == NONE {
                self.heads.remove(&key);
            } else {
                *head = to;
            }
            return;
        }
        let mut p = *head;
        while self.next[p as usize] != from {
            p = self.next[p as usize];
        }
        self.next[p as usize] = to;
    }
}

#[derive(Debug)]
pub struct RelStore {
    pub arity: usize,
    data: Vec<TermId>,
    len: u32,
    dedup: HashTable<u32>,
    pub indexes: Vec<Index>,
}

fn hash_tuple(t: &[TermId]) -> u64 {
    let mut h = FxHasher::default();
    for &x in t {
        h.write_u32(x);
    }
    h.finish()
}

#[inline]
fn walk(store: &TermStore, tuple: &[TermId], path: &[u8]) -> TermId {
    let mut t = tuple[path[0] as usize];
    for &i in &path[1..] {
        t = store.args(t)[i as usize];
    }
    t
}

impl RelStore {
    pub fn new(arity: usize) -> RelStore {
        RelStore { arity, data: Vec::new(), len: 0, dedup: HashTable::new(), indexes: Vec::new() }
    }

    /// Registers an index signature, returning its number (shared if already present).
    /// Facts already stored are indexed at once.
    pub fn add_index(&mut self, sig: Vec<SigNode>, store: &TermStore) -> u16 {
        if let Some(i) = self.indexes.iter().position(|x| x.sig == sig) {
            return i as u16;
        }
        let mut index = Index { sig, heads: FxHashMap::default(), next: Vec::new() };
        for id in 0..self.len {
            let link = match fact_key(&index.sig, store, self.tuple(id)) {
                Some(k) => index.heads.insert(k, id).unwrap_or(NONE),
                None => NONE,
            };
            index.next.push(link);
        }
        self.indexes.push(index);
        (self.indexes.len() - 1) as u16
    }

    #[inline]
    pub fn len(&self) -> u32 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn tuple(&self, i: u32) -> &[TermId] {
        let a = self.arity;
        &self.data[i as usize * a..i as usize * a + a]
    }

    /// Adds a fact; false if it was there already.
    pub fn insert(&mut self, tuple: &[TermId], store: &TermStore) -> bool {
        debug_assert_eq!(tuple.len(), self.arity);
        let h = hash_tuple(tuple);
        let a = self.arity;
        let data = &self.data;
        if self.dedup.find(h, |&i| &data[i as usize * a..i as usize * a + a] == tuple).is_some() {
            return false;
        }
        let id = self.len;
        self.data.extend_from_slice(tuple);
        self.len += 1;
        let data = &self.data;
        self.dedup.insert_unique(h, id, |&i| hash_tuple(&data[i as usize * a..i as usize * a + a]));
        for index in &mut self.indexes {
            let link = match fact_key(&index.sig, store, tuple) {
                Some(k) => index.heads.insert(k, id).unwrap_or(NONE),
                None => NONE,
            };
            index.next.push(link);
        }
        true
    }

    /// Removes a fact, the last fact taking its number; false if it was not there. The
    /// chains of a key then no longer run newest-first: only for a relation no round of a
    /// recursive component reads by its newest facts (`true`, changed state to state).
    pub fn remove(&mut self, tuple: &[TermId], store: &TermStore) -> bool {
        let a = self.arity;
        let data = &self.data;
        let Ok(entry) =
            self.dedup.find_entry(hash_tuple(tuple), |&i| &data[i as usize * a..i as usize * a + a] == tuple)
        else {
            return false;
        };
        let id = entry.remove().0;
        let last = self.len - 1;
        for index in &mut self.indexes {
            if let Some(k) = fact_key(&index.sig, store, tuple) {
                index.relink(k, id, index.next[id as usize]);
            }
        }
        if id != last {
            let moved = last as usize * a..last as usize * a + a;
            for index in &mut self.indexes {
                if let Some(k) = fact_key(&index.sig, store, &self.data[moved.clone()]) {
                    index.relink(k, last, id);
                }
                index.next[id as usize] = index.next[last as usize];
            }
            let h = hash_tuple(&self.data[moved.clone()]);
            *self.dedup.find_mut(h, |&i| i == last).expect("every fact is in the set") = id;
            self.data.copy_within(moved, id as usize * a);
        }
        self.data.truncate(last as usize * a);
        self.len = last;
        for index in &mut self.indexes {
            index.next.pop();
        }
        true
    }

    /// Removes every fact and returns how many there were and the facts, flat (fact `i` is
    /// `arity` ids at `i * arity`), freeing the relation's memory.
    pub fn take(&mut self) -> (usize, Vec<TermId>) {
        let taken = (self.len as usize, std::mem::take(&mut self.data));
        *self = RelStore::new(self.arity);
        taken
    }

    /// Removes every fact, keeping allocated memory.
    pub fn clear(&mut self) {
        self.data.clear();
        self.len = 0;
        self.dedup.clear();
        for index in &mut self.indexes {
            index.heads.clear();
            index.next.clear();
        }
    }

    /// The key hash of a fact in each index it enters, with the index's number.
    pub fn keys<'a>(&'a self, tuple: &'a [TermId], store: &'a TermStore) -> impl Iterator<Item = (u16, u64)> + 'a {
        let indexes = self.indexes.iter().enumerate();
        indexes.filter_map(move |(i, index)| Some((i as u16, fact_key(&index.sig, store, tuple)?)))
    }

    /// The newest fact whose key hashes to `key` in index `ix` (NONE if none).
    #[inline]
    pub fn chain_start(&self, ix: u16, key: u64) -> u32 {
        self.indexes[ix as usize].heads.get(&key).copied().unwrap_or(NONE)
    }

    /// The next (older) fact in the same chain.
    #[inline]
    pub fn chain_next(&self, ix: u16, fact: u32) -> u32 {
        self.indexes[ix as usize].next[fact as usize]
    }
}

/// The key hash of a fact for an index, or `None` if a guard fails.
fn fact_key(sig: &[SigNode], store: &TermStore, tuple: &[TermId]) -> Option<u64> {
    let mut h = FxHasher::default();
    for node in sig {
        match node {
            SigNode::Guard { path, sym, arity } => {
                let t = walk(store, tuple, path);
                if store.sym(t) != *sym || store.args(t).len() != *arity as usize {
                    return None;
                }
            }
            SigNode::Key { path } => h.write_u32(walk(store, tuple, path)),
        }
    }
    Some(h.finish())
}

/// Builds the same hash as `fact_key` from key values given in order.
pub struct KeyHasher(FxHasher);

impl KeyHasher {
    #[inline]
    pub fn new() -> KeyHasher {
        KeyHasher(FxHasher::default())
    }
    #[inline]
    pub fn add(&mut self, t: TermId) {
        self.0.write_u32(t)
    }
    #[inline]
    pub fn finish(&self) -> u64 {
        self.0.finish()
    }
}

impl Default for KeyHasher {
    fn default() -> Self {
        KeyHasher::new()
    }
}
