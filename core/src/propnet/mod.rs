//! The propositional-network engine ("propnet"): the ground program compiled into AND/OR/NOT
//! gates (`compile`), laid out flat (`layout`), evaluated over a byte per node (`eval`).
//! The state is a bitset over the fluents (sorted by canonical text, so reading the set bits
//! in order gives `state_text` sorted); a move is a number (per role sorted by canonical
//! text); legal moves, terminal and goals are read from output literals.
//!
//! Evaluation strategy (`Strategy`): full sweeps of the segments a query needs, or
//! propagation of the changes since the last state; `Options::strategy: None` picks the
//! faster on a short measured run. `playout` runs random playouts without allocating per
//! step and makes the same choices as `machine::playout::step_playout`; batches of playouts run 64 at
//! a time (`lanes`) when that is measured to be faster, one at a time otherwise.

mod compile;
mod eval;
pub mod factors;
mod lanes;
mod layout;
mod outputs;
mod read;

use compile::Label;
pub use compile::Opt;
use eval::Values;
use lanes::LANES;
use layout::{Network, GOAL, LEGAL, MOVE, NEXT, SEES};

use crate::diagnostic::{Diagnostic, Span};
use crate::ground::Ground;
use crate::machine::playout::{need_roles, Goals, Outcome};
use crate::machine::{GoalValue, Result, StateMachine};
use crate::rng::Rng;
use serde::Serialize;
use std::ops::Range;

/// How the network is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub enum Strategy {
    /// Evaluate every gate of the segments a query needs.
    Sweep,
    /// Re-evaluate only the gates whose inputs changed.
    Propagate,
}

#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub opt: Opt,
    /// `None`: measure both on a short run and keep the faster.
    pub strategy: Option<Strategy>,
}

impl Default for Options {
    fn default() -> Self {
        Options { opt: Opt { frame: true, persist: true }, strategy: None }
    }
}

/// Figures about a network.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null, rename = "NetworkStats"))]
pub struct Stats {
    pub fluents: usize,
    pub moves: usize,
    pub gates: usize,
    /// Gate inputs (edges).
    pub inputs: usize,
    pub cyclic_blocks: usize,
    pub permanent: usize,
    pub persistent: usize,
    pub ephemeral: usize,
    /// Compile rounds (more than one when permanent fluents were folded).
    pub rounds: usize,
    pub frame: bool,
    pub persist: bool,
    pub strategy: Strategy,
    /// The smallest batch of playouts that runs 64 at a time (`lanes`), faster than one at
    /// a time from that size on; `None` when one at a time is faster even for full lanes
    /// (a sweep over a large network costs more than 64 propagations of a few changes).
    /// Measured with the strategy, else 1.
    pub lanes_from: Option<usize>,
    /// Milliseconds to build the network from the ground program, and to measure the strategies.
    pub build_ms: f64,
    pub measure_ms: f64,
}

pub type State = std::sync::Arc<[u64]>;

#[derive(Clone)]
pub struct Propnet {
    net: Network,
    values: Values,
    strategy: Strategy,
    roles: Vec<String>,
    /// Move numbers of each role.
    role_moves: Vec<Range<u32>>,
    fluent_text: Vec<String>,
    move_text: Vec<String>,
    goal_values: Vec<Vec<GoalValue>>,
    /// Per role, the text of each percept of `net.sees` (`None`: the game defines no `sees`).
    percept_text: Option<Vec<Vec<String>>>,
    init: State,
    /// The state the values are for, and (sweeps) which segments are evaluated for it.
    current: Vec<u64>,
    swept: [bool; 3],
    /// The moves whose bits are set.
    joint: Vec<u32>,
    // Buffers reused by playouts.
    next: Vec<u64>,
    legal: Vec<u32>,
    chosen: Vec<u32>,
    lanes: lanes::Lanes,
    /// The game's independent subgames.
    factors: std::sync::Arc<factors::Factors>,
    /// Terminal and goal from the reasoner, when the grounder left them to it.
    outputs: Option<outputs::Outputs>,
    pub stats: Stats,
}

fn words(bits: usize) -> usize {
    bits.div_ceil(64)
}

fn bit(set: &[u64], i: usize) -> bool {
    set[i >> 6] >> (i & 63) & 1 != 0
}

