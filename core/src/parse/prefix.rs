//! KIF prefix syntax: `(<= (legal ?r (mark ?x ?y)) (true (cell ?x ?y b)))`, `;` comments.
//!
//! Two steps: the text becomes a forest of s-expressions (recovering from unbalanced
//! parentheses), then each top-level s-expression becomes a rule or a fact. [`read_sexp`]
//! reads one s-expression on its own (a GGP message, where rules sit inside a list).

use super::{is_symbol_char, MAX_NESTING};
use crate::ast::{Description, Item, Literal, Rule, Term};
use crate::diagnostic::{Diagnostic, Span};

/// An s-expression with its span (symbols lower-cased, variables without `?`).
#[derive(Clone, Debug)]
pub enum Sexp {
    Symbol(String, Span),
    Var(String, Span),
    List(Vec<Sexp>, Span),
}

impl Sexp {
    pub fn span(&self) -> Span {
        match self {
            Sexp::Symbol(_, s) | Sexp::Var(_, s) | Sexp::List(_, s) => *s,
        }
    }

    /// The name of a symbol.
    pub fn symbol(&self) -> Option<&str> {
        match self {
            Sexp::Symbol(name, _) => Some(name),
            _ => None,
        }
    }

    /// The items of a list.
    pub fn items(&self) -> Option<&[Sexp]> {
        match self {
            Sexp::List(items, _) => Some(items),
            _ => None,
        }
    }

    /// The s-expression as a GDL term (`(f)` read as the constant `f`), or the first problem.
    pub fn term(self) -> Result<Term, Diagnostic> {
        let mut conv = Converter { diags: Vec::new() };
        match conv.term(self) {
            Some(t) => Ok(t),
            None => Err(conv.diags.swap_remove(0)),
        }
    }
}

/// Reads the first s-expression of `text` (after whitespace and comments) and the offset
/// where it ends; what follows is left unread. Rules may sit inside lists (`(<=` does not
/// close the list it is in). The first problem met is the error.
pub fn read_sexp(text: &str) -> Result<(Sexp, usize), Diagnostic> {
    let mut reader = Reader { text, pos: 0, diags: Vec::new(), nested_rules: true };
    reader.skip_trivia(&mut Vec::new());
    let sexp = match reader.peek() {
        Some('(') => reader.read_list(),
        Some(c) if is_symbol_char(c) || c == '?' => reader.read_atom(),
        Some(c) => {
            reader.skip_bad_char(c);
            Sexp::List(Vec::new(), Span::new(0, reader.pos))
        }
        None => {
            return Err(Diagnostic::error("syntax", Span::new(0, 0), "the text is empty: an s-expression was expected"))
        }
    };
    match reader.diags.into_iter().next() {
        Some(d) => Err(d),
        None => Ok((sexp, reader.pos)),
    }
}

/// A top-level element in source order.
enum Top {
    Sexp(Sexp),
    Comment(String),
}

