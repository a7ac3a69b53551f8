//! Tabled top-down evaluation: the state-dependent relations are answered on demand, only
//! for the arguments a rule asks about, as a Prolog reasoner with tabling does; static
//! relations, `true` and `does` are read from the relation stores.
//!
//! A call is a relation with some arguments given; its answers go to a table, so no call is
//! evaluated twice in one state. A rule is compiled once per relation and set of given
//! arguments (`compile_call`: its body ordered with their variables bound). Recursion: a
//! call reaching a table still being evaluated reads the answers found so far; the oldest
//! such table of a group (its leader) evaluates the whole group again until no table gets a
//! new answer, then marks it complete (strongly connected components of calls). `not`
//! waits for a complete table, which stratification guarantees: a negated call never
//! reaches a table still being evaluated.
//!
//! Tables of relations depending on `does` are dropped when the joint move changes. The
//! others outlive their state (incremental tabling): a table records what it read (the
//! `true` facts by index key, and the tables it joined), and a new state keeps it while
//! none of that changed, so a ply computes again only what its move touched (a chess ray
//! walk far from the move is not walked again).

use super::compile::{compile_call, KeySrc, Lit, Pat, Plan, RelId, Step};
use super::eval::{build, match_pat, same, UNBOUND};
use super::relaxed::Relaxed;
use super::sizes::VALUES_GUESS;
use super::store::{KeyHasher, RelStore, NONE};
use super::{Phase, Query, Reasoner};
use crate::program::NRule;
use crate::term::{SymId, TermId, TermStore};
use hashbrown::HashTable;
use rustc_hash::FxHashMap;
use std::ops::Range;
use std::rc::Rc;

/// Calls evaluated inside one another at most (deeper recursion falls back to bottom-up
/// evaluation: the native and the browser's stacks must not overflow).
const MAX_NESTING: usize = 200;
/// What creating a table costs, in join steps (hashing the call, allocating the table),
/// what running a rule for a call costs once its head matches, and what a new answer
/// costs (building its terms, adding it to the table). Measured against join steps over
/// the corpus, so that `adapt` compares top-down and bottom-up work in one unit.
const TABLE_COST: u64 = 7;
const RULE_COST: u64 = 5;
const ANSWER_COST: u64 = 11;

/// A cleared table that held more answers than this is not reused.
const REUSED_ANSWERS: u32 = 1024;

/// Tables of relations depending on `does` carry this bit in their reference.
const MOVE_TABLE: u32 = 1 << 31;

/// State tables kept across states at most, and answers found since the last fresh start
/// (a bound on the answers kept): past either, a new state starts afresh.
const KEPT_TABLES: usize = 4096;
const KEPT_ANSWERS: u64 = 1 << 18;
/// States between two checks that keeping tables pays, counted from an eighth of it.
const KEEP_WINDOW: u32 = 256;
/// The work keeping tables must save, as a share of the work done, to go on.
const KEEP_SHARE: f64 = 0.18;

/// What a state table read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Read {
    /// The `true` facts under one key of one index.
    Key(u16, u64),
    /// The answers of a state table.
    Table(u32),
}

/// The answers to one call.
struct Table {
    rel: RelId,
    /// Where the call's arguments (`UNBOUND` where not given) start in `Tables::keys`.
    key: usize,
    answers: RelStore,
    complete: bool,
    /// Position on the stack of incomplete tables.
    depth: usize,
    /// The state (`Tabled::epoch`) it was evaluated in, the last state it was found to hold
    /// in, and whether it can hold in a later one (false once found stale, or if it read
    /// every `true` fact or belongs to a recursive group).
    made: u32,
    checked: u32,
    reusable: bool,
    reads: Vec<Read>,
    /// The work evaluating it took, sub-calls included (what keeping it saves).
    work: u64,
}

impl Table {
    fn new(rel: RelId, key: usize, arity: usize, depth: usize, made: u32) -> Table {
        let answers = RelStore::new(arity);
        let reads = Vec::new();
        Table { rel, key, answers, complete: false, depth, made, checked: made, reusable: true, reads, work: 0 }
    }

    /// Empties the table for its call to be evaluated again.
    fn restart(&mut self, depth: usize, made: u32) {
        if self.answers.len() > REUSED_ANSWERS {
            // A big table's memory is freed (clearing would cost its capacity each time).
            self.answers = RelStore::new(self.answers.arity);
        } else {
            self.answers.clear();
        }
        (self.complete, self.depth, self.made, self.checked, self.reusable) = (false, depth, made, made, true);
        self.reads.clear();
        self.work = 0;
    }
}

