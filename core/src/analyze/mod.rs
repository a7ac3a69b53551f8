//! Game requirements (the Stanford notes): termination, playability, well-formed goals, weak
//! and strong winnability, and the declared `base`/`input` domains. Exact when every
//! reachable state fits a limit (exhaustive search of the state graph); otherwise random
//! playouts, whose silence is reported as "not proven". Every failure found comes with a
//! witness path: joint moves as text that the play pane can open.
//!
//! Generic over `StateMachine`: faster engines make it faster. Invariant: `Holds` and
//! `Fails` are proofs (an exhaustive search, or a concrete path); simulation alone never
//! yields `Holds` except for winnability, which a concrete winning path proves.

use crate::machine::{GoalValue, Result, StateMachine};
use crate::rng::Rng;
use crate::solve::{every_joint, goal_number};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;
use std::hash::Hash;

/// How hard to look.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Most states searched exhaustively; bigger games are simulated.
    pub max_states: usize,
    /// Random playouts when the state space is too big.
    pub playouts: usize,
    /// A playout longer than this counts as not ending.
    pub max_steps: usize,
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options { max_states: 100_000, playouts: 1_000, max_steps: 500, seed: 1 }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub enum Outcome {
    /// Proven.
    Holds,
    /// Proven false (a witness path, or the exhaustive search).
    Fails,
    /// Random playouts found no counterexample: likely, but not proven.
    NotProven,
}

/// One requirement, for one role or the whole game.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Check {
    pub name: &'static str,
    pub role: Option<String>,
    pub outcome: Outcome,
    /// Part of well-formedness (the others are reported for information).
    pub required: bool,
    /// What was found, in plain words.
    pub detail: String,
    /// Joint moves from the initial state to the position the detail is about.
    pub witness: Option<Vec<Vec<String>>>,
}

#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Report {
    /// "exhaustive" or "simulation".
    #[cfg_attr(feature = "tsify", tsify(type = "\"exhaustive\" | \"simulation\""))]
    pub method: &'static str,
    /// States searched (exhaustive) or visited in playouts.
    pub states: usize,
    pub playouts: usize,
    pub checks: Vec<Check>,
    /// Terminating, playable, goals well-formed and weakly winnable for every role (and
    /// strongly winnable for a single player).
    pub well_formed: Outcome,
}

/// The `base` and `input` facts a description declares, as text (`None`: not declared).
#[derive(Clone, Debug, Default)]
pub struct Declared {
    pub base: Option<FxHashSet<String>>,
    /// Per role (in role order), the declared moves.
    pub input: Option<Vec<FxHashSet<String>>>,
}

impl Declared {
    /// The declared domains of a loaded game (its static `base` and `input` facts).
    pub fn of(desc: &crate::ast::Description, limits: crate::reasoner::Limits) -> Declared {
        let Ok(mut m) = crate::reasoner::Reasoner::new(desc, limits) else { return Declared::default() };
        if m.evaluate_all().is_err() {
            return Declared::default();
        }
        let text = |t| m.store().text(t).to_string();
        let base: FxHashSet<String> = m.facts("base", 1).iter().map(|f| text(f[0])).collect();
        let roles = m.roles().to_vec();
        let mut input = vec![FxHashSet::default(); roles.len()];
        let facts = m.facts("input", 2);
        for f in &facts {
            if let Some(r) = roles.iter().position(|r| *r == text(f[0])) {
                input[r].insert(text(f[1]));
            }
        }
        Declared { base: (!base.is_empty()).then_some(base), input: (!facts.is_empty()).then_some(input) }
    }
}

/// Checks the requirements of the game `m` plays.
pub fn analyze<M: StateMachine>(m: &mut M, declared: &Declared, options: Options) -> Result<Report>
where
    M::State: Hash,
{
    match exhaustive(m, declared, options)? {
        Some(report) => Ok(report),
        None => {
            let roles = m.roles().to_vec();
            Ok(sampled(&roles, declared, options, sample(m, declared, options, 0, 1)?))
        }
    }
}

/// The report of an exhaustive search, when the reachable states fit `max_states`.
pub fn exhaustive<M: StateMachine>(m: &mut M, declared: &Declared, options: Options) -> Result<Option<Report>>
where
    M::State: Hash,
{
    let mut findings = Findings::new(m.roles().len());
    Ok(explore(m, declared, options.max_states, &mut findings)?.map(|graph| graph.report(m, findings, declared)))
}

