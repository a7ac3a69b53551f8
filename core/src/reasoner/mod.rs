//! The first-order reasoner: evaluates a GDL description bottom-up, stratum by stratum,
//! semi-naive inside recursive components, and answers the state-machine queries.
//!
//! Relations are labelled by what they depend on: *static* ones (neither `true` nor `does`)
//! are computed once when the game loads; *state* ones (on `true`) once per state; *move*
//! ones (on `does`) once per joint move. A query evaluates only the components its target
//! relation depends on (goals are not computed in non-terminal states, for instance).

mod adapt;
mod compile;
mod domains;
mod eval;
mod load;
mod relaxed;
mod sizes;
mod store;
mod tabled;

use crate::ast::Description;
use crate::diagnostic::Diagnostic;
use crate::machine::{GoalValue, Result, RuntimeError, StateMachine};
use crate::program::{normalise, Program};
use crate::term::{TermId, TermStore};
use compile::{CRule, RelId, Relations};
use eval::{Exec, Exhausted, Scratch, Stop};
use sizes::Sizes;
use store::RelStore;
use tabled::Tabled;

/// Limits that stop runaway games.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Deepest term a rule may build.
    pub max_term_depth: u16,
    /// Most facts of one relation in one state.
    pub max_facts: usize,
    /// Most facts the joins may look at to answer one query (legal, terminal, goal, next).
    pub max_join_steps: u64,
    /// Most distinct terms the game may build, over all states (memory: about 50 bytes
    /// each, plus their text once printed).
    pub max_terms: usize,
    /// Wall time per request: one load, one query (none by default).
    pub time: Option<TimeLimit>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_term_depth: crate::term::DEFAULT_MAX_DEPTH,
            max_facts: 2_000_000,
            max_join_steps: 500_000_000,
            max_terms: 10_000_000,
            time: None,
        }
    }
}

/// A limit on wall time, read from the caller's clock (core does no I/O, and the browser's
/// clock is not the standard library's).
#[derive(Clone, Copy, Debug)]
pub struct TimeLimit {
    pub millis: f64,
    /// Milliseconds from any fixed origin.
    pub now: fn() -> f64,
}

impl TimeLimit {
    /// The moment a request started now must end.
    pub fn deadline(&self) -> Deadline {
        Deadline { at: (self.now)() + self.millis, now: self.now }
    }
}

/// When the current request must end.
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    at: f64,
    now: fn() -> f64,
}

impl Deadline {
    pub fn passed(&self) -> bool {
        (self.now)() > self.at
    }
}

/// When a relation's facts must be recomputed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Phase {
    Static,
    State,
    Move,
}

/// A strongly connected component of relations with its compiled rules.
#[derive(Debug)]
struct Component {
    rels: Vec<RelId>,
    rules: Vec<CRule>,
    recursive: bool,
    phase: Phase,
}

