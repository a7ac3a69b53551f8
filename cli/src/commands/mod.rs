//! One module per command, each with a `run` that computes what the command reports and
//! prints it as JSON (`--json`) or as text for people, the text rendered by functions of its
//! own apart from the computing.

pub mod analyze;
pub mod bench;
pub mod check;
pub mod explain;
pub mod fmt;
pub mod ground;
pub mod info;
pub mod matches;
pub mod perft;
pub mod player;
pub mod playout;
pub mod referee;
pub mod replay;
pub mod solve;
pub mod tournament;
