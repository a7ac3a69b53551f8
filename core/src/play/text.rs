//! The rules as text, for the editor: the two syntaxes by name, converting between them,
//! and the relation graph, each refused with the first syntax error.

use crate::deps::{DepGraph, RuleGraph};
use crate::diagnostic::LineIndex;
use crate::parse::{parse, Parsed, Syntax};

/// The syntax's name: `prefix` or `infix`.
pub fn syntax_name(s: Syntax) -> &'static str {
    match s {
        Syntax::Prefix => "prefix",
        Syntax::Infix => "infix",
    }
}

/// The syntax called `name` (`prefix` or `infix`).
pub fn syntax_named(name: &str) -> Result<Syntax, String> {
    match name {
        "prefix" => Ok(Syntax::Prefix),
        "infix" => Ok(Syntax::Infix),
        _ => Err(format!("unknown syntax {name:?}: use prefix or infix")),
    }
}

/// Parses `text`, failing with the first syntax error (line and column) if there is one;
/// `what` says what could not be done.
fn parse_clean(text: &str, what: &str) -> Result<Parsed, String> {
    let parsed = parse(text);
    if let Some(d) = parsed.diagnostics.iter().find(|d| d.is_error()) {
        let (line, column) = LineIndex::new(text).line_col(d.span.start);
        return Err(format!("cannot {what}: syntax error at line {line}, column {column}: {}", d.message));
    }
    Ok(parsed)
}

/// The text printed in `to` (`prefix` or `infix`); comments between rules are kept.
pub fn format(text: &str, to: &str) -> Result<String, String> {
    let syntax = syntax_named(to)?;
    let parsed = parse_clean(text, &format!("convert to {to}"))?;
    Ok(crate::print::print(&parsed.description, syntax))
}

/// The relation dependency graph of `text` (drawn even when validation fails, so that a
/// negation cycle can be seen).
pub fn rule_graph(text: &str) -> Result<RuleGraph, String> {
    let parsed = parse_clean(text, "draw the rule graph")?;
    Ok(DepGraph::build(&parsed.description).rule_graph())
}