/// The tables of one phase. Cleared tables are kept and reused with their memory: a
/// playout creates and drops thousands of tables per state, and allocating each showed
/// as a quarter of the time in the profiles.
#[derive(Default)]
struct Tables {
    /// The table of each call, hashed by relation and arguments.
    index: HashTable<u32>,
    /// The tables in use, then cleared ones.
    tables: Vec<Table>,
    live: usize,
    /// The arguments of every call, one after another.
    keys: Vec<TermId>,
}

impl Tables {
    fn clear(&mut self) {
        // Clearing costs the index's capacity: after one costly state, cheap ones would pay
        // for it every time.
        if self.live * 4 < self.index.capacity() {
            self.index = HashTable::with_capacity(self.live);
        } else {
            self.index.clear();
        }
        self.live = 0;
        self.keys.clear();
    }

    fn key(&self, t: &Table) -> &[TermId] {
        &self.keys[t.key..t.key + t.answers.arity]
    }

    /// The table of a call, if there is one.
    fn find(&self, hash: u64, rel: RelId, key: &[TermId]) -> Option<u32> {
        self.index
            .find(hash, |&i| {
                let t = &self.tables[i as usize];
                t.rel == rel && self.key(t) == key
            })
            .copied()
    }

    /// A new, empty table for a call.
    fn add(&mut self, hash: u64, rel: RelId, key: &[TermId], depth: usize, made: u32) -> u32 {
        let i = self.live;
        let at = self.keys.len();
        self.keys.extend_from_slice(key);
        match self.tables.get_mut(i) {
            Some(t) => {
                t.restart(depth, made);
                (t.rel, t.key, t.answers.arity) = (rel, at, key.len());
            }
            None => self.tables.push(Table::new(rel, at, key.len(), depth, made)),
        }
        self.live += 1;
        let (tables, keys) = (&self.tables, &self.keys);
        self.index.insert_unique(hash, i as u32, |&j| {
            let t = &tables[j as usize];
            call_hash(t.rel, &keys[t.key..t.key + t.answers.arity])
        });
        i as u32
    }
}

fn call_hash(rel: RelId, key: &[TermId]) -> u64 {
    let mut h = KeyHasher::new();
    h.add(rel);
    for &k in key {
        h.add(k);
    }
    h.finish()
}

/// A limit was reached (join steps, time, facts of a table, term depth, nesting): the
/// reasoner answers the query bottom-up instead, which reports its own limits.
#[derive(Debug)]
pub struct Fail;

/// What a step tells the step before it after a solution.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flow {
    Go,
    /// A solution was found: the steps after this one could only derive the same answer.
    Cut(usize),
    /// The rule has no more answers to give (its head was complete before the body ran).
    Done,
}

/// Where a join reads its tuples.
#[derive(Clone, Copy)]
enum Source {
    /// The answers of a table.
    Table(u32),
    /// The facts of a store along an index chain.
    Chain(u16),
    /// Every fact of a store.
    Scan,
}

/// The top-down evaluator of a reasoner.
pub struct Tabled {
    /// The queries answered in the current state (and move), by `Query` number.
    pub answered: [bool; 5],
    /// Relations answered top-down.
    top_down: Vec<bool>,
    /// What refuses the calls no state can answer.
    pub(super) relaxed: Relaxed,
    /// Relations whose tables the joint move invalidates.
    on_moves: Vec<bool>,
    rules: Vec<Vec<NRule>>,
    /// Compiled rules per relation and given arguments (bit `i`: argument `i`).
    plans: FxHashMap<(RelId, u64), Rc<[Plan]>>,
    state: Tables,
    moves: Tables,
    /// Incomplete tables, oldest first.
    stack: Vec<u32>,
    /// Calls being evaluated inside one another.
    nesting: usize,
    /// The lowest stack position the current evaluation read an incomplete table at.
    low: usize,
    /// Answers found so far (a leader repeats its group until this stops changing).
    found: u64,
    bind: Vec<TermId>,
    trail: Vec<u16>,
    /// The arguments of calls and answers being built, one after another.
    args: Vec<TermId>,
    /// Steps since the clock was last read.
    ticks: u64,
    r_true: RelId,
    /// The number of the state the state tables were evaluated in, and of the last state
    /// each key of each index of `true` changed in.
    epoch: u32,
    changed: Changes,
    answers: u64,
    /// Whether tables outlive their state: from `keep` on (not while `adapt` compares
    /// programs: the work it saves is not time saved alike in every game), until a check
    /// finds it does not pay (`pays`), e.g. in a game whose every state differs in a fact
    /// every relation reads. Counted since the first states: states, the work the tables
    /// kept saved, what keeping cost (reads checked, changes noted), the work done.
    kept: bool,
    states: u32,
    saved: u64,
    cost: u64,
    done: u64,
}

