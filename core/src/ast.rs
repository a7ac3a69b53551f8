//! The syntax tree of a GDL description, shared by the prefix and the infix syntax.
//!
//! Names are stored lower-cased for constants and relations (prefix GDL is case-insensitive);
//! variable names are stored without the `?` and lower-cased. Spans point into the source.

use crate::diagnostic::Span;
use std::fmt;

/// A term: a variable, a constant or a function term `(f t1 .. tn)` with n ≥ 1.
#[derive(Clone, Debug)]
pub enum Term {
    Var(String, Span),
    Const(String, Span),
    Func(String, Vec<Term>, Span),
}

impl Term {
    pub fn span(&self) -> Span {
        match self {
            Term::Var(_, s) | Term::Const(_, s) | Term::Func(_, _, s) => *s,
        }
    }
    /// Name of a constant or function symbol; `None` for a variable.
    pub fn name(&self) -> Option<&str> {
        match self {
            Term::Var(..) => None,
            Term::Const(n, _) | Term::Func(n, _, _) => Some(n),
        }
    }
    pub fn args(&self) -> &[Term] {
        match self {
            Term::Func(_, a, _) => a,
            _ => &[],
        }
    }
    /// Calls `f` on every variable occurrence, left to right.
    pub fn for_each_var<'a>(&'a self, f: &mut impl FnMut(&'a str, Span)) {
        match self {
            Term::Var(v, s) => f(v, *s),
            Term::Const(..) => {}
            Term::Func(_, args, _) => args.iter().for_each(|a| a.for_each_var(f)),
        }
    }
    pub fn is_ground(&self) -> bool {
        let mut ground = true;
        self.for_each_var(&mut |_, _| ground = false);
        ground
    }
    /// Nesting depth: 0 for a variable or constant.
    pub fn depth(&self) -> usize {
        self.args().iter().map(|a| a.depth() + 1).max().unwrap_or(0)
    }
}

/// Structural equality, ignoring spans.
impl PartialEq for Term {
    fn eq(&self, other: &Term) -> bool {
        match (self, other) {
            (Term::Var(a, _), Term::Var(b, _)) | (Term::Const(a, _), Term::Const(b, _)) => a == b,
            (Term::Func(f, xs, _), Term::Func(g, ys, _)) => f == g && xs == ys,
            _ => false,
        }
    }
}
impl Eq for Term {}

/// A body literal.
#[derive(Clone, Debug)]
pub enum Literal {
    /// An atom `(p t1 .. tn)` or `p`, e.g. `(true (cell 1 1 b))`.
    Atom(Term),
    Not(Box<Literal>, Span),
    Distinct(Term, Term, Span),
    Or(Vec<Literal>, Span),
    And(Vec<Literal>, Span),
}

/// Structural equality, ignoring spans.
impl PartialEq for Literal {
    fn eq(&self, other: &Literal) -> bool {
        match (self, other) {
            (Literal::Atom(a), Literal::Atom(b)) => a == b,
            (Literal::Not(a, _), Literal::Not(b, _)) => a == b,
            (Literal::Distinct(a, b, _), Literal::Distinct(c, d, _)) => a == c && b == d,
            (Literal::Or(a, _), Literal::Or(b, _)) | (Literal::And(a, _), Literal::And(b, _)) => a == b,
            _ => false,
        }
    }
}
impl Eq for Literal {}

impl Literal {
    pub fn span(&self) -> Span {
        match self {
            Literal::Atom(t) => t.span(),
            Literal::Not(_, s) | Literal::Distinct(_, _, s) | Literal::Or(_, s) | Literal::And(_, s) => *s,
        }
    }
    pub fn for_each_var<'a>(&'a self, f: &mut impl FnMut(&'a str, Span)) {
        match self {
            Literal::Atom(t) => t.for_each_var(f),
            Literal::Not(l, _) => l.for_each_var(f),
            Literal::Distinct(a, b, _) => {
                a.for_each_var(f);
                b.for_each_var(f)
            }
            Literal::Or(ls, _) | Literal::And(ls, _) => ls.iter().for_each(|l| l.for_each_var(f)),
        }
    }
    /// Calls `f(atom, negated)` on every atom inside, with whether it is under a `not`.
    pub fn for_each_atom<'a>(&'a self, negated: bool, f: &mut impl FnMut(&'a Term, bool)) {
        match self {
            Literal::Atom(t) => f(t, negated),
            Literal::Not(l, _) => l.for_each_atom(!negated, f),
            Literal::Distinct(..) => {}
            Literal::Or(ls, _) | Literal::And(ls, _) => ls.iter().for_each(|l| l.for_each_atom(negated, f)),
        }
    }
}

/// A rule `head :- body`; a fact is a rule with an empty body.
#[derive(Clone, Debug)]
pub struct Rule {
    pub head: Term,
    pub body: Vec<Literal>,
    pub span: Span,
}

impl PartialEq for Rule {
    fn eq(&self, other: &Rule) -> bool {
        self.head == other.head && self.body == other.body
    }
}
impl Eq for Rule {}

/// A top-level item: a rule (or fact), or a comment line kept for the formatter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    Rule(Rule),
    /// The comment's text after the one `;` (or `%`) that starts it, so `;; x` holds `; x`;
    /// the formatter writes it back after a `;`.
    Comment(String),
}

/// A whole game description.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Description {
    pub items: Vec<Item>,
}

impl Description {
    pub fn rules(&self) -> impl Iterator<Item = &Rule> {
        self.items.iter().filter_map(|i| match i {
            Item::Rule(r) => Some(r),
            Item::Comment(_) => None,
        })
    }
}

/// The GDL keywords with a fixed meaning (`sees`: GDL-II's percepts, `crate::gdl2`).
pub const RESERVED: &[&str] = &[
    "role", "init", "true", "does", "next", "legal", "goal", "terminal", "base", "input", "distinct", "or", "and",
    "not", "sees",
];

impl fmt::Display for Term {
    /// Canonical prefix text: `(f a b)`, variables as `?x`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Var(v, _) => write!(f, "?{v}"),
            Term::Const(c, _) => f.write_str(c),
            Term::Func(name, args, _) => {
                write!(f, "({name}")?;
                for a in args {
                    write!(f, " {a}")?;
                }
                f.write_str(")")
            }
        }
    }
}
