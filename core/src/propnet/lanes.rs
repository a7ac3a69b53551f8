//! Bit-parallel playouts: 64 random playouts advance together, one bit per playout (a
//! *lane*) in every node's word, so that one sweep over the gates evaluates 64 states.
//!
//! Each playout draws its moves from its own generator exactly as `Propnet::playout` does
//! (per step and role, `below(n)` among the sorted legal moves), and playout `j` of a batch
//! is seeded with the `j`-th draw of the caller's generator (`machine::playout::playout_rng`), so a
//! batch gives the same playouts as running them one after another, whichever lane runs
//! which. A lane whose playout ends starts the next one from the initial state.
//!
//! Per step: the state words go into the fluent leaves; the `LEGAL` and `NEXT` segments
//! are swept (and `GOAL` when some lane is terminal); each role's move is chosen in every
//! lane (`choose`: word-wise for a role with few moves, lane by lane over the transposed
//! legal-move words for one with many); the chosen moves go into the move leaves, `MOVE` is
//! evaluated (`Plan`), and the next state is `(state & keep) | gain`, word by word.

use super::compile::Lit;
use super::layout::{Network, Run, COUNT, GOAL, LEGAL, MOVE, NEXT, OR};
use super::Propnet;
use crate::machine::playout::{playout_rng, Goals, Outcome};
use crate::machine::{GoalValue, Result};
use crate::rng::Rng;

pub(super) const LANES: usize = 64;

/// Buffers of a batch, kept between batches.
#[derive(Clone)]
pub struct Lanes {
    /// Per node, one bit per lane: its word, then its complement (see `lit`).
    val: Vec<u64>,
    /// Per fluent, one bit per lane.
    state: Vec<u64>,
    /// Per fluent, all ones when it holds initially.
    init: Vec<u64>,
    /// The role being chosen's legal moves, one bit set per lane: the bits of moves
    /// `64 b..64 (b + 1)` of lane `i` are word `i * blocks + b` (`choose_transposed`).
    by_lane: Vec<u64>,
    /// Per lane: the generator and the number of its playout.
    rng: [Rng; LANES],
    index: [usize; LANES],
    plan: Option<Plan>,
    /// The outcomes met so far, by the goal literals that hold (as bits, when there are at
    /// most 64): most playouts end in one of a few, reported with the same `Goals`.
    ends: Vec<(u64, Outcome)>,
}

/// How the lanes evaluate the `MOVE` segment. Gates whose inputs are all negated moves
/// ("no move among these": the frame conditions of board games, often with hundreds of
/// inputs) are computed from the moves chosen, each clearing its lanes in the gates that
/// read it; the other gates are swept (`runs`).
#[derive(Clone)]
struct Plan {
    runs: Vec<Run>,
    /// The gates computed from the moves (nodes).
    sparse: Vec<u32>,
    /// Per move, the sparse gates it clears: `readers[start[m]..start[m + 1]]` (nodes).
    start: Vec<u32>,
    readers: Vec<u32>,
}

impl Plan {
    fn new(net: &Network, first_move: u32) -> Plan {
        let leaves = net.leaves;
        let moves = (leaves - first_move) as usize;
        let mut runs = Vec::new();
        let mut sparse = Vec::new();
        let mut readers = vec![Vec::new(); moves];
        for run in &net.segments[MOVE] {
            if run.cyclic {
                runs.push(run.clone());
                continue;
            }
            let mut from = run.gates.start;
            for g in run.gates.clone() {
                let at = net.start[g as usize] as usize;
                let header = net.code[at];
                let inputs = &net.code[at + 1..at + 1 + (header & COUNT) as usize];
                let negated_move = |l: &u32| l & 1 == 1 && (first_move..leaves).contains(&(l >> 1));
                if header & OR != 0 || inputs.is_empty() || !inputs.iter().all(negated_move) {
                    continue;
                }
                if from < g {
                    runs.push(Run { gates: from..g, cyclic: false });
                }
                from = g + 1;
                sparse.push(leaves + g);
                for &l in inputs {
                    readers[((l >> 1) - first_move) as usize].push(leaves + g);
                }
            }
            if from < run.gates.end {
                runs.push(Run { gates: from..run.gates.end, cyclic: false });
            }
        }
        let mut start = vec![0];
        let mut flat = Vec::new();
        for r in readers {
            flat.extend(r);
            start.push(flat.len() as u32);
        }
        Plan { runs, sparse, start, readers: flat }
    }

