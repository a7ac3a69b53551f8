//! Engines by name, and the automatic choice: the propositional network when the game grounds
//! within limits (measured against the first-order reasoner when the network is big), the
//! reasoner otherwise (with the reason), and for long runs the `upgrade` of a game left to
//! the reasoner by those limits. `Engine` is one state machine over either, so the CLI and
//! the page need no per-engine code.

use crate::ast::Description;
use crate::diagnostic::Diagnostic;
use crate::ground::{ground, Options as GroundOptions};
use crate::machine::playout::Outcome;
use crate::machine::{GoalValue, Result, RuntimeError, StateMachine};
use crate::propnet::{self, Propnet};
use crate::reasoner::{self, Limits, Reasoner};
use crate::rng::Rng;
use crate::term::TermId;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Most ground rules (and `crate::ground::INSTANCES_PER_RULE` times as many rule instances)
/// the automatic choice takes the propositional network for without measuring it: up to
/// this size, the network has been faster than the reasoner on every corpus game.
pub const AUTO_SURE_RULES: usize = 250_000;
/// Most ground rules the automatic choice accepts. Between `AUTO_SURE_RULES` and this, the
/// network plays only if it is measured faster than the reasoner: many such games run
/// tens of times faster on it (knightThrough 66x, chineseCheckers4 40x), but a network with
/// tens of thousands of fluents can be slower (pancakes88, whose states are permutations).
pub const AUTO_MAX_RULES: usize = 500_000;
/// Most join steps the automatic choice spends on the grounder's fixpoint (about 0.6 s on
/// these machines, more while the reasoner loads beside it; the biggest games that ground
/// within `AUTO_MAX_RULES` take a third of it), so that a game whose grounding would fail
/// is left to the reasoner at once. A budget of steps, not of time, so that the choice is
/// the same on every machine.
pub const AUTO_MAX_JOIN_STEPS: u64 = 10_000_000;

/// Which engine to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// `propnet` when the game grounds within limits (when the ground program is big, only if
    /// the network is measured faster than the reasoner), else `reasoner`.
    Auto,
    /// The first-order reasoner on the rules as written.
    Reasoner,
    /// The reasoner on the ground program.
    Ground,
    /// The propositional network.
    Propnet,
}

pub enum Engine {
    Reasoner(Box<Reasoner>),
    Propnet(Box<Propnet>),
}

#[derive(Clone, PartialEq, Eq, Hash)]
pub enum State {
    Reasoner(reasoner::State),
    Propnet(propnet::State),
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Move {
    Reasoner(TermId),
    Propnet(u32),
}

/// An engine and a sentence saying which one runs and why.
pub struct Chosen {
    pub engine: Engine,
    pub note: String,
    /// `auto` left the game to the reasoner only because the grounding passed `auto`'s own
    /// bounds: with the grounder's limits it may still play on a faster network (`upgrade`).
    pub may_upgrade: bool,
}

impl Chosen {
    fn new(note: String, engine: Engine) -> Chosen {
        Chosen { engine, note, may_upgrade: false }
    }
}

/// The engine `choice` for a valid description; `now` gives milliseconds.
pub fn build(
    choice: Choice,
    desc: &Description,
    limits: Limits,
    options: propnet::Options,
    now: &dyn Fn() -> f64,
) -> std::result::Result<Chosen, Diagnostic> {
    let grounded = |options| ground(desc, options, &|| 0.0, &mut |_| {});
    match choice {
        Choice::Reasoner => {
            let r = Reasoner::new(desc, limits)?;
            Ok(Chosen::new(reasoner_note(&r, ""), Engine::Reasoner(Box::new(r))))
        }
        Choice::Ground => {
            let g = grounded(GroundOptions { limits, ..Default::default() })?;
            let note = format!("ground ({} ground rules in the reasoner)", g.stats.rules);
            Ok(Chosen::new(note, Engine::Reasoner(Box::new(g.reasoner(limits)?))))
        }
        Choice::Propnet => {
            let g = grounded(GroundOptions { limits, ..Default::default() })?;
            let p = Propnet::new(&g, options, now)?;
            Ok(Chosen::new(propnet_note(&g, &p), Engine::Propnet(Box::new(p))))
        }
        Choice::Auto => automatic(desc, limits, options, now, &AUTO),
    }
}

/// The automatic choice's bounds on the ground program, in rules (and
/// `crate::ground::INSTANCES_PER_RULE` times as many rule instances).
#[derive(Clone, Copy)]
struct Bounds {
    /// Up to this, the network plays without being measured.
    sure: usize,
    /// Up to this, it plays if measured faster than the reasoner.
    max: usize,
}

const AUTO: Bounds = Bounds { sure: AUTO_SURE_RULES, max: AUTO_MAX_RULES };

impl Bounds {
    /// `auto`'s quick grounding: the caller's limits lowered to these bounds.
    fn grounding(self, limits: Limits) -> GroundOptions {
        let bounded = Limits {
            max_join_steps: limits.max_join_steps.min(AUTO_MAX_JOIN_STEPS),
            // A relation of more facts than the network taken without measuring may have rule
            // instances: a budget (each fact of a dynamic relation is at least one instance),
            // which ends the failing groundings of merrills and mummymaze1p in half the time a
            // bound of `self.max` would.
            max_facts: limits.max_facts.min(self.sure * crate::ground::INSTANCES_PER_RULE),
            ..limits
        };
        // No attempt on demand: each costs as much as the first, and a game that needs demand
        // has been far bigger than `AUTO_MAX_RULES` (merrills, AlexChess).
        GroundOptions { limits: bounded, max_rules: self.max, demand_attempts: 0, ..Default::default() }
    }

