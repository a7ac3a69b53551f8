//! Lays a compiled network out flat for evaluation: gates no output reads are dropped; the
//! rest are ordered by when they are needed (segments below), topologically inside each
//! segment, and stored as one array of `u32` (a header, then the input literals) so that a
//! sweep reads memory in order. Each node also lists its readers (for change propagation):
//! gates, and *output slots* — bits of the output bitset (`Slots`: per fluent `keep` and
//! `gain`, per move `legal`, and `terminal`), so that the next state is `(state & keep) |
//! gain` word by word and legal moves are the set bits of a range.
//!
//! Segments, in this order (each only reads earlier segments or itself):
//! `LEGAL` (what `terminal` and `legal` read), `NEXT` (what the next state reads and does
//! not depend on the moves), `GOAL` (the rest that goals read), `MOVE` (what depends on the
//! moves), `SEES` (what only percepts read, GDL-II: swept when percepts are asked, never read
//! by another gate nor propagated to, so that playouts do not pay for it). Invariant: a gate's
//! inputs come before it, except inside a cyclic block.

use super::compile::{Built, Lit, FALSE, TRUE};
use std::ops::Range;

/// Header bit: the gate is an OR (otherwise an AND).
pub const OR: u32 = 1 << 31;
/// Header bits holding the number of inputs.
pub const COUNT: u32 = OR - 1;

pub const LEGAL: usize = 0;
pub const NEXT: usize = 1;
pub const GOAL: usize = 2;
pub const MOVE: usize = 3;
pub const SEES: usize = 4;

/// Consecutive gates of one segment: plain (each after its inputs, all with the same number
/// of inputs) or one cyclic block.
#[derive(Clone, Debug)]
pub struct Run {
    pub gates: Range<u32>,
    pub cyclic: bool,
}

/// The network as evaluated.
#[derive(Clone)]
pub struct Network {
    pub leaves: u32,
    /// Per gate: header (`OR`, input count), then the input literals.
    pub code: Vec<u32>,
    /// Where each gate's header is in `code`.
    pub start: Vec<u32>,
    /// Readers of node `n`, as `reader << 1 | negated` (a reader `r` past the gates is output
    /// slot `r - gates`): `fanout[fanout_start[n]..fanout_start[n + 1]]`.
    pub fanout_start: Vec<u32>,
    pub fanout: Vec<u32>,
    pub cycles: Vec<Range<u32>>,
    pub segments: [Vec<Run>; 5],
    /// The literal of each output slot.
    pub outputs: Vec<Lit>,
    pub slots: Slots,
    pub goals: Vec<Vec<Lit>>,
    /// Per role, the literal of each percept (`compile::Built::sees`).
    pub sees: Vec<Vec<Lit>>,
}

/// Where each output starts in the output bitset (each range starts a word).
#[derive(Clone, Copy, Debug)]
pub struct Slots {
    pub keep: usize,
    pub gain: usize,
    pub legal: usize,
    pub terminal: usize,
}

impl Slots {
    fn new(fluents: usize, moves: usize) -> Slots {
        let w = |n: usize| n.div_ceil(64) * 64;
        Slots { keep: 0, gain: w(fluents), legal: 2 * w(fluents), terminal: 2 * w(fluents) + w(moves) }
    }
}

impl Network {
    pub fn gates(&self) -> usize {
        self.start.len()
    }

    pub fn readers(&self, node: u32) -> &[u32] {
        &self.fanout[self.fanout_start[node as usize] as usize..self.fanout_start[node as usize + 1] as usize]
    }
}

/// Marks the gates the literals read, directly or not.
fn cone(b: &Built, roots: impl IntoIterator<Item = Lit>) -> Vec<bool> {
    let mut seen = vec![false; b.gates.len()];
    let gate = |l: Lit| (l >> 1).checked_sub(b.leaves).map(|g| g as usize);
    let mut work: Vec<usize> = roots.into_iter().filter_map(gate).collect();
    while let Some(g) = work.pop() {
        if !std::mem::replace(&mut seen[g], true) {
            work.extend(b.gates[g].inputs.iter().filter_map(|&l| gate(l)));
        }
    }
    seen
}