    /// Computes the sparse gates from the move leaves.
    fn apply(&self, val: &mut [u64], first_move: usize) {
        for &g in &self.sparse {
            set(val, g as usize, !0);
        }
        for m in 0..self.start.len() - 1 {
            let chosen = val[2 * (first_move + m)];
            if chosen != 0 {
                for &g in &self.readers[self.start[m] as usize..self.start[m + 1] as usize] {
                    let now = val[2 * g as usize] & !chosen;
                    set(val, g as usize, now);
                }
            }
        }
    }
}

impl Default for Lanes {
    fn default() -> Lanes {
        Lanes {
            val: Vec::new(),
            state: Vec::new(),
            init: Vec::new(),
            by_lane: Vec::new(),
            rng: std::array::from_fn(|_| Rng::new(0)),
            index: [0; LANES],
            plan: None,
            ends: Vec::new(),
        }
    }
}

/// The words of literal `l` (`node << 1 | negated`): `val` holds each node's word and its
/// complement side by side, so a literal is read with one load.
#[inline(always)]
fn lit(val: &[u64], l: Lit) -> u64 {
    val[l as usize]
}

#[inline(always)]
fn set(val: &mut [u64], node: usize, v: u64) {
    val[2 * node] = v;
    val[2 * node + 1] = !v;
}

/// Small counters of the 64 lanes, bit-sliced, `W` bits each: bit `b` of lane `i`'s
/// number is bit `i` of word `b`. With `W` known the words stay in registers and every
/// operation is a fixed run of instructions, without a loop to exit.
#[derive(Clone, Copy)]
struct Sliced<const W: usize>([u64; W]);

impl<const W: usize> Sliced<W> {
    const ZERO: Sliced<W> = Sliced([0; W]);

    /// Adds 1 in the lanes of `carry` (whose numbers stay below `2^W`).
    #[inline(always)]
    fn add(&mut self, mut carry: u64) {
        for w in &mut self.0 {
            let next = *w & carry;
            *w ^= carry;
            carry = next;
        }
    }

    /// Subtracts 1 in the lanes of `borrow` (whose numbers are not 0).
    #[inline(always)]
    fn sub(&mut self, mut borrow: u64) {
        for w in &mut self.0 {
            let next = !*w & borrow;
            *w ^= borrow;
            borrow = next;
        }
    }

    /// The lanes whose number is not 0.
    #[inline(always)]
    fn nonzero(&self) -> u64 {
        self.0.iter().fold(0, |a, &w| a | w)
    }

    /// The lanes whose number is at least 2.
    #[inline(always)]
    fn above_one(&self) -> u64 {
        self.0[1..].iter().fold(0, |a, &w| a | w)
    }

    #[cfg(any(test, target_arch = "wasm32"))]
    #[inline(always)]
    fn get(&self, lane: usize) -> u64 {
        (0..W).fold(0, |n, b| n | (self.0[b] >> lane & 1) << b)
    }

    /// Sets lane `lane`'s number (which is 0) to `n`.
    #[cfg(any(test, target_arch = "wasm32"))]
    #[inline(always)]
    fn put(&mut self, lane: usize, n: u64) {
        (0..W).for_each(|b| self.0[b] |= (n >> b & 1) << lane);
    }