    /// A ground program the network plays without being measured.
    fn sure(self, g: &crate::ground::Ground) -> bool {
        g.stats.rules <= self.sure && g.stats.instances <= self.sure * crate::ground::INSTANCES_PER_RULE
    }
}

/// The engine `auto` picks (see `Choice::Auto`, `AUTO_SURE_RULES`, `AUTO_MAX_RULES`).
fn automatic(
    desc: &Description,
    limits: Limits,
    options: propnet::Options,
    now: &dyn Fn() -> f64,
    bounds: &Bounds,
) -> std::result::Result<Chosen, Diagnostic> {
    match ground_beside_reasoner(desc, limits, options, *bounds, Wait::ForGrounding) {
        Beside::Ended(grounded, loaded) => {
            chosen(verdict(*grounded, loaded, desc, limits, options, now, *bounds)?, desc, limits)
        }
        Beside::Running(..) => unreachable!("waiting for the grounding, nothing is left running"),
    }
}

/// `auto` for a run that can change engine between playouts (`gdl playout`, `bench`,
/// `match`): the engine `auto` picks when its grounding ends before the reasoner beside it
/// has loaded; otherwise
/// the reasoner at once, and the grounding left running in the background (`Grounding`),
/// whose network the run moves to when it is ready. The run then starts as soon as the
/// reasoner alone would have (chess's failing grounding took twice the reasoner's load).
pub fn start(
    desc: &Description,
    limits: Limits,
    options: propnet::Options,
    now: &dyn Fn() -> f64,
) -> std::result::Result<(Chosen, Option<Grounding>), Diagnostic> {
    match ground_beside_reasoner(desc, limits, options, AUTO, Wait::ForReasoner) {
        Beside::Ended(grounded, loaded) => {
            Ok((chosen(verdict(*grounded, loaded, desc, limits, options, now, AUTO)?, desc, limits)?, None))
        }
        Beside::Running(reasoner, grounding) => {
            let r = reasoner?;
            let note = reasoner_note(&r, "for now: the game is being ground in the background");
            Ok((Chosen { may_upgrade: true, ..Chosen::new(note, Engine::Reasoner(Box::new(r))) }, Some(grounding)))
        }
    }
}

/// What `auto` makes of its grounding.
enum Verdict {
    /// The network, with its note.
    Network(Box<Propnet>, String),
    /// The reasoner (when it was loaded to race the network), why, and whether the grounder's
    /// own limits may still ground the game (`Chosen::may_upgrade`).
    Reasoner(Option<Box<Reasoner>>, String, bool),
}

/// The network of `grounded` when it is sure, or measured faster than the reasoner (`loaded`
/// beside the grounding, or loaded now); else why not.
fn verdict(
    grounded: Grounded,
    loaded: Option<std::result::Result<Reasoner, Diagnostic>>,
    desc: &Description,
    limits: Limits,
    options: propnet::Options,
    now: &dyn Fn() -> f64,
    bounds: Bounds,
) -> std::result::Result<Verdict, Diagnostic> {
    let built = grounded.and_then(|g| Ok((Propnet::new(&g, options, now)?, g)));
    Ok(match built {
        Ok((p, g)) if bounds.sure(&g) => {
            let note = propnet_note(&g, &p);
            Verdict::Network(Box::new(p), note)
        }
        Ok((p, g)) => match faster(p, &g, loaded.unwrap_or_else(|| Reasoner::new(desc, limits))?, now) {
            Ok((p, note)) => Verdict::Network(p, note),
            Err((r, why)) => Verdict::Reasoner(Some(r), why, false),
        },
        Err(d) => Verdict::Reasoner(
            loaded.transpose()?.map(Box::new),
            format!("the propositional network is not available: {}", quick_attempt_stopped(&d.message)),
            true,
        ),
    })
}

/// The engine of a verdict, loading the reasoner if it was not.
fn chosen(verdict: Verdict, desc: &Description, limits: Limits) -> std::result::Result<Chosen, Diagnostic> {
    Ok(match verdict {
        Verdict::Network(p, note) => Chosen::new(note, Engine::Propnet(p)),
        Verdict::Reasoner(r, why, may_upgrade) => {
            let r = r.map_or_else(|| Reasoner::new(desc, limits).map(Box::new), Ok)?;
            Chosen { may_upgrade, ..Chosen::new(reasoner_note(&r, &why), Engine::Reasoner(r)) }
        }
    })
}

/// Why `auto`'s grounding stopped, in words that fit it: when one of the limits `auto`
/// lowers for its quick attempt stopped it (facts, join steps, rules), the advice to raise
/// that limit is replaced by what happens instead; other limits keep their advice.
fn quick_attempt_stopped(message: &str) -> String {
    let lowered = ["max_facts", "max_join_steps", "max_rules"];
    let advice = [" (raise the limit ", ": raise the limit "].iter().find_map(|a| message.find(a));
    match advice {
        Some(at) if lowered.iter().any(|l| message[at..].contains(l)) => format!(
            "{}, more than auto grounds before play begins (long runs try again with the full limits)",
            message[..at].trim_end_matches([':', ' '])
        ),
        _ => message.to_string(),
    }
}

/// A large network with its note, if it is measured faster than the reasoner on random
/// playouts; else the reasoner and why not.
type Raced = std::result::Result<(Box<Propnet>, String), (Box<Reasoner>, String)>;

fn faster(mut p: Propnet, g: &crate::ground::Ground, mut r: Reasoner, now: &dyn Fn() -> f64) -> Raced {
    let (net, reasoner) = (speed(&mut p, now), speed(&mut r, now));
    let rate = |x: Option<f64>| x.map_or("none (a playout failed)".into(), |x| format!("{:.0}", x * 1000.0));
    let measured = format!("{} moves per second against the reasoner's {}", rate(net), rate(reasoner));
    if net.is_some_and(|n| reasoner.is_none_or(|r| n > r)) {
        let note = format!("{}, measured faster than the reasoner: {measured}", propnet_note(g, &p));
        Ok((Box::new(p), note))
    } else {
        Err((Box::new(r), format!("the propositional network measured slower: {measured}")))
    }
}

/// A network measured faster than the reasoner `auto` chose (see `upgrade`), and the
/// sentence saying which engine it is and why. Each thread of a run plays on a copy of it.
pub struct Upgrade {
    network: Propnet,
    pub note: String,
}

impl Upgrade {
    /// A copy of the network (copying is much faster than building).
    pub fn engine(&self) -> Engine {
        Engine::Propnet(Box::new(self.network.clone()))
    }
}

/// For a long run that `auto` started on the reasoner because of its own bounds
/// (`Chosen::may_upgrade`): the game ground with the grounder's limits (about 10 s and 2 GB
/// at most), its network measured against the reasoner, and kept if faster; else why not.
/// Takes seconds (amazons: 3; chess fails after 18): meant for a thread of its own while the
/// run goes on. Every engine plays the same playouts from the same seeds, so a run that
/// changes engine gets the results it would have got without.
pub fn upgrade(
    desc: &Description,
    limits: Limits,
    options: propnet::Options,
    now: &dyn Fn() -> f64,
) -> std::result::Result<Upgrade, String> {
    let ground = ground(desc, GroundOptions { limits, ..Default::default() }, &|| 0.0, &mut |_| {})
        .map_err(|d| format!("the game does not ground: {}", d.message))?;
    let p = Propnet::new(&ground, options, now).map_err(|d| d.message)?;
    let r = Reasoner::new(desc, limits).map_err(|d| d.message)?;
    faster(p, &ground, r, now).map(|(network, note)| Upgrade { network: *network, note }).map_err(|(_, why)| why)
}

/// Milliseconds of random play per engine in `faster`'s measurement; most playouts, and
/// joint moves per playout.
const MEASURE_MILLIS: f64 = 40.0;
const MEASURE_PLAYOUTS: usize = 1024;
const MEASURE_STEPS: usize = 200;

/// Joint moves per millisecond of random playouts (each cut at `MEASURE_STEPS`) over about
/// `MEASURE_MILLIS`, in batches of 1, 2, 4, ... playouts (from some size on, the network
/// plays a batch many at a time, as it does for every caller asking for many); `None` when
/// a playout fails, or when the clock does not advance within `MEASURE_PLAYOUTS` playouts.
fn speed(m: &mut impl StateMachine, now: &dyn Fn() -> f64) -> Option<f64> {
    let mut rng = Rng::new(1);
    let start = now();
    let (mut moves, mut played, mut batch) = (0, 0, 1);
    while played < MEASURE_PLAYOUTS {
        m.playouts(&mut rng, batch, MEASURE_STEPS, &mut |_, o| moves += o.length.max(1)).ok()?;
        played += batch;
        batch = (batch * 2).min(MEASURE_PLAYOUTS - played);
        let elapsed = now() - start;
        if elapsed >= MEASURE_MILLIS {
            return Some(moves as f64 / elapsed);
        }
    }
    let elapsed = now() - start;
    (elapsed > 0.0).then(|| moves as f64 / elapsed)
}

/// How long `auto` waits for its grounding.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wait {
    /// Until it ends.
    ForGrounding,
    /// Until it ends or the reasoner beside it has loaded, whichever comes first.
    ForReasoner,
}