/// The last state each key of each index of `true` changed in, as far as it can tell: keys
/// share a slot by their hash, and a slot holds the last change of any of its keys, so a key
/// may read as changed later than it did (its tables are evaluated again), never earlier.
#[derive(Default)]
pub(super) struct Changes {
    slots: Vec<u32>,
}

/// Slots of `Changes` (a power of two).
const CHANGE_SLOTS: usize = 1 << 14;

impl Changes {
    fn slot((ix, key): (u16, u64)) -> usize {
        let h = (key ^ u64::from(ix)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> (64 - CHANGE_SLOTS.trailing_zeros())) as usize
    }

    pub(super) fn note(&mut self, key: (u16, u64), epoch: u32) {
        if self.slots.is_empty() {
            self.slots = vec![0; CHANGE_SLOTS];
        }
        self.slots[Self::slot(key)] = epoch;
    }

    pub(super) fn last(&self, key: (u16, u64)) -> u32 {
        self.slots.get(Self::slot(key)).copied().unwrap_or(0)
    }

    pub(super) fn clear(&mut self) {
        self.slots.fill(0);
    }
}

/// Join steps between two readings of the clock.
const CLOCK_EVERY: u64 = 1 << 14;

impl Tabled {
    /// The evaluator for the reasoner's rules: every relation that depends on the state is
    /// answered top-down.
    pub fn new(r: &mut Reasoner, rules: &[NRule]) -> Tabled {
        let n = r.facts.len();
        let mut phase = vec![Phase::Static; n];
        for comp in &r.comps {
            for &rel in &comp.rels {
                phase[rel as usize] = comp.phase;
            }
        }
        let top_down: Vec<bool> =
            (0..n).map(|i| phase[i] != Phase::Static && i as RelId != r.r_true && i as RelId != r.r_does).collect();
        let mut by_rel = vec![Vec::new(); n];
        for rule in rules {
            if let Some(rel) = r.rels.get(rule.head.name().expect("named"), rule.head.args().len()) {
                if top_down[rel as usize] {
                    by_rel[rel as usize].push(rule.clone());
                }
            }
        }
        Tabled {
            relaxed: r.relax(rules, &top_down),
            answered: [false; 5],
            on_moves: phase.iter().map(|&p| p == Phase::Move).collect(),
            top_down,
            rules: by_rel,
            plans: FxHashMap::default(),
            state: Tables::default(),
            moves: Tables::default(),
            stack: Vec::new(),
            nesting: 0,
            low: usize::MAX,
            found: 0,
            bind: Vec::new(),
            trail: Vec::new(),
            args: Vec::new(),
            ticks: 0,
            r_true: r.r_true,
            epoch: 0,
            changed: Changes::default(),
            answers: 0,
            kept: false,
            states: 0,
            saved: 0,
            cost: 0,
            done: 0,
        }
    }

    /// Whether `rel` is answered top-down (it depends on the state).
    pub fn answers(&self, rel: RelId) -> bool {
        self.top_down[rel as usize]
    }

    /// Forgets the tables of the joint move, and with `State` the queries answered (the
    /// state tables stay until `set_state` says what changed).
    pub fn reset(&mut self, phase: Phase) {
        self.moves.clear();
        self.answered[Query::Next as usize] = false;
        self.answered[Query::Sees as usize] = false;
        if phase == Phase::State {
            self.answered = [false; 5];
        }
    }