    /// Every lane's number, one byte each: 8 lanes at a time, each word's byte spread
    /// to one bit per byte.
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    fn bytes(&self) -> [u8; LANES] {
        let mut out = [0u8; LANES];
        for (k, chunk) in out.chunks_exact_mut(8).enumerate() {
            let v = (0..W).fold(0u64, |a, b| a | SPREAD[(self.0[b] >> (8 * k)) as u8 as usize] << b);
            chunk.copy_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// The counters holding each lane's byte (below `2^W`): the inverse of `bytes`, 8
    /// lanes at a time, each bit of their bytes gathered into one byte by a multiplication.
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    fn from_bytes(bytes: &[u8; LANES]) -> Sliced<W> {
        let mut s = Sliced::<W>::ZERO;
        for (k, chunk) in bytes.chunks_exact(8).enumerate() {
            let v = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
            for (b, w) in s.0.iter_mut().enumerate() {
                let bits = (v >> b) & 0x0101_0101_0101_0101;
                *w |= (bits.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
            }
        }
        s
    }
}

/// Per byte, its bit `i` moved to bit `8 i` (the lowest bit of byte `i`).
#[cfg(not(target_arch = "wasm32"))]
static SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut x = 0;
    while x < 256 {
        let mut i = 0;
        while i < 8 {
            t[x] |= ((x as u64 >> i) & 1) << (8 * i);
            i += 1;
        }
        x += 1;
    }
    t
};

/// Transposes a 64 × 64 bit matrix, bit `j` of word `i` ↔ bit `i` of word `j`: the
/// off-diagonal halves swap, then the quarters within them, down to single bits.
#[inline(always)]
fn transpose(a: &mut [u64; LANES]) {
    swap_blocks::<32>(a, 0x0000_0000_ffff_ffff);
    swap_blocks::<16>(a, 0x0000_ffff_0000_ffff);
    swap_blocks::<8>(a, 0x00ff_00ff_00ff_00ff);
    swap_blocks::<4>(a, 0x0f0f_0f0f_0f0f_0f0f);
    swap_blocks::<2>(a, 0x3333_3333_3333_3333);
    swap_blocks::<1>(a, 0x5555_5555_5555_5555);
}

/// One step of `transpose`: in every pair of row groups `J` apart, the high `J`-bit
/// columns of the first group swap with the low ones of the second (`mask`: the low
/// columns). With `J` known the loops unroll and run on several words at once.
#[inline(always)]
fn swap_blocks<const J: usize>(a: &mut [u64; LANES], mask: u64) {
    for base in (0..LANES).step_by(2 * J) {
        for k in base..base + J {
            let t = ((a[k] >> J) ^ a[k + J]) & mask;
            a[k] ^= t << J;
            a[k + J] ^= t;
        }
    }
}

/// The position of the set bit of rank `rank` (from 0, lowest first) in `word`, which has
/// more set bits than `rank`: a binary search on the halves' counts, without branches.
#[inline(always)]
fn select(word: u64, mut rank: u32) -> usize {
    let mut at = 0;
    for width in [32, 16, 8, 4, 2, 1] {
        let low = (word >> at & ((1u64 << width) - 1)).count_ones();
        let past = rank >= low;
        rank -= if past { low } else { 0 };
        at += if past { width } else { 0 };
    }
    at
}

#[inline(always)]
fn sweep(val: &mut [u64], net: &Network, runs: &[Run]) {
    let leaves = net.leaves as usize;
    for run in runs {
        let (start, end) = (run.gates.start as usize, run.gates.end as usize);
        if run.cyclic {
            // Least fixpoint: from false, sweep until nothing changes (monotone gates).
            (leaves + start..leaves + end).for_each(|n| set(val, n, 0));
            while gates::<true>(val, net, start, end) {}
        } else {
            gates::<false>(val, net, start, end);
        }
    }
}

/// Evaluates gates `start..end` once, in order; whether any changed (when `CHANGED`).
/// Plain runs of AND gates with 2, 3 or 4 inputs go through a loop made for that number.
#[inline(always)]
fn gates<const CHANGED: bool>(val: &mut [u64], net: &Network, start: usize, end: usize) -> bool {
    if !CHANGED {
        match net.code[net.start[start] as usize] {
            2 => return and_gates::<2>(val, net, start, end),
            3 => return and_gates::<3>(val, net, start, end),
            4 => return and_gates::<4>(val, net, start, end),
            _ => {}
        }
    }
    any_gates::<CHANGED>(val, net, start, end)
}

/// Evaluates gates `start..end`, each an AND of `K` inputs.
#[inline(always)]
fn and_gates<const K: usize>(val: &mut [u64], net: &Network, start: usize, end: usize) -> bool {
    let leaves = net.leaves as usize;
    let at = net.start[start] as usize;
    let code = &net.code[at..at + (end - start) * (K + 1)];
    for (i, gate) in code.chunks_exact(K + 1).enumerate() {
        let v = (1..=K).fold(!0, |a, j| a & lit(val, gate[j]));
        set(val, leaves + start + i, v);
    }
    false
}

#[inline(always)]
fn any_gates<const CHANGED: bool>(val: &mut [u64], net: &Network, start: usize, end: usize) -> bool {
    let leaves = net.leaves as usize;
    let mut at = net.start[start] as usize;
    let mut changed = false;
    for g in start..end {
        let header = net.code[at];
        let inputs = &net.code[at + 1..at + 1 + (header & COUNT) as usize];
        let v = if header & OR != 0 {
            inputs.iter().fold(0, |a, &l| a | lit(val, l))
        } else {
            inputs.iter().fold(!0, |a, &l| a & lit(val, l))
        };
        if CHANGED {
            changed |= val[2 * (leaves + g)] != v;
        }
        set(val, leaves + g, v);
        at += 1 + inputs.len();
    }
    changed
}

impl Propnet {
    /// Runs `count` random playouts from `from`, 64 at a time (`StateMachine::playouts`,
    /// `playouts_from`), in the network's batch buffers.
    pub(super) fn run_lanes(
        &mut self,
        from: &[u64],
        rng: &mut Rng,
        count: usize,
        max_steps: usize,
        each: &mut dyn FnMut(usize, &Outcome),
    ) -> Result<()> {
        let mut l = std::mem::take(&mut self.lanes);
        let result = self.run_lanes_in(&mut l, from, rng, count, max_steps, each);
        self.lanes = l;
        result
    }

    fn run_lanes_in(
        &mut self,
        l: &mut Lanes,
        from: &[u64],
        rng: &mut Rng,
        count: usize,
        max_steps: usize,
        each: &mut dyn FnMut(usize, &Outcome),
    ) -> Result<()> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") && std::arch::is_x86_feature_detected!("bmi1") {
            // SAFETY: this processor has the instructions the copy is compiled for.
            return unsafe { self.run_lanes_x86(l, from, rng, count, max_steps, each) };
        }
        self.lanes_loop(l, from, rng, count, max_steps, each)
    }

