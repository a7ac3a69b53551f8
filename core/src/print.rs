//! The formatter: prints a `Description` in prefix or infix syntax.
//!
//! Parsing the output again gives the same tree (comments inside a rule move before it).
//! A top-level comment is written `;` + its text, the text as it followed its `;` or `%`.

use crate::ast::{Description, Item, Literal, Rule, Term};
use crate::parse::{is_name_char, Syntax};
use std::fmt::Write;

/// Prints the whole description in the given syntax.
pub fn print(desc: &Description, syntax: Syntax) -> String {
    let mut out = String::new();
    let mut prev_multiline = false;
    for (i, item) in desc.items.iter().enumerate() {
        let text = match item {
            Item::Comment(c) => format!(";{c}"),
            Item::Rule(r) => print_rule(r, syntax),
        };
        let multiline = matches!(item, Item::Rule(r) if !r.body.is_empty());
        if i > 0 && (multiline || prev_multiline) && !matches!(item, Item::Comment(_)) {
            out.push('\n');
        }
        out.push_str(&text);
        out.push('\n');
        prev_multiline = multiline;
    }
    out
}

/// One rule; rules with a body span several lines, one literal per line.
pub fn print_rule(rule: &Rule, syntax: Syntax) -> String {
    let mut s = String::new();
    match syntax {
        Syntax::Prefix => {
            if rule.body.is_empty() {
                s = prefix_fact(&rule.head);
            } else {
                let _ = write!(s, "(<= {}", rule.head);
                for l in &rule.body {
                    s.push_str("\n    ");
                    prefix_literal(&mut s, l);
                }
                s.push(')');
            }
        }
        Syntax::Infix => {
            infix_term(&mut s, &rule.head);
            if !rule.body.is_empty() {
                s.push_str(" :-");
                for (i, l) in rule.body.iter().enumerate() {
                    s.push_str(if i == 0 { "\n    " } else { " &\n    " });
                    infix_literal(&mut s, l);
                }
            }
        }
    }
    s
}

/// A fact in prefix. A bare constant is written `(a)`: text that starts with a symbol
/// would be read as infix (the syntax is detected from the first character).
fn prefix_fact(head: &Term) -> String {
    match head {
        Term::Const(c, _) => format!("({c})"),
        _ => head.to_string(),
    }
}

/// Every rule on a line of its own (ground programs); comments are left out.
pub fn print_lines(desc: &Description, syntax: Syntax) -> String {
    let mut out = String::new();
    for r in desc.rules() {
        out.push_str(&print_rule_line(r, syntax));
        out.push('\n');
    }
    out
}

/// One rule on a single line (for ground programs and compact listings).
pub fn print_rule_line(rule: &Rule, syntax: Syntax) -> String {
    let mut s = String::new();
    match syntax {
        Syntax::Prefix => {
            if rule.body.is_empty() {
                s = prefix_fact(&rule.head);
            } else {
                let _ = write!(s, "(<= {}", rule.head);
                for l in &rule.body {
                    s.push(' ');
                    prefix_literal(&mut s, l);
                }
                s.push(')');
            }
        }
        Syntax::Infix => {
            infix_term(&mut s, &rule.head);
            for (i, l) in rule.body.iter().enumerate() {
                s.push_str(if i == 0 { " :- " } else { " & " });
                infix_literal(&mut s, l);
            }
        }
    }
    s
}

pub fn prefix_literal(s: &mut String, l: &Literal) {
    match l {
        Literal::Atom(t) => {
            let _ = write!(s, "{t}");
        }
        Literal::Not(inner, _) => {
            s.push_str("(not ");
            prefix_literal(s, inner);
            s.push(')');
        }
        Literal::Distinct(a, b, _) => {
            let _ = write!(s, "(distinct {a} {b})");
        }
        Literal::Or(ls, _) | Literal::And(ls, _) => {
            s.push_str(if matches!(l, Literal::Or(..)) { "(or" } else { "(and" });
            for x in ls {
                s.push(' ');
                prefix_literal(s, x);
            }
            s.push(')');
        }
    }
}

pub fn infix_literal(s: &mut String, l: &Literal) {
    match l {
        Literal::Atom(t) => infix_term(s, t),
        Literal::Not(inner, _) => {
            s.push('~');
            infix_literal(s, inner);
        }
        Literal::Distinct(a, b, _) => {
            s.push_str("distinct(");
            infix_term(s, a);
            s.push_str(", ");
            infix_term(s, b);
            s.push(')');
        }
        Literal::Or(ls, _) | Literal::And(ls, _) => {
            s.push_str(if matches!(l, Literal::Or(..)) { "or(" } else { "and(" });
            for (i, x) in ls.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                infix_literal(s, x);
            }
            s.push(')');
        }
    }
}

/// A variable in infix: capitalised (`X`), or `?x` when no capitalised word reads back as it.
fn infix_var(s: &mut String, v: &str) {
    let mut chars = v.chars();
    let plain: String = match chars.next() {
        Some(c) if c.is_alphabetic() => c.to_uppercase().chain(chars).collect(),
        _ => v.to_string(),
    };
    let first = plain.chars().next();
    if first.is_some_and(|c| c.is_uppercase() || c == '_')
        && plain != "_"
        && plain.chars().all(is_name_char)
        && plain.to_lowercase() == v
    {
        s.push_str(&plain);
    } else {
        s.push('?');
        s.push_str(v);
    }
}

/// A constant or relation name in infix: as it is, or quoted when infix would read it
/// otherwise (`'a.b'`, `'_x'`).
fn infix_name(s: &mut String, name: &str) {
    let first = name.chars().next();
    if first.is_some_and(|c| !c.is_uppercase() && c != '_' && c != '\'')
        && name.chars().all(is_name_char)
        && name.to_lowercase() == name
    {
        s.push_str(name);
    } else {
        s.push('\'');
        s.push_str(&name.replace('\'', "''"));
        s.push('\'');
    }
}

pub fn infix_term(s: &mut String, t: &Term) {
    match t {
        Term::Var(v, _) => infix_var(s, v),
        Term::Const(c, _) => infix_name(s, c),
        Term::Func(f, args, _) => {
            infix_name(s, f);
            s.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                infix_term(s, a);
            }
            s.push(')');
        }
    }
}
