//! Traces (../shared/TRACE-FORMAT.md): random playouts recorded step by step (with each role's
//! percepts in GDL-II games), checked
//! against an engine by replay (a trace written by another reasoner), and what to say when
//! one stopped where a role had no legal move.

use crate::machine::playout::need_roles;
use crate::machine::{GoalValue, Result, StateMachine};
use crate::rng::Rng;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// One playout: the roles and every state visited.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Playout {
    pub roles: Vec<String>,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Step {
    pub state: Vec<String>,
    pub terminal: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal: Option<IndexMap<String, Vec<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joint: Option<IndexMap<String, String>>,
    /// GDL-II: what each role perceives when `joint` is played here (games that define `sees`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sees: Option<IndexMap<String, Vec<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goals: Option<IndexMap<String, Vec<GoalValue>>>,
}

/// A random playout recorded in the trace format. Each role, in order, picks
/// `rng.below(n)` among its sorted legal moves. Cut after `max_steps` joint moves, or where a
/// role has no legal move in a state that is not terminal (as the oracle cuts it: the last
/// step lists the legal moves, one list empty, and no joint move; `Playout::stuck` names
/// the role).
pub fn record_playout<M: StateMachine>(m: &mut M, rng: &mut Rng, max_steps: usize) -> Result<Playout> {
    need_roles(m)?;
    let roles = m.roles().to_vec();
    let mut state = m.initial_state();
    let mut steps = Vec::new();
    loop {
        let text = m.state_text(&state);
        if m.is_terminal(&state)? {
            let goals = m.goals(&state)?;
            let goals = roles.iter().cloned().zip(goals).collect();
            steps.push(Step { state: text, terminal: true, legal: None, joint: None, sees: None, goals: Some(goals) });
            break;
        }
        let mut legal = IndexMap::new();
        let mut moves = Vec::new();
        for (r, name) in roles.iter().enumerate() {
            let ms = m.legal_moves(&state, r)?;
            legal.insert(name.clone(), ms.iter().map(|&x| m.move_text(x)).collect());
            moves.push(ms);
        }
        if steps.len() == max_steps || moves.iter().any(Vec::is_empty) {
            steps.push(Step { state: text, terminal: false, legal: Some(legal), joint: None, sees: None, goals: None });
            break;
        }
        let joint: Vec<M::Move> = moves.iter().map(|ms| ms[rng.below(ms.len())]).collect();
        let joint_text = roles.iter().cloned().zip(joint.iter().map(|&x| m.move_text(x))).collect();
        let sees = m.percepts(&state, &joint)?.map(|p| roles.iter().cloned().zip(p).collect());
        steps.push(Step {
            state: text,
            terminal: false,
            legal: Some(legal),
            joint: Some(joint_text),
            sees,
            goals: None,
        });
        state = m.next_state(&state, &joint)?;
    }
    Ok(Playout { roles, steps })
}

impl Playout {
    /// The first role without a legal move in the last state, when the playout stopped there
    /// (a state that is not terminal: the game is not playable there).
    pub fn stuck(&self) -> Option<&str> {
        let last = self.steps.last()?;
        let legal = last.legal.as_ref().filter(|_| !last.terminal && last.joint.is_none())?;
        legal.iter().find(|(_, ms)| ms.is_empty()).map(|(r, _)| r.as_str())
    }
}

/// What to say about playouts (`what`: "playout 3", "17 playouts") that stopped where
/// `role` had no legal move.
pub fn stuck_message(what: &str, role: &str) -> String {
    format!(
        "{what} stopped where role {role} had no legal move in a state that is not terminal: the game is not \
         playable there"
    )
}

/// The first place where a trace and the engine disagree.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    pub step: usize,
    pub field: String,
    pub detail: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "step {} field {}: {}", self.step, self.field, self.detail)
    }
}