    /// `lanes_loop` compiled with the bit-counting instructions (`count_ones`,
    /// `trailing_zeros`), which the baseline x86-64 target lacks; chosen at run time.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1")]
    unsafe fn run_lanes_x86(
        &mut self,
        l: &mut Lanes,
        from: &[u64],
        rng: &mut Rng,
        count: usize,
        max_steps: usize,
        each: &mut dyn FnMut(usize, &Outcome),
    ) -> Result<()> {
        self.lanes_loop(l, from, rng, count, max_steps, each)
    }

    #[inline(always)]
    fn lanes_loop(
        &mut self,
        l: &mut Lanes,
        from: &[u64],
        rng: &mut Rng,
        count: usize,
        max_steps: usize,
        each: &mut dyn FnMut(usize, &Outcome),
    ) -> Result<()> {
        let net = &self.net;
        let fluents = self.fluent_text.len();
        let first_move = 1 + fluents;
        l.val.clear();
        l.val.resize(2 * (net.leaves as usize + net.gates()), 0);
        set(&mut l.val, 0, 0);
        l.init.clear();
        l.init.extend((0..fluents).map(|f| u64::from(super::bit(from, f)).wrapping_neg()));
        l.state.clear();
        l.state.extend_from_slice(&l.init);
        // Steps taken by the batch; a lane's playout began at step `begun[lane]`.
        let mut step = 0;
        let mut begun = [0usize; LANES];
        let mut started = 0;
        let mut active = 0u64;
        for lane in 0..LANES.min(count) {
            l.rng[lane] = playout_rng(rng);
            l.index[lane] = started;
            started += 1;
            active |= 1 << lane;
        }
        // No lane can reach `max_steps` before this step.
        let mut first_cut = max_steps;
        let slots = net.slots;
        let cut_outcome = Outcome::cut(max_steps);
        let goal_lits: Vec<Lit> = net.goals.iter().flatten().copied().collect();
        // The last few playouts of a batch (fewer than `lanes_from`: each sweep would serve
        // too few) finish one at a time: their lanes, generators and steps so far.
        let tail = self.stats.lanes_from.unwrap_or(0);
        let mut rest: Vec<(usize, usize)> = Vec::new();
        while active != 0 {
            if started == count && (active.count_ones() as usize) < tail {
                rest.extend(lanes(active).map(|lane| (lane, step - begun[lane])));
                break;
            }
            for (f, &word) in l.state.iter().enumerate() {
                set(&mut l.val, 1 + f, word);
            }
            sweep(&mut l.val, net, &net.segments[LEGAL]);
            sweep(&mut l.val, net, &net.segments[NEXT]);
            let terminal = lit(&l.val, net.outputs[slots.terminal]) & active;
            if terminal != 0 {
                sweep(&mut l.val, net, &net.segments[GOAL]);
                for lane in lanes(terminal) {
                    let holds = goal_lits.iter().enumerate().map(|(i, &g)| (lit(&l.val, g) >> lane & 1) << (i & 63));
                    let key = holds.fold(0, |a, b| a | b);
                    let known = l.ends.iter().position(|e| e.0 == key && goal_lits.len() <= 64);
                    let i = known.unwrap_or_else(|| {
                        l.ends.truncate(16);
                        l.ends.push((key, Outcome::ended(0, Goals::new(self.lane_goals(&l.val, lane)))));
                        l.ends.len() - 1
                    });
                    l.ends[i].1.length = step - begun[lane];
                    each(l.index[lane], &l.ends[i].1);
                }
            }
            let mut cut = 0u64;
            if step >= first_cut {
                first_cut = usize::MAX;
                for lane in lanes(active & !terminal) {
                    if step - begun[lane] == max_steps {
                        cut |= 1 << lane;
                    } else {
                        first_cut = first_cut.min(begun[lane] + max_steps);
                    }
                }
                for lane in lanes(cut) {
                    each(l.index[lane], &cut_outcome);
                }
            }
            let mut moving = active & !terminal & !cut;
            (first_move..net.leaves as usize).for_each(|n| set(&mut l.val, n, 0));
            for r in 0..self.roles.len() {
                let stuck = self.choose(l, r, moving);
                for lane in lanes(stuck) {
                    each(l.index[lane], &Outcome::stuck(step - begun[lane], r));
                }
                moving &= !stuck;
            }
            let plan = l.plan.get_or_insert_with(|| Plan::new(net, first_move as u32));
            plan.apply(&mut l.val, first_move);
            sweep(&mut l.val, net, &plan.runs);
            step += 1;
            let mut restart = 0u64;
            for lane in lanes(active & !moving) {
                if started < count {
                    l.rng[lane] = playout_rng(rng);
                    l.index[lane] = started;
                    begun[lane] = step;
                    first_cut = first_cut.min(step + max_steps);
                    started += 1;
                    restart |= 1 << lane;
                } else {
                    active &= !(1 << lane);
                }
            }
            let (keep, gain) = (&net.outputs[slots.keep..], &net.outputs[slots.gain..]);
            for f in 0..fluents {
                let next = (l.state[f] & lit(&l.val, keep[f])) | lit(&l.val, gain[f]);
                l.state[f] = (next & !restart) | (l.init[f] & restart);
            }
        }
        for (lane, done) in rest {
            let mut state = vec![0u64; fluents.div_ceil(64)];
            for (f, &word) in l.state.iter().enumerate() {
                state[f >> 6] |= (word >> lane & 1) << (f & 63);
            }
            let mut o = self.playout_from(&state.into(), &mut l.rng[lane], max_steps - done)?;
            o.length += done;
            each(l.index[lane], &o);
        }
        Ok(())
    }

