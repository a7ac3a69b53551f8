//! Bit-parallel playouts: 64 random playouts advance together, one bit per playout (a
//! *lane*) in every node's word, so that one sweep over the gates evaluates 64 states.
//!
//! Each playout draws its moves from its own generator exactly as `Propnet::playout` does
//! (per step and role, `below(n)` among the sorted legal moves), and playout `j` of a batch
//! is seeded with the `j`-th draw of the caller's generator (`trace::playout_rng`), so a
//! batch gives the same playouts as running them one after another, whichever lane runs
//! which. A lane whose playout ends starts the next one from the initial state.
//!
//! Per step: the state words go into the fluent leaves; the `LEGAL` and `NEXT` segments
//! are swept (and `GOAL` when some lane is terminal); each role's legal-move words are
//! transposed 64 moves at a time into one bit row per lane, from which every lane draws
//! its move; the chosen moves go into the move leaves, `MOVE` is evaluated (`Plan`), and
//! the next state is `(state & keep) | gain`, word by word.

use super::compile::Lit;
use super::layout::{Network, Run, COUNT, GOAL, LEGAL, MOVE, NEXT, OR};
use super::Propnet;
use crate::machine::{GoalValue, Result};
use crate::rng::Rng;
use crate::trace::{no_move, playout_rng, Outcome};

const LANES: usize = 64;

/// Buffers of a batch, kept between batches.
pub struct Lanes {
    /// Per node, one bit per lane.
    val: Vec<u64>,
    /// Per fluent, one bit per lane.
    state: Vec<u64>,
    /// Per fluent, all ones when it holds initially.
    init: Vec<u64>,
    /// Per move of the role being chosen, its legal word; then per lane, its legal moves.
    rows: Vec<u64>,
    /// Per lane: the generator and the number of its playout.
    rng: [Rng; LANES],
    index: [usize; LANES],
    plan: Option<Plan>,
}

/// How the lanes evaluate the `MOVE` segment. Gates whose inputs are all negated moves
/// ("no move among these": the frame conditions of board games, often with hundreds of
/// inputs) are computed from the moves chosen, each clearing its lanes in the gates that
/// read it; the other gates are swept (`runs`).
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
            val[g as usize] = !0;
        }
        for m in 0..self.start.len() - 1 {
            let chosen = val[first_move + m];
            if chosen != 0 {
                for &g in &self.readers[self.start[m] as usize..self.start[m + 1] as usize] {
                    val[g as usize] &= !chosen;
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
            rows: Vec::new(),
            rng: std::array::from_fn(|_| Rng::new(0)),
            index: [0; LANES],
            plan: None,
        }
    }
}

#[inline(always)]
fn lit(val: &[u64], l: Lit) -> u64 {
    val[(l >> 1) as usize] ^ u64::from(l & 1).wrapping_neg()
}

/// Transposes a 64×64 bit matrix: bit `c` of `a[r]` becomes bit `r` of `a[c]`.
fn transpose(a: &mut [u64]) {
    let mut j = 32;
    let mut m: u64 = 0x0000_0000_FFFF_FFFF;
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            let t = ((a[k] >> j) ^ a[k + j]) & m;
            a[k + j] ^= t;
            a[k] ^= t << j;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        m ^= m << j;
    }
}

/// The position of the `k`-th set bit of `x` (which has more than `k`).
#[inline]
fn select(mut x: u64, k: u32) -> u32 {
    for _ in 0..k {
        x &= x - 1;
    }
    x.trailing_zeros()
}

fn sweep(val: &mut [u64], net: &Network, runs: &[Run]) {
    let leaves = net.leaves as usize;
    for run in runs {
        let (start, end) = (run.gates.start as usize, run.gates.end as usize);
        if run.cyclic {
            // Least fixpoint: from false, sweep until nothing changes (monotone gates).
            val[leaves + start..leaves + end].fill(0);
            while gates(val, net, start, end) {}
        } else {
            gates(val, net, start, end);
        }
    }
}

/// Evaluates gates `start..end` once, in order; whether any changed.
fn gates(val: &mut [u64], net: &Network, start: usize, end: usize) -> bool {
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
        changed |= val[leaves + g] != v;
        val[leaves + g] = v;
        at += 1 + inputs.len();
    }
    changed
}