/// A witness path: states' parents are kept, so any state's path can be rebuilt.
type Path = Vec<Vec<String>>;

/// First failures (and first wins) found, in the order the search meets them.
struct Findings {
    unplayable: Option<(Path, String)>,
    bad_goals: Option<(Path, String)>,
    outside_base: Option<(Path, String)>,
    outside_input: Option<(Path, String)>,
    wins: Vec<Option<Path>>,
    states: usize,
}

impl Findings {
    fn new(roles: usize) -> Findings {
        Findings {
            unplayable: None,
            bad_goals: None,
            outside_base: None,
            outside_input: None,
            wins: vec![None; roles],
            states: 0,
        }
    }

    /// Records what one state shows; `path` builds its witness path when needed.
    fn state<M: StateMachine>(
        &mut self,
        m: &mut M,
        s: &M::State,
        declared: &Declared,
        path: &dyn Fn() -> Path,
    ) -> Result<Option<Vec<Vec<M::Move>>>> {
        self.states += 1;
        if self.outside_base.is_none() {
            if let Some(base) = &declared.base {
                if let Some(f) = m.state_text(s).into_iter().find(|f| !base.contains(f)) {
                    self.outside_base = Some((path(), format!("the fluent {f} is not declared in base")));
                }
            }
        }
        let roles = m.roles().to_vec();
        if m.is_terminal(s)? {
            let goals = m.goals(s)?;
            for (r, values) in goals.iter().enumerate() {
                if self.bad_goals.is_none() {
                    if let Some(problem) = goal_problem(values) {
                        self.bad_goals = Some((path(), format!("in this terminal state {} {problem}", roles[r])));
                    }
                }
                if self.wins[r].is_none() && goal_number(values) == 100 {
                    self.wins[r] = Some(path());
                }
            }
            return Ok(None);
        }
        let mut legal = Vec::new();
        for (r, role) in roles.iter().enumerate() {
            let moves = m.legal_moves(s, r)?;
            if moves.is_empty() && self.unplayable.is_none() {
                self.unplayable =
                    Some((path(), format!("{role} has no legal move in this state, which is not terminal")));
            }
            if let (None, Some(input)) = (&self.outside_input, &declared.input) {
                if let Some(x) = moves.iter().map(|&x| m.move_text(x)).find(|x| !input[r].contains(x)) {
                    self.outside_input = Some((path(), format!("{role}'s legal move {x} is not declared in input")));
                }
            }
            legal.push(moves);
        }
        Ok(Some(legal))
    }

    /// The checks every method reports the same way; `proven` says whether silence is proof.
    fn common_checks(&self, roles: &[String], declared: &Declared, proven: bool, what: &str) -> Vec<Check> {
        let silent = if proven { Outcome::Holds } else { Outcome::NotProven };
        let check = |name, required, found: &Option<(Path, String)>, ok: String| match found {
            Some((p, d)) => Check {
                name,
                role: None,
                outcome: Outcome::Fails,
                required,
                detail: d.clone(),
                witness: Some(p.clone()),
            },
            None => Check { name, role: None, outcome: silent, required, detail: ok, witness: None },
        };
        let mut out = vec![
            check(
                "playability",
                true,
                &self.unplayable,
                format!("every role has a legal move in every {what} state that is not terminal"),
            ),
            check(
                "goals",
                true,
                &self.bad_goals,
                format!("every role has exactly one goal value, between 0 and 100, in every {what} terminal state"),
            ),
        ];
        if declared.base.is_some() {
            out.push(check(
                "base",
                false,
                &self.outside_base,
                format!("every fluent of every {what} state is declared in base"),
            ));
        }
        if declared.input.is_some() {
            out.push(check(
                "input",
                false,
                &self.outside_input,
                format!("every legal move in every {what} state is declared in input"),
            ));
        }
        for (r, win) in self.wins.iter().enumerate() {
            out.push(match win {
                Some(p) => Check {
                    name: "weak winnability",
                    role: Some(roles[r].clone()),
                    outcome: Outcome::Holds,
                    required: true,
                    detail: format!("these moves end the game with {} scoring 100", roles[r]),
                    witness: Some(p.clone()),
                },
                None => Check {
                    name: "weak winnability",
                    role: Some(roles[r].clone()),
                    outcome: if proven { Outcome::Fails } else { Outcome::NotProven },
                    required: true,
                    detail: format!("no {what} terminal state gives {} 100", roles[r]),
                    witness: None,
                },
            });
        }
        out
    }
}