/// A grounding's outcome.
type Grounded = std::result::Result<crate::ground::Ground, Diagnostic>;

/// `auto`'s grounding, ended (with the reasoner if it was loaded meanwhile), or still running
/// beside the loaded reasoner (`Wait::ForReasoner` only).
enum Beside {
    Ended(Box<Grounded>, Option<std::result::Result<Reasoner, Diagnostic>>),
    Running(std::result::Result<Reasoner, Diagnostic>, Grounding),
}

/// `auto`'s grounding, and the reasoner loaded meanwhile if it was. With a second core a
/// grounding that takes longer than `HEAD_START` gets the reasoner loaded beside it, on
/// this thread while another grounds: a game that does not ground then waits for about the
/// longer of the two, not for both (amazonsTorus's grounding fails as late as its load
/// ends). Most games ground within the head start and load nothing else (two threads at
/// once slow each other). Waiting only for the reasoner (`Wait::ForReasoner`), the head
/// start is shorter (`RUN_HEAD_START`), and the grounding is left running if it has not
/// ended when the load has. A grounding sure to be taken abandons the load, which then
/// gives `None` (a bigger one keeps it, to be measured against the network). On one core,
/// or where there are no threads (the page, whose worker grounds beside the main thread's
/// reasoner), the reasoner is left to the caller.
fn ground_beside_reasoner(
    desc: &Description,
    limits: Limits,
    options: propnet::Options,
    bounds: Bounds,
    wait: Wait,
) -> Beside {
    let grounding = bounds.grounding(limits);
    let alone = || Beside::Ended(Box::new(ground(desc, grounding, &|| 0.0, &mut |_| {})), None);
    if std::thread::available_parallelism().map_or(true, |n| n.get() < 2) {
        return alone();
    }
    let Ok(running) = Grounding::within(desc, limits, options, bounds) else { return alone() };
    let head_start = if wait == Wait::ForReasoner { RUN_HEAD_START } else { HEAD_START };
    match running.received.recv_timeout(head_start) {
        Ok(grounded) => Beside::Ended(Box::new(grounded), None),
        Err(_) => {
            let loaded = abandonable::load(desc, limits, running.sure.clone());
            match (wait, loaded) {
                (Wait::ForReasoner, Some(reasoner)) => match running.received.try_recv() {
                    Ok(grounded) => Beside::Ended(Box::new(grounded), Some(reasoner)),
                    Err(_) => Beside::Running(reasoner, running),
                },
                (_, loaded) => Beside::Ended(Box::new(running.ended()), loaded),
            }
        }
    }
}