    /// The state changed by `changes` (facts that left or entered it) from the one the state
    /// tables were evaluated in, its facts loaded into `trues`: notes which keys of `true`'s
    /// indexes changed, so that the tables which read them are evaluated again.
    pub fn set_state(&mut self, changes: impl Iterator<Item = (TermId, bool)>, trues: &RelStore, store: &TermStore) {
        if !self.kept {
            self.state.clear();
            return;
        }
        self.states = self.states.wrapping_add(1);
        if self.states == KEEP_WINDOW / 8 {
            // The first states have nothing to keep: they are not counted.
            (self.saved, self.cost, self.done) = (0, 0, 0);
        } else if self.states % KEEP_WINDOW == KEEP_WINDOW / 8 && !self.pays() {
            (self.kept, self.changed) = (false, Changes::default());
            self.forget();
            return;
        }
        if self.state.live > KEPT_TABLES || self.answers > KEPT_ANSWERS || self.epoch == u32::MAX {
            self.forget();
            return;
        }
        let mut bumped = false;
        for (fact, _) in changes {
            if !bumped {
                self.epoch += 1;
                bumped = true;
            }
            for key in trues.keys(&[fact], store) {
                self.changed.note(key, self.epoch);
                self.cost += 1;
            }
        }
    }

    /// Whether tables outlive their state.
    #[cfg(test)]
    pub fn keeps(&self) -> bool {
        self.kept
    }

    /// Whether keeping tables paid so far: it saved at least 1.5 times what it cost, and at
    /// least `KEEP_SHARE` of the work done. Work units are not time alike in every game, and
    /// where keeping saves a smaller share the time it saves is lost (kept against not kept:
    /// factoringGeorgeForman saves 0.14, 0.92x; amazons 0.11, 0.86x; merrills 0.23, 1.18x;
    /// chess 0.41, 1.12x).
    fn pays(&self) -> bool {
        2 * self.saved >= 3 * self.cost && self.saved as f64 >= KEEP_SHARE * self.done as f64
    }

    /// Keeps tables across states from now on.
    pub fn keep(&mut self) {
        // The tables so far noted nothing they read.
        self.forget();
        (self.kept, self.states, self.saved, self.cost, self.done) = (true, 0, 0, 0, 0);
    }

    /// Drops every state table (and with them every state number they hold).
    pub fn forget(&mut self) {
        self.state.clear();
        self.changed.clear();
        (self.epoch, self.answers) = (0, 0);
    }

    /// Whether state table `t`, complete, still holds: nothing it read (`true` facts,
    /// other tables) changed since it was evaluated. Found stale, it is marked so.
    fn holds(&mut self, t: u32, depth: usize) -> bool {
        let table = &self.state.tables[t as usize];
        if table.checked == self.epoch {
            return true;
        }
        if !table.reusable || depth > MAX_NESTING {
            return false;
        }
        let made = table.made;
        for k in 0..table.reads.len() {
            self.cost += 1;
            let holds = match self.state.tables[t as usize].reads[k] {
                Read::Key(ix, key) => self.changed.last((ix, key)) <= made,
                Read::Table(u) => self.state.tables[u as usize].made <= made && self.holds(u, depth + 1),
            };
            if !holds {
                self.state.tables[t as usize].reusable = false;
                return false;
            }
        }
        self.state.tables[t as usize].checked = self.epoch;
        true
    }

    /// Notes that state table `out` read `what` (move tables are dropped with the move).
    fn read(&mut self, out: u32, what: Read) {
        if self.kept && out & MOVE_TABLE == 0 {
            let reads = &mut self.state.tables[out as usize].reads;
            if reads.last() != Some(&what) {
                reads.push(what);
            }
        }
    }

    /// Answers `rel` with its first argument `first` (`UNBOUND`: free) and the others free.
    pub fn answer(&mut self, r: &mut Reasoner, rel: RelId, first: TermId) -> Result<&RelStore, Fail> {
        self.stack.clear();
        self.bind.clear();
        self.trail.clear();
        self.nesting = 0;
        self.args.clear();
        self.args.resize(r.rels.keys[rel as usize].1, UNBOUND);
        if let Some(a) = self.args.first_mut() {
            *a = first;
        }
        let started = r.work.wrapping_sub(r.budget);
        let solved = self.solve(r, rel, 0..self.args.len());
        self.done += r.work.wrapping_sub(r.budget).wrapping_sub(started);
        let (t, _) = solved?;
        Ok(&self.table(t).answers)
    }

    fn table(&self, t: u32) -> &Table {
        table_of(&self.state, &self.moves, t)
    }