/// A game loaded into the reasoner. State = the sorted fluent ids.
pub struct Reasoner {
    store: TermStore,
    rels: Relations,
    facts: Vec<RelStore>,
    comps: Vec<Component>,
    /// Components to evaluate, in order, for each query.
    plans: [Vec<usize>; 5],
    done: Vec<bool>,
    current_state: Option<State>,
    /// The facts of `true` (the current state's, or the last one's once it was reset), and
    /// whether they were stored in the state's order (not changed from the last state's).
    trues: State,
    trues_in_order: bool,
    current_moves: Option<Vec<TermId>>,
    role_names: Vec<String>,
    role_terms: Vec<TermId>,
    init: State,
    limits: Limits,
    scratch: Scratch,
    /// Join steps left for the current query.
    budget: u64,
    /// When the current request must end (from `limits.time`).
    deadline: Option<Deadline>,
    /// While loading: the deadline of the whole load, which every query shares.
    load_deadline: Option<Deadline>,
    /// Work since loading (the cost `adapt` compares): join steps, `FACT_COST` a fact
    /// derived, `PLAN_COST` a plan run.
    work: u64,
    /// Work past which queries stop (`adapt` gives up on a program that cannot win).
    work_cap: u64,
    delta: Vec<(u32, u32)>,
    r_true: RelId,
    r_does: RelId,
    r_legal: RelId,
    r_goal: RelId,
    r_terminal: RelId,
    r_next: RelId,
    r_sees: RelId,
    /// Whether the game defines `sees` (GDL-II): `percepts` answers only then.
    defines_sees: bool,
    /// Reported by `engine_name`.
    name: &'static str,
    /// Size estimates that ordered the rule bodies (top-down rules are ordered lazily).
    sizes: Sizes,
    /// Set when the state-dependent relations are answered top-down (`tabled`).
    tabled: Option<Box<Tabled>>,
    /// The argument domains the dynamic rules' plans were compiled with (`domains.rs`).
    domains: Option<domains::Domains>,
    /// Per role, its last legal moves as derived and as sorted: the same moves again (a
    /// game where every move stays legal, thousands of them) are not sorted again.
    sorted_moves: Vec<(Vec<TermId>, Vec<TermId>)>,
    /// Programs loaded while choosing how to evaluate the game (`adapt`), this one included.
    loads: usize,
}

pub type State = std::rc::Rc<[TermId]>;

/// What a derived fact costs in join steps (hashing, indexing, building its terms), and
/// what running a rule's plan costs (even when it derives nothing).
const FACT_COST: u64 = 4;
const PLAN_COST: u64 = 16;
/// The load's work counts for this many states' (it is done once).
const LOAD_SHARE: f64 = 100.0;
/// States a probe visits: at least the first, at most the second; the first probe of a
/// game stops adding states once its work passes `PROBE_WORK` (later probes visit as many
/// states, so that costs compare), or after half the first once it passes three times that
/// (a game whose states cost that much is measured well enough by fewer, and each of its
/// probes takes a tenth of a second: amazonsTorus loads in 0.9 s instead of 1.3), and the
/// seed of its line of play. Deep enough that a game's middle, not only its opening, is
/// measured.
const PROBE_STATES: (usize, usize) = (6, 60);
const PROBE_WORK: u64 = 2_000_000;
const PROBE_SEED: u64 = 0x9e37_79b9;
/// Joint moves a probe draws before it accepts one that ends the game.
const PROBE_TRIES: usize = 4;

/// Why a program could not be loaded.
pub enum LoadFailure {
    Invalid(Diagnostic),
    Limit(RuntimeError),
}

impl From<Diagnostic> for LoadFailure {
    fn from(d: Diagnostic) -> Self {
        LoadFailure::Invalid(d)
    }
}

#[derive(Clone, Copy)]
enum Query {
    Legal = 0,
    Terminal = 1,
    Goal = 2,
    Next = 3,
    Sees = 4,
}

/// The facts in one of two sorted lists and not in the other, each with whether it is in
/// `from` (gone) or in `to` (new): what changed from one state to the next.
fn sorted_difference<'a>(from: &'a [TermId], to: &'a [TermId]) -> impl Iterator<Item = (TermId, bool)> + 'a {
    let (mut i, mut j) = (0, 0);
    std::iter::from_fn(move || loop {
        return match (from.get(i), to.get(j)) {
            (Some(a), Some(b)) if a == b => {
                (i, j) = (i + 1, j + 1);
                continue;
            }
            (Some(&a), Some(&b)) if a < b => {
                i += 1;
                Some((a, true))
            }
            (Some(&a), None) => {
                i += 1;
                Some((a, true))
            }
            (_, Some(&b)) => {
                j += 1;
                Some((b, false))
            }
            (None, None) => None,
        };
    })
}

fn sorted_state(mut fluents: Vec<TermId>) -> State {
    fluents.sort_unstable();
    fluents.dedup();
    fluents.into()
}