/// Why a role's goal values in a terminal state are not well-formed, if they are not.
fn goal_problem(values: &[GoalValue]) -> Option<String> {
    match values {
        [] => Some("has no goal value".into()),
        [GoalValue::Int(v)] if (0..=100).contains(v) => None,
        [v] => Some(format!("has the goal value {}, not an integer between 0 and 100", crate::solve::goal_text(v))),
        _ => Some(format!("has {} goal values instead of one", values.len())),
    }
}

/// The reachable state graph.
struct Graph<M: StateMachine> {
    /// Per state: the state it was first reached from, and the joint move as text.
    parent: Vec<Option<(u32, Vec<String>)>>,
    /// Per state: its legal moves per role (none when terminal) and its successors, one per
    /// joint move in `every_joint` order.
    legal: Vec<Option<Vec<Vec<M::Move>>>>,
    children: Vec<Vec<u32>>,
    goals: Vec<Vec<i64>>,
}

/// Searches every reachable state; None when there are more than `max_states`.
fn explore<M: StateMachine>(
    m: &mut M,
    declared: &Declared,
    max_states: usize,
    findings: &mut Findings,
) -> Result<Option<Graph<M>>>
where
    M::State: Hash,
{
    let init = m.initial_state();
    let mut states = vec![init.clone()];
    let mut index: FxHashMap<M::State, u32> = FxHashMap::default();
    index.insert(init, 0);
    let mut g = Graph::<M> { parent: vec![None], legal: Vec::new(), children: Vec::new(), goals: Vec::new() };
    let mut next = 0;
    while next < states.len() {
        let s = states[next].clone();
        let legal = findings.state(m, &s, declared, &|| g.path(next as u32))?;
        let goals = if legal.is_none() { m.goals(&s)?.iter().map(|v| goal_number(v)).collect() } else { Vec::new() };
        let mut children = Vec::new();
        for joint in legal.as_deref().map(every_joint).unwrap_or_default() {
            let t = m.next_state(&s, &joint)?;
            let id = match index.get(&t) {
                Some(&id) => id,
                None => {
                    if states.len() >= max_states {
                        return Ok(None);
                    }
                    let id = states.len() as u32;
                    index.insert(t.clone(), id);
                    states.push(t);
                    g.parent.push(Some((next as u32, joint.iter().map(|&x| m.move_text(x)).collect())));
                    id
                }
            };
            children.push(id);
        }
        g.legal.push(legal);
        g.children.push(children);
        g.goals.push(goals);
        next += 1;
    }
    Ok(Some(g))
}

impl<M: StateMachine> Graph<M> {
    fn path(&self, mut s: u32) -> Path {
        let mut out = Vec::new();
        while let Some((p, joint)) = &self.parent[s as usize] {
            out.push(joint.clone());
            s = *p;
        }
        out.reverse();
        out
    }

    fn joint_text(&self, m: &M, s: u32, k: usize) -> Vec<String> {
        let legal = self.legal[s as usize].as_ref().expect("not terminal");
        every_joint(legal)[k].iter().map(|&x| m.move_text(x)).collect()
    }

    /// A line of play that comes back to a state of its own, or None; and, when there is
    /// none, the states in an order where every state comes after its successors.
    fn cycle(&self, m: &M) -> std::result::Result<Vec<u32>, (Path, usize)> {
        const NEW: u8 = 0;
        const OPEN: u8 = 1;
        const DONE: u8 = 2;
        let mut colour = vec![NEW; self.children.len()];
        let mut order = Vec::with_capacity(self.children.len());
        // The stack holds (state, next child index).
        let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
        colour[0] = OPEN;
        while let Some(&mut (s, ref mut k)) = stack.last_mut() {
            let children = &self.children[s as usize];
            if *k == children.len() {
                colour[s as usize] = DONE;
                order.push(s);
                stack.pop();
                continue;
            }
            let c = children[*k];
            *k += 1;
            match colour[c as usize] {
                NEW => {
                    colour[c as usize] = OPEN;
                    stack.push((c, 0));
                }
                OPEN => {
                    let mut path: Path = stack.iter().map(|&(t, k)| self.joint_text(m, t, k - 1)).collect();
                    let back = stack.iter().position(|&(t, _)| t == c).expect("open states are on the stack");
                    path.truncate(stack.len());
                    return Err((path, back));
                }
                _ => {}
            }
        }
        Ok(order)
    }