pub fn layout(b: Built, moves: u32) -> Network {
    let leaves = b.leaves;
    let slots = Slots::new(b.updates.len(), b.legal.len());
    let first_move = leaves - moves;
    let legal = cone(&b, std::iter::once(b.terminal).chain(b.legal.iter().copied()));
    let next = cone(&b, b.updates.iter().flat_map(|u| [u.keep, u.gain]));
    let goal = cone(&b, b.goals.iter().flatten().copied());
    let sees = cone(&b, b.sees.iter().flatten().copied());
    // Which gates depend on the moves (a cyclic block as a whole).
    let mut moving = vec![false; b.gates.len()];
    for (g, gate) in b.gates.iter().enumerate() {
        moving[g] = gate.inputs.iter().any(|&l| {
            let n = l >> 1;
            (first_move..leaves).contains(&n) || (n >= leaves && moving[(n - leaves) as usize])
        });
    }
    for c in &b.cycles {
        let any = (c.start..c.end).any(|g| moving[g as usize]);
        (c.start..c.end).for_each(|g| moving[g as usize] = any);
    }
    let segment = |g: usize| match () {
        _ if !(legal[g] || next[g] || goal[g]) => sees[g].then_some(SEES),
        _ if moving[g] => Some(MOVE),
        _ if legal[g] => Some(LEGAL),
        _ if next[g] => Some(NEXT),
        _ => Some(GOAL),
    };
    let mut block = vec![u32::MAX; b.gates.len()];
    for (i, c) in b.cycles.iter().enumerate() {
        (c.start..c.end).for_each(|g| block[g as usize] = i as u32);
    }
    // Inside a segment, gates go by depth, then (outside cyclic blocks) by number of inputs:
    // a sweep then meets long runs of gates alike, which it evaluates without a branch
    // per gate (`Run`).
    let depth = depths(&b, &block);
    let inputs = |g: usize| if block[g] == u32::MAX { b.gates[g].inputs.len() } else { 0 };
    let mut order: Vec<(usize, usize)> = (0..b.gates.len()).filter_map(|g| Some((segment(g)?, g))).collect();
    order.sort_unstable_by_key(|&(s, g)| (s, depth[g], block[g], inputs(g), g));
    let mut new = vec![u32::MAX; b.gates.len()];
    for (i, &(_, g)) in order.iter().enumerate() {
        new[g] = i as u32;
    }
    let map = |l: Lit| match (l >> 1).checked_sub(leaves) {
        Some(g) => (leaves + new[g as usize]) << 1 | (l & 1),
        None => l,
    };
    let mut net = Network {
        leaves,
        code: Vec::new(),
        start: Vec::with_capacity(order.len()),
        fanout_start: Vec::new(),
        fanout: Vec::new(),
        cycles: Vec::new(),
        segments: Default::default(),
        outputs: Vec::new(),
        slots,
        goals: b.goals.iter().map(|g| g.iter().map(|&l| map(l)).collect()).collect(),
        sees: b.sees.iter().map(|s| s.iter().map(|&l| map(l)).collect()).collect(),
    };
    net.outputs = vec![FALSE; slots.terminal + 1];
    for (f, u) in b.updates.iter().enumerate() {
        net.outputs[slots.keep + f] = map(u.keep);
        net.outputs[slots.gain + f] = map(u.gain);
    }
    for (m, &l) in b.legal.iter().enumerate() {
        net.outputs[slots.legal + m] = map(l);
    }
    net.outputs[slots.terminal] = map(b.terminal);
    for (i, &(s, g)) in order.iter().enumerate() {
        let gate = &b.gates[g];
        net.start.push(net.code.len() as u32);
        net.code.push(gate.inputs.len() as u32 | if gate.or { OR } else { 0 });
        net.code.extend(gate.inputs.iter().map(|&l| map(l)));
        let same_run = i > 0 && {
            let before = order[i - 1];
            before.0 == s && block[before.1] == block[g] && inputs(before.1) == inputs(g)
        };
        match net.segments[s].last_mut() {
            Some(run) if same_run => run.gates.end += 1,
            _ => net.segments[s].push(Run { gates: i as u32..i as u32 + 1, cyclic: block[g] != u32::MAX }),
        }
    }
    drop(b);
    net.cycles = net.segments.iter().flatten().filter(|r| r.cyclic).map(|r| r.gates.clone()).collect();
    crate::order::sort_by_key(&mut net.cycles, |r| r.start);
    (net.fanout_start, net.fanout) = readers(&net);
    net
}