impl Reasoner {
    /// Loads a description that passed validation. Errors name the rule that cannot run.
    /// The evaluation strategy is chosen by measurement (see `adapt`).
    pub fn new(desc: &Description, limits: Limits) -> std::result::Result<Reasoner, Diagnostic> {
        adapt::choose(normalise(desc)?, limits)
    }

    /// The biggest relation a rule defines (not a keyword, not an internal one), with its
    /// number of facts now, skipping those in `skip`.
    fn largest_relation(&self, skip: &[(String, usize)]) -> Option<((String, usize), usize)> {
        (0..self.facts.len())
            .map(|r| (&self.rels.keys[r], self.facts[r].len() as usize))
            .filter(|(k, _)| !crate::ast::RESERVED.contains(&k.0.as_str()) && !k.0.contains('~') && !skip.contains(k))
            .max_by_key(|&(_, n)| n)
            .map(|(k, n)| (k.clone(), n))
    }

    /// The cost of a game: the work of answering every query along `states` states of play
    /// (`None`: as many as `PROBE_WORK` allows), plus a share of the load's (done once, for
    /// every state of a game). Returns the cost and the states visited.
    fn probe_cost(&mut self, states: Option<usize>) -> Result<(f64, usize)> {
        let load = self.work;
        let visited = self.probe(states)?;
        Ok(((self.work - load) as f64 + load as f64 / LOAD_SHARE, visited))
    }

    /// Answers every query along the first states of one line of play (the same random line
    /// for every program of the game: moves are sorted, the seed fixed). The line avoids
    /// ending: when the joint move drawn ends the game, each role's next move is tried
    /// (`PROBE_TRIES` joint moves in all), so that the probe sees the deep states random
    /// playouts reach seldom but may pay most for (a game whose states cost double at each
    /// step and that ends at each step with even chance spends as much at every depth).
    /// Returns the number of states visited.
    fn probe(&mut self, states: Option<usize>) -> Result<usize> {
        let mut rng = crate::rng::Rng::new(PROBE_SEED);
        let mut s = self.initial_state();
        let start = self.work;
        for visited in 0..states.unwrap_or(PROBE_STATES.1) {
            let work = self.work - start;
            let enough = visited >= PROBE_STATES.0 || (visited >= PROBE_STATES.0 / 2 && work > 3 * PROBE_WORK);
            if states.is_none() && enough && work > PROBE_WORK {
                return Ok(visited);
            }
            if self.is_terminal(&s)? {
                self.goals(&s)?;
                return Ok(visited + 1);
            }
            let mut legal = Vec::new();
            for role in 0..self.roles().len() {
                let moves = self.legal_moves(&s, role)?;
                if moves.is_empty() {
                    return Ok(visited + 1);
                }
                legal.push(moves);
            }
            self.goals(&s)?;
            let drawn: Vec<usize> = legal.iter().map(|moves| rng.below(moves.len())).collect();
            for tries in 1..=PROBE_TRIES {
                let joint: Vec<TermId> =
                    legal.iter().zip(&drawn).map(|(moves, &i)| moves[(i + tries - 1) % moves.len()]).collect();
                let next = self.next_state(&s, &joint)?;
                if tries == PROBE_TRIES || !self.is_terminal(&next)? {
                    s = next;
                    break;
                }
            }
        }
        Ok(states.unwrap_or(PROBE_STATES.1))
    }

    /// Loads a program (its rules, and its dependency graph if a pass computed it);
    /// static relations are evaluated at once.
    pub fn from_program(program: Program, limits: Limits) -> std::result::Result<Reasoner, Diagnostic> {
        Reasoner::load(program, limits, limits.time.map(|t| t.deadline()))
    }

    /// Loads a program like `from_program`, telling a limit reached (with the relation that
    /// reached it) apart from an invalid program.
    pub fn build(program: Program, limits: Limits) -> std::result::Result<Reasoner, LoadFailure> {
        Reasoner::build_within(program, limits, limits.time.map(|t| t.deadline())).map(Reasoner::loaded)
    }

