//! Normalisation: a description becomes a list of flat rules whose bodies are conjunctions
//! of plain literals. `or` is split into separate rules (also nested), `and` flattened,
//! `not` pushed onto atoms; `(not (and ...))` gets an auxiliary relation. A program that is
//! stratified only once some relations are split by their constant arguments is split
//! (`crate::strata`).
//!
//! Invariant: a normal rule's body holds only `Pos`, `Neg`, `Distinct` and `Same` literals,
//! and auxiliary relation names contain `~`, which no parsed symbol can contain.

use crate::ast::{Description, Literal, Term};
use crate::deps::DepGraph;
use crate::diagnostic::{Diagnostic, Span};

/// A literal of a normal rule body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NLit {
    Pos(Term),
    Neg(Term),
    Distinct(Term, Term),
    /// `(not (distinct a b))`: the two terms are equal.
    Same(Term, Term),
}

impl NLit {
    pub fn for_each_var<'a>(&'a self, f: &mut impl FnMut(&'a str, Span)) {
        match self {
            NLit::Pos(t) | NLit::Neg(t) => t.for_each_var(f),
            NLit::Distinct(a, b) | NLit::Same(a, b) => {
                a.for_each_var(f);
                b.for_each_var(f);
            }
        }
    }
}

impl std::fmt::Display for NLit {
    /// Prefix text; `Same` prints as `(not (distinct a b))`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NLit::Pos(t) => write!(f, "{t}"),
            NLit::Neg(t) => write!(f, "(not {t})"),
            NLit::Distinct(a, b) => write!(f, "(distinct {a} {b})"),
            NLit::Same(a, b) => write!(f, "(not (distinct {a} {b}))"),
        }
    }
}

/// A rule with a flat body.
#[derive(Clone, Debug)]
pub struct NRule {
    pub head: Term,
    pub body: Vec<NLit>,
    /// The source rule it comes from.
    pub span: Span,
}

/// The dependency graph of normal rules.
pub fn graph_of(rules: &[NRule]) -> DepGraph {
    let mut graph = DepGraph::default();
    for r in rules {
        graph.add_rule(
            &r.head,
            r.body.iter().filter_map(|l| match l {
                NLit::Pos(t) => Some((t, false)),
                NLit::Neg(t) => Some((t, true)),
                _ => None,
            }),
        );
    }
    graph
}

impl std::fmt::Display for NRule {
    /// `head :- lit lit ...` on one line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} :-", self.head)?;
        self.body.iter().try_for_each(|l| write!(f, " {l}"))
    }
}

/// Most rules one source rule may split into (an `or` of `or`s multiplies).
pub const MAX_SPLIT: usize = 4096;

/// Normalises every rule of the description; relations that are only locally stratified
/// are split by their constant arguments (`crate::strata`).
pub fn normalise(desc: &Description) -> Result<Vec<NRule>, Diagnostic> {
    flatten(desc).map(crate::strata::stratify)
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn show(text: &str) -> String {
        let rules = normalise(&parse(text).description).unwrap();
        rules.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn or_splits_and_not_is_pushed_inwards() {
        let out = show(
            "(<= (p ?x) (q ?x) (or (r ?x) (and (s ?x) (or (t ?x) (u ?x)))))\n\
             (<= (w ?x) (q ?x) (not (or (r ?x) (not (distinct ?x a)))))\n\
             (<= (v ?x) (q ?x) (not (and (r ?x) (s ?y))))",
        );
        expect_test::expect![[r#"
            (p ?x) :- (q ?x) (r ?x)
            (p ?x) :- (q ?x) (s ?x) (t ?x)
            (p ?x) :- (q ?x) (s ?x) (u ?x)
            (w ?x) :- (q ?x) (not (r ?x)) (distinct ?x a)
            (aux~1 ?x) :- (r ?x) (s ?y)
            (v ?x) :- (q ?x) (not (aux~1 ?x))"#]]
        .assert_eq(&out);
    }

    #[test]
    fn exploding_or_is_refused() {
        let lit = "(or (a) (b) (c) (d))".repeat(8);
        let d = parse(&format!("(<= p {lit})")).description;
        assert_eq!(normalise(&d).unwrap_err().code, "too-many-alternatives");
    }
}