impl Propnet {
    /// Compiles a ground program. `now` gives milliseconds (to measure the strategies).
    pub fn new(g: &Ground, options: Options, now: &dyn Fn() -> f64) -> std::result::Result<Propnet, Diagnostic> {
        let start = now();
        let p = read::Program::read(g);
        let factors = factors::of_program(&p).into();
        let built = compile::compile(&p, options.opt)
            .map_err(|e| Diagnostic::error("propnet", Span::default(), format!("cannot build the network: {e}")))?;
        let rounds = built.rounds;
        let count = |l: Label| built.labels.iter().filter(|&&x| x == l).count();
        let (permanent, persistent, ephemeral) =
            (count(Label::Permanent), count(Label::Persistent), count(Label::Ephemeral));
        let net = layout::layout(built, p.moves.len() as u32);
        let store = g.store();
        let outputs = g.outputs.as_ref().map(|d| outputs::Outputs::new(d, store, &p.fluents)).transpose()?;
        let stats = Stats {
            fluents: p.fluents.len(),
            moves: p.moves.len(),
            gates: net.gates(),
            inputs: net.code.len() - net.gates(),
            cyclic_blocks: net.cycles.len(),
            permanent,
            persistent,
            ephemeral,
            rounds,
            frame: options.opt.frame,
            persist: options.opt.persist,
            strategy: options.strategy.unwrap_or(Strategy::Propagate),
            lanes_from: Some(1),
            build_ms: 0.0,
            measure_ms: 0.0,
        };
        let mut init = vec![0u64; words(p.fluents.len())];
        p.init.iter().enumerate().filter(|(_, &i)| i).for_each(|(f, _)| init[f >> 6] |= 1 << (f & 63));
        let role_moves = (0..p.roles.len() as u32)
            .map(|r| {
                let at = |r| p.moves.partition_point(|m| m.0 < r) as u32;
                at(r)..at(r + 1)
            })
            .collect();
        let mut m = Propnet {
            values: Values::new(&net),
            strategy: stats.strategy,
            roles: p.roles.iter().map(|&r| store.text(r).to_string()).collect(),
            role_moves,
            fluent_text: p.fluents.iter().map(|&f| store.text(f).to_string()).collect(),
            move_text: p.moves.iter().map(|&(_, m)| store.text(m).to_string()).collect(),
            goal_values: p.goals.iter().map(|g| g.iter().map(|(v, _)| v.clone()).collect()).collect(),
            percept_text: (p.sees.as_ref())
                .map(|s| s.iter().map(|r| r.iter().map(|&(t, _)| store.text(t).to_string()).collect()).collect()),
            current: vec![0; init.len()],
            init: init.into(),
            swept: [false; 3],
            joint: Vec::new(),
            next: Vec::new(),
            legal: Vec::new(),
            chosen: Vec::new(),
            lanes: Default::default(),
            factors,
            outputs,
            net,
            stats,
        };
        let built = now();
        let (strategy, per_ply) = match options.strategy {
            Some(s) => (s, None),
            // Terminal and goal on the reasoner cost more than either strategy, and lanes
            // cannot ask it: one playout at a time.
            None if m.outputs.is_some() => {
                m.stats.lanes_from = None;
                (Strategy::Propagate, None)
            }
            None => {
                let (s, per_ply) = m.measure(now);
                (s, Some(per_ply))
            }
        };
        m.set_strategy(strategy);
        if let Some(per_ply) = per_ply {
            m.stats.lanes_from = m.measure_lanes(per_ply, now);
        }
        m.stats.build_ms = built - start;
        m.stats.measure_ms = now() - built;
        Ok(m)
    }

    /// The faster strategy on a short run of playouts (same seed for both), and its time per
    /// ply (milliseconds).
    fn measure(&mut self, now: &dyn Fn() -> f64) -> (Strategy, f64) {
        let mut best = (f64::INFINITY, Strategy::Propagate);
        for s in [Strategy::Sweep, Strategy::Propagate] {
            self.set_strategy(s);
            let mut rng = Rng::new(1);
            let start = now();
            let mut plies = 0usize;
            while plies < 1000 && now() - start < 5.0 {
                match self.playout(&mut rng, 100) {
                    Ok(o) => plies += o.length + 1,
                    Err(_) => return (Strategy::Propagate, f64::INFINITY),
                }
            }
            let per_ply = (now() - start) / plies.max(1) as f64;
            if per_ply < best.0 {
                best = (per_ply, s);
            }
        }
        (best.1, best.0)
    }

    /// The smallest batch that runs faster in lanes than one playout at a time at `single`
    /// milliseconds per ply, from short batches of 64 lanes (each sweep serves every lane
    /// that is still playing: k playouts cost what 64 do), as many as `measure` times.
    fn measure_lanes(&mut self, single: f64, now: &dyn Fn() -> f64) -> Option<usize> {
        // The first batch sizes the lanes' buffers: not timed.
        let init = self.init.clone();
        self.run_lanes(&init, &mut Rng::new(1), LANES, 1, &mut |_, _| {}).ok()?;
        let mut rng = Rng::new(1);
        let start = now();
        let mut plies = 0usize;
        while plies < 1000 && now() - start < 5.0 {
            self.run_lanes(&init, &mut rng, LANES, 16, &mut |_, o| plies += o.length + 1).ok()?;
        }
        let per_ply = (now() - start) / plies.max(1) as f64;
        (per_ply <= single).then(|| ((LANES as f64 * per_ply / single).ceil() as usize).max(1))
    }