    /// Loads like `build` while `go_on` says so after each static component evaluated (and
    /// each round of a recursive one): the grounder stops a program sure to be too big. A
    /// load it stops fails with a limit naming no relation.
    pub fn build_while(
        program: Program,
        limits: Limits,
        go_on: &mut dyn FnMut(&Reasoner) -> bool,
    ) -> std::result::Result<Reasoner, LoadFailure> {
        Reasoner::build_within_while(program, limits, limits.time.map(|t| t.deadline()), go_on).map(Reasoner::loaded)
    }

    /// Loads a program within a deadline; the result starts a new deadline per query.
    fn load(program: Program, limits: Limits, deadline: Option<Deadline>) -> std::result::Result<Reasoner, Diagnostic> {
        match Reasoner::build_within(program, limits, deadline) {
            Ok(r) => Ok(r.loaded()),
            Err(LoadFailure::Invalid(d)) => Err(d),
            Err(LoadFailure::Limit(e)) => Err(Diagnostic::error("runtime", Default::default(), e.message)),
        }
    }

    /// Loading is over: from now on each query is a request of its own.
    fn loaded(mut self) -> Reasoner {
        self.load_deadline = None;
        if let Some(t) = &mut self.tabled {
            t.keep();
        }
        self
    }

    /// Evaluates the components of `plan` not yet computed for the current state and move.
    fn evaluate(&mut self, plan: &[usize]) -> Result<()> {
        self.evaluate_while(plan, &mut |_| true).map(drop)
    }

    /// Evaluates the components of `plan` in order while `go_on` says so after each (and
    /// after each round of a recursive one); false if it stopped early.
    fn evaluate_while(&mut self, plan: &[usize], go_on: &mut dyn FnMut(&Reasoner) -> bool) -> Result<bool> {
        let budget = self.limits.max_join_steps.min(self.work_cap.saturating_sub(self.work));
        self.budget = budget;
        let result = self.evaluate_in_budget(plan, go_on);
        self.work += budget - self.budget;
        result
    }