    /// Each lane of `moving` draws role `r`'s move among its legal ones and sets its bit;
    /// returns the lanes where the role has no legal move (their playouts stop there).
    /// Every lane draws as `Propnet::playout` does: the rank of its move among its legal
    /// ones, in the moves' order, and nothing for a forced move. A role with at most 64
    /// moves is chosen word-wise (`choose_sliced`); one with more, lane by lane
    /// (`choose_transposed`), whose cost grows with the moves only by one transposition
    /// per 64 of them.
    #[inline(always)]
    fn choose(&self, l: &mut Lanes, r: usize, moving: u64) -> u64 {
        if self.role_moves[r].len() <= LANES {
            self.choose_sliced(l, r, moving)
        } else {
            self.choose_transposed(l, r, moving)
        }
    }

    /// `choose`, word-wise, with counters as wide as the role's number of moves takes
    /// (at most 64: 7 bits).
    #[inline(always)]
    fn choose_sliced(&self, l: &mut Lanes, r: usize, moving: u64) -> u64 {
        match usize::BITS - self.role_moves[r].len().leading_zeros() {
            0 | 1 => self.choose_sliced_in::<1>(l, r, moving),
            2 => self.choose_sliced_in::<2>(l, r, moving),
            3 => self.choose_sliced_in::<3>(l, r, moving),
            4 => self.choose_sliced_in::<4>(l, r, moving),
            5 => self.choose_sliced_in::<5>(l, r, moving),
            6 => self.choose_sliced_in::<6>(l, r, moving),
            _ => self.choose_sliced_in::<7>(l, r, moving),
        }
    }