    /// Evaluates with strategy `s` from now on.
    pub fn set_strategy(&mut self, s: Strategy) {
        self.strategy = s;
        self.stats.strategy = s;
        // Propagation needs every gate to agree with its inputs; sweeps start over.
        for seg in [LEGAL, NEXT, GOAL, MOVE] {
            self.values.sweep(&self.net, &self.net.segments[seg]);
        }
        self.values.recount(&self.net);
        self.swept = [true; 3];
    }

    /// Makes the values those of `state`.
    fn load(&mut self, state: &[u64]) {
        if state == self.current {
            return;
        }
        for w in 0..state.len() {
            let mut diff = state[w] ^ self.current[w];
            while diff != 0 {
                let f = w * 64 + diff.trailing_zeros() as usize;
                diff &= diff - 1;
                self.set_leaf(1 + f as u32, bit(state, f));
            }
        }
        self.current.copy_from_slice(state);
        self.swept = [false; 3];
        if self.strategy == Strategy::Propagate {
            self.values.propagate(&self.net);
        }
    }

    fn set_leaf(&mut self, node: u32, v: bool) {
        match self.strategy {
            Strategy::Sweep => self.values.put_leaf(node, v),
            Strategy::Propagate => self.values.set_leaf(node, v),
        }
    }

    /// Makes sure segment `s` (and those before it) hold for the current state.
    fn need(&mut self, s: usize) {
        if self.strategy == Strategy::Propagate {
            return;
        }
        for seg in LEGAL..=s {
            if !self.swept[seg] {
                self.values.sweep(&self.net, &self.net.segments[seg]);
                self.swept[seg] = true;
                if seg == LEGAL {
                    let slots = self.net.slots;
                    self.values.collect(&self.net, slots.legal..slots.terminal + 1);
                }
            }
        }
    }

    fn is_terminal_now(&mut self) -> Result<bool> {
        if let Some(o) = &mut self.outputs {
            return o.is_terminal(&self.current);
        }
        self.need(LEGAL);
        Ok(self.values.out(self.net.slots.terminal))
    }

    /// The legal moves of `role` in the current state, into `out`.
    fn legal_now(&mut self, role: usize, out: &mut Vec<u32>) {
        self.need(LEGAL);
        out.clear();
        let base = self.net.slots.legal as u32;
        let Range { start, end } = self.role_moves[role];
        let outs = &self.values.outs;
        let mut w = ((base + start) >> 6) as usize;
        while (w as u32) << 6 < base + end {
            let mut bits = outs[w];
            while bits != 0 {
                let slot = (w as u32) << 6 | bits.trailing_zeros();
                bits &= bits - 1;
                if (base + start..base + end).contains(&slot) {
                    out.push(slot - base);
                }
            }
            w += 1;
        }
    }

    fn goals_now(&mut self) -> Result<Vec<Vec<GoalValue>>> {
        if let Some(o) = &mut self.outputs {
            return o.goals(&self.current);
        }
        self.need(GOAL);
        let v = &self.values;
        let goals = self.net.goals.iter().zip(&self.goal_values);
        Ok(goals
            .map(|(lits, values)| lits.iter().zip(values).filter(|(&l, _)| v.get(l)).map(|(_, x)| x.clone()).collect())
            .collect())
    }

    /// The next state after `joint` from the current state, into `self.next`:
    /// `(state & keep) | gain`, word by word.
    fn advance(&mut self, joint: &[u32]) {
        self.need(NEXT);
        for i in 0..self.joint.len() {
            let m = self.joint[i];
            if !joint.contains(&m) {
                self.set_leaf(self.move_node(m), false);
            }
        }
        for &m in joint {
            if !self.joint.contains(&m) {
                self.set_leaf(self.move_node(m), true);
            }
        }
        self.joint.clear();
        self.joint.extend_from_slice(joint);
        let slots = self.net.slots;
        match self.strategy {
            Strategy::Sweep => {
                self.values.sweep(&self.net, &self.net.segments[MOVE]);
                self.values.collect(&self.net, slots.keep..slots.legal);
            }
            Strategy::Propagate => self.values.propagate(&self.net),
        }
        let outs = &self.values.outs;
        let (keep, gain) = (&outs[slots.keep >> 6..], &outs[slots.gain >> 6..]);
        self.next.clear();
        self.next.extend(self.current.iter().enumerate().map(|(w, &s)| (s & keep[w]) | gain[w]));
    }