struct Reader<'a> {
    text: &'a str,
    pos: usize,
    diags: Vec<Diagnostic>,
    /// Whether `(<=` may open a list inside another (messages); in a game text it means the
    /// form before was not closed.
    nested_rules: bool,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    /// Skips whitespace and comments; returns the comments met, for top level.
    fn skip_trivia(&mut self, comments: &mut Vec<String>) {
        while let Some(c) = self.peek() {
            if c == ';' {
                let end = self.text[self.pos..].find('\n').map_or(self.text.len(), |i| self.pos + i);
                // Only the one `;` that starts the comment: `;;; x` keeps `;; x`, so printing
                // `;` + the text gives the same comment back.
                let body = &self.text[self.pos + 1..end];
                comments.push(body.trim_end_matches('\r').to_string());
                self.pos = end;
            } else if c.is_whitespace() {
                self.pos += c.len_utf8();
            } else {
                break;
            }
        }
    }

    fn read_atom(&mut self) -> Sexp {
        let start = self.pos;
        let is_var = self.peek() == Some('?');
        if is_var {
            self.pos += 1;
        }
        let name_start = self.pos;
        while let Some(c) = self.peek() {
            if is_symbol_char(c) {
                self.pos += c.len_utf8();
            } else {
                break;
            }
        }
        let span = Span::new(start, self.pos);
        let name = self.text[name_start..self.pos].to_lowercase();
        if is_var {
            if name.is_empty() {
                self.diags.push(Diagnostic::error("syntax", span, "a variable needs a name after '?', like ?x"));
            }
            Sexp::Var(name, span)
        } else {
            Sexp::Symbol(name, span)
        }
    }

    /// Reads the whole text into top-level items.
    fn read_all(&mut self) -> Vec<Top> {
        let mut tops = Vec::new();
        loop {
            let mut comments = Vec::new();
            self.skip_trivia(&mut comments);
            tops.extend(comments.into_iter().map(Top::Comment));
            let Some(c) = self.peek() else { break };
            match c {
                '(' => tops.push(Top::Sexp(self.read_list())),
                ')' => {
                    self.diags.push(Diagnostic::error(
                        "unbalanced",
                        Span::new(self.pos, self.pos + 1),
                        "this ')' has no matching '(' before it",
                    ));
                    self.pos += 1;
                }
                _ if is_symbol_char(c) || c == '?' => tops.push(Top::Sexp(self.read_atom())),
                _ => self.skip_bad_char(c),
            }
        }
        tops
    }

    fn skip_bad_char(&mut self, c: char) {
        let span = Span::new(self.pos, self.pos + c.len_utf8());
        self.diags.push(Diagnostic::error("syntax", span, format!("unexpected character '{}'", c.escape_debug())));
        self.pos += c.len_utf8();
    }

    /// Reads a list starting at `(`. A `(<=` met inside a list means the enclosing
    /// top-level form was not closed: it is reported there and closed.
    fn read_list(&mut self) -> Sexp {
        // Explicit stack instead of recursion: nesting depth cannot overflow the stack.
        let top_start = self.pos;
        let mut stack: Vec<(usize, Vec<Sexp>)> = vec![(self.pos, Vec::new())];
        self.pos += 1;
        let mut ignored = Vec::new();
        loop {
            self.skip_trivia(&mut ignored);
            let Some(c) = self.peek() else {
                self.diags.push(Diagnostic::error(
                    "unbalanced",
                    Span::new(top_start, top_start + 1),
                    format!("this '(' is never closed: {} ')' missing at the end of the text", stack.len()),
                ));
                return close_all(stack, self.pos);
            };
            match c {
                '(' => {
                    if !self.nested_rules && self.starts_rule_keyword() {
                        self.diags.push(Diagnostic::error(
                            "unbalanced",
                            Span::new(top_start, top_start + 1),
                            format!("this '(' is not closed before the next rule begins: {} ')' missing", stack.len()),
                        ));
                        return close_all(stack, self.pos);
                    }
                    if stack.len() >= MAX_NESTING {
                        self.diags.push(Diagnostic::error(
                            "too-deep",
                            Span::new(self.pos, self.pos + 1),
                            format!("parentheses are nested more than {MAX_NESTING} deep"),
                        ));
                        // Skip the rest of this top-level form.
                        return self.abandon(stack);
                    }
                    stack.push((self.pos, Vec::new()));
                    self.pos += 1;
                }
                ')' => {
                    self.pos += 1;
                    let (start, items) = stack.pop().expect("stack is never empty here");
                    let list = Sexp::List(items, Span::new(start, self.pos));
                    match stack.last_mut() {
                        Some((_, parent)) => parent.push(list),
                        None => return list,
                    }
                }
                _ if is_symbol_char(c) || c == '?' => {
                    let atom = self.read_atom();
                    stack.last_mut().expect("non-empty").1.push(atom);
                }
                _ => self.skip_bad_char(c),
            }
        }
    }

    /// Is the `(` at `pos` followed by the keyword `<=` (and not by a longer symbol)?
    fn starts_rule_keyword(&self) -> bool {
        let rest = self.text[self.pos + 1..].trim_start();
        rest.strip_prefix("<=").is_some_and(|r| r.chars().next().is_none_or(|c| !is_symbol_char(c)))
    }

    /// Skips to the end of the current top-level form after a fatal problem inside it.
    fn abandon(&mut self, stack: Vec<(usize, Vec<Sexp>)>) -> Sexp {
        let mut depth = stack.len();
        let start = stack[0].0;
        while let Some(c) = self.peek() {
            self.pos += c.len_utf8();
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
        }
        Sexp::List(Vec::new(), Span::new(start, self.pos))
    }
}

fn close_all(mut stack: Vec<(usize, Vec<Sexp>)>, end: usize) -> Sexp {
    loop {
        let (start, items) = stack.pop().expect("non-empty");
        let list = Sexp::List(items, Span::new(start, end));
        match stack.last_mut() {
            Some((_, parent)) => parent.push(list),
            None => return list,
        }
    }
}

/// Parses KIF prefix GDL.
pub fn parse_prefix(text: &str) -> (Description, Vec<Diagnostic>) {
    let mut reader = Reader { text, pos: 0, diags: Vec::new(), nested_rules: false };
    let tops = reader.read_all();
    let mut conv = Converter { diags: reader.diags };
    let mut items = Vec::new();
    for top in tops {
        match top {
            Top::Comment(c) => items.push(Item::Comment(c)),
            Top::Sexp(s) => {
                if let Some(rule) = conv.rule(s) {
                    items.push(Item::Rule(rule));
                }
            }
        }
    }
    (Description { items }, conv.diags)
}

