//! The game's API, written once for the CLI and the page: the history of a game played by
//! the moves' text (`game`), what a position shows (`position`), playout statistics
//! (`stats`), what one role knows of it in a game with hidden information (`knows`), the game's own orders of values that boards are drawn in (`chains`), the
//! catalogue of engines (`engines`), the rules as text (`text`) and a session that holds one
//! loaded game with all of these (`session`, which the wasm API converts to JavaScript). Players are read by `players::catalogue` (`entrants`, `ours`).

pub mod chains;
pub mod engines;
pub mod game;
pub mod knows;
pub mod position;
pub mod session;
pub mod stats;
pub mod text;

#[cfg(test)]
mod tests;

pub use chains::Chain;
pub use engines::{build_named, EngineInfo, ENGINES};
pub use game::Game;
pub use knows::{base_facts, knowledge, Belief, Knowledge, KnownStep};
pub use position::Position;
pub use session::{Domain, Load, Session, Thought, ThoughtReport, Upgraded, View};
pub use stats::{goal_label, Stats, Summary};
