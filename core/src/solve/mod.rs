//! Solving small games: the goal value each role can guarantee with each of its legal moves,
//! by exhaustive minimax with a transposition table and a node budget; and depth-limited
//! node counts (`perft`). Generic over `StateMachine`, so faster engines speed it up.
//!
//! The value of a state for role r is the *guaranteed* (paranoid) value: r's goal in a
//! terminal state, otherwise the best over r's moves of the worst over the other roles'
//! joint moves. In turn-taking two-player games this is the usual minimax value; with
//! simultaneous moves it is what r can secure whatever the others do. Searches cut off
//! when a role reaches 100 or is held to 0, which keeps every value exact.
//!
//! Invariant: a value is reported only when the search finished; the budget or a state
//! repeated along a line of play (the game could go on forever) stop it without a value.
//!
//! Where it is exact (`factored`), the search leaves out the moves of factors that no goal
//! reads; everywhere else it searches the whole game.

mod factored;
mod perft;

pub use perft::{perft, Perft};

use crate::deadline::Deadline;
use crate::machine::{GoalValue, Result, RuntimeError, StateMachine};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;
use std::hash::Hash;

/// Best and worst goal values in GDL.
const WIN: i64 = 100;
const LOSS: i64 = 0;

/// Every joint move: one legal move per role, the last role varying fastest.
pub fn every_joint<T: Copy>(legal: &[Vec<T>]) -> Vec<Vec<T>> {
    let mut out = vec![Vec::new()];
    for moves in legal {
        out = out.iter().flat_map(|pre| moves.iter().map(move |&m| [pre.as_slice(), &[m]].concat())).collect();
    }
    out
}

/// A role's goal value as a number: its largest integer value, 0 when it has none.
pub fn goal_number(values: &[GoalValue]) -> i64 {
    values.iter().filter_map(|v| if let GoalValue::Int(i) = v { Some(*i) } else { None }).max().unwrap_or(0)
}

/// A goal value as text: `100`, or the raw text of an ill-formed one.
pub fn goal_text(v: &GoalValue) -> String {
    match v {
        GoalValue::Int(i) => i.to_string(),
        GoalValue::Text(t) => t.clone(),
    }
}

/// The value one move of a role guarantees.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct MoveValue {
    #[serde(rename = "move")]
    pub text: String,
    /// None: not found within the budget.
    pub value: Option<i64>,
}

/// A role's moves with their values, best first.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct RoleValues {
    pub role: String,
    pub moves: Vec<MoveValue>,
    /// What the role can guarantee here (the best move value), when every move was solved.
    pub value: Option<i64>,
    /// In words: "x wins with (mark 2 2)".
    pub summary: String,
}

/// What a solve found: the moves' values of each role that has a choice.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Solution {
    pub roles: Vec<RoleValues>,
    /// States expanded (transposition table hits are not counted).
    pub nodes: u64,
    /// Whether every move of every role was solved.
    pub complete: bool,
    /// Why the search stopped early, if it did.
    pub stopped: Option<String>,
    /// What the search left out, in words, when it searched only the factors that decide
    /// the game (`factored`); none when it searched the whole game.
    pub factored: Option<String>,
}

/// How far a solve may go: states expanded, and optionally a time in milliseconds on the
/// caller's clock (core reads none).
#[derive(Clone, Copy)]
pub struct Limit<'a> {
    pub nodes: u64,
    pub time: Option<(f64, &'a dyn Fn() -> f64)>,
}

impl Limit<'_> {
    /// At most `nodes` states expanded, however long it takes.
    pub fn nodes(nodes: u64) -> Limit<'static> {
        Limit { nodes, time: None }
    }
}

/// Why a search stopped without a value.
enum Stop {
    Budget,
    Time,
    Cycle,
    /// The factored search met a state where only left-out moves are legal.
    Unfactored,
    Engine(RuntimeError),
}