    fn table_mut(&mut self, t: u32) -> &mut Table {
        table_mut_of(&mut self.state, &mut self.moves, t)
    }

    /// The table of a call (its arguments at `key` in `args`), evaluated (complete, or
    /// part of a group a caller leads), and the lowest stack position it read an incomplete
    /// table at (`usize::MAX`: complete).
    fn solve(&mut self, r: &mut Reasoner, rel: RelId, key: Range<usize>) -> Result<(u32, usize), Fail> {
        let on_moves = self.on_moves[rel as usize];
        let tag = if on_moves { MOVE_TABLE } else { 0 };
        let tables = if on_moves { &self.moves } else { &self.state };
        let hash = call_hash(rel, &self.args[key.clone()]);
        let found = tables.find(hash, rel, &self.args[key.clone()]);
        if let Some(i) = found {
            let t = &tables.tables[i as usize];
            if !t.complete {
                return Ok((i | tag, t.depth));
            }
            if on_moves || t.made == self.epoch {
                return Ok((i | tag, usize::MAX));
            }
            // What a kept table saves counts once a state (as a table evaluated in it would).
            let first_check = t.checked != self.epoch;
            if self.holds(i, 0) {
                if first_check {
                    self.saved += self.state.tables[i as usize].work;
                }
                return Ok((i | tag, usize::MAX));
            }
        }
        if self.nesting >= MAX_NESTING {
            return Err(Fail);
        }
        let depth = self.stack.len();
        let i = match found {
            Some(i) => {
                self.state.tables[i as usize].restart(depth, self.epoch);
                i
            }
            None => {
                let tables = if on_moves { &mut self.moves } else { &mut self.state };
                tables.add(hash, rel, &self.args[key], depth, self.epoch)
            }
        };
        let t = i | tag;
        // Join steps are counted into `r.work` when the query ends: the budget spent counts them.
        let started = r.work.wrapping_sub(r.budget);
        r.work += TABLE_COST;
        self.stack.push(t);
        self.nesting += 1;
        let result = self.lead(r, t, depth);
        self.nesting -= 1;
        let low = result?;
        if low < depth {
            return Ok((t, low));
        }
        // A recursive group's tables read one another: they are not kept past this state.
        let group = self.stack.len() - depth > 1;
        for k in depth..self.stack.len() {
            let u = self.stack[k];
            let table = self.table_mut(u);
            table.complete = true;
            table.reusable &= !group;
        }
        if self.kept {
            self.table_mut(t).work = r.work.wrapping_sub(r.budget).wrapping_sub(started);
        }
        self.stack.truncate(depth);
        Ok((t, usize::MAX))
    }

    /// Evaluates a new table at stack position `depth`, and if it leads a group, the group
    /// until nothing changes. Returns the lowest stack position read below the group.
    fn lead(&mut self, r: &mut Reasoner, t: u32, depth: usize) -> Result<usize, Fail> {
        let mut low = self.evaluate(r, t)?;
        if low != depth {
            return Ok(low);
        }
        loop {
            let before = self.found;
            let mut k = depth;
            while k < self.stack.len() {
                let u = self.stack[k];
                low = low.min(self.evaluate(r, u)?);
                k += 1;
            }
            if low < depth || self.found == before {
                return Ok(low);
            }
        }
    }

    /// Runs every rule of table `t`'s relation once for its call. Returns the lowest stack
    /// position of an incomplete table it read.
    fn evaluate(&mut self, r: &mut Reasoner, t: u32) -> Result<usize, Fail> {
        let (rel, arity, given) = {
            let key = key_of(&self.state, &self.moves, t);
            (self.table(t).rel, key.len(), given_mask(key))
        };
        let plans = self.plans(r, rel, given, arity);
        let all_given = given.count_ones() as usize == arity;
        let outer = std::mem::replace(&mut self.low, usize::MAX);
        let mut result = Ok(());
        for plan in plans.iter() {
            // Matching a rule's head is a join step, whether or not the rule applies.
            result = self.spend(r);
            if result.is_err() {
                break;
            }
            let base = self.bind.len();
            self.bind.resize(base + plan.slots, UNBOUND);
            let mark = self.trail.len();
            let key = key_of(&self.state, &self.moves, t);
            let (bind, trail) = (&mut self.bind[base..], &mut self.trail);
            let applies = plan.head.iter().zip(key).all(|(p, &k)| {
                k == UNBOUND
                    || match p {
                        // The head's bindings last as long as the rule: none is undone alone.
                        Pat::Var(v) => {
                            let b = &mut bind[*v as usize];
                            let free = *b == UNBOUND;
                            if free {
                                *b = k;
                            }
                            free || *b == k
                        }
                        _ => match_pat(&r.store, bind, trail, p, k),
                    }
            });
            if applies {
                r.work += RULE_COST;
                result = self.step(r, plan, 0, base, t).map(drop);
            }
            self.trail.truncate(mark);
            self.bind.truncate(base);
            if result.is_err() || (all_given && !self.table(t).answers.is_empty()) {
                break;
            }
        }
        let low = std::mem::replace(&mut self.low, outer);
        result.map(|()| low)
    }

