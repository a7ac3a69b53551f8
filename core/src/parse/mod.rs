//! Parsing: text → `Description` plus every diagnostic found, never giving up on the first.
//!
//! Two syntaxes share one tree: KIF prefix (`prefix`) and the Prolog-like infix form of the
//! Stanford notes (`infix`). `parse` picks the syntax from the first significant character.

mod infix;
mod prefix;

use crate::ast::Description;
use crate::diagnostic::Diagnostic;

pub(crate) use infix::is_name_char;
pub use infix::parse_infix;
pub use prefix::{parse_prefix, read_sexp, Sexp};

/// The two textual forms of GDL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    Prefix,
    Infix,
}

/// The result of parsing: the tree that could be built, and all problems found.
#[derive(Debug)]
pub struct Parsed {
    pub description: Description,
    pub diagnostics: Vec<Diagnostic>,
    pub syntax: Syntax,
}

/// Limit on nesting of parentheses / terms, so that hostile input cannot overflow the stack.
pub const MAX_NESTING: usize = 200;

/// Parses prefix or infix GDL, whichever the text is written in.
pub fn parse(text: &str) -> Parsed {
    let syntax = detect_syntax(text);
    let (description, mut diagnostics) = match syntax {
        Syntax::Prefix => parse_prefix(text),
        Syntax::Infix => parse_infix(text),
    };
    crate::order::sort_by_key(&mut diagnostics, |d| d.span.start);
    Parsed { description, diagnostics, syntax }
}

/// Prefix if the first character outside comments and whitespace is `(`, or if there is none.
pub fn detect_syntax(text: &str) -> Syntax {
    let mut in_comment = false;
    for c in text.chars() {
        match c {
            '\n' => in_comment = false,
            _ if in_comment => {}
            ';' | '%' => in_comment = true,
            c if c.is_whitespace() => {}
            '(' => return Syntax::Prefix,
            _ => return Syntax::Infix,
        }
    }
    Syntax::Prefix
}

/// Is `c` allowed inside a symbol (constant, relation or variable name)?
pub(crate) fn is_symbol_char(c: char) -> bool {
    !c.is_whitespace() && !matches!(c, '(' | ')' | ';' | '?' | '"' | ',' | '&' | '~' | '%') && !c.is_control()
}

#[cfg(test)]
mod tests;
