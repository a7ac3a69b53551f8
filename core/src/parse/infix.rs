//! Infix syntax of the Stanford notes: `legal(W, mark(X,Y)) :- true(cell(X,Y,b)) & true(control(W))`.
//!
//! Variables start with an upper-case letter or `_`; `~` (or `not(...)`) negates; body literals
//! are joined by `&` (or `,`); a rule ends with an optional `.` or where no `&` follows.
//! Any name a prefix text may hold can be written too: a variable as in KIF (`?x.1`), a
//! constant or relation between single quotes (`'a.b'`, a quote inside doubled: `'it''s'`);
//! the formatter writes these forms only where the plain ones cannot say the same.
//! Comments start with `%` or `;`. After an error the parser skips to the next line that
//! starts at column 1, so one mistake does not hide the rest of the file.

use super::{is_symbol_char, MAX_NESTING};
use crate::ast::{Description, Item, Literal, Rule, Term};
use crate::diagnostic::{Diagnostic, Span};

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Name(String),
    Var(String),
    Open,
    Close,
    Comma,
    Amp,
    Tilde,
    If,
    Dot,
    Comment(String),
    Bad(char),
    /// A token that cannot be read, with what is wrong.
    Malformed(&'static str),
}

struct Token {
    tok: Tok,
    span: Span,
    /// First token of its line, at column 1.
    at_line_start: bool,
}

pub(crate) fn is_name_char(c: char) -> bool {
    is_symbol_char(c) && !matches!(c, ':' | '.' | '|' | '!')
}

/// A quoted name starting at byte `i` (on a `'`): its text and end, or what is wrong.
fn quoted(text: &str, i: usize) -> (Tok, usize) {
    let mut name = String::new();
    let mut chars = text[i + 1..].char_indices();
    while let Some((j, c)) = chars.next() {
        let end = i + 1 + j + 1;
        match c {
            '\'' if text[end..].starts_with('\'') => {
                chars.next();
                name.push('\'');
            }
            '\'' if name.is_empty() => return (Tok::Malformed("a quoted name cannot be empty"), end),
            '\'' => return (Tok::Name(name.to_lowercase()), end),
            c if is_symbol_char(c) => name.push(c),
            _ => {
                let end = end - 1;
                return (
                    Tok::Malformed("a quoted name needs its closing ' before any space or bracket"),
                    end.max(i + 1),
                );
            }
        }
    }
    (Tok::Malformed("a quoted name needs its closing '"), text.len())
}

/// A KIF-style variable `?name` starting at byte `i`.
fn kif_variable(text: &str, i: usize) -> (Tok, usize) {
    let len = text[i + 1..].find(|c| !is_symbol_char(c)).unwrap_or(text.len() - i - 1);
    if len == 0 {
        return (Tok::Malformed("a variable needs a name after '?', like ?x"), i + 1);
    }
    (Tok::Var(text[i + 1..i + 1 + len].to_lowercase()), i + 1 + len)
}

fn lex(text: &str) -> Vec<Token> {
    let mut toks = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut line_start = true;
    let mut fresh = 0;
    while let Some((i, c)) = chars.next() {
        let at_line_start = line_start;
        line_start = false;
        let single = |tok| Some((tok, i + c.len_utf8()));
        let (tok, end) = match c {
            '\n' => {
                line_start = true;
                continue;
            }
            c if c.is_whitespace() => continue,
            '%' | ';' => {
                let end = text[i..].find('\n').map_or(text.len(), |n| i + n);
                // Only the marker itself: `%;x` keeps `;x`, which the formatter prints `;;x`.
                let body = text[i + 1..end].trim_end_matches('\r').to_string();
                while chars.peek().is_some_and(|&(j, _)| j < end) {
                    chars.next();
                }
                (Tok::Comment(body), end)
            }
            '(' => single(Tok::Open).expect("some"),
            ')' => single(Tok::Close).expect("some"),
            ',' => single(Tok::Comma).expect("some"),
            '&' => single(Tok::Amp).expect("some"),
            '~' => single(Tok::Tilde).expect("some"),
            '.' => single(Tok::Dot).expect("some"),
            '\'' | '?' => {
                let (tok, end) = if c == '?' { kif_variable(text, i) } else { quoted(text, i) };
                while chars.peek().is_some_and(|&(j, _)| j < end) {
                    chars.next();
                }
                (tok, end)
            }
            ':' if text[i..].starts_with(":-") => {
                chars.next();
                (Tok::If, i + 2)
            }
            c if is_name_char(c) => {
                let mut end = i + c.len_utf8();
                while let Some(&(j, d)) = chars.peek() {
                    if !is_name_char(d) {
                        break;
                    }
                    end = j + d.len_utf8();
                    chars.next();
                }
                let word = &text[i..end];
                if word == "_" {
                    fresh += 1;
                    (Tok::Var(format!("_{fresh}")), end)
                } else if c.is_uppercase() || c == '_' {
                    (Tok::Var(word.to_lowercase()), end)
                } else {
                    (Tok::Name(word.to_lowercase()), end)
                }
            }
            c => single(Tok::Bad(c)).expect("some"),
        };
        toks.push(Token { tok, span: Span::new(i, end), at_line_start });
    }
    toks
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    diags: Vec<Diagnostic>,
    end: usize,
}