/// `auto`'s grounding left running on a thread of its own (`start`).
pub struct Grounding {
    received: std::sync::mpsc::Receiver<Grounded>,
    grounder: std::thread::JoinHandle<()>,
    description: Arc<Description>,
    limits: Limits,
    options: propnet::Options,
    bounds: Bounds,
    /// Set when the grounding gives a network to take without measuring.
    sure: Arc<AtomicBool>,
}

/// Why a grounding left running gave no network.
pub struct NoNetwork {
    pub why: String,
    /// The grounding stopped at `auto`'s bounds: the grounder's own limits may still ground the
    /// game (`upgrade`).
    pub may_upgrade: bool,
}

impl Grounding {
    /// `auto`'s grounding of `desc` on a thread of its own (what `start` leaves running).
    pub fn spawn(desc: &Description, limits: Limits, options: propnet::Options) -> std::io::Result<Grounding> {
        Grounding::within(desc, limits, options, AUTO)
    }

    fn within(
        desc: &Description,
        limits: Limits,
        options: propnet::Options,
        bounds: Bounds,
    ) -> std::io::Result<Grounding> {
        let (send, received) = std::sync::mpsc::channel();
        let sure = Arc::new(AtomicBool::new(false));
        let description = Arc::new(desc.clone());
        let grounding = bounds.grounding(limits);
        let grounder = std::thread::Builder::new().stack_size(GROUNDER_STACK).spawn({
            let (description, sure) = (description.clone(), sure.clone());
            move || {
                let g = ground(&description, grounding, &|| 0.0, &mut |_| {});
                if g.as_ref().is_ok_and(|g| bounds.sure(g)) {
                    sure.store(true, Ordering::Relaxed);
                }
                let _ = send.send(g);
            }
        })?;
        Ok(Grounding { received, grounder, description, limits, options, bounds, sure })
    }

    /// Waits for the grounding to end (a grounder that panicked panics here).
    fn ended(self) -> Grounded {
        match self.received.recv() {
            Ok(grounded) => grounded,
            Err(_) => {
                std::panic::resume_unwind(self.grounder.join().expect_err("a grounder that sent nothing panicked"))
            }
        }
    }

    /// Waits for the grounding to end: the network `auto` would have picked (built, and
    /// measured against a reasoner when big), or why the reasoner stays; `now` gives
    /// milliseconds.
    pub fn network(self, now: &dyn Fn() -> f64) -> std::result::Result<Upgrade, NoNetwork> {
        let (description, limits, options, bounds) = (self.description.clone(), self.limits, self.options, self.bounds);
        let verdict = verdict(self.ended(), None, &description, limits, options, now, bounds);
        match verdict {
            Ok(Verdict::Network(network, note)) => Ok(Upgrade { network: *network, note }),
            Ok(Verdict::Reasoner(_, why, may_upgrade)) => Err(NoNetwork { why, may_upgrade }),
            Err(d) => Err(NoNetwork { why: d.message, may_upgrade: false }),
        }
    }
}

/// How long the grounding runs alone before the reasoner loads beside it: long enough for
/// most games (the median grounds in about 10 ms), short beside a failing grounding.
const HEAD_START: std::time::Duration = std::time::Duration::from_millis(100);