    /// `choose`, word-wise: the lanes' numbers of legal moves are counted in bit-sliced
    /// counters of `W` bits (`Sliced`); each lane with a choice draws its move's rank; then
    /// one pass over the moves gives every lane the legal move of that rank.
    #[inline(always)]
    fn choose_sliced_in<const W: usize>(&self, l: &mut Lanes, r: usize, moving: u64) -> u64 {
        let net = &self.net;
        let moves = self.role_moves[r].clone();
        let first = 1 + self.fluent_text.len() + moves.start as usize;
        let Lanes { val, rng, .. } = l;
        let legal = &net.outputs[net.slots.legal + moves.start as usize..][..moves.len()];
        // Per move, the lanes where it is legal.
        let mut rows = [0u64; LANES];
        let mut count = Sliced::<W>::ZERO;
        for (row, &g) in rows.iter_mut().zip(legal) {
            *row = lit(val, g) & moving;
            count.add(*row);
        }
        let rows = &rows[..legal.len()];
        let stuck = moving & !count.nonzero();
        // Natively the numbers are read and written 8 lanes at a time; V8 runs that form
        // 30% slower than a lane at a time (breakthrough too, which never reaches it;
        // why is not known: NOTEBOOK, propnet/), so wasm draws a lane at a time.
        #[cfg(not(target_arch = "wasm32"))]
        let mut rank = {
            let counts = count.bytes();
            let mut ranks = [0u8; LANES];
            for lane in lanes(count.above_one()) {
                ranks[lane] = rng[lane].below(counts[lane] as usize) as u8;
            }
            Sliced::<W>::from_bytes(&ranks)
        };
        #[cfg(target_arch = "wasm32")]
        let mut rank = {
            let mut rank = Sliced::<W>::ZERO;
            for lane in lanes(count.above_one()) {
                rank.put(lane, rng[lane].below(count.get(lane) as usize) as u64);
            }
            rank
        };
        let mut pending = moving & !stuck;
        // Without branches: which rows hold a lane's move depends on the lane's draw.
        for (i, &legal) in rows.iter().enumerate() {
            let here = legal & pending;
            let hit = here & !rank.nonzero();
            let now = val[2 * (first + i)] | hit;
            set(val, first + i, now);
            pending &= !hit;
            rank.sub(here & !hit);
        }
        stuck
    }