/// A parse error already reported; the caller recovers.
struct Failed;

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }
    fn span(&self) -> Span {
        self.toks.get(self.pos).map_or(Span::new(self.end, self.end), |t| t.span)
    }
    fn prev_end(&self) -> u32 {
        if self.pos == 0 {
            0
        } else {
            self.toks[self.pos - 1].span.end
        }
    }
    fn fail<T>(&mut self, expected: &str) -> Result<T, Failed> {
        let span = self.span();
        let found = match self.toks.get(self.pos).map(|t| &t.tok) {
            None => "the end of the text".to_string(),
            Some(Tok::Name(n)) => format!("'{n}'"),
            Some(Tok::Var(_)) => "a variable".to_string(),
            Some(Tok::Open) => "'('".into(),
            Some(Tok::Close) => "')'".into(),
            Some(Tok::Comma) => "','".into(),
            Some(Tok::Amp) => "'&'".into(),
            Some(Tok::Tilde) => "'~'".into(),
            Some(Tok::If) => "':-'".into(),
            Some(Tok::Dot) => "'.'".into(),
            Some(Tok::Comment(_)) => "a comment".into(),
            Some(Tok::Bad(c)) => format!("the character '{}'", c.escape_debug()),
            Some(Tok::Malformed(_)) => "a malformed name".into(),
        };
        // A rule cut short at the end of a line: point there, not at the next line.
        let message = match self.toks.get(self.pos) {
            Some(t) if t.at_line_start && self.pos > 0 => {
                let end = self.prev_end();
                self.diags.push(Diagnostic::error(
                    "syntax",
                    Span { start: end, end },
                    format!("expected {expected} at the end of this line, but the next line starts with {found}"),
                ));
                return Err(Failed);
            }
            _ => format!("expected {expected}, found {found}"),
        };
        self.diags.push(Diagnostic::error("syntax", span, message));
        Err(Failed)
    }
    fn eat(&mut self, tok: &Tok) -> bool {
        if self.peek() == Some(tok) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, tok: &Tok, what: &str) -> Result<(), Failed> {
        if self.eat(tok) {
            Ok(())
        } else {
            self.fail(what)
        }
    }

    /// Skips comments inside a rule (they are dropped, top-level ones are kept).
    fn skip_comments(&mut self) {
        while matches!(self.peek(), Some(Tok::Comment(_))) {
            self.pos += 1;
        }
    }

    /// Eats `tok`, also when comments stand before it (those are then dropped).
    fn eat_after_comments(&mut self, tok: &Tok) -> bool {
        let mut i = self.pos;
        while matches!(self.toks.get(i).map(|t| &t.tok), Some(Tok::Comment(_))) {
            i += 1;
        }
        if self.toks.get(i).is_some_and(|t| &t.tok == tok) {
            self.pos = i + 1;
            true
        } else {
            false
        }
    }

    fn rule(&mut self) -> Result<Rule, Failed> {
        let start = self.span().start;
        let head = self.term(0, "a rule or a fact, like p(a) or p(X) :- q(X)")?;
        if matches!(head, Term::Var(..)) {
            self.pos -= 1;
            return self.fail("a relation name (names of relations start with a lower-case letter)");
        }
        self.not_a_keyword(&head, &["<="])?;
        let mut body = Vec::new();
        if self.eat_after_comments(&Tok::If) {
            loop {
                self.skip_comments();
                body.push(self.literal(0)?);
                if !(self.eat_after_comments(&Tok::Amp) || self.eat_after_comments(&Tok::Comma)) {
                    break;
                }
            }
        }
        self.eat(&Tok::Dot);
        Ok(Rule { head, body, span: Span { start, end: self.prev_end() } })
    }

    /// A relation named `<=` is refused, as in prefix (found by fuzzing: the fact `<=`
    /// printed in prefix as `(<=)`, a rule without a head).
    fn not_a_keyword(&mut self, atom: &Term, keywords: &[&str]) -> Result<(), Failed> {
        match atom.name() {
            Some(name) if keywords.contains(&name) => {
                self.diags.push(Diagnostic::error(
                    "syntax",
                    atom.span(),
                    format!("'{name}' is a keyword of GDL's rule language and cannot name a relation here"),
                ));
                Err(Failed)
            }
            _ => Ok(()),
        }
    }

    fn literal(&mut self, depth: usize) -> Result<Literal, Failed> {
        let start = self.span().start;
        if depth > MAX_NESTING {
            return self.fail(&format!("at most {MAX_NESTING} nested literals"));
        }
        if self.eat(&Tok::Tilde) {
            let inner = self.literal(depth + 1)?;
            return Ok(Literal::Not(Box::new(inner), Span { start, end: self.prev_end() }));
        }
        if let Some(Tok::Name(n)) = self.peek() {
            let keyword = n.clone();
            if matches!(keyword.as_str(), "not" | "distinct" | "or" | "and")
                && self.toks.get(self.pos + 1).is_some_and(|t| t.tok == Tok::Open)
            {
                self.pos += 2;
                let lit = match keyword.as_str() {
                    "not" => {
                        let inner = self.literal(depth + 1)?;
                        self.expect(&Tok::Close, "')' after the negated literal")?;
                        Literal::Not(Box::new(inner), Span { start, end: self.prev_end() })
                    }
                    "distinct" => {
                        let a = self.term(depth + 1, "a term")?;
                        self.expect(&Tok::Comma, "',' between the two terms of distinct")?;
                        let b = self.term(depth + 1, "a term")?;
                        self.expect(&Tok::Close, "')': distinct takes exactly two terms")?;
                        Literal::Distinct(a, b, Span { start, end: self.prev_end() })
                    }
                    kw => {
                        let mut lits = vec![self.literal(depth + 1)?];
                        while self.eat(&Tok::Comma) {
                            lits.push(self.literal(depth + 1)?);
                        }
                        self.expect(&Tok::Close, "',' or ')'")?;
                        let span = Span { start, end: self.prev_end() };
                        if kw == "or" {
                            Literal::Or(lits, span)
                        } else {
                            Literal::And(lits, span)
                        }
                    }
                };
                return Ok(lit);
            }
        }
        let atom = self.term(depth, "a literal, like p(X) or ~q(X)")?;
        self.not_a_keyword(&atom, &["<="])?;
        if let Term::Var(_, span) = atom {
            self.diags.push(Diagnostic::error(
                "syntax",
                span,
                "a variable cannot stand alone as a literal (relation names start with a lower-case letter)",
            ));
            return Err(Failed);
        }
        Ok(Literal::Atom(atom))
    }

    fn term(&mut self, depth: usize, expected: &str) -> Result<Term, Failed> {
        if depth > MAX_NESTING {
            return self.fail(&format!("terms nested at most {MAX_NESTING} deep"));
        }
        let span = self.span();
        match self.peek().cloned() {
            Some(Tok::Var(v)) => {
                self.pos += 1;
                Ok(Term::Var(v, span))
            }
            Some(Tok::Name(n)) => {
                self.pos += 1;
                if !self.eat(&Tok::Open) {
                    return Ok(Term::Const(n, span));
                }
                let mut args = vec![self.term(depth + 1, "a term")?];
                while self.eat(&Tok::Comma) {
                    args.push(self.term(depth + 1, "a term")?);
                }
                self.expect(&Tok::Close, "',' or ')'")?;
                let term = Term::Func(n, args, Span { start: span.start, end: self.prev_end() });
                // As in prefix, where `(<= ...)` inside a term is refused.
                if depth > 0 {
                    self.not_a_keyword(&term, &["<="])?;
                }
                Ok(term)
            }
            _ => self.fail(expected),
        }
    }

    /// After an error in the rule that began at token `start`: skip to the next token that
    /// starts a line at column 1 (the offending token itself, if it starts a line).
    fn recover(&mut self, start: usize) {
        if self.pos == start || !self.toks.get(self.pos).is_some_and(|t| t.at_line_start) {
            self.pos += 1;
        }
        while self.pos < self.toks.len() && !self.toks[self.pos].at_line_start {
            self.pos += 1;
        }
    }
}

/// Parses infix GDL.
pub fn parse_infix(text: &str) -> (Description, Vec<Diagnostic>) {
    let toks = lex(text);
    let mut diags = Vec::new();
    for t in &toks {
        match t.tok {
            Tok::Bad(c) => {
                diags.push(Diagnostic::error("syntax", t.span, format!("unexpected character '{}'", c.escape_debug())))
            }
            Tok::Malformed(what) => diags.push(Diagnostic::error("syntax", t.span, what)),
            _ => {}
        }
    }
    let toks: Vec<Token> = toks.into_iter().filter(|t| !matches!(t.tok, Tok::Bad(_) | Tok::Malformed(_))).collect();
    let mut p = Parser { toks, pos: 0, diags, end: text.len() };
    let mut items = Vec::new();
    while let Some(tok) = p.peek() {
        if let Tok::Comment(c) = tok {
            items.push(Item::Comment(c.clone()));
            p.pos += 1;
            continue;
        }
        let start = p.pos;
        match p.rule() {
            Ok(rule) => items.push(Item::Rule(rule)),
            Err(Failed) => p.recover(start),
        }
    }
    (Description { items }, p.diags)
}