    fn report(&self, m: &M, findings: Findings, declared: &Declared) -> Report {
        let roles = m.roles().to_vec();
        let n = self.children.len();
        let mut checks = Vec::new();
        let order = self.cycle(m);
        checks.push(match &order {
            Ok(order) => {
                let mut longest = vec![0usize; n];
                for &s in order {
                    longest[s as usize] =
                        self.children[s as usize].iter().map(|&c| longest[c as usize] + 1).max().unwrap_or(0);
                }
                Check {
                    name: "termination",
                    role: None,
                    outcome: Outcome::Holds,
                    required: true,
                    detail: format!("no line of play repeats a state: every game ends within {} moves", longest[0]),
                    witness: None,
                }
            }
            Err((path, back)) => endless(path, *back),
        });
        checks.extend(findings.common_checks(&roles, declared, true, "reachable"));
        for r in 0..roles.len() {
            checks.push(self.strong(m, r, order.as_ref().ok(), roles.len() == 1));
        }
        let well_formed = overall(&checks);
        Report { method: "exhaustive", states: n, playouts: 0, checks, well_formed }
    }

    /// Strong winnability of role `r`: its guaranteed value in the initial state is 100.
    fn strong(&self, m: &M, r: usize, order: Option<&Vec<u32>>, required: bool) -> Check {
        let role = m.roles()[r].clone();
        let Some(order) = order else {
            return Check {
                name: "strong winnability",
                role: Some(role),
                outcome: Outcome::NotProven,
                required,
                detail: "not determined: play can go on forever".into(),
                witness: None,
            };
        };
        let mut value = vec![0i64; self.children.len()];
        // Per state, the joint move index of r's best move against the worst reply.
        let mut line = vec![0usize; self.children.len()];
        for &s in order {
            let s = s as usize;
            let Some(legal) = &self.legal[s] else {
                value[s] = self.goals[s][r];
                continue;
            };
            let joints = every_joint(legal);
            let mut best = (i64::MIN, 0);
            for &mine in &legal[r] {
                let worst = (0..joints.len())
                    .filter(|&k| joints[k][r] == mine)
                    .map(|k| (value[self.children[s][k] as usize], k))
                    .min_by_key(|&(v, _)| v)
                    .unwrap_or((i64::MIN, 0));
                if worst.0 > best.0 {
                    best = worst;
                }
            }
            (value[s], line[s]) = best;
        }
        let v = value[0];
        if v < 100 {
            return Check {
                name: "strong winnability",
                role: Some(role.clone()),
                outcome: Outcome::Fails,
                required,
                detail: format!("{role} cannot force a win: against best play it gets {v}"),
                witness: None,
            };
        }
        let mut path = Vec::new();
        let mut s = 0usize;
        while self.legal[s].is_some() {
            path.push(self.joint_text(m, s as u32, line[s]));
            s = self.children[s][line[s]] as usize;
        }
        Check {
            name: "strong winnability",
            role: Some(role.clone()),
            outcome: Outcome::Holds,
            required,
            detail: format!("{role} can force a win; these moves are its strategy against the others' best replies"),
            witness: Some(path),
        }
    }
}

/// Termination fails: `path` comes back to the position after move `back`.
fn endless(path: &Path, back: usize) -> Check {
    Check {
        name: "termination",
        role: None,
        outcome: Outcome::Fails,
        required: true,
        detail: format!(
            "these {} moves return to the position after move {back}, so play can go on forever",
            path.len()
        ),
        witness: Some(path.clone()),
    }
}

fn overall(checks: &[Check]) -> Outcome {
    let required = checks.iter().filter(|c| c.required);
    if required.clone().any(|c| c.outcome == Outcome::Fails) {
        Outcome::Fails
    } else if required.clone().all(|c| c.outcome == Outcome::Holds) {
        Outcome::Holds
    } else {
        Outcome::NotProven
    }
}