    /// `choose`, lane by lane: lanes with one legal move (or none) take it word-wise,
    /// drawing nothing; for the lanes with a choice, the legal-move words are transposed
    /// 64 moves at a time into one bit set per lane, where each lane counts its moves,
    /// draws its move's rank and finds it (`select`).
    #[inline(always)]
    fn choose_transposed(&self, l: &mut Lanes, r: usize, moving: u64) -> u64 {
        let net = &self.net;
        let moves = self.role_moves[r].clone();
        let first = 1 + self.fluent_text.len() + moves.start as usize;
        let legal = &net.outputs[net.slots.legal + moves.start as usize..][..moves.len()];
        let Lanes { by_lane, val, rng, .. } = l;
        // The lanes with some legal move, and those with two or more.
        let (mut some, mut choice) = (0u64, 0u64);
        for &g in legal {
            let row = lit(val, g) & moving;
            choice |= some & row;
            some |= row;
        }
        for (i, &g) in legal.iter().enumerate() {
            let forced = lit(val, g) & moving & !choice;
            if forced != 0 {
                val[2 * (first + i)] |= forced;
                val[2 * (first + i) + 1] &= !forced;
            }
        }
        if choice == 0 {
            return moving & !some;
        }
        let blocks = moves.len().div_ceil(LANES);
        by_lane.clear();
        by_lane.resize(LANES * blocks, 0);
        for (b, lits) in legal.chunks(LANES).enumerate() {
            let mut block = [0u64; LANES];
            let mut any = 0;
            for (row, &g) in block.iter_mut().zip(lits) {
                *row = lit(val, g) & choice;
                any |= *row;
            }
            if any != 0 {
                transpose(&mut block);
                for lane in lanes(any) {
                    by_lane[lane * blocks + b] = block[lane];
                }
            }
        }
        for lane in lanes(choice) {
            let words = &by_lane[lane * blocks..][..blocks];
            let count: u32 = words.iter().map(|w| w.count_ones()).sum();
            let mut rank = rng[lane].below(count as usize) as u32;
            let mut b = 0;
            while rank >= words[b].count_ones() {
                rank -= words[b].count_ones();
                b += 1;
            }
            let node = first + b * LANES + select(words[b], rank);
            val[2 * node] |= 1 << lane;
            val[2 * node + 1] &= !(1 << lane);
        }
        moving & !some
    }

    /// The goal values of every role in lane `lane` (after the `GOAL` sweep).
    fn lane_goals(&self, val: &[u64], lane: usize) -> Vec<Vec<GoalValue>> {
        let goals = self.net.goals.iter().zip(&self.goal_values);
        goals
            .map(|(lits, values)| {
                let holds = lits.iter().map(|&g| lit(val, g) >> lane & 1 != 0);
                holds.zip(values).filter(|(h, _)| *h).map(|(_, v)| v.clone()).collect()
            })
            .collect()
    }
}

/// The lanes whose bits are set, lowest first.
fn lanes(mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let lane = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            lane
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_finds_the_set_bit_of_each_rank() {
        let mut rng = Rng::new(5);
        for _ in 0..200 {
            let word = rng.next_u64() & rng.next_u64();
            let bits: Vec<usize> = (0..64).filter(|&b| word >> b & 1 != 0).collect();
            for (rank, &bit) in bits.iter().enumerate() {
                assert_eq!(select(word, rank as u32), bit, "rank {rank} of {word:#x}");
            }
        }
    }

    #[test]
    fn transpose_swaps_rows_and_columns() {
        let mut rng = Rng::new(3);
        let rows: [u64; LANES] = std::array::from_fn(|_| rng.next_u64() & rng.next_u64());
        let mut t = rows;
        transpose(&mut t);
        for (i, row) in rows.iter().enumerate() {
            for (j, column) in t.iter().enumerate() {
                assert_eq!(row >> j & 1, column >> i & 1, "bit {j} of row {i}");
            }
        }
    }

    #[test]
    fn sliced_counters_count_per_lane() {
        let mut rng = Rng::new(3);
        let rows: Vec<u64> = (0..100).map(|_| rng.next_u64() & rng.next_u64()).collect();
        let mut c = Sliced::<7>::ZERO;
        rows.iter().for_each(|&r| c.add(r));
        let expected = |lane: usize| rows.iter().filter(|&&r| r >> lane & 1 != 0).count() as u64;
        for lane in 0..64 {
            assert_eq!(c.get(lane), expected(lane), "lane {lane}");
        }
        assert_eq!(c.nonzero(), rows.iter().fold(0, |a, &r| a | r));
        let above_one = (0..64).filter(|&lane| expected(lane) > 1).fold(0, |a, lane| a | 1 << lane);
        assert_eq!(c.above_one(), above_one);
        rows.iter().for_each(|&r| c.sub(r));
        assert_eq!(c.nonzero(), 0);
        let mut bytes = [0u8; LANES];
        bytes[5] = 100;
        bytes[63] = 127;
        let c = Sliced::<7>::from_bytes(&bytes);
        assert_eq!((c.get(5), c.get(63), c.above_one()), (100, 127, 1 << 5 | 1 << 63));
        assert_eq!(c.bytes(), bytes);
        let mut d = Sliced::<7>::ZERO;
        d.put(5, 100);
        d.put(63, 127);
        assert_eq!(d.0, c.0);
    }
}