impl From<RuntimeError> for Stop {
    fn from(e: RuntimeError) -> Self {
        Stop::Engine(e)
    }
}

/// Minimax for one role, with a table of solved states shared by all its searches.
struct RoleSearch<'a, M: StateMachine> {
    m: &'a mut M,
    role: usize,
    table: FxHashMap<M::State, i64>,
    line: FxHashSet<M::State>,
    nodes: &'a mut u64,
    budget: u64,
    /// When the time runs out, on the clock given.
    deadline: Option<(&'a mut Deadline, &'a dyn Fn() -> f64)>,
    /// The role's moves the search leaves out (`factored`), if any.
    left_out: Option<factored::LeftOut<M::Move>>,
}

impl<M: StateMachine> RoleSearch<'_, M>
where
    M::State: Hash,
{
    fn value(&mut self, s: &M::State) -> std::result::Result<i64, Stop> {
        if let Some(&v) = self.table.get(s) {
            return Ok(v);
        }
        *self.nodes += 1;
        if *self.nodes > self.budget {
            return Err(Stop::Budget);
        }
        if let Some((deadline, now)) = &mut self.deadline {
            if deadline.reached(*self.nodes, now) {
                return Err(Stop::Time);
            }
        }
        let v = if self.m.is_terminal(s)? {
            goal_number(&self.m.goals(s)?[self.role])
        } else {
            if !self.line.insert(s.clone()) {
                return Err(Stop::Cycle);
            }
            let legal = self.legal(s)?;
            let mut best = i64::MIN;
            for &mine in &legal[self.role] {
                best = best.max(self.worst(s, &legal, mine)?);
                if best >= WIN {
                    break;
                }
            }
            self.line.remove(s);
            best
        };
        self.table.insert(s.clone(), v);
        Ok(v)
    }

    /// The legal moves of each role, but those the search leaves out.
    fn legal(&mut self, s: &M::State) -> std::result::Result<Vec<Vec<M::Move>>, Stop> {
        let mut legal: Vec<Vec<M::Move>> =
            (0..self.m.roles().len()).map(|r| self.m.legal_moves(s, r)).collect::<Result<_>>()?;
        if let Some(out) = &mut self.left_out {
            let all = std::mem::take(&mut legal[self.role]);
            legal[self.role] = all.iter().copied().filter(|&mv| !out.leaves_out(&*self.m, mv)).collect();
            if legal[self.role].is_empty() && !all.is_empty() {
                return Err(Stop::Unfactored);
            }
        }
        Ok(legal)
    }

    /// The worst value for the role over the others' replies to its move `mine`.
    fn worst(&mut self, s: &M::State, legal: &[Vec<M::Move>], mine: M::Move) -> std::result::Result<i64, Stop> {
        let mut fixed = legal.to_vec();
        fixed[self.role] = vec![mine];
        let mut worst = i64::MAX;
        for joint in every_joint(&fixed) {
            let next = self.m.next_state(s, &joint)?;
            worst = worst.min(self.value(&next)?);
            if worst <= LOSS {
                break;
            }
        }
        Ok(worst)
    }
}

/// The values of the legal moves of each role that has a choice in `state` (every role if
/// none has), within `limit` (expanded states in all, and time). A search stopped by the
/// limit says how big the game tree is (`tree_size`). Where it is exact (`factored`), the
/// moves of factors no goal reads are left out of the search.
pub fn solve<M: StateMachine>(m: &mut M, state: &M::State, limit: Limit) -> Result<Solution>
where
    M::State: Hash,
{
    if let Some(out) = factored::left_out(m) {
        if let Some(solution) = solve_with(m, state, limit, Some(out))? {
            return Ok(solution);
        }
    }
    solve_whole(m, state, limit)
}

