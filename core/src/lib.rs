//! GDL Playground's engine: parse, check, reason about and play games written in the
//! Game Description Language. Pure Rust, no I/O: text in, data out.
//!
//! Pipeline: [`parse`] → [`validate`] → [`program`] (normalised rules) → [`reasoner`]
//! (a [`machine::StateMachine`], played by [`machine::playout`]) → [`trace`] (traces, replay).

pub mod analyze;
pub mod ast;
pub mod deadline;
pub mod deps;
pub mod diagnostic;
pub mod engine;
pub mod explain;
pub mod gdl2;
pub mod ground;
pub mod grounded;
pub mod infoset;
pub mod machine;
pub mod order;
pub mod parse;
pub mod path;
pub mod play;
pub mod players;
pub mod print;
pub mod program;
pub mod propnet;
pub mod protocol;
pub mod reasoner;
pub mod rng;
#[cfg(test)]
mod shared;
pub mod solve;
pub mod term;
pub mod tournament;
pub mod trace;
pub mod validate;
pub mod verdict;

use diagnostic::Diagnostic;
use reasoner::{Limits, Reasoner};

/// A game ready to play, with the warnings found while loading it.
pub struct Loaded {
    pub reasoner: Reasoner,
    pub warnings: Vec<Diagnostic>,
    /// The parsed description (for the grounder, the formatter, ...).
    pub description: ast::Description,
}

/// Every diagnostic for a text: syntax, validation, and whether the reasoner can load it.
pub fn check(text: &str) -> Vec<Diagnostic> {
    match load(text, Limits::default()) {
        Ok(l) => l.warnings,
        Err(d) => d,
    }
}

/// A description that parsed and validated without errors, with its warnings.
pub struct Valid {
    pub description: ast::Description,
    pub warnings: Vec<Diagnostic>,
}

/// Parses and validates a game. Fails with all diagnostics if any is an error.
pub fn validated(text: &str) -> Result<Valid, Vec<Diagnostic>> {
    let parsed = parse::parse(text);
    let mut diags = parsed.diagnostics;
    // After a syntax error rules are missing, and the validator would report the gaps.
    if !diags.iter().any(Diagnostic::is_error) {
        diags.extend(validate::validate(&parsed.description));
    }
    order::sort_by_key(&mut diags, |d| (d.span.start, d.severity));
    if diags.iter().any(Diagnostic::is_error) {
        return Err(diags);
    }
    Ok(Valid { description: parsed.description, warnings: diags })
}

/// Parses, validates and loads a game. Fails with all diagnostics if any is an error.
pub fn load(text: &str, limits: Limits) -> Result<Loaded, Vec<Diagnostic>> {
    let Valid { description, mut warnings } = validated(text)?;
    match Reasoner::new(&description, limits) {
        Ok(reasoner) => Ok(Loaded { reasoner, warnings, description }),
        Err(e) => {
            warnings.push(e);
            Err(warnings)
        }
    }
}
