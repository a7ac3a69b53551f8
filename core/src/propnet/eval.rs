//! Evaluates a laid-out network: one byte per node. Two strategies over the same values:
//! *sweeps* (evaluate a segment's gates in order, as needed) and *propagation* (each gate
//! counts its true inputs; a node that changes tells its readers, which adjust the count and
//! change in turn: work follows the changes, not the network's size). A cyclic block is
//! evaluated as a whole: reset to false, then swept until nothing changes (its least
//! fixpoint); under propagation a block whose inputs changed is recomputed once nothing else
//! is pending, lowest block first.
//!
//! Invariant (propagation): after `propagate`, every gate's value and count agree with its
//! inputs. Events carry the value a node changed to, so a node that changes twice before
//! its readers hear of it still leaves their counts exact.

use super::compile::Lit;
use super::layout::{Network, Run, COUNT, OR};
use std::ops::Range;

/// A gate under propagation: its true inputs less its `threshold`, so that it is true when
/// `deficit >= 0`; and its cyclic block, `u32::MAX` if none.
#[derive(Clone, Copy)]
struct Counted {
    deficit: i32,
    block: u32,
}

/// How many true inputs make the gate with this header true (AND: all; OR: one).
fn threshold(header: u32) -> i32 {
    if header & OR != 0 {
        1
    } else {
        (header & COUNT) as i32
    }
}

#[derive(Clone)]
pub struct Values {
    pub val: Vec<u8>,
    /// The output bitset (see `layout::Slots`).
    pub outs: Vec<u64>,
    /// Per gate, what propagation reads of it: one cache line for each reader told.
    gates: Vec<Counted>,
    /// `(node, value it changed to)` not yet told to its readers.
    events: Vec<(u32, u8)>,
    /// Cyclic blocks whose inputs changed.
    pending: Vec<bool>,
    any_pending: bool,
    /// Old values of a cyclic block being recomputed.
    scratch: Vec<u8>,
}

impl Values {
    pub fn new(net: &Network) -> Values {
        let mut gates: Vec<Counted> = (0..net.gates())
            .map(|g| Counted { deficit: -threshold(net.code[net.start[g] as usize]), block: u32::MAX })
            .collect();
        for (i, c) in net.cycles.iter().enumerate() {
            (c.start..c.end).for_each(|g| gates[g as usize].block = i as u32);
        }
        Values {
            val: vec![0; net.leaves as usize + net.gates()],
            outs: vec![0; net.outputs.len().div_ceil(64)],
            gates,
            events: Vec::new(),
            pending: vec![false; net.cycles.len()],
            any_pending: false,
            scratch: Vec::new(),
        }
    }

    #[inline]
    pub fn get(&self, l: Lit) -> bool {
        (self.val[(l >> 1) as usize] ^ (l & 1) as u8) != 0
    }

    /// True inputs of the gate whose header is at `code[0]`.
    #[inline]
    fn true_inputs(&self, code: &[u32]) -> i32 {
        let inputs = &code[1..1 + (code[0] & COUNT) as usize];
        inputs.iter().map(|&l| i32::from(self.val[(l >> 1) as usize] ^ (l & 1) as u8)).sum()
    }

    #[inline]
    fn gate(&self, code: &[u32]) -> u8 {
        let header = code[0];
        let inputs = &code[1..1 + (header & COUNT) as usize];
        let v = &self.val;
        let x = if header & OR != 0 {
            inputs.iter().any(|&l| v[(l >> 1) as usize] ^ (l & 1) as u8 != 0)
        } else {
            inputs.iter().all(|&l| v[(l >> 1) as usize] ^ (l & 1) as u8 != 0)
        };
        x as u8
    }

    /// Evaluates the runs in order.
    pub fn sweep(&mut self, net: &Network, runs: &[Run]) {
        for run in runs {
            if run.cyclic {
                self.fixpoint(net, run.gates.start, run.gates.end);
                continue;
            }
            let leaves = net.leaves as usize;
            let mut at = net.start[run.gates.start as usize] as usize;
            for g in run.gates.start as usize..run.gates.end as usize {
                let v = self.gate(&net.code[at..]);
                self.val[leaves + g] = v;
                at += 1 + (net.code[at] & COUNT) as usize;
            }
        }
    }