    /// The rules of `rel` compiled for the arguments `given` gives (bit `i`: argument `i`).
    fn plans(&mut self, r: &mut Reasoner, rel: RelId, given: u64, arity: usize) -> Rc<[Plan]> {
        if let Some(p) = self.plans.get(&(rel, given)) {
            return p.clone();
        }
        let mask = given;
        let given: Vec<bool> = (0..arity).map(|i| i < 64 && given & 1 << i != 0).collect();
        let (sizes, top_down) = (&r.sizes, &self.top_down);
        // A call costs what it computes, which grows with every argument it does not give.
        let estimate = |rel: RelId, args: &[Pat], bound: &[bool]| match top_down[rel as usize] {
            true => match args.iter().filter(|a| !is_ground(a, bound)).count() {
                0 => 0.5,
                free => VALUES_GUESS.powi(free as i32),
            },
            false => sizes.estimate(rel, args, bound),
        };
        let plans: Rc<[Plan]> = self.rules[rel as usize]
            .iter()
            .map(|rule| {
                compile_call(rule, &given, &mut r.store, &mut r.rels, &mut r.facts, &estimate, r.domains.as_ref())
                    .expect("the rule compiled when the game loaded")
            })
            .collect();
        self.plans.insert((rel, mask), plans.clone());
        plans
    }

    /// Takes one join step from the budget.
    fn spend(&mut self, r: &mut Reasoner) -> Result<(), Fail> {
        if r.budget == 0 {
            return Err(Fail);
        }
        r.budget -= 1;
        self.ticks += 1;
        if self.ticks.is_multiple_of(CLOCK_EVERY) && r.deadline.is_some_and(|d| d.passed()) {
            return Err(Fail);
        }
        Ok(())
    }

    fn step(&mut self, r: &mut Reasoner, plan: &Plan, k: usize, base: usize, out: u32) -> Result<Flow, Fail> {
        let Some(step) = plan.steps.get(k) else { return self.emit(r, plan, base, out) };
        match step {
            Step::Join(lit) | Step::Delta(lit) => self.join(r, plan, k, lit, base, out),
            Step::Neg(lit) => {
                if self.exists(r, lit, base, out)? {
                    Ok(Flow::Go)
                } else {
                    self.step(r, plan, k + 1, base, out)
                }
            }
            Step::Distinct(a, b) => {
                if same(&r.store, &self.bind[base..], a, b) {
                    Ok(Flow::Go)
                } else {
                    self.step(r, plan, k + 1, base, out)
                }
            }
            Step::Same(a, b) => {
                if same(&r.store, &self.bind[base..], a, b) {
                    self.step(r, plan, k + 1, base, out)
                } else {
                    Ok(Flow::Go)
                }
            }
        }
    }

    /// What the step after `k` reported tells step `k`: stop (and pass it on) or go on.
    fn stops(flow: Flow, k: usize) -> bool {
        match flow {
            Flow::Go => false,
            Flow::Cut(c) => k > c,
            Flow::Done => true,
        }
    }