/// The head start of a grounding when the reasoner beside it may play first
/// (`Wait::ForReasoner`): a few times most games' grounding, so that they start on the
/// network, and about a tenth of chess's load, which the run waits for.
const RUN_HEAD_START: std::time::Duration = std::time::Duration::from_millis(30);

/// The stack of a grounding thread: the main thread's (deep terms recurse).
pub const GROUNDER_STACK: usize = 8 << 20;

/// A reasoner's load that another thread can abandon. Its clock (`TimeLimit::now` is a
/// plain function, so it reads what this thread set) jumps past every deadline once the
/// flag is set, and otherwise reads the caller's clock, or stands still when there is none.
mod abandonable {
    use super::*;
    use crate::reasoner::TimeLimit;
    use std::cell::RefCell;

    /// A load running: the flag, and the caller's clock if any.
    type Running = (Arc<AtomicBool>, Option<fn() -> f64>);

    thread_local! {
        static LOAD: RefCell<Option<Running>> = const { RefCell::new(None) };
    }

    fn now() -> f64 {
        LOAD.with_borrow(|load| match load {
            Some((abandoned, _)) if abandoned.load(Ordering::Relaxed) => f64::INFINITY,
            Some((_, Some(now))) => now(),
            _ => 0.0,
        })
    }

    /// The reasoner for `limits`, unless `abandoned` was set while it loaded.
    pub fn load(
        desc: &Description,
        limits: Limits,
        abandoned: Arc<AtomicBool>,
    ) -> Option<std::result::Result<Reasoner, Diagnostic>> {
        let millis = limits.time.map_or(f64::MAX, |t| t.millis);
        LOAD.set(Some((abandoned.clone(), limits.time.map(|t| t.now))));
        let loaded = Reasoner::new(desc, Limits { time: Some(TimeLimit { millis, now }), ..limits });
        LOAD.set(None);
        if abandoned.load(Ordering::Relaxed) {
            return None;
        }
        // The requests to come keep the caller's clock, not this one.
        Some(loaded.map(|r| r.with_limits(limits)))
    }
}

/// "reasoner", with how it evaluates (top-down, or the relations it computes on demand)
/// and `why` it runs, if anything.
pub fn reasoner_note(r: &Reasoner, why: &str) -> String {
    let demand = r.on_demand();
    let shown = match demand.len() {
        _ if r.is_tabled() => "top-down with tables".to_string(),
        0 => String::new(),
        n if n <= 4 => format!("computes {} on demand", demand.join(", ")),
        n => format!("computes {} and {} more relations on demand", demand[..3].join(", "), n - 3),
    };
    match (shown.is_empty(), why.is_empty()) {
        (true, true) => "reasoner".into(),
        (false, true) => format!("reasoner ({shown})"),
        (true, false) => format!("reasoner ({why})"),
        (false, false) => format!("reasoner ({shown}; {why})"),
    }
}

fn propnet_note(g: &crate::ground::Ground, p: &Propnet) -> String {
    let s = &p.stats;
    let outputs = if g.outputs.is_some() { "; terminal and goal by the reasoner: they do not ground" } else { "" };
    format!(
        "propnet ({} ground rules, {} gates, {} fluents of which {} permanent, {} moves, {:?}{outputs})",
        g.stats.rules, s.gates, s.fluents, s.permanent, s.moves, s.strategy
    )
    .to_lowercase()
}

impl Engine {
    /// The network's figures, when the engine is the propositional network.
    pub fn propnet_stats(&self) -> Option<&propnet::Stats> {
        match self {
            Engine::Propnet(p) => Some(&p.stats),
            Engine::Reasoner(_) => None,
        }
    }

    /// Programs the reasoner loaded while choosing how to evaluate the game (itself
    /// included), when the engine is the reasoner.
    pub fn programs_loaded(&self) -> Option<usize> {
        match self {
            Engine::Reasoner(r) => Some(r.programs_loaded()),
            Engine::Propnet(_) => None,
        }
    }
}

fn other() -> RuntimeError {
    RuntimeError::new("a state or move made by another engine")
}

impl StateMachine for Engine {
    type State = State;
    type Move = Move;

    fn factors(&self) -> Option<&crate::propnet::factors::Factors> {
        match self {
            Engine::Reasoner(_) => None,
            Engine::Propnet(m) => m.factors(),
        }
    }

    fn roles(&self) -> &[String] {
        match self {
            Engine::Reasoner(m) => m.roles(),
            Engine::Propnet(m) => m.roles(),
        }
    }

    fn initial_state(&self) -> State {
        match self {
            Engine::Reasoner(m) => State::Reasoner(m.initial_state()),
            Engine::Propnet(m) => State::Propnet(m.initial_state()),
        }
    }

    fn legal_moves(&mut self, state: &State, role: usize) -> Result<Vec<Move>> {
        match (self, state) {
            (Engine::Reasoner(m), State::Reasoner(s)) => {
                Ok(m.legal_moves(s, role)?.into_iter().map(Move::Reasoner).collect())
            }
            (Engine::Propnet(m), State::Propnet(s)) => {
                Ok(m.legal_moves(s, role)?.into_iter().map(Move::Propnet).collect())
            }
            _ => Err(other()),
        }
    }

