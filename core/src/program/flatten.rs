//! Flattening: every rule of a description becomes rules whose bodies are conjunctions of
//! plain literals. `or` is split into separate rules (also nested), `and` flattened, `not`
//! pushed onto atoms; `(not (and ...))` gets an auxiliary relation (`aux~1`, ...).

use super::rules::{NLit, NRule};
use crate::ast::{Description, Literal, Term};
use crate::diagnostic::{Diagnostic, Span};

/// Most rules one source rule may split into (an `or` of `or`s multiplies).
pub const MAX_SPLIT: usize = 4096;

/// Every rule of the description with a flat body, relations as written.
pub fn flatten(desc: &Description) -> Result<Vec<NRule>, Diagnostic> {
    let mut n = Normaliser { out: Vec::new(), aux: 0 };
    for rule in desc.rules() {
        let alternatives = n.conjunction(&rule.body, &rule.head, rule.span)?;
        for body in alternatives {
            n.out.push(NRule { head: rule.head.clone(), body, span: rule.span });
        }
    }
    Ok(n.out)
}

struct Normaliser {
    out: Vec<NRule>,
    aux: usize,
}

type Dnf = Vec<Vec<NLit>>;

impl Normaliser {
    /// The alternatives (disjunctive normal form) of a conjunction of literals.
    fn conjunction(&mut self, lits: &[Literal], head: &Term, span: Span) -> Result<Dnf, Diagnostic> {
        let mut acc: Dnf = vec![Vec::new()];
        for (i, lit) in lits.iter().enumerate() {
            let context = Context { head, others: lits, skip: i };
            let alts = self.literal(lit, false, &context, span)?;
            if acc.len() * alts.len() > MAX_SPLIT {
                return Err(Diagnostic::error(
                    "too-many-alternatives",
                    span,
                    format!("this rule splits into more than {MAX_SPLIT} rules once its 'or's are expanded"),
                ));
            }
            acc = acc
                .iter()
                .flat_map(|pre| {
                    alts.iter().map(move |alt| {
                        let mut v = pre.clone();
                        v.extend(alt.iter().cloned());
                        v
                    })
                })
                .collect();
        }
        Ok(acc)
    }

    fn literal(&mut self, lit: &Literal, negated: bool, ctx: &Context, span: Span) -> Result<Dnf, Diagnostic> {
        Ok(match (lit, negated) {
            (Literal::Atom(t), false) => vec![vec![NLit::Pos(t.clone())]],
            (Literal::Atom(t), true) => vec![vec![NLit::Neg(t.clone())]],
            (Literal::Distinct(a, b, _), false) => vec![vec![NLit::Distinct(a.clone(), b.clone())]],
            (Literal::Distinct(a, b, _), true) => vec![vec![NLit::Same(a.clone(), b.clone())]],
            (Literal::Not(inner, _), _) => self.literal(inner, !negated, ctx, span)?,
            (Literal::Or(ls, _), false) => {
                let mut out = Vec::new();
                for l in ls {
                    out.extend(self.literal(l, false, ctx, span)?);
                }
                out
            }
            (Literal::And(ls, _), false) => self.conjunction(ls, ctx.head, span)?,
            // not (a or b) = (not a) and (not b)
            (Literal::Or(ls, s), true) => {
                let negs: Vec<Literal> = ls.iter().map(|l| Literal::Not(Box::new(l.clone()), *s)).collect();
                self.conjunction(&negs, ctx.head, span)?
            }
            // not (a and b): an auxiliary relation holds the conjunction.
            (Literal::And(ls, _), true) => {
                let atom = self.auxiliary(ls, ctx, span)?;
                vec![vec![NLit::Neg(atom)]]
            }
        })
    }

    fn auxiliary(&mut self, ls: &[Literal], ctx: &Context, span: Span) -> Result<Term, Diagnostic> {
        let mut outside = Vec::new();
        ctx.head.for_each_var(&mut |v, _| outside.push(v.to_string()));
        for (i, l) in ctx.others.iter().enumerate() {
            if i != ctx.skip {
                l.for_each_var(&mut |v, _| outside.push(v.to_string()));
            }
        }
        let mut args: Vec<Term> = Vec::new();
        for l in ls {
            l.for_each_var(&mut |v, s| {
                if outside.iter().any(|o| o == v) && !args.iter().any(|a| matches!(a, Term::Var(x, _) if x == v)) {
                    args.push(Term::Var(v.to_string(), s));
                }
            });
        }
        self.aux += 1;
        let name = format!("aux~{}", self.aux);
        let head = if args.is_empty() { Term::Const(name, span) } else { Term::Func(name, args, span) };
        for body in self.conjunction(ls, &head, span)? {
            self.out.push(NRule { head: head.clone(), body, span });
        }
        Ok(head)
    }
}

struct Context<'a> {
    head: &'a Term,
    others: &'a [Literal],
    skip: usize,
}
