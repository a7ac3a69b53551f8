//! What one sees of a position: its fluents as sorted text, each role's legal moves, whether
//! it is terminal and then the goals. The page's play pane and `gdl info` show it.

use crate::machine::{GoalValue, Result, StateMachine};
use serde::Serialize;

/// A position as text.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Position {
    pub roles: Vec<String>,
    /// The fluents, sorted canonical text.
    pub state: Vec<String>,
    pub terminal: bool,
    /// Per role, the goal values (only in terminal states).
    #[cfg_attr(feature = "tsify", tsify(type = "(number | string)[][] | null"))]
    pub goals: Option<Vec<Vec<GoalValue>>>,
    /// Per role, its legal moves (empty in terminal states).
    pub legal: Vec<Vec<String>>,
}

impl Position {
    /// The position `state` of the game `m` plays.
    pub fn of<M: StateMachine>(m: &mut M, state: &M::State) -> Result<Position> {
        let roles = m.roles().to_vec();
        let terminal = m.is_terminal(state)?;
        let (goals, legal) = if terminal {
            (Some(m.goals(state)?), vec![Vec::new(); roles.len()])
        } else {
            let mut legal = Vec::with_capacity(roles.len());
            for r in 0..roles.len() {
                let moves = m.legal_moves(state, r)?;
                legal.push(moves.into_iter().map(|x| m.move_text(x)).collect());
            }
            (None, legal)
        };
        Ok(Position { roles, state: m.state_text(state), terminal, goals, legal })
    }
}