/// `solve`, searching the whole game whatever its factors.
pub fn solve_whole<M: StateMachine>(m: &mut M, state: &M::State, limit: Limit) -> Result<Solution>
where
    M::State: Hash,
{
    Ok(solve_with(m, state, limit, None)?.expect("a search of the whole game leaves nothing out"))
}

/// `solve` leaving out the moves `left_out` names; `None` when that search met a state where
/// only those moves are legal (then only the whole game's search is exact).
fn solve_with<M: StateMachine>(
    m: &mut M,
    state: &M::State,
    limit: Limit,
    mut left_out: Option<factored::LeftOut<M::Move>>,
) -> Result<Option<Solution>>
where
    M::State: Hash,
{
    let budget = limit.nodes;
    let mut deadline = limit.time.map(|(ms, now)| Deadline::new(ms, now));
    if m.is_terminal(state)? {
        return Err(RuntimeError::new("the game is over here: there is nothing left to solve"));
    }
    let legal: Vec<Vec<M::Move>> = (0..m.roles().len()).map(|r| m.legal_moves(state, r)).collect::<Result<_>>()?;
    if let Some(r) = legal.iter().position(Vec::is_empty) {
        return Err(RuntimeError::new(format!("{} has no legal move here", m.roles()[r])));
    }
    let mut choosers: Vec<usize> = (0..legal.len()).filter(|&r| legal[r].len() > 1).collect();
    if choosers.is_empty() {
        choosers = (0..legal.len()).collect();
    }
    let factored = left_out.as_ref().map(|out| out.why.clone());
    let mut nodes = 0;
    let mut stopped = None;
    let mut roles = Vec::new();
    for r in choosers {
        let mut search = RoleSearch {
            m: &mut *m,
            role: r,
            table: FxHashMap::default(),
            line: FxHashSet::default(),
            nodes: &mut nodes,
            budget,
            deadline: deadline.as_mut().zip(limit.time.map(|(_, now)| now)),
            left_out: left_out.take(),
        };
        search.line.insert(state.clone());
        // A left-out move (a pass) is worth what the best kept move is worth: searched last.
        let passes: Vec<bool> = match &mut search.left_out {
            Some(out) => legal[r].iter().map(|&mv| out.leaves_out(&*search.m, mv)).collect(),
            None => vec![false; legal[r].len()],
        };
        if passes.iter().all(|&p| p) && search.left_out.is_some() {
            return Ok(None);
        }
        let mut values: Vec<Option<i64>> = vec![None; legal[r].len()];
        for (i, &mine) in legal[r].iter().enumerate().filter(|&(i, _)| !passes[i]) {
            if stopped.is_some() {
                break;
            }
            values[i] = match search.worst(state, &legal, mine) {
                Ok(v) => Some(v),
                Err(Stop::Budget) => {
                    stopped = Some(format!("the node budget ({budget}) ran out"));
                    None
                }
                Err(Stop::Time) => {
                    stopped = Some("the time ran out".into());
                    None
                }
                Err(Stop::Cycle) => {
                    stopped = Some("a line of play returns to an earlier state, so the game may not end".into());
                    None
                }
                Err(Stop::Unfactored) => return Ok(None),
                Err(Stop::Engine(e)) => return Err(e),
            };
        }
        let kept: Vec<Option<i64>> = (0..values.len()).filter(|&i| !passes[i]).map(|i| values[i]).collect();
        let pass_value = kept.iter().all(Option::is_some).then(|| kept.iter().flatten().max().copied()).flatten();
        for (i, value) in values.iter_mut().enumerate() {
            if passes[i] {
                *value = pass_value;
            }
        }
        let mut moves: Vec<MoveValue> =
            legal[r].iter().zip(values).map(|(&mv, value)| MoveValue { text: search.m.move_text(mv), value }).collect();
        crate::order::sort_by_key(&mut moves, |mv| std::cmp::Reverse(mv.value));
        let value = moves.iter().all(|mv| mv.value.is_some()).then(|| moves[0].value.expect("solved"));
        let role = search.m.roles()[r].clone();
        let summary = summary(&role, &moves, value);
        roles.push(RoleValues { role, moves, value, summary });
    }
    let complete = stopped.is_none();
    if let Some(why) = &mut stopped {
        if !why.starts_with("a line of play") {
            let size = tree_size(m, state, limit.time.map(|(_, now)| now))?;
            why.push_str(&format!(
                " after {nodes} positions: the game tree from here has about {} positions (estimated from {} random lines of play)",
                magnitude(size.positions),
                size.probes
            ));
        }
    }
    Ok(Some(Solution { roles, nodes, complete, stopped, factored }))
}

