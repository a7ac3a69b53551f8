//! GDL Playground's engine: parse, check, reason about and play games written in the
//! Game Description Language. Pure Rust, no I/O: text in, data out.
//!
//! Pipeline: [`parse`] → [`validate`] → [`program`] (normalised rules) → [`reasoner`]
//! (a [`machine::StateMachine`]) → [`playout`] / [`trace`].

pub mod ast;
pub mod deps;
pub mod diagnostic;
pub mod machine;
pub mod parse;
pub mod print;
pub mod reasoner;
pub mod program;
pub mod term;
pub mod validate;