impl Propnet {
    /// Runs `count` random playouts, 64 at a time (`StateMachine::playouts`).
    pub(super) fn run_lanes(
        &mut self,
        l: &mut Lanes,
        rng: &mut Rng,
        count: usize,
        max_steps: usize,
        each: &mut dyn FnMut(usize, &Outcome),
    ) -> Result<()> {
        let net = &self.net;
        let fluents = self.fluent_text.len();
        let first_move = 1 + fluents;
        l.val.clear();
        l.val.resize(net.leaves as usize + net.gates(), 0);
        l.init.clear();
        l.init.extend((0..fluents).map(|f| u64::from(super::bit(&self.init, f)).wrapping_neg()));
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
        let mut outcome = Outcome { length: 0, goals: None };
        while active != 0 {
            l.val[1..first_move].copy_from_slice(&l.state);
            sweep(&mut l.val, net, &net.segments[LEGAL]);
            sweep(&mut l.val, net, &net.segments[NEXT]);
            let terminal = lit(&l.val, net.outputs[slots.terminal]) & active;
            if terminal != 0 {
                sweep(&mut l.val, net, &net.segments[GOAL]);
                for lane in lanes(terminal) {
                    outcome.length = step - begun[lane];
                    self.lane_goals(&l.val, lane, outcome.goals.get_or_insert_with(Vec::new));
                    each(l.index[lane], &outcome);
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
                outcome.length = max_steps;
                outcome.goals = None;
                for lane in lanes(cut) {
                    each(l.index[lane], &outcome);
                }
            }
            let moving = active & !terminal & !cut;
            l.val[first_move..net.leaves as usize].fill(0);
            for r in 0..self.roles.len() {
                self.choose(l, r, moving, &begun, step)?;
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
        Ok(())
    }

    /// Each lane of `moving` draws role `r`'s move among its legal ones and sets its bit.
    /// Lanes where the move is forced (`below(1)` draws nothing) take it word-wise; the
    /// others read their legal moves from the transposed rows.
    fn choose(&self, l: &mut Lanes, r: usize, moving: u64, begun: &[usize; LANES], step: usize) -> Result<()> {
        let net = &self.net;
        let moves = self.role_moves[r].clone();
        let first = 1 + self.fluent_text.len() + moves.start as usize;
        let n = (moves.end - moves.start) as usize;
        let blocks = n.div_ceil(64);
        l.rows.clear();
        l.rows.resize(blocks * 64, 0);
        // Lanes with at least one legal move, and with at least two.
        let (mut one, mut two) = (0u64, 0u64);
        for (i, m) in moves.enumerate() {
            let legal = lit(&l.val, net.outputs[net.slots.legal + m as usize]) & moving;
            l.rows[i] = legal;
            two |= one & legal;
            one |= legal;
        }
        if let Some(lane) = lanes(moving & !one).next() {
            return Err(no_move(self, r, step - begun[lane]));
        }
        let forced = one & !two;
        for (i, &legal) in l.rows.iter().enumerate().take(n) {
            l.val[first + i] |= legal & forced;
        }
        if two == 0 {
            return Ok(());
        }
        for b in 0..blocks {
            transpose(&mut l.rows[b * 64..(b + 1) * 64]);
        }
        for lane in lanes(two) {
            let row = |b: usize| l.rows[b * 64 + lane];
            let total: u32 = (0..blocks).map(|b| row(b).count_ones()).sum();
            let mut k = l.rng[lane].below(total as usize) as u32;
            let mut b = 0;
            while row(b).count_ones() <= k {
                k -= row(b).count_ones();
                b += 1;
            }
            l.val[first + b * 64 + select(row(b), k) as usize] |= 1 << lane;
        }
        Ok(())
    }

    /// The goal values of every role in lane `lane` (after the `GOAL` sweep), into `goals`.
    fn lane_goals(&self, val: &[u64], lane: usize, goals: &mut Vec<Vec<GoalValue>>) {
        goals.resize_with(self.goal_values.len(), Vec::new);
        for ((lits, values), out) in self.net.goals.iter().zip(&self.goal_values).zip(goals) {
            out.clear();
            let holds = lits.iter().map(|&g| lit(val, g) >> lane & 1 != 0);
            out.extend(holds.zip(values).filter(|(h, _)| *h).map(|(_, v)| v.clone()));
        }
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
    fn transpose_swaps_rows_and_columns() {
        let mut rng = Rng::new(3);
        let a: Vec<u64> = (0..64).map(|_| rng.next_u64()).collect();
        let mut t = a.clone();
        transpose(&mut t);
        for (r, row) in a.iter().enumerate() {
            for (c, column) in t.iter().enumerate() {
                assert_eq!(row >> c & 1, column >> r & 1, "row {r} column {c}");
            }
        }
    }

    #[test]
    fn select_finds_the_kth_set_bit() {
        let x = 0b1011_0100u64;
        assert_eq!([0, 1, 2, 3].map(|k| select(x, k)), [2, 4, 5, 7]);
    }
}