/// What random playouts found: first failures and wins, a line that returns to one of its
/// states (with the move it returns after), a line that did not end.
pub struct Sample {
    findings: Findings,
    repeat: Option<(Path, usize)>,
    long: Option<Path>,
}

impl Sample {
    /// Samples joined in order: the first finding of each kind wins; states add up.
    pub fn merge(samples: Vec<Sample>) -> Option<Sample> {
        samples.into_iter().reduce(|mut a, b| {
            let f = &mut a.findings;
            for (mine, theirs) in [
                (&mut f.unplayable, b.findings.unplayable),
                (&mut f.bad_goals, b.findings.bad_goals),
                (&mut f.outside_base, b.findings.outside_base),
                (&mut f.outside_input, b.findings.outside_input),
            ] {
                if mine.is_none() {
                    *mine = theirs;
                }
            }
            for (mine, theirs) in f.wins.iter_mut().zip(b.findings.wins) {
                if mine.is_none() {
                    *mine = theirs;
                }
            }
            f.states += b.findings.states;
            a.repeat = a.repeat.or(b.repeat);
            a.long = a.long.or(b.long);
            a
        })
    }
}

/// Part `part` of `parts` of the random playouts (playouts `part`, `part + parts`, ...),
/// for games too big to search; the generator is seeded `seed + part`, so one part is
/// every playout with the seed as given.
pub fn sample<M: StateMachine>(
    m: &mut M,
    declared: &Declared,
    options: Options,
    part: usize,
    parts: usize,
) -> Result<Sample>
where
    M::State: Hash,
{
    let mut f = Findings::new(m.roles().len());
    let mut rng = Rng::new(options.seed.wrapping_add(part as u64));
    let mut repeat: Option<(Path, usize)> = None;
    let mut long: Option<Path> = None;
    for _ in (part..options.playouts).step_by(parts.max(1)) {
        let mut s = m.initial_state();
        let mut seen: FxHashMap<M::State, usize> = FxHashMap::default();
        let mut path: Path = Vec::new();
        loop {
            if let Some(&earlier) = seen.get(&s) {
                repeat.get_or_insert((path.clone(), earlier));
                break;
            }
            seen.insert(s.clone(), path.len());
            let Some(legal) = f.state(m, &s, declared, &|| path.clone())? else { break };
            if legal.iter().any(Vec::is_empty) {
                break;
            }
            if path.len() >= options.max_steps {
                long.get_or_insert(path.clone());
                break;
            }
            let joint: Vec<M::Move> = legal.iter().map(|ms| ms[rng.below(ms.len())]).collect();
            path.push(joint.iter().map(|&x| m.move_text(x)).collect());
            s = m.next_state(&s, &joint)?;
        }
    }
    Ok(Sample { findings: f, repeat, long })
}

/// The report of random playouts (every part of them merged).
pub fn sampled(roles: &[String], declared: &Declared, options: Options, sample: Sample) -> Report {
    let Sample { findings: f, repeat, long } = sample;
    let mut checks = vec![match (&repeat, &long) {
        (Some((p, back)), _) => endless(p, *back),
        (None, Some(p)) => Check {
            name: "termination",
            role: None,
            outcome: Outcome::NotProven,
            required: true,
            detail: format!("a random playout did not end within {} moves (no state repeated)", options.max_steps),
            witness: Some(p.clone()),
        },
        (None, None) => Check {
            name: "termination",
            role: None,
            outcome: Outcome::NotProven,
            required: true,
            detail: format!("{} random playouts all ended within {} moves", options.playouts, options.max_steps),
            witness: None,
        },
    }];
    checks.extend(f.common_checks(roles, declared, false, "visited"));
    for role in roles {
        checks.push(Check {
            name: "strong winnability",
            role: Some(role.clone()),
            outcome: Outcome::NotProven,
            required: roles.len() == 1,
            detail: "not determined: the game has too many states to search".into(),
            witness: None,
        });
    }
    let well_formed = overall(&checks);
    Report { method: "simulation", states: f.states, playouts: options.playouts, checks, well_formed }
}

#[cfg(test)]
mod tests;