    /// Recounts every gate's true inputs and reads every output (after sweeps, before
    /// propagating).
    pub fn recount(&mut self, net: &Network) {
        for g in 0..net.gates() {
            let code = &net.code[net.start[g] as usize..];
            self.gates[g].deficit = self.true_inputs(code) - threshold(code[0]);
        }
        self.collect(net, 0..net.outputs.len());
    }

    /// Reads the output slots `slots` into the output bitset (after sweeps).
    pub fn collect(&mut self, net: &Network, slots: Range<usize>) {
        for s in slots {
            let v = self.get(net.outputs[s]);
            self.put_out(s, v);
        }
    }

    #[inline]
    fn put_out(&mut self, slot: usize, v: bool) {
        let word = &mut self.outs[slot >> 6];
        *word = (*word & !(1 << (slot & 63))) | (u64::from(v) << (slot & 63));
    }

    #[inline]
    pub fn out(&self, slot: usize) -> bool {
        self.outs[slot >> 6] >> (slot & 63) & 1 != 0
    }

    /// The least fixpoint of cyclic block `start..end` (monotone: no negation inside).
    fn fixpoint(&mut self, net: &Network, start: u32, end: u32) {
        let leaves = net.leaves as usize;
        self.val[leaves + start as usize..leaves + end as usize].fill(0);
        let mut changed = true;
        while changed {
            changed = false;
            for g in start..end {
                let v = self.gate(&net.code[net.start[g as usize] as usize..]);
                let slot = &mut self.val[leaves + g as usize];
                if *slot != v {
                    *slot = v;
                    changed = true;
                }
            }
        }
    }

    /// Sets a leaf; under propagation its readers hear of it in `propagate`.
    #[inline]
    pub fn set_leaf(&mut self, node: u32, v: bool) {
        if self.val[node as usize] != v as u8 {
            self.val[node as usize] = v as u8;
            self.events.push((node, v as u8));
        }
    }

    /// Sets a leaf for sweeps (no events).
    #[inline]
    pub fn put_leaf(&mut self, node: u32, v: bool) {
        self.val[node as usize] = v as u8;
    }

    /// Tells readers of every change until nothing changes.
    pub fn propagate(&mut self, net: &Network) {
        let leaves = net.leaves;
        let gates = net.gates();
        loop {
            while let Some((n, v)) = self.events.pop() {
                let from = if n >= leaves { self.gates[(n - leaves) as usize].block } else { u32::MAX };
                for &edge in net.readers(n) {
                    let g = (edge >> 1) as usize;
                    if g >= gates {
                        self.put_out(g - gates, v ^ (edge & 1) as u8 != 0);
                        continue;
                    }
                    let gate = &mut self.gates[g];
                    let b = gate.block;
                    if b != u32::MAX {
                        if b != from {
                            self.pending[b as usize] = true;
                            self.any_pending = true;
                        }
                        continue;
                    }
                    // Outside cyclic blocks a gate's value is `deficit >= 0` at all times,
                    // so only a crossing of 0 changes it.
                    let was = gate.deficit >= 0;
                    debug_assert_eq!(self.val[leaves as usize + g] != 0, was, "gate {g} out of step with its count");
                    gate.deficit += if v ^ (edge & 1) as u8 != 0 { 1 } else { -1 };
                    let now = gate.deficit >= 0;
                    if now != was {
                        self.val[leaves as usize + g] = now as u8;
                        self.events.push((leaves + g as u32, now as u8));
                    }
                }
            }
            if !self.any_pending {
                return;
            }
            match self.pending.iter().position(|&p| p) {
                Some(b) => {
                    self.pending[b] = false;
                    self.block(net, b);
                }
                None => self.any_pending = false,
            }
        }
    }

    /// Recomputes cyclic block `b`; its gates that changed become events.
    fn block(&mut self, net: &Network, b: usize) {
        let (start, end) = (net.cycles[b].start, net.cycles[b].end);
        let leaves = net.leaves as usize;
        self.scratch.clear();
        self.scratch.extend_from_slice(&self.val[leaves + start as usize..leaves + end as usize]);
        self.fixpoint(net, start, end);
        for g in start..end {
            let v = self.val[leaves + g as usize];
            if v != self.scratch[(g - start) as usize] {
                self.events.push((net.leaves + g, v));
            }
        }
    }
}