struct Converter {
    diags: Vec<Diagnostic>,
}

impl Converter {
    fn err(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error("syntax", span, msg));
    }

    fn rule(&mut self, s: Sexp) -> Option<Rule> {
        let span = s.span();
        match s {
            Sexp::List(items, _) if items.is_empty() && span.end - span.start <= 2 => {
                self.err(span, "empty parentheses '()' are not a rule or a fact");
                None
            }
            Sexp::List(items, _) if items.is_empty() => None, // abandoned form, already reported
            Sexp::List(items, _) if matches!(&items[0], Sexp::Symbol(s, _) if s == "<=") => {
                let mut it = items.into_iter();
                let arrow = it.next().expect("non-empty");
                let Some(head) = it.next() else {
                    self.err(arrow.span(), "a rule '(<= head body...)' needs a head after '<='");
                    return None;
                };
                let head = self.atom(head)?;
                let body = it.filter_map(|l| self.literal(l)).collect();
                Some(Rule { head, body, span })
            }
            s => {
                let head = self.atom(s)?;
                Some(Rule { head, body: Vec::new(), span })
            }
        }
    }

    /// A sentence: a constant `p` or `(p t1 .. tn)`.
    fn atom(&mut self, s: Sexp) -> Option<Term> {
        match s {
            Sexp::Var(_, span) => {
                self.err(span, "a variable cannot stand alone as a sentence; write a relation like (p ?x)");
                None
            }
            Sexp::Symbol(name, span) if name == "<=" => {
                self.err(span, "'<=' starts a rule and must follow an opening parenthesis: (<= head body...)");
                None
            }
            Sexp::Symbol(name, span) => Some(Term::Const(name, span)),
            Sexp::List(items, span) => self.compound(items, span, "relation"),
        }
    }

    fn compound(&mut self, items: Vec<Sexp>, span: Span, what: &str) -> Option<Term> {
        let mut it = items.into_iter();
        match it.next() {
            None => {
                self.err(span, format!("empty parentheses '()' where a {what} was expected"));
                None
            }
            Some(Sexp::Symbol(name, _)) => {
                if name == "<=" {
                    self.err(span, "'<=' can only start a rule at the top level");
                    return None;
                }
                let args: Option<Vec<Term>> = it.map(|a| self.term(a)).collect();
                let args = args?;
                // `(f)` is read as the constant `f`, as GGP reasoners do.
                Some(if args.is_empty() { Term::Const(name, span) } else { Term::Func(name, args, span) })
            }
            Some(Sexp::Var(_, vspan)) => {
                self.err(vspan, format!("a {what} name cannot be a variable"));
                None
            }
            Some(Sexp::List(_, lspan)) => {
                self.err(lspan, format!("a {what} name must be a symbol, not a parenthesised expression"));
                None
            }
        }
    }

    fn term(&mut self, s: Sexp) -> Option<Term> {
        match s {
            Sexp::Var(name, span) => Some(Term::Var(name, span)),
            Sexp::Symbol(name, span) => Some(Term::Const(name, span)),
            Sexp::List(items, span) => self.compound(items, span, "function"),
        }
    }

    fn literal(&mut self, s: Sexp) -> Option<Literal> {
        let Sexp::List(items, span) = s else {
            return self.atom(s).map(Literal::Atom);
        };
        let keyword = match items.first() {
            Some(Sexp::Symbol(k, _)) if matches!(k.as_str(), "not" | "distinct" | "or" | "and") => k.clone(),
            _ => return self.compound(items, span, "relation").map(Literal::Atom),
        };
        let args: Vec<Sexp> = items.into_iter().skip(1).collect();
        match keyword.as_str() {
            "not" => {
                if args.len() != 1 {
                    self.err(span, format!("'not' takes exactly one literal, here it has {}", args.len()));
                    return None;
                }
                let inner = self.literal(args.into_iter().next().expect("one"))?;
                Some(Literal::Not(Box::new(inner), span))
            }
            "distinct" => {
                if args.len() != 2 {
                    self.err(span, format!("'distinct' takes exactly two terms, here it has {}", args.len()));
                    return None;
                }
                let mut it = args.into_iter();
                let a = self.term(it.next().expect("two"))?;
                let b = self.term(it.next().expect("two"))?;
                Some(Literal::Distinct(a, b, span))
            }
            kw => {
                if args.is_empty() {
                    self.err(span, format!("'{kw}' needs at least one literal"));
                    return None;
                }
                let lits: Option<Vec<Literal>> = args.into_iter().map(|a| self.literal(a)).collect();
                let lits = lits?;
                Some(if kw == "or" { Literal::Or(lits, span) } else { Literal::And(lits, span) })
            }
        }
    }
}