    /// Joins with the answers of a call (relations answered top-down) or with the facts of
    /// a store (through an index chain, or all of them).
    fn join(
        &mut self,
        r: &mut Reasoner,
        plan: &Plan,
        k: usize,
        lit: &Lit,
        base: usize,
        out: u32,
    ) -> Result<Flow, Fail> {
        let rel = lit.rel as usize;
        let (source, mut f) = match &lit.index {
            _ if self.top_down[rel] => match self.call(r, lit, base, out)? {
                Some(t) => (Source::Table(t), 0),
                None => return Ok(Flow::Go),
            },
            Some((ix, _)) => (Source::Chain(*ix), self.first_fact(r, lit, base, out)),
            None => (Source::Scan, self.first_fact(r, lit, base, out)),
        };
        let mark = self.trail.len();
        loop {
            let tuples = match source {
                Source::Table(t) => answers_of(&self.state, &self.moves, t),
                _ => &r.facts[rel],
            };
            if f == NONE || f >= tuples.len() {
                return Ok(Flow::Go);
            }
            let tuple = tuples.tuple(f);
            if match_pat_args(r, &mut self.bind[base..], &mut self.trail, &lit.args, tuple) {
                let flow = self.step(r, plan, k + 1, base, out);
                undo(&mut self.bind[base..], &mut self.trail, mark);
                let flow = flow?;
                if Self::stops(flow, k) {
                    return Ok(flow);
                }
            } else {
                undo(&mut self.bind[base..], &mut self.trail, mark);
            }
            self.spend(r)?;
            f = match source {
                Source::Chain(ix) => r.facts[rel].chain_next(ix, f),
                _ => f + 1,
            };
        }
    }

    /// Evaluates the call a literal makes under the bindings for table `out`; returns its
    /// table, or `None` when no state can answer it.
    fn call(&mut self, r: &mut Reasoner, lit: &Lit, base: usize, out: u32) -> Result<Option<u32>, Fail> {
        let start = self.args.len();
        for a in lit.args.iter() {
            let v = self.value(r, a, base)?;
            self.args.push(v);
        }
        if self.relaxed.refuses(r, lit.rel, &self.args[start..]) {
            self.args.truncate(start);
            return Ok(None);
        }
        let solved = self.solve(r, lit.rel, start..self.args.len());
        self.args.truncate(start);
        let (t, low) = solved?;
        self.low = self.low.min(low);
        if t & MOVE_TABLE == 0 {
            self.read(out, Read::Table(t));
        }
        Ok(Some(t))
    }

    /// The term a pattern stands for under the bindings, `UNBOUND` if not ground:
    /// variables and constants inline, compound patterns by `func_value`.
    #[inline(always)]
    fn value(&mut self, r: &mut Reasoner, p: &Pat, base: usize) -> Result<TermId, Fail> {
        Ok(match p {
            Pat::Const(c) => *c,
            Pat::Var(v) => self.bind[base + *v as usize],
            Pat::Func(sym, args) => self.func_value(r, *sym, args, base)?,
        })
    }

    fn func_value(&mut self, r: &mut Reasoner, sym: SymId, args: &[Pat], base: usize) -> Result<TermId, Fail> {
        let start = self.args.len();
        for a in args.iter() {
            match self.value(r, a, base) {
                Ok(v) if v != UNBOUND => self.args.push(v),
                other => {
                    self.args.truncate(start);
                    return other.map(|_| UNBOUND);
                }
            }
        }
        let id = r.store.intern(sym, &self.args[start..]).map_err(|_| Fail);
        self.args.truncate(start);
        id
    }

    /// The first fact of the store a literal reads: the head of its index chain, or 0 for a
    /// scan. Notes what table `out` read of `true`: the chain's key, or all of it (then the
    /// table cannot be kept).
    fn first_fact(&mut self, r: &Reasoner, lit: &Lit, base: usize, out: u32) -> u32 {
        let Some((ix, keys)) = &lit.index else {
            if lit.rel == self.r_true {
                self.table_mut(out).reusable = false;
            }
            return 0;
        };
        let key = self.key(keys, base);
        if lit.rel == self.r_true {
            self.read(out, Read::Key(*ix, key));
        }
        r.facts[lit.rel as usize].chain_start(*ix, key)
    }

