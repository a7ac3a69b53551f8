//! Computer players: given what a role is shown of a game (a [`View`]), choose a legal move.
//! One trait, [`Player`], for every kind: [`random`] (uniform), [`flat`] (flat Monte Carlo:
//! random playouts after each move of the role), [`uct`] (Monte Carlo tree search with UCB1;
//! decoupled for simultaneous moves, each role keeping its own statistics per node),
//! [`perfect`] (the solver of `solve/`, for games small enough to search to the end; otherwise
//! it says so) and [`honest`] (GDL-II: flat Monte Carlo over states guessed from the role's
//! history alone). [`arena`] plays games and matches between players and tallies the results.
//! [`catalogue`] lists every kind with its budgets, labels and refusals, and reads lists of
//! players; [`spec`] is the notation of one player (`uct:1s`).
//!
//! A game without `sees` shows every role the true state (`View::State`); a GDL-II game shows
//! a seat only its own history (`View::History`: its moves and percepts), so no player can read
//! what its role does not see. `random`, `honest` take either; `mc`, `uct` and `perfect` read
//! the true state and refuse a history with a sentence saying to use `honest`.
//!
//! Players run on any `StateMachine`; the propositional network is the fast one. They are
//! seeded: with a budget in playouts, the same seed gives the same moves. Core reads no
//! clock, so a budget in time reads the caller's (`now`, milliseconds).

pub mod arena;
pub mod catalogue;
pub mod flat;
pub mod honest;
pub mod perfect;
pub mod random;
pub mod spec;
pub mod uct;

pub use catalogue::Catalogue;
pub use spec::{Budget, Spec};

use crate::infoset::History;
use crate::machine::{GoalValue, Result, RuntimeError, StateMachine};
use crate::solve::goal_number;

/// Longest random playout a player simulates (joint moves); one cut there counts as a draw.
pub const PLAYOUT_MAX_STEPS: usize = 1000;

/// A chosen move and what the player knows about it.
#[derive(Clone, Debug)]
pub struct Decision<Mv> {
    pub chosen: Mv,
    /// Random playouts run to choose it.
    pub playouts: u64,
    /// The goal value the player expects from it (0..100), when it has an estimate.
    pub expects: Option<f64>,
}

impl Decision<usize> {
    /// The decision with its move, an index, taken from `moves`.
    pub fn of<Mv: Copy>(self, moves: &[Mv]) -> Decision<Mv> {
        Decision { chosen: moves[self.chosen], playouts: self.playouts, expects: self.expects }
    }
}

/// What a player is shown of a game when its role is to move (the game is not over).
pub enum View<'a, M: StateMachine> {
    /// The true state and the role to move: a game without `sees`, where every role sees
    /// every move (and GDL-II's nature, which is the game itself).
    State(&'a M::State, usize),
    /// The role's own history in a GDL-II game: its moves and its percepts, all it may know.
    /// A protocol player builds it from its moves and the percepts the referee sends
    /// (`History::new`, `History::push`).
    History(&'a History<M::Move>),
}

impl<M: StateMachine> Clone for View<'_, M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M: StateMachine> Copy for View<'_, M> {}

impl<'a, M: StateMachine> View<'a, M> {
    /// The role to move.
    pub fn role(&self) -> usize {
        match self {
            View::State(_, role) => *role,
            View::History(h) => h.role,
        }
    }

    /// The true state, for a player named `player` that reads it; a history is refused in
    /// words (a player that read the state would see what its role does not).
    pub fn true_state(&self, player: &str) -> Result<&'a M::State> {
        match self {
            View::State(state, _) => Ok(state),
            View::History(_) => Err(RuntimeError::new(catalogue::reads_the_true_state(player))),
        }
    }
}

/// A computer player for one role.
pub trait Player<M: StateMachine> {
    /// A legal move of the role of `view`. `now` gives milliseconds (read only by budgets in
    /// time, and by reports).
    fn choose(&mut self, m: &mut M, view: View<'_, M>, now: &dyn Fn() -> f64) -> Result<Decision<M::Move>>;

    /// Has the player tell `report` how its thinking goes, about every [`REPORT_MILLIS`] of
    /// its clock, while it searches; players that choose at once tell nothing.
    fn report_to(&mut self, _report: Report) {}
}

/// How often a searching player reports (milliseconds of its clock).
pub const REPORT_MILLIS: f64 = 100.0;

/// Told a search's progress: its playouts so far and the move it would choose now, as its
/// index among the role's legal moves (in the order `StateMachine::legal_moves` gives them).
pub type Report = Box<dyn FnMut(&Decision<usize>)>;

/// A search's reports: due every [`REPORT_MILLIS`] once started, never without a `Report`
/// (then the clock is not read for them).
#[derive(Default)]
pub struct Reports {
    report: Option<Report>,
    last: f64,
}

impl Reports {
    pub fn new(report: Report) -> Reports {
        Reports { report: Some(report), last: 0.0 }
    }

    /// A search starts now.
    pub fn start(&mut self, now: &dyn Fn() -> f64) {
        if self.report.is_some() {
            self.last = now();
        }
    }

    /// Tells the report `so_far()` when one is due.
    pub fn tick(&mut self, now: &dyn Fn() -> f64, so_far: impl FnOnce() -> Decision<usize>) {
        let Some(report) = &mut self.report else { return };
        let t = now();
        if t - self.last >= REPORT_MILLIS {
            self.last = t;
            report(&so_far());
        }
    }
}

/// The legal moves of `role`, or an error saying it has none.
pub fn legal<M: StateMachine>(m: &mut M, state: &M::State, role: usize) -> Result<Vec<M::Move>> {
    let moves = m.legal_moves(state, role)?;
    if moves.is_empty() {
        return Err(RuntimeError::new(format!("{} has no legal move here, so it cannot play", m.roles()[role])));
    }
    Ok(moves)
}

/// Goal values as scores between 0 and 1 (a role without an integer goal scores 0).
pub fn scores(goals: &[Vec<GoalValue>]) -> Vec<f64> {
    goals.iter().map(|g| goal_number(g) as f64 / 100.0).collect()
}

/// Each role's score after a random playout from `state`; a playout cut at
/// `PLAYOUT_MAX_STEPS` scores 0.5 for everyone.
pub fn simulate<M: StateMachine>(m: &mut M, state: &M::State, rng: &mut crate::rng::Rng) -> Result<Vec<f64>> {
    let outcome = m.playout_from(state, rng, PLAYOUT_MAX_STEPS)?;
    Ok(match outcome.goals {
        Some(goals) => scores(&goals),
        None => vec![0.5; m.roles().len()],
    })
}

#[cfg(test)]
mod tests;