    fn move_node(&self, m: u32) -> u32 {
        1 + self.fluent_text.len() as u32 + m
    }

    /// A random playout from the initial state, choosing as `machine::playout::step_playout` does.
    pub fn playout(&mut self, rng: &mut Rng, max_steps: usize) -> Result<Outcome> {
        let init = self.init.clone();
        self.playout_from(&init, rng, max_steps)
    }

    /// A random playout from `state`, choosing as `machine::playout::step_playout_from` does, without
    /// allocating per step.
    pub fn playout_from(&mut self, state: &State, rng: &mut Rng, max_steps: usize) -> Result<Outcome> {
        need_roles(self)?;
        self.load(state);
        let (mut legal, mut chosen) = (std::mem::take(&mut self.legal), std::mem::take(&mut self.chosen));
        let mut result = Outcome::cut(max_steps);
        'play: for length in 0..=max_steps {
            if self.is_terminal_now()? {
                result = Outcome::ended(length, Goals::new(self.goals_now()?));
                break;
            }
            if length == max_steps {
                break;
            }
            chosen.clear();
            for r in 0..self.roles.len() {
                self.legal_now(r, &mut legal);
                if legal.is_empty() {
                    result = Outcome::stuck(length, r);
                    break 'play;
                }
                chosen.push(legal[rng.below(legal.len())]);
            }
            self.advance(&chosen);
            let next = std::mem::take(&mut self.next);
            self.load(&next);
            self.next = next;
        }
        self.legal = legal;
        self.chosen = chosen;
        Ok(result)
    }
}

impl StateMachine for Propnet {
    type State = State;
    type Move = u32;

    fn roles(&self) -> &[String] {
        &self.roles
    }

    fn initial_state(&self) -> State {
        self.init.clone()
    }

    fn legal_moves(&mut self, state: &State, role: usize) -> Result<Vec<u32>> {
        self.load(state);
        let mut out = Vec::new();
        self.legal_now(role, &mut out);
        Ok(out)
    }

    fn is_terminal(&mut self, state: &State) -> Result<bool> {
        self.load(state);
        self.is_terminal_now()
    }

    fn goals(&mut self, state: &State) -> Result<Vec<Vec<GoalValue>>> {
        self.load(state);
        self.goals_now()
    }

    fn next_state(&mut self, state: &State, joint: &[u32]) -> Result<State> {
        self.load(state);
        self.advance(joint);
        Ok(self.next.as_slice().into())
    }

    fn percepts(&mut self, state: &State, joint: &[u32]) -> Result<Option<Vec<Vec<String>>>> {
        if self.percept_text.is_none() {
            return Ok(None);
        }
        self.load(state);
        self.need(GOAL);
        self.advance(joint);
        self.values.sweep(&self.net, &self.net.segments[SEES]);
        let (v, texts) = (&self.values, self.percept_text.as_ref().expect("checked above"));
        let seen = self.net.sees.iter().zip(texts);
        let held = |(lits, texts): (&Vec<u32>, &Vec<String>)| {
            lits.iter().zip(texts).filter(|(&l, _)| v.get(l)).map(|(_, t)| t.clone()).collect()
        };
        Ok(Some(seen.map(held).collect()))
    }

    fn state_text(&self, state: &State) -> Vec<String> {
        (0..self.fluent_text.len()).filter(|&f| bit(state, f)).map(|f| self.fluent_text[f].clone()).collect()
    }

    fn move_text(&self, m: u32) -> String {
        self.move_text[m as usize].clone()
    }

    fn engine_name(&self) -> &'static str {
        "propnet"
    }

    fn factors(&self) -> Option<&factors::Factors> {
        // Subgames are found in the ground program, which lacks terminal and goal then.
        self.outputs.is_none().then_some(&*self.factors)
    }

    fn playout(&mut self, rng: &mut Rng, max_steps: usize) -> Result<Outcome> {
        Propnet::playout(self, rng, max_steps)
    }

    fn playout_from(&mut self, state: &State, rng: &mut Rng, max_steps: usize) -> Result<Outcome> {
        Propnet::playout_from(self, state, rng, max_steps)
    }

    fn playouts_from(
        &mut self,
        state: &State,
        rng: &mut Rng,
        count: usize,
        max_steps: usize,
        each: &mut dyn FnMut(usize, &Outcome),
    ) -> Result<()> {
        need_roles(self)?;
        if self.stats.lanes_from.is_none_or(|from| count < from) {
            return crate::machine::playout::one_at_a_time_from(self, state, rng, count, max_steps, each);
        }
        self.run_lanes(state, rng, count, max_steps, each)
    }
}

#[cfg(test)]
mod tests;
