//! Demand specialisation: a relation that every rule body uses with some constant
//! arguments is computed only for those arguments.
//!
//! Bottom-up evaluation computes a relation in full even when the game only ever asks
//! `(count e3 e4 f3 f4 red ?n)`. When every use of a relation fixes some arguments, its rules
//! are copied once per distinct use with those arguments substituted, so that only the
//! facts some rule can read are derived. The new constants flow into the copied bodies, so
//! the pass repeats until nothing changes, or until a round would multiply the program
//! (`MAX_GROWTH`). Only non-recursive, non-keyword relations are specialised, so the facts
//! every reader sees are unchanged.

use super::rules::{NLit, NRule};
use super::Program;
use crate::ast::Term;
use crate::deps::DepGraph;
use rustc_hash::{FxHashMap, FxHashSet};

/// Most distinct uses a relation may have and still be specialised.
const MAX_USES: usize = 16;
/// Most rounds of specialisation.
const MAX_ROUNDS: usize = 8;
/// A round that would make the program more than this many times its original size (and
/// more than `MIN_GROWTH` rules bigger) is not made: copies of copies multiply.
const MAX_GROWTH: usize = 4;
const MIN_GROWTH: usize = 256;

/// A use of a relation: the ground arguments it fixes (`None`: not fixed).
type Use = Vec<Option<Term>>;

pub fn specialise(mut program: Program) -> Program {
    let most = most_rules(program.rules().len());
    for _ in 0..MAX_ROUNDS {
        let (rules, graph) = (program.rules(), program.graph());
        let uses = uses_per_relation(rules, graph);
        if uses.is_empty() {
            break;
        }
        let mut seen = FxHashSet::default();
        let mut out = Vec::with_capacity(rules.len());
        for rule in rules {
            let rel = graph.get(rule.head.name().expect("named"), rule.head.args().len()).expect("in graph");
            let copies: Vec<NRule> = match uses.get(&rel) {
                Some(list) => list.iter().filter_map(|u| instantiate(rule, u)).collect(),
                None => vec![rule.clone()],
            };
            out.extend(copies.into_iter().filter(|r| seen.insert(text(r))));
        }
        let unchanged = out.len() == rules.len() && rules.iter().all(|r| seen.contains(&text(r)));
        if out.len() > most {
            break;
        }
        program = Program::new(out);
        if unchanged {
            break;
        }
    }
    program
}

/// The most rules specialisation may make of `n`.
fn most_rules(n: usize) -> usize {
    (n * MAX_GROWTH).max(n + MIN_GROWTH)
}

/// A rule as text, to recognise copies.
fn text(r: &NRule) -> String {
    r.to_string()
}

/// For each relation that can be specialised, its distinct uses.
fn uses_per_relation(rules: &[NRule], graph: &DepGraph) -> FxHashMap<usize, Vec<Use>> {
    let mut uses: FxHashMap<usize, Vec<Use>> = FxHashMap::default();
    let mut blocked = vec![false; graph.rels.len()];
    for (r, (name, arity)) in graph.rels.iter().enumerate() {
        let keyword = crate::ast::RESERVED.contains(&name.as_str());
        let recursive = graph.reachable(graph.edges[r].iter().map(|e| e.to))[r];
        blocked[r] = keyword || *arity == 0 || recursive || !graph.defined[r];
    }
    for rule in rules {
        for lit in &rule.body {
            let (NLit::Pos(atom) | NLit::Neg(atom)) = lit else { continue };
            let Some(r) = graph.get(atom.name().expect("named"), atom.args().len()) else { continue };
            if blocked[r] {
                continue;
            }
            let u: Use = atom.args().iter().map(|a| a.is_ground().then(|| a.clone())).collect();
            if u.iter().all(Option::is_none) {
                blocked[r] = true;
                continue;
            }
            let list = uses.entry(r).or_default();
            if !list.contains(&u) {
                list.push(u);
            }
            if list.len() > MAX_USES {
                blocked[r] = true;
            }
        }
    }
    uses.retain(|r, _| !blocked[*r]);
    uses
}