/// Replays a trace against the engine; `Ok(Err(..))` is the first disagreement.
pub fn replay<M: StateMachine>(m: &mut M, trace: &Playout) -> Result<std::result::Result<(), Mismatch>> {
    let mismatch = |step: usize, field: &str, detail: String| Ok(Err(Mismatch { step, field: field.into(), detail }));
    if trace.roles != m.roles() {
        return mismatch(0, "roles", format!("trace has {:?}, engine has {:?}", trace.roles, m.roles()));
    }
    let mut state = m.initial_state();
    for (i, step) in trace.steps.iter().enumerate() {
        let ours = m.state_text(&state);
        if ours != step.state {
            return mismatch(i, "state", diff(&ours, &step.state));
        }
        let terminal = m.is_terminal(&state)?;
        if terminal != step.terminal {
            return mismatch(i, "terminal", format!("engine says {terminal}, trace says {}", step.terminal));
        }
        if terminal {
            let values = m.goals(&state)?;
            let goals: IndexMap<String, Vec<GoalValue>> = m.roles().iter().cloned().zip(values).collect();
            if step.goals.as_ref() != Some(&goals) {
                return mismatch(i, "goals", format!("engine has {goals:?}, trace has {:?}", step.goals));
            }
            if i + 1 != trace.steps.len() {
                return mismatch(i + 1, "steps", "the trace goes on after a terminal state".into());
            }
            return Ok(Ok(()));
        }
        let mut joint = Vec::new();
        for (r, role) in m.roles().to_vec().iter().enumerate() {
            let moves = m.legal_moves(&state, r)?;
            let texts: Vec<String> = moves.iter().map(|&x| m.move_text(x)).collect();
            let theirs = step.legal.as_ref().and_then(|l| l.get(role));
            if theirs != Some(&texts) {
                return mismatch(i, &format!("legal[{role}]"), diff(&texts, theirs.map_or(&[][..], |v| v)));
            }
            if let Some(j) = &step.joint {
                let Some(played) = j.get(role) else {
                    return mismatch(i, "joint", format!("no move for role {role}"));
                };
                match texts.iter().position(|t| t == played) {
                    Some(p) => joint.push(moves[p]),
                    None => return mismatch(i, "joint", format!("{played} is not legal for {role}")),
                }
            }
        }
        if step.joint.is_none() {
            if i + 1 != trace.steps.len() {
                return mismatch(i, "joint", "a step that is not the last has no joint move".into());
            }
            return Ok(Ok(()));
        }
        let seen: Option<IndexMap<String, Vec<String>>> =
            m.percepts(&state, &joint)?.map(|p| m.roles().iter().cloned().zip(p).collect());
        match (&seen, &step.sees) {
            (None, None) => {}
            (Some(_), None) => {
                return mismatch(i, "sees", "the game defines sees, but the trace has no percepts".into())
            }
            (None, Some(_)) => {
                return mismatch(i, "sees", "the trace has percepts, but the game defines no sees".into())
            }
            (Some(ours), Some(theirs)) => {
                for (role, percepts) in ours {
                    let found = theirs.get(role).map_or(&[][..], |v| v);
                    if found != percepts.as_slice() {
                        return mismatch(i, &format!("sees[{role}]"), diff(percepts, found));
                    }
                }
            }
        }
        state = m.next_state(&state, &joint)?;
    }
    mismatch(trace.steps.len(), "steps", "the trace ends without a terminal or cut step".into())
}

/// What one list has that the other lacks.
fn diff(ours: &[String], theirs: &[String]) -> String {
    let missing: Vec<&String> = ours.iter().filter(|x| !theirs.contains(x)).collect();
    let extra: Vec<&String> = theirs.iter().filter(|x| !ours.contains(x)).collect();
    if missing.is_empty() && extra.is_empty() {
        return "same elements in another order or with duplicates".into();
    }
    format!("engine has, trace lacks: {missing:?}; trace has, engine lacks: {extra:?}")
}