    fn evaluate_in_budget(&mut self, plan: &[usize], go_on: &mut dyn FnMut(&Reasoner) -> bool) -> Result<bool> {
        for &c in plan {
            if self.done[c] {
                continue;
            }
            if !self.eval_component(c, go_on)? {
                return Ok(false);
            }
            self.done[c] = true;
            if !go_on(self) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Evaluates component `c`; false when `go_on` stopped it after a round.
    fn eval_component(&mut self, c: usize, go_on: &mut dyn FnMut(&Reasoner) -> bool) -> Result<bool> {
        // The rules leave the component while they run, so that `self` stays free to change.
        let rules = std::mem::take(&mut self.comps[c].rules);
        let result = self.eval_rules(c, &rules, go_on);
        self.comps[c].rules = rules;
        result
    }

    fn eval_rules(&mut self, c: usize, rules: &[CRule], go_on: &mut dyn FnMut(&Reasoner) -> bool) -> Result<bool> {
        for rule in rules {
            self.run_plan(&rule.full)?;
        }
        if !self.comps[c].recursive {
            return self.check_size(c).map(|()| true);
        }
        let rels = self.comps[c].rels.clone();
        let mut marks = vec![0; rels.len()];
        loop {
            let mut changed = false;
            for (i, &r) in rels.iter().enumerate() {
                let len = self.facts[r as usize].len();
                self.delta[r as usize] = (marks[i], len);
                changed |= len > marks[i];
                marks[i] = len;
            }
            if !changed {
                return Ok(true);
            }
            for rule in rules {
                for plan in &rule.delta {
                    self.run_plan(plan)?;
                }
            }
            self.check_size(c)?;
            if !go_on(self) {
                return Ok(false);
            }
        }
    }

    /// Runs one plan and adds the facts it derives.
    fn run_plan(&mut self, plan: &compile::Plan) -> Result<()> {
        self.work += PLAN_COST;
        let stop = Stop { max_solutions: self.limits.max_facts, deadline: self.deadline };
        let solutions =
            match Exec::run(&self.facts, &self.store, &self.delta, &mut self.scratch, &mut self.budget, stop, plan) {
                Ok(n) => n,
                Err(Exhausted::Time) => {
                    let millis = self.limits.time.map_or(0.0, |t| t.millis);
                    return Err(self.limit_error(
                        plan.head_rel,
                        format!(
                            "took longer than {millis} ms, the time allowed for one request (raise the limit \
                             max_millis if this is intended)"
                        ),
                    ));
                }
                Err(Exhausted::Steps) => {
                    return Err(self.limit_error(
                        plan.head_rel,
                        format!(
                        "took more than {} join steps: a rule joins too many facts (raise the limit max_join_steps if \
                     this is intended)",
                        self.limits.max_join_steps
                    ),
                    ))
                }
                Err(Exhausted::Solutions) => return Err(self.too_many_facts(plan.head_rel)),
            };
        let rel = &mut self.facts[plan.head_rel as usize];
        let width = plan.head_slots.len();
        // A head without variables is derived once, however many solutions there are.
        let groups = if width == 0 { solutions.min(1) } else { solutions };
        let Scratch { bind, out, tuple, .. } = &mut self.scratch;
        for k in 0..groups {
            for (&v, &x) in plan.head_slots.iter().zip(&out[k * width..]) {
                bind[v as usize] = x;
            }
            tuple.clear();
            for p in plan.head.iter() {
                match eval::build(&mut self.store, bind, p) {
                    Ok(t) => tuple.push(t),
                    Err(e) => {
                        return Err(self.limit_error(
                            plan.head_rel,
                            format!(
                                "built a term nested deeper than {} levels: the game builds ever-growing terms \
                             (raise the limit max_term_depth if this is intended)",
                                e.0
                            ),
                        ))
                    }
                }
            }
            if rel.insert(tuple, &self.store) {
                self.work += FACT_COST;
            }
        }
        Ok(())
    }

    fn check_size(&self, c: usize) -> Result<()> {
        let rels = &self.comps[c].rels;
        if let Some(&r) = rels.iter().find(|&&r| self.facts[r as usize].len() as usize > self.limits.max_facts) {
            return Err(self.too_many_facts(r));
        }
        if self.store.len() > self.limits.max_terms {
            return Err(self.limit_error(
                rels[0],
                format!(
                    "made the game hold more than {} distinct terms, too many for memory (raise the limit max_terms \
                     if this is intended)",
                    self.limits.max_terms
                ),
            ));
        }
        Ok(())
    }

    fn too_many_facts(&self, rel: RelId) -> RuntimeError {
        self.limit_error(
            rel,
            format!(
                "grew past {} facts: the game derives too many facts (raise the limit max_facts if this is intended)",
                self.limits.max_facts
            ),
        )
    }

    /// A limit was reached while computing `rel`.
    fn limit_error(&self, rel: RelId, what: String) -> RuntimeError {
        let name = self.rels.name(rel);
        RuntimeError {
            message: format!("computing {name} {what}"),
            relation: Some(self.rels.keys[rel as usize].clone()),
        }
    }

    /// Makes `state` the current state: clears state and move facts, loads `true` facts:
    /// only those that changed when few did (a chess ply changes 2-6 of 40), else all.
    fn set_state(&mut self, state: &State) {
        if self.current_state.as_ref() == Some(state) {
            return;
        }
        self.reset(Phase::State);
        let t = self.r_true as usize;
        let changed = sorted_difference(&self.trues, state).take(state.len() / 2 + 1).count();
        self.trues_in_order = changed * 2 > state.len();
        if self.trues_in_order {
            self.facts[t].clear();
            for &f in state.iter() {
                self.facts[t].insert(&[f], &self.store);
            }
        } else {
            for (f, gone) in sorted_difference(&self.trues, state) {
                if gone {
                    self.facts[t].remove(&[f], &self.store);
                } else {
                    self.facts[t].insert(&[f], &self.store);
                }
            }
        }
        if let Some(tabled) = &mut self.tabled {
            tabled.set_state(sorted_difference(&self.trues, state), &self.facts[t], &self.store);
        }
        self.trues = state.clone();
        self.current_state = Some(state.clone());
    }

    fn set_moves(&mut self, joint: &[TermId]) {
        if self.current_moves.as_deref() == Some(joint) {
            return;
        }
        self.reset(Phase::Move);
        let d = self.r_does as usize;
        for (i, &m) in joint.iter().enumerate() {
            self.facts[d].insert(&[self.role_terms[i], m], &self.store);
        }
        self.current_moves = Some(joint.to_vec());
    }

    /// Forgets everything computed in `phase` and later phases.
    fn reset(&mut self, phase: Phase) {
        for (c, comp) in self.comps.iter().enumerate() {
            if comp.phase >= phase && comp.phase != Phase::Static {
                self.done[c] = false;
                // `true` holds `trues`, changed by `set_state`.
                for &r in comp.rels.iter().filter(|&&r| r != self.r_true) {
                    self.facts[r as usize].clear();
                }
            }
        }
        self.current_moves = None;
        if phase == Phase::State {
            self.current_state = None;
        }
        if let Some(t) = &mut self.tabled {
            t.reset(phase);
        }
    }

    /// Evaluates what `query` needs in the current state (and move).
    fn query(&mut self, query: Query) -> Result<()> {
        let target = [self.r_legal, self.r_terminal, self.r_goal, self.r_next, self.r_sees][query as usize];
        if self.tabled.as_ref().is_some_and(|t| t.answers(target)) && self.query_tabled(query, target) {
            return Ok(());
        }
        self.start_request();
        let plan = std::mem::take(&mut self.plans[query as usize]);
        let res = self.evaluate(&plan);
        self.plans[query as usize] = plan;
        if res.is_err() {
            // Half-computed relations must not be reused.
            self.reset(Phase::State);
        }
        res
    }

    /// Answers `query` top-down into its relation's facts. False if a limit was reached: the
    /// top-down evaluator is then dropped, and this query and the next run bottom-up.
    fn query_tabled(&mut self, query: Query, target: RelId) -> bool {
        let Some(mut t) = self.tabled.take() else { return false };
        if t.answered[query as usize] {
            self.tabled = Some(t);
            return true;
        }
        self.start_request();
        let budget = self.limits.max_join_steps.min(self.work_cap.saturating_sub(self.work));
        self.budget = budget;
        // Relations about a role are asked role by role, as players ask them: a rule asking
        // about one role (chess's `terminal` asks whether the player in control has a legal
        // move) then shares the answers instead of computing them again for every role.
        let by_role = matches!(query, Query::Legal | Query::Goal | Query::Sees);
        self.facts[target as usize].clear();
        let mut answered = true;
        for role in 0..if by_role { self.role_terms.len() } else { 1 } {
            let first = if by_role { self.role_terms[role] } else { eval::UNBOUND };
            match t.answer(self, target, first) {
                Ok(answers) => {
                    let facts = &mut self.facts[target as usize];
                    for i in 0..answers.len() {
                        facts.insert(answers.tuple(i), &self.store);
                    }
                }
                Err(tabled::Fail) => {
                    answered = false;
                    break;
                }
            }
        }
        self.work += budget - self.budget;
        // On failure the tables go with the evaluator; the facts bottom-up evaluation
        // reads (`true`, `does`, static relations) are untouched.
        if answered {
            t.answered[query as usize] = true;
            self.tabled = Some(t);
        }
        answered
    }

    /// The same reasoner with other limits for the requests to come (its load is over).
    pub fn with_limits(mut self, limits: Limits) -> Reasoner {
        self.limits = limits;
        self
    }

    /// Whether the state-dependent relations are answered top-down, with tables.
    pub fn is_tabled(&self) -> bool {
        self.tabled.is_some()
    }

    /// A request starts: its deadline is the load's while loading, else a new one.
    fn start_request(&mut self) {
        self.deadline = self.load_deadline.or_else(|| self.limits.time.map(|t| t.deadline()));
    }

    /// Programs loaded while choosing how to evaluate the game (see `adapt`), this one
    /// included: most of the load's time.
    pub fn programs_loaded(&self) -> usize {
        self.loads
    }

    /// The relations of the rules as written that this reasoner computes on demand, only
    /// for the arguments asked about (`name/arity`, sorted).
    pub fn on_demand(&self) -> Vec<String> {
        let mut v: Vec<String> = (self.rels.keys.iter())
            .filter_map(|k| crate::program::magic::adorned(k).map(|(n, a)| format!("{n}/{a}")))
            .collect();
        crate::order::sort(&mut v);
        v.dedup();
        v
    }

    /// The term store, to read the ids of states and moves.
    pub fn store(&self) -> &TermStore {
        &self.store
    }

    /// The same reasoner, answering `percepts` as a game that defines `sees` (a ground
    /// program where no `sees` rule is left still is a GDL-II game).
    pub fn defining_sees(mut self, yes: bool) -> Reasoner {
        self.defines_sees |= yes;
        self
    }

    /// The same reasoner reporting another engine name (e.g. `ground` when it runs a ground
    /// program).
    pub fn named(mut self, name: &'static str) -> Reasoner {
        self.name = name;
        self
    }

    /// Evaluates every static component, also those no query needs (the grounder reads
    /// them all).
    pub fn evaluate_all(&mut self) -> Result<()> {
        self.evaluate_all_while(&mut |_| true).map(drop)
    }

    /// Evaluates every static component like `evaluate_all` while `go_on` says so after
    /// each and after each round of a recursive one (the grounder stops once a program is
    /// sure to be too big); false if it stopped.
    pub fn evaluate_all_while(&mut self, go_on: &mut dyn FnMut(&Reasoner) -> bool) -> Result<bool> {
        self.start_request();
        let all: Vec<usize> = (0..self.comps.len()).filter(|&c| self.comps[c].phase == Phase::Static).collect();
        self.evaluate_while(&all, go_on)
    }

    /// Every fact of relation `name/arity` currently derived (static relations: always).
    pub fn facts(&self, name: &str, arity: usize) -> Vec<&[TermId]> {
        let Some(r) = self.rels.get(name, arity) else { return Vec::new() };
        let rel = &self.facts[r as usize];
        (0..rel.len()).map(|i| rel.tuple(i)).collect()
    }

    /// The number of facts of relation `name/arity` currently derived.
    pub fn fact_count(&self, name: &str, arity: usize) -> usize {
        self.rels.get(name, arity).map_or(0, |r| self.facts[r as usize].len() as usize)
    }

    /// Removes the facts of relation `name/arity` and returns their number and the facts,
    /// flat (`arity` ids a fact), for a caller that has finished evaluating (the grounder,
    /// reading each capture once).
    pub fn take_facts(&mut self, name: &str, arity: usize) -> (usize, Vec<TermId>) {
        match self.rels.get(name, arity) {
            Some(r) => self.facts[r as usize].take(),
            None => (0, Vec::new()),
        }
    }

    /// Evaluates every relation in `state`, and with `joint` also those depending on
    /// moves, so that `facts` lists all of them (the explainer reads the whole model, its
    /// `true` facts in the state's order, whatever states came before).
    pub fn evaluate_in(&mut self, state: &State, joint: Option<&[TermId]>) -> Result<()> {
        if !self.trues_in_order {
            self.facts[self.r_true as usize].clear();
            (self.current_state, self.trues) = (None, State::from(vec![]));
            // The next difference is from no state: the state tables cannot tell what left.
            if let Some(tabled) = &mut self.tabled {
                tabled.forget();
            }
        }
        self.set_state(state);
        let upto = match joint {
            Some(j) => {
                self.set_moves(j);
                Phase::Move
            }
            None => Phase::State,
        };
        let plan: Vec<usize> = (0..self.comps.len()).filter(|&c| self.comps[c].phase <= upto).collect();
        let res = self.evaluate(&plan);
        if res.is_err() {
            self.reset(Phase::State);
        }
        res
    }

    /// The term store, to intern new terms built from the facts.
    pub fn store_mut(&mut self) -> &mut TermStore {
        &mut self.store
    }
}

impl StateMachine for Reasoner {
    type State = State;
    type Move = TermId;

    fn roles(&self) -> &[String] {
        &self.role_names
    }

    fn initial_state(&self) -> State {
        self.init.clone()
    }

    fn legal_moves(&mut self, state: &State, role: usize) -> Result<Vec<TermId>> {
        self.set_state(state);
        self.query(Query::Legal)?;
        let rel = &self.facts[self.r_legal as usize];
        let who = self.role_terms[role];
        let moves: Vec<TermId> = (0..rel.len()).map(|i| rel.tuple(i)).filter(|t| t[0] == who).map(|t| t[1]).collect();
        if self.sorted_moves.len() <= role {
            self.sorted_moves.resize(role + 1, Default::default());
        }
        let (derived, sorted) = &mut self.sorted_moves[role];
        if *derived != moves {
            let store = &self.store;
            *sorted = moves.clone();
            sorted.sort_unstable_by(|&a, &b| store.text(a).cmp(store.text(b)));
            *derived = moves;
        }
        Ok(sorted.clone())
    }

    fn is_terminal(&mut self, state: &State) -> Result<bool> {
        self.set_state(state);
        self.query(Query::Terminal)?;
        Ok(!self.facts[self.r_terminal as usize].is_empty())
    }

    fn goals(&mut self, state: &State) -> Result<Vec<Vec<GoalValue>>> {
        self.set_state(state);
        self.query(Query::Goal)?;
        let rel = &self.facts[self.r_goal as usize];
        let mut goals = vec![Vec::new(); self.role_terms.len()];
        for i in 0..rel.len() {
            let t = rel.tuple(i);
            if let Some(r) = self.role_terms.iter().position(|&x| x == t[0]) {
                goals[r].push(match self.store.as_int(t[1]) {
                    Some(v) => GoalValue::Int(v),
                    None => GoalValue::Text(self.store.text(t[1]).to_string()),
                });
            }
        }
        for g in &mut goals {
            crate::order::sort(g);
        }
        Ok(goals)
    }

    fn next_state(&mut self, state: &State, joint: &[TermId]) -> Result<State> {
        self.set_state(state);
        self.set_moves(joint);
        self.query(Query::Next)?;
        let rel = &self.facts[self.r_next as usize];
        Ok(sorted_state((0..rel.len()).map(|i| rel.tuple(i)[0]).collect()))
    }

    fn percepts(&mut self, state: &State, joint: &[TermId]) -> Result<Option<Vec<Vec<String>>>> {
        if !self.defines_sees {
            return Ok(None);
        }
        self.set_state(state);
        self.set_moves(joint);
        self.query(Query::Sees)?;
        let rel = &self.facts[self.r_sees as usize];
        let mut seen = vec![Vec::new(); self.role_terms.len()];
        for i in 0..rel.len() {
            let t = rel.tuple(i);
            if let Some(r) = self.role_terms.iter().position(|&x| x == t[0]) {
                seen[r].push(self.store.text(t[1]).to_string());
            }
        }
        for p in &mut seen {
            crate::order::sort(p);
            p.dedup();
        }
        Ok(Some(seen))
    }

    fn state_text(&self, state: &State) -> Vec<String> {
        let mut v: Vec<String> = state.iter().map(|&t| self.store.text(t).to_string()).collect();
        crate::order::sort(&mut v);
        v
    }

    fn move_text(&self, m: TermId) -> String {
        self.store.text(m).to_string()
    }

    fn engine_name(&self) -> &'static str {
        self.name
    }
}

#[cfg(test)]
mod tests;