/// "5,478": a whole number with its thousands separated by commas.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "5,478" below a million, "10^43" above.
fn magnitude(x: f64) -> String {
    if x < 1e6 {
        thousands(x.round() as u64)
    } else if x.is_finite() {
        format!("10^{}", x.log10().round())
    } else {
        "more than 10^300".into()
    }
}

/// Knuth's estimate of a game tree's size (positions, counting a position once per line of
/// play that reaches it), from random lines of play from `state`.
pub struct TreeSize {
    pub positions: f64,
    pub probes: usize,
}

/// Most random lines `tree_size` plays, their longest length (joint moves), and the
/// milliseconds it spends when it has a clock.
const PROBES: usize = 16;
const PROBE_STEPS: usize = 400;
const PROBE_MILLIS: f64 = 150.0;

/// Knuth's estimator (1975): along a random line of play, the positions of the tree are
/// about 1 + b1 + b1·b2 + ..., where b_i is the number of joint moves at step i; the mean over
/// lines is unbiased. With a clock (`now`), it stops after `PROBE_MILLIS`, even within a line
/// (which then counts what it saw: the estimate is low).
pub fn tree_size<M: StateMachine>(m: &mut M, state: &M::State, now: Option<&dyn Fn() -> f64>) -> Result<TreeSize> {
    let start = now.map(|now| now());
    let time_up = || start.zip(now).is_some_and(|(s, now)| now() - s >= PROBE_MILLIS);
    let mut rng = crate::rng::Rng::new(1);
    let mut total = 0.0;
    let mut probes = 0;
    while probes < PROBES && (probes == 0 || !time_up()) {
        let (mut s, mut weight, mut sum) = (state.clone(), 1.0f64, 1.0f64);
        for _ in 0..PROBE_STEPS {
            if time_up() || m.is_terminal(&s)? {
                break;
            }
            let legal: Vec<Vec<M::Move>> = (0..m.roles().len()).map(|r| m.legal_moves(&s, r)).collect::<Result<_>>()?;
            if legal.iter().any(Vec::is_empty) {
                break;
            }
            weight *= legal.iter().map(|l| l.len() as f64).product::<f64>();
            sum += weight;
            let joint: Vec<M::Move> = legal.iter().map(|l| l[rng.below(l.len())]).collect();
            s = m.next_state(&s, &joint)?;
        }
        total += sum;
        probes += 1;
    }
    Ok(TreeSize { positions: total / probes as f64, probes })
}

/// "x wins with (mark 2 2)", "x can secure 50 with ...", "x loses whatever it plays".
fn summary(role: &str, moves: &[MoveValue], value: Option<i64>) -> String {
    let Some(v) = value else {
        return format!("{role}: not solved within the budget");
    };
    let best: Vec<&str> = moves.iter().filter(|mv| mv.value == Some(v)).map(|mv| mv.text.as_str()).collect();
    let with = if best.len() == moves.len() && moves.len() > 1 {
        "whatever it plays".to_string()
    } else {
        format!("with {}", best.join(" or "))
    };
    match v {
        WIN => format!("{role} wins {with}"),
        LOSS => format!("{role} loses {with}, against best play"),
        _ => format!("{role} can secure {v} {with}"),
    }
}

#[cfg(test)]
mod tests;