/// The rule with its head unified with the use's fixed arguments, if they unify.
fn instantiate(rule: &NRule, u: &Use) -> Option<NRule> {
    let mut subst: FxHashMap<String, Term> = FxHashMap::default();
    for (h, fixed) in rule.head.args().iter().zip(u) {
        if let Some(g) = fixed {
            if !match_ground(h, g, &mut subst) {
                return None;
            }
        }
    }
    let s = |t: &Term| apply(t, &subst);
    Some(NRule {
        head: s(&rule.head),
        body: rule
            .body
            .iter()
            .map(|l| match l {
                NLit::Pos(t) => NLit::Pos(s(t)),
                NLit::Neg(t) => NLit::Neg(s(t)),
                NLit::Distinct(a, b) => NLit::Distinct(s(a), s(b)),
                NLit::Same(a, b) => NLit::Same(s(a), s(b)),
            })
            .collect(),
        span: rule.span,
    })
}

/// Matches a pattern against a ground term, extending `subst`.
fn match_ground(p: &Term, g: &Term, subst: &mut FxHashMap<String, Term>) -> bool {
    match p {
        Term::Var(v, _) => match subst.get(v) {
            Some(bound) => bound == g,
            None => {
                subst.insert(v.clone(), g.clone());
                true
            }
        },
        Term::Const(c, _) => matches!(g, Term::Const(d, _) if c == d),
        Term::Func(f, args, _) => match g {
            Term::Func(h, gargs, _) if f == h && args.len() == gargs.len() => {
                args.iter().zip(gargs).all(|(a, b)| match_ground(a, b, subst))
            }
            _ => false,
        },
    }
}

/// `t` with the variables `subst` holds replaced.
pub(super) fn apply(t: &Term, subst: &FxHashMap<String, Term>) -> Term {
    match t {
        Term::Var(v, _) => subst.get(v).cloned().unwrap_or_else(|| t.clone()),
        Term::Const(..) => t.clone(),
        Term::Func(f, args, s) => Term::Func(f.clone(), args.iter().map(|a| apply(a, subst)).collect(), *s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;
    use crate::program::normalise;

    fn show(text: &str) -> String {
        let rules = specialise(Program::normalised(&parse(text).description).unwrap()).into_rules();
        let mut lines: Vec<String> = rules.iter().map(ToString::to_string).collect();
        lines.sort();
        lines.join("\n")
    }

    #[test]
    fn relations_used_with_constants_are_computed_for_those_only() {
        let out = show(
            "(<= (legal ?p go) (count a ?p ?n) (not (count b ?p 0)))\n\
             (<= (count ?x ?p ?n) (true (cell ?x ?p)) (score ?x ?n))\n\
             (<= (score ?x 1) (true (mark ?x)))",
        );
        expect_test::expect![[r#"
            (count a ?p ?n) :- (true (cell a ?p)) (score a ?n)
            (count b ?p 0) :- (true (cell b ?p)) (score b 0)
            (legal ?p go) :- (count a ?p ?n) (not (count b ?p 0))
            (score a 1) :- (true (mark a))"#]]
        .assert_eq(&out);
    }

    /// Each level asks the next with one more constant: every round doubles the copies.
    #[test]
    fn copies_of_copies_stop_before_they_multiply_the_program() {
        let mut text = String::from("(<= (legal r go) (p0 0))\n");
        for k in 0..40 {
            let vars: String = (0..=k).map(|i| format!(" ?b{i}")).collect();
            text += &format!("(<= (p{k}{vars}) (true (at{vars})) (p{} {vars} 0) (p{} {vars} 1))\n", k + 1, k + 1);
        }
        let rules = normalise(&parse(&text).description).unwrap();
        let out = specialise(Program::new(rules.clone())).into_rules();
        assert!(out.len() > rules.len(), "the first rounds are made");
        assert!(out.len() <= most_rules(rules.len()), "{} rules", out.len());
    }

    #[test]
    fn relations_also_used_without_constants_are_kept_whole() {
        let out = show("(<= (legal ?p go) (q ?p) (q a)) (<= (q ?x) (true (at ?x)))");
        assert!(out.contains("(q ?x) :- (true (at ?x))"), "{out}");
    }
}