    /// Does a fact or answer match the literal (its unbound variables match anything)?
    fn exists(&mut self, r: &mut Reasoner, lit: &Lit, base: usize, out: u32) -> Result<bool, Fail> {
        let mark = self.trail.len();
        let rel = lit.rel as usize;
        let mut found = false;
        if self.top_down[rel] {
            let Some(t) = self.call(r, lit, base, out)? else { return Ok(false) };
            debug_assert!(self.table(t).complete, "stratified: a negated call completes");
            for i in 0..self.table(t).answers.len() {
                let answers = answers_of(&self.state, &self.moves, t);
                found = match_pat_args(r, &mut self.bind[base..], &mut self.trail, &lit.args, answers.tuple(i));
                undo(&mut self.bind[base..], &mut self.trail, mark);
                if found {
                    break;
                }
            }
            return Ok(found);
        }
        let mut f = self.first_fact(r, lit, base, out);
        while f != NONE && f < r.facts[rel].len() && !found {
            self.spend(r)?;
            found = match_pat_args(r, &mut self.bind[base..], &mut self.trail, &lit.args, r.facts[rel].tuple(f));
            undo(&mut self.bind[base..], &mut self.trail, mark);
            f = match &lit.index {
                Some((ix, _)) => r.facts[rel].chain_next(*ix, f),
                None => f + 1,
            };
        }
        Ok(found)
    }

    fn key(&self, keys: &[KeySrc], base: usize) -> u64 {
        let mut h = KeyHasher::new();
        for k in keys {
            h.add(match *k {
                KeySrc::Const(c) => c,
                KeySrc::Var(v) => self.bind[base + v as usize],
            });
        }
        h.finish()
    }

    /// Adds the head built from the bindings to table `out`.
    fn emit(&mut self, r: &mut Reasoner, plan: &Plan, base: usize, out: u32) -> Result<Flow, Fail> {
        let start = self.args.len();
        for p in plan.head.iter() {
            match build(&mut r.store, &self.bind[base..], p) {
                Ok(v) => self.args.push(v),
                Err(_) => {
                    self.args.truncate(start);
                    return Err(Fail);
                }
            }
        }
        let table = table_mut_of(&mut self.state, &mut self.moves, out);
        let new = table.answers.insert(&self.args[start..], &r.store);
        let too_many = table.answers.len() as usize > r.limits.max_facts;
        self.args.truncate(start);
        if new {
            if too_many {
                return Err(Fail);
            }
            self.found += 1;
            self.answers += u64::from(out & MOVE_TABLE == 0);
            r.work += ANSWER_COST;
        }
        Ok(if plan.head_slots.is_empty() { Flow::Done } else { Flow::Cut(plan.head_ready) })
    }
}

/// Is the pattern ground once the `bound` slots are?
fn is_ground(p: &Pat, bound: &[bool]) -> bool {
    match p {
        Pat::Var(v) => bound[*v as usize],
        Pat::Const(_) => true,
        Pat::Func(_, args) => args.iter().all(|a| is_ground(a, bound)),
    }
}

/// Table `t` (a free function: callers hold the bindings mutably while they read it).
fn table_of<'a>(state: &'a Tables, moves: &'a Tables, t: u32) -> &'a Table {
    if t & MOVE_TABLE != 0 {
        &moves.tables[(t & !MOVE_TABLE) as usize]
    } else {
        &state.tables[t as usize]
    }
}

fn table_mut_of<'a>(state: &'a mut Tables, moves: &'a mut Tables, t: u32) -> &'a mut Table {
    if t & MOVE_TABLE != 0 {
        &mut moves.tables[(t & !MOVE_TABLE) as usize]
    } else {
        &mut state.tables[t as usize]
    }
}

/// The arguments of table `t`'s call.
fn key_of<'a>(state: &'a Tables, moves: &'a Tables, t: u32) -> &'a [TermId] {
    let tables = if t & MOVE_TABLE != 0 { moves } else { state };
    tables.key(table_of(state, moves, t))
}

/// The arguments a call gives (bit `i`: argument `i`, the first 64).
fn given_mask(key: &[TermId]) -> u64 {
    key.iter().take(64).enumerate().filter(|(_, &k)| k != UNBOUND).fold(0, |m, (i, _)| m | 1 << i)
}

/// The answers of table `t`.
fn answers_of<'a>(state: &'a Tables, moves: &'a Tables, t: u32) -> &'a RelStore {
    &table_of(state, moves, t).answers
}

#[inline(always)]
fn match_pat_args(r: &Reasoner, bind: &mut [TermId], trail: &mut Vec<u16>, pats: &[Pat], tuple: &[TermId]) -> bool {
    pats.iter().zip(tuple).all(|(p, &t)| match_pat(&r.store, bind, trail, p, t))
}

fn undo(bind: &mut [TermId], trail: &mut Vec<u16>, mark: usize) {
    for v in trail.drain(mark..) {
        bind[v as usize] = UNBOUND;
    }
}