    fn is_terminal(&mut self, state: &State) -> Result<bool> {
        match (self, state) {
            (Engine::Reasoner(m), State::Reasoner(s)) => m.is_terminal(s),
            (Engine::Propnet(m), State::Propnet(s)) => m.is_terminal(s),
            _ => Err(other()),
        }
    }

    fn goals(&mut self, state: &State) -> Result<Vec<Vec<GoalValue>>> {
        match (self, state) {
            (Engine::Reasoner(m), State::Reasoner(s)) => m.goals(s),
            (Engine::Propnet(m), State::Propnet(s)) => m.goals(s),
            _ => Err(other()),
        }
    }

    fn next_state(&mut self, state: &State, joint: &[Move]) -> Result<State> {
        match (self, state) {
            (Engine::Reasoner(m), State::Reasoner(s)) => {
                let joint: Option<Vec<TermId>> =
                    joint.iter().map(|j| if let Move::Reasoner(x) = j { Some(*x) } else { None }).collect();
                Ok(State::Reasoner(m.next_state(s, &joint.ok_or_else(other)?)?))
            }
            (Engine::Propnet(m), State::Propnet(s)) => {
                let joint: Option<Vec<u32>> =
                    joint.iter().map(|j| if let Move::Propnet(x) = j { Some(*x) } else { None }).collect();
                Ok(State::Propnet(m.next_state(s, &joint.ok_or_else(other)?)?))
            }
            _ => Err(other()),
        }
    }

    fn percepts(&mut self, state: &State, joint: &[Move]) -> Result<Option<Vec<Vec<String>>>> {
        match (self, state) {
            (Engine::Reasoner(m), State::Reasoner(s)) => {
                let joint: Option<Vec<TermId>> =
                    joint.iter().map(|j| if let Move::Reasoner(x) = j { Some(*x) } else { None }).collect();
                m.percepts(s, &joint.ok_or_else(other)?)
            }
            (Engine::Propnet(m), State::Propnet(s)) => {
                let joint: Option<Vec<u32>> =
                    joint.iter().map(|j| if let Move::Propnet(x) = j { Some(*x) } else { None }).collect();
                m.percepts(s, &joint.ok_or_else(other)?)
            }
            _ => Err(other()),
        }
    }

    fn state_text(&self, state: &State) -> Vec<String> {
        match (self, state) {
            (Engine::Reasoner(m), State::Reasoner(s)) => m.state_text(s),
            (Engine::Propnet(m), State::Propnet(s)) => m.state_text(s),
            _ => Vec::new(),
        }
    }

    fn move_text(&self, mv: Move) -> String {
        match (self, mv) {
            (Engine::Reasoner(m), Move::Reasoner(x)) => m.move_text(x),
            (Engine::Propnet(m), Move::Propnet(x)) => m.move_text(x),
            _ => String::new(),
        }
    }

