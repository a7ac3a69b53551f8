//! What factoring finds (`propnet::factors` finds it): a game's independent subgames, each
//! with its moves and fluents, and how `terminal` and the goals combine them. Plain data that
//! engines give through `StateMachine::factors` and the faces show.

use serde::Serialize;

/// How `terminal` or a goal reads the factors.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "factors", rename_all = "lowercase")]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub enum Combination {
    /// Reads no factor: only the bookkeeping, or nothing that changes.
    Bookkeeping,
    /// Reads one factor (and perhaps the bookkeeping).
    One(usize),
    /// Holds when a condition on one of these factors holds (a disjunction).
    Any(Vec<usize>),
    /// Holds when conditions on each of these factors all hold (a conjunction).
    All(Vec<usize>),
    /// Reads these factors together in another way (e.g. a sum of their scores).
    Mixed(Vec<usize>),
}

impl Combination {
    /// The factors it reads.
    pub fn factors(&self) -> Vec<usize> {
        match self {
            Combination::Bookkeeping => Vec::new(),
            Combination::One(k) => vec![*k],
            Combination::Any(v) | Combination::All(v) | Combination::Mixed(v) => v.clone(),
        }
    }

    /// In words, with factors numbered from 1: "any of factors 1, 2".
    pub fn describe(&self) -> String {
        let list = |v: &[usize]| v.iter().map(|k| (k + 1).to_string()).collect::<Vec<_>>().join(", ");
        match self {
            Combination::Bookkeeping => "reads no factor (only the bookkeeping)".into(),
            Combination::One(k) => format!("reads factor {} alone", k + 1),
            Combination::Any(v) => format!("a disjunction: holds when one of factors {} says so", list(v)),
            Combination::All(v) => format!("a conjunction: holds when factors {} all say so", list(v)),
            Combination::Mixed(v) => {
                format!("reads factors {} together (neither a disjunction nor a conjunction)", list(v))
            }
        }
    }
}

/// A role's move, as text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct RoleMove {
    pub role: String,
    #[serde(rename = "move")]
    pub text: String,
}

/// One independent subgame: its moves and fluents, as text and as the network's numbers
/// (move numbers and state bits of `Propnet`).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct Factor {
    pub moves: Vec<RoleMove>,
    pub fluents: Vec<String>,
    #[serde(skip)]
    pub move_numbers: Vec<u32>,
    #[serde(skip)]
    pub fluent_bits: Vec<u32>,
}

/// How a role's goal value reads the factors.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct GoalCombination {
    pub role: String,
    /// The goal value's text (`100`).
    pub value: String,
    pub combination: Combination,
}

/// The factors of a game.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct Factors {
    /// The independent subgames, largest first (by fluents, then moves).
    pub factors: Vec<Factor>,
    /// Fluents no move changes and every factor may read (control, step counters).
    pub bookkeeping: Vec<String>,
    /// Moves that change and read nothing but the bookkeeping (`noop`).
    pub free_moves: Vec<RoleMove>,
    pub terminal: Combination,
    pub goals: Vec<GoalCombination>,
    /// The factors `terminal` or some goal reads, in order: the others cannot change the
    /// outcome (their moves act as passes).
    pub relevant: Vec<usize>,
}

impl Factors {
    /// The factor a move (by role number in `roles` and text) belongs to, if any.
    pub fn factor_of_move(&self, role: &str, text: &str) -> Option<usize> {
        self.factors.iter().position(|f| f.moves.iter().any(|m| m.role == role && m.text == text))
    }

    /// The factors `terminal` or some goal among `goals` reads, in order.
    pub fn read_by(terminal: &Combination, goals: &[GoalCombination]) -> Vec<usize> {
        let mut v: Vec<usize> = std::iter::once(terminal)
            .chain(goals.iter().map(|g| &g.combination))
            .flat_map(Combination::factors)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}
