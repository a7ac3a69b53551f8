//! Flattening: every rule of a description becomes rules whose bodies are conjunctions of
//! plain literals. `or` is split into separate rules (also nested), `and` flattened, `not`
//! pushed onto atoms; `(not (and ...))` gets an auxiliary relation (`aux~1`, ...), and so does a
//! `(not atom)` with variables of its own. The GDL-II readings of `crate::gdl2` apply here,
//! values from the rules that ask included (`super::asked`).

use super::rules::{NLit, NRule};
use crate::ast::{Description, Literal, Rule, Term};
use crate::diagnostic::{Diagnostic, Span};
use crate::gdl2;

/// Most rules one source rule may split into (an `or` of `or`s multiplies).
pub const MAX_SPLIT: usize = 4096;

/// Every rule of the description with a flat body, relations as written.
pub fn flatten(desc: &Description) -> Result<Vec<NRule>, Diagnostic> {
    let gdl2 = gdl2::is_gdl2(desc.rules());
    let mut n = Normaliser { out: Vec::new(), aux: 0 };
    for rule in desc.rules().filter(|r| gdl2::ignored_declaration(r).is_none()) {
        let body = n.existential_negations(rule, gdl2)?;
        let alternatives = n.conjunction(&body, &rule.head, rule.span)?;
        for mut body in alternatives {
            let bound = |v: &str| body.iter().any(|l| matches!(l, NLit::Pos(t) if mentions(t, v)));
            if let Some(v) = gdl2::every_role_variable(&rule.head, &bound, gdl2) {
                let role = Term::Func("role".into(), vec![Term::Var(v.to_string(), rule.head.span())], rule.span);
                body.insert(0, NLit::Pos(role));
            }
            n.out.push(NRule { head: rule.head.clone(), body, span: rule.span });
        }
    }
    if gdl2 {
        super::asked::bind_from_callers(&mut n.out)?;
    }
    Ok(n.out)
}

fn mentions(t: &Term, v: &str) -> bool {
    let mut found = false;
    t.for_each_var(&mut |x, _| found |= x == v);
    found
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
            let context = Context { head, others: lits, skip: i, local: &[] };
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

    /// The body with each `(not atom)` whose atom has variables found nowhere else in the rule
    /// (`gdl2::existential_variables`) negating an auxiliary relation that projects them away.
    fn existential_negations(&mut self, rule: &Rule, gdl2: bool) -> Result<Vec<Literal>, Diagnostic> {
        let local: Vec<&str> = gdl2::existential_variables(rule, gdl2).into_iter().map(|(v, ..)| v).collect();
        let mut body = rule.body.clone();
        for (i, lit) in rule.body.iter().enumerate() {
            let Literal::Not(inner, s) = lit else { continue };
            let Literal::Atom(atom) = inner.as_ref() else { continue };
            if local.iter().any(|v| mentions(atom, v)) {
                let context = Context { head: &rule.head, others: &rule.body, skip: i, local: &local };
                let aux = self.auxiliary(std::slice::from_ref(inner.as_ref()), &context, rule.span)?;
                body[i] = Literal::Not(Box::new(Literal::Atom(aux)), *s);
            }
        }
        Ok(body)
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
                let passed = outside.iter().any(|o| o == v) && !ctx.local.contains(&v);
                if passed && !args.iter().any(|a| matches!(a, Term::Var(x, _) if x == v)) {
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
    /// Variables local to each `not` they are in (`gdl2::existential_variables`): never passed.
    local: &'a [&'a str],
}