/// Each gate's depth: one more than that of its deepest input from outside its cyclic
/// block (leaves: 0); a block's gates share one.
fn depths(b: &Built, block: &[u32]) -> Vec<u32> {
    let mut depth = vec![0u32; b.gates.len()];
    let mut g = 0;
    while g < b.gates.len() {
        let members = match block[g] {
            u32::MAX => g..g + 1,
            c => b.cycles[c as usize].start as usize..b.cycles[c as usize].end as usize,
        };
        let inputs = members.clone().flat_map(|m| b.gates[m].inputs.iter());
        let outside =
            inputs.filter_map(|&l| (l >> 1).checked_sub(b.leaves)).filter(|&x| !members.contains(&(x as usize)));
        let d = 1 + outside.map(|x| depth[x as usize]).max().unwrap_or(0);
        members.clone().for_each(|m| depth[m] = d);
        g = members.end;
    }
    depth
}

/// The readers of every node (see `Network::fanout`), gates in order then output slots,
/// each edge once: counted, then placed.
fn readers(net: &Network) -> (Vec<u32>, Vec<u32>) {
    let gates = net.gates();
    let nodes = net.leaves as usize + gates;
    // The percepts' own gates read others but are read by none (see `SEES`).
    let read = net.segments[SEES].first().map_or(gates, |r| r.gates.start as usize);
    let inputs = |i: usize| {
        let at = net.start[i] as usize;
        &net.code[at + 1..at + 1 + (net.code[at] & COUNT) as usize]
    };
    let outputs = || net.outputs.iter().enumerate().filter(|&(_, &l)| l > TRUE);
    let mut start = vec![0u32; nodes + 1];
    for i in 0..read {
        inputs(i).iter().for_each(|&l| start[(l >> 1) as usize + 1] += 1);
    }
    outputs().for_each(|(_, &l)| start[(l >> 1) as usize + 1] += 1);
    for n in 0..nodes {
        start[n + 1] += start[n];
    }
    // Counted with repeats; placed without (a gate reading a literal twice is one edge).
    let mut end = start.clone();
    let mut fanout = vec![0u32; start[nodes] as usize];
    let mut place = |node: usize, edge: u32| {
        let at = end[node] as usize;
        if at == start[node] as usize || fanout[at - 1] != edge {
            fanout[at] = edge;
            end[node] += 1;
        }
    };
    for i in 0..read {
        inputs(i).iter().for_each(|&l| place((l >> 1) as usize, (i as u32) << 1 | (l & 1)));
    }
    outputs().for_each(|(slot, &l)| place((l >> 1) as usize, ((gates + slot) as u32) << 1 | (l & 1)));
    // Close the gaps the repeats left.
    let mut packed = Vec::with_capacity(fanout.len());
    let mut packed_start = Vec::with_capacity(nodes + 1);
    packed_start.push(0);
    for n in 0..nodes {
        packed.extend_from_slice(&fanout[start[n] as usize..end[n] as usize]);
        packed_start.push(packed.len() as u32);
    }
    (packed_start, packed)
}
