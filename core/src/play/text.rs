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

/// The text printed in `to` (`prefix` or `infix`); comments between rules are kept, and so
/// are the blank lines between rules that group them (one where there were several).
pub fn format(text: &str, to: &str) -> Result<String, String> {
    let syntax = syntax_named(to)?;
    let parsed = parse_clean(text, &format!("convert to {to}"))?;
    let spans: Vec<_> = parsed.description.rules().map(|r| r.span).collect();
    let mut groups = Vec::new();
    let mut start = 0;
    for (at, blank) in blank_lines(text) {
        if spans.iter().all(|s| at < s.start as usize || at >= s.end as usize) {
            groups.push(&text[start..at]);
            start = at + blank;
        }
    }
    groups.push(&text[start..]);
    let printed: Vec<String> = groups
        .iter()
        .filter(|g| !g.trim().is_empty())
        .map(|g| crate::print::print(&parse(g).description, syntax).trim_end().to_string())
        .collect();
    Ok(printed.join("\n\n") + "\n")
}

/// Where each run of blank lines starts (its first line break) and its length in bytes, up to
/// the line break that ends it.
fn blank_lines(text: &str) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(nl) = text[i..].find('\n').map(|k| i + k) {
        let mut j = nl + 1;
        let mut end = None;
        while j < bytes.len() && matches!(bytes[j], b' ' | b'\t' | b'\r' | b'\n') {
            if bytes[j] == b'\n' {
                end = Some(j);
            }
            j += 1;
        }
        if let Some(e) = end {
            runs.push((nl, e - nl));
        }
        i = end.map_or(nl + 1, |e| e + 1);
    }
    runs
}

/// The relation dependency graph of `text` (drawn even when validation fails, so that a
/// negation cycle can be seen).
pub fn rule_graph(text: &str) -> Result<RuleGraph, String> {
    let parsed = parse_clean(text, "draw the rule graph")?;
    Ok(DepGraph::build(&parsed.description).rule_graph())
}