    fn engine_name(&self) -> &'static str {
        match self {
            Engine::Reasoner(m) => m.engine_name(),
            Engine::Propnet(m) => m.engine_name(),
        }
    }

    fn playout(&mut self, rng: &mut Rng, max_steps: usize) -> Result<Outcome> {
        match self {
            Engine::Reasoner(m) => m.playout(rng, max_steps),
            Engine::Propnet(m) => m.playout(rng, max_steps),
        }
    }

    fn playout_from(&mut self, state: &State, rng: &mut Rng, max_steps: usize) -> Result<Outcome> {
        match (self, state) {
            (Engine::Reasoner(m), State::Reasoner(s)) => m.playout_from(s, rng, max_steps),
            (Engine::Propnet(m), State::Propnet(s)) => m.playout_from(s, rng, max_steps),
            _ => Err(other()),
        }
    }

    fn playouts_from(
        &mut self,
        state: &State,
        rng: &mut Rng,
        count: usize,
        max_steps: usize,
        each: &mut dyn FnMut(usize, &Outcome),
    ) -> Result<()> {
        match (self, state) {
            (Engine::Reasoner(m), State::Reasoner(s)) => m.playouts_from(s, rng, count, max_steps, each),
            (Engine::Propnet(m), State::Propnet(s)) => m.playouts_from(s, rng, count, max_steps, each),
            _ => Err(other()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    /// A load abandoned before it ends gives nothing; one that is not keeps the caller's
    /// clock (here one that counts its reads) for the requests to come, not the load's own.
    #[test]
    fn an_abandoned_load_gives_nothing_and_a_kept_one_reads_the_callers_clock() {
        thread_local!(static READS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) });
        fn counting_clock() -> f64 {
            READS.set(READS.get() + 1);
            0.0
        }
        let desc = parse(
            "(role a) (init on) (<= (legal a flip) (true on)) (<= (next off) (does a flip)) \
             (<= terminal (true off)) (<= (goal a 100) (true off)) (<= (goal a 0) (true on))",
        )
        .description;
        let limits =
            Limits { time: Some(reasoner::TimeLimit { millis: 1e12, now: counting_clock }), ..Limits::default() };
        assert!(abandonable::load(&desc, limits, Arc::new(AtomicBool::new(true))).is_none());
        let mut kept = abandonable::load(&desc, limits, Arc::new(AtomicBool::new(false))).unwrap().unwrap();
        READS.set(0);
        let start = kept.initial_state();
        assert_eq!(kept.legal_moves(&start, 0).unwrap().len(), 1);
        assert!(READS.get() > 0);
    }

    /// A counter over four digits: a few fluents in each state, but 40⁴ possible ones, so
    /// the ground program would be far too big. `auto` gives up within its budget and plays
    /// on the reasoner.
    #[test]
    fn auto_leaves_a_game_too_big_to_ground_to_the_reasoner() {
        let succ: String = (0..40).map(|i| format!("(succ {i} {})", i + 1)).collect();
        let text = format!(
            "{succ} (role a) (init (at 0 0 0 0))\n\
             (<= (legal a (go ?a ?b ?c ?d)) (true (at ?a ?b ?c ?d)))\n\
             (<= (next (at ?x ?b ?c ?d)) (does a (go ?a ?b ?c ?d)) (succ ?a ?x))\n\
             (<= (next (at ?a ?x ?c ?d)) (does a (go ?a ?b ?c ?d)) (succ ?b ?x))\n\
             (<= (next (at ?a ?b ?x ?d)) (does a (go ?a ?b ?c ?d)) (succ ?c ?x))\n\
             (<= (next (at ?a ?b ?c ?x)) (does a (go ?a ?b ?c ?d)) (succ ?d ?x))\n\
             (<= terminal (true (at 3 ?b ?c ?d))) (<= (goal a 100) terminal)"
        );
        let desc = parse(&text).description;
        let chosen = build(Choice::Auto, &desc, Limits::default(), Default::default(), &|| 0.0).unwrap();
        assert!(chosen.note.starts_with("reasoner (the propositional network is not available"), "{}", chosen.note);
        // Stopped by the bounds of the automatic choice, not by the grounder's own limits.
        let per_rule = crate::ground::INSTANCES_PER_RULE;
        let bounds = [AUTO_MAX_JOIN_STEPS as usize, AUTO_SURE_RULES * per_rule, AUTO_MAX_RULES * per_rule];
        let bounds = bounds.map(|b| b.to_string());
        assert!(bounds.iter().any(|b| chosen.note.contains(b.as_str())), "{}", chosen.note);
        // So the note does not ask to raise a limit, which would not change auto's bound.
        assert!(!chosen.note.contains("raise the limit"), "{}", chosen.note);
        assert!(chosen.note.contains("more than auto grounds before play begins"), "{}", chosen.note);
        let mut m = chosen.engine;
        let outcome = m.playout(&mut Rng::new(1), 100).unwrap();
        assert_eq!(outcome.goals.unwrap(), vec![vec![GoalValue::Int(100)]]);
    }

    #[test]
    fn only_the_limits_auto_lowers_lose_their_advice() {
        let facts = "computing seen/3 grew past 500000 facts: the game derives too many facts (raise the limit \
                     max_facts if this is intended)";
        assert_eq!(
            quick_attempt_stopped(facts),
            "computing seen/3 grew past 500000 facts: the game derives too many facts, more than auto grounds \
             before play begins (long runs try again with the full limits)"
        );
        let rules = "the ground program would have more than 500000 rules (480001 of them for goal): raise the \
                     limit max_rules, or keep playing with the first-order reasoner";
        assert!(quick_attempt_stopped(rules).starts_with(
            "the ground program would have more than 500000 rules (480001 of them for goal), more than auto"
        ));
        let depth = "a term deeper than 64 (raise the limit max_term_depth if this is intended)";
        assert_eq!(quick_attempt_stopped(depth), depth);
    }

    fn tictactoe() -> Description {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../games/tictactoe.kif")).unwrap();
        parse(&text).description
    }

    /// Two clocks counting their readings in `reads`: one that advances the same at every
    /// reading (it measures two engines that play the same playouts equal), and one that
    /// slows down as it is read (it finds the engine measured first faster).
    fn clocks(reads: &std::cell::Cell<f64>) -> (impl Fn() -> f64 + '_, impl Fn() -> f64 + '_) {
        let tick = move || {
            reads.set(reads.get() + 1.0);
            reads.get()
        };
        (tick, move || tick() * tick())
    }

    /// Tic-tac-toe, its network counted as big (bounds far below its 233 ground rules): the
    /// network plays only when measured faster. Both engines play the same random playouts,
    /// so a clock that advances the same at every reading measures them equal, and the
    /// reasoner stays; one that slows down as it is read finds the network (measured first)
    /// faster.
    #[test]
    fn a_big_network_plays_only_when_measured_faster_than_the_reasoner() {
        let desc = tictactoe();
        let small = Bounds { sure: 10, max: 1000 };
        let choose =
            |now: &dyn Fn() -> f64| automatic(&desc, Limits::default(), Default::default(), now, &small).unwrap();
        let reads = std::cell::Cell::new(0.0);
        let (steady, slowing) = clocks(&reads);
        let chosen = choose(&steady);
        assert_eq!(chosen.engine.engine_name(), "reasoner");
        assert!(chosen.note.contains("the propositional network measured slower"), "{}", chosen.note);
        reads.set(0.0);
        let chosen = choose(&slowing);
        assert_eq!(chosen.engine.engine_name(), "propnet");
        assert!(chosen.note.contains("measured faster than the reasoner"), "{}", chosen.note);
        // Within the bounds it is sure of, `auto` does not measure.
        let chosen = build(Choice::Auto, &desc, Limits::default(), Default::default(), &steady).unwrap();
        assert_eq!(chosen.engine.engine_name(), "propnet");
        assert!(!chosen.note.contains("measured"), "{}", chosen.note);
        // Past the biggest, the grounding fails and the reasoner plays.
        let chosen =
            automatic(&desc, Limits::default(), Default::default(), &steady, &Bounds { sure: 10, max: 100 }).unwrap();
        assert!(chosen.note.starts_with("reasoner (the propositional network is not available"), "{}", chosen.note);
    }

    /// Tic-tac-toe past `auto`'s bounds (lowered below its 233 ground rules) plays on the
    /// reasoner, which a long run may upgrade: with the grounder's own limits the game
    /// grounds, and the network is kept when measured faster (under the clock that slows as
    /// it is read, as above), not when measured equal (a steady clock). A network measured
    /// slower by `auto` itself is not upgraded. The network plays the reasoner's playouts.
    #[test]
    fn a_game_past_autos_bounds_upgrades_to_a_network_measured_faster() {
        let desc = tictactoe();
        let reads = std::cell::Cell::new(0.0);
        let (steady, slowing) = clocks(&reads);
        let (limits, options) = (Limits::default(), propnet::Options::default());
        let tiny = Bounds { sure: 10, max: 100 };
        let mut chosen = automatic(&desc, limits, options, &steady, &tiny).unwrap();
        assert!(chosen.may_upgrade && chosen.engine.engine_name() == "reasoner", "{}", chosen.note);
        let measured = automatic(&desc, limits, options, &steady, &Bounds { sure: 10, max: 1000 }).unwrap();
        assert!(!measured.may_upgrade, "{}", measured.note);
        assert!(!build(Choice::Auto, &desc, limits, options, &steady).unwrap().may_upgrade);

        let why = upgrade(&desc, limits, options, &steady).err().expect("measured equal: no upgrade");
        assert!(why.starts_with("the propositional network measured slower"), "{why}");
        reads.set(0.0);
        let up = upgrade(&desc, limits, options, &slowing).expect("measured faster");
        assert!(up.note.starts_with("propnet (") && up.note.contains("measured faster"), "{}", up.note);
        let mut network = up.engine();
        assert_eq!(network.engine_name(), "propnet");
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..50 {
            let want = chosen.engine.playout(&mut a, 100).unwrap();
            assert_eq!(network.playout(&mut b, 100).unwrap(), want);
        }
    }

    /// `auto`'s grounding left running gives the network `auto` would have picked: taken
    /// when sure, measured when big (slower on a steady clock, faster on a slowing one),
    /// and none when it stops at the bounds, which the grounder's own limits may pass.
    #[test]
    fn a_grounding_left_running_gives_the_network_auto_would_pick() {
        let desc = tictactoe();
        let reads = std::cell::Cell::new(0.0);
        let (steady, slowing) = clocks(&reads);
        let (limits, options) = (Limits::default(), propnet::Options::default());
        let running = |bounds| Grounding::within(&desc, limits, options, bounds).unwrap();
        let sure = running(AUTO).network(&steady).ok().expect("tic-tac-toe grounds small");
        assert!(sure.note.starts_with("propnet (") && !sure.note.contains("measured"), "{}", sure.note);
        let big = Bounds { sure: 10, max: 1000 };
        let slower = running(big).network(&steady).err().expect("measured equal");
        assert!(slower.why.starts_with("the propositional network measured slower") && !slower.may_upgrade);
        reads.set(0.0);
        assert!(running(big).network(&slowing).ok().expect("measured faster").note.contains("measured faster"));
        let past = running(Bounds { sure: 10, max: 100 }).network(&steady).err().expect("past the bounds");
        assert!(past.may_upgrade && past.why.contains("more than auto grounds before play begins"), "{}", past.why);
    }

    /// `start` plays at once on what it has: the network when the grounding ended first,
    /// else the reasoner, with the grounding left running, whose network plays the same
    /// playouts.
    #[test]
    fn auto_started_for_a_run_ends_on_the_network_with_the_reasoners_playouts() {
        let desc = tictactoe();
        let (limits, options) = (Limits::default(), propnet::Options::default());
        let (chosen, grounding) = start(&desc, limits, options, &|| 0.0).unwrap();
        let mut network = match grounding {
            None => chosen.engine,
            Some(g) => {
                assert!(
                    chosen.may_upgrade && chosen.note.contains("being ground in the background"),
                    "{}",
                    chosen.note
                );
                g.network(&|| 0.0).ok().expect("tic-tac-toe grounds small").engine()
            }
        };
        assert_eq!(network.engine_name(), "propnet");
        let mut reasoner = Engine::Reasoner(Box::new(Reasoner::new(&desc, limits).unwrap()));
        let (mut a, mut b) = (Rng::new(3), Rng::new(3));
        for _ in 0..50 {
            assert_eq!(network.playout(&mut a, 100).unwrap(), reasoner.playout(&mut b, 100).unwrap());
        }
    }
}
