//! Local stratification: a relation that depends on its own negation only through other
//! cases of itself, like `(<= (goal robot 100) (not (goal robot 0)))`, is split by the
//! arguments that are constant in every head of its rules.
//!
//! Strict GDL checks stratification per relation, so such games are refused, yet every
//! Prolog-based player runs them. When the relation graph has a cycle through `not`, each
//! relation of such a cycle whose rule heads all have constants at some positions gets one
//! relation per distinct constant tuple (`goal~~100(r)` holds the rules whose head is
//! `(goal r 100)`). A body atom with constants at every split position names its case; any
//! other reads the union, which a bridging rule per case keeps under the original name
//! (`(goal ?x1 100) :- (goal~~100 ?x1)`), so keyword queries still see `goal`.
//!
//! Invariant: the split is applied only when it makes the program stratified; otherwise
//! the rules are left as they were (and refused as unstratified). Case names contain `~~`,
//! which neither the parser nor any other generated name (`aux~1`, `next~part1`, ...)
//! contains.

use super::rules::{graph_of, NLit, NRule};
use super::Program;
use crate::ast::Term;
use crate::deps::{rel_key, RelKey};
use crate::diagnostic::Span;
use rustc_hash::FxHashMap;

/// A relation split into cases.
#[derive(Clone, Debug)]
pub struct Split {
    pub rel: RelKey,
    /// The argument positions that are constant in every head of its rules.
    pub positions: Vec<usize>,
    /// One head as written per case, in the order of the rules.
    pub cases: Vec<Term>,
}

/// The rules with the relations of every cycle through `not` split by their constant
/// arguments, when that makes the program stratified; otherwise the rules unchanged.
pub fn stratify(program: Program) -> Program {
    match split(&program) {
        Some((split_program, _)) => split_program,
        None => program,
    }
}

/// The split program and what was split, when the rules have a cycle through `not` and
/// splitting its relations by their constant arguments removes every such cycle.
pub fn split(program: &Program) -> Option<(Program, Vec<Split>)> {
    let (rules, graph) = (program.rules(), program.graph());
    graph.negative_cycle()?;
    let mut comp_of = vec![0; graph.rels.len()];
    let sccs = graph.sccs();
    for (c, comp) in sccs.iter().enumerate() {
        comp.iter().for_each(|&r| comp_of[r] = c);
    }
    let negative_comp: Vec<bool> = sccs
        .iter()
        .map(|comp| comp.iter().any(|&r| graph.edges[r].iter().any(|e| e.negative && comp_of[e.to] == comp_of[r])))
        .collect();
    let mut splits: FxHashMap<RelKey, Split> = FxHashMap::default();
    for rule in rules {
        let Some(key) = rel_key(&rule.head) else { continue };
        let r = graph.index[&key];
        if !negative_comp[comp_of[r]] {
            continue;
        }
        let constant: Vec<usize> = (0..key.1).filter(|&i| matches!(rule.head.args()[i], Term::Const(..))).collect();
        let s = splits.entry(key.clone()).or_insert_with(|| Split {
            rel: key,
            positions: constant.clone(),
            cases: Vec::new(),
        });
        s.positions.retain(|p| constant.contains(p));
    }
    splits.retain(|_, s| !s.positions.is_empty());
    if splits.is_empty() {
        return None;
    }
    let out = rewrite(rules, &mut splits);
    let out_graph = graph_of(&out);
    if out_graph.negative_cycle().is_some() {
        return None;
    }
    let mut list: Vec<Split> = splits.into_values().collect();
    crate::order::sort_by(&mut list, |a, b| a.rel.cmp(&b.rel));
    Some((Program::with_graph(out, out_graph), list))
}

/// Every rule with its head and body atoms renamed to their cases, plus one bridging rule
/// per case after the first rule of that case; records each case's first head.
fn rewrite(rules: &[NRule], splits: &mut FxHashMap<RelKey, Split>) -> Vec<NRule> {
    let mut out = Vec::with_capacity(rules.len());
    for rule in rules {
        let body = rule
            .body
            .iter()
            .map(|l| match l {
                NLit::Pos(t) => NLit::Pos(case_atom(t, splits).unwrap_or_else(|| t.clone())),
                NLit::Neg(t) => NLit::Neg(case_atom(t, splits).unwrap_or_else(|| t.clone())),
                other => other.clone(),
            })
            .collect();
        let Some(head) = case_atom(&rule.head, splits) else {
            out.push(NRule { head: rule.head.clone(), body, span: rule.span });
            continue;
        };
        let split = splits.get_mut(&rel_key(&rule.head).expect("named")).expect("split");
        let new_case = !split.cases.iter().any(|c| split.positions.iter().all(|&p| c.args()[p] == rule.head.args()[p]));
        out.push(NRule { head: head.clone(), body, span: rule.span });
        if new_case {
            split.cases.push(rule.head.clone());
            out.push(bridge(&rule.head, &split.positions, rule.span));
        }
    }
    out
}

/// The case an atom names: its relation is split and it has constants at every split
/// position. `None` for an atom that reads the union (or whose relation is not split).
fn case_atom(atom: &Term, splits: &FxHashMap<RelKey, Split>) -> Option<Term> {
    case_of(atom, &splits.get(&rel_key(atom)?)?.positions)
}

/// `(p a ?y b)` split at positions 0 and 2 is `(p~~a~~b ?y)`; `None` without a constant at
/// each of the positions.
fn case_of(atom: &Term, positions: &[usize]) -> Option<Term> {
    let mut name = atom.name()?.to_string();
    for &p in positions {
        let Term::Const(c, _) = &atom.args()[p] else { return None };
        name.push_str("~~");
        name.push_str(c);
    }
    let rest: Vec<Term> =
        atom.args().iter().enumerate().filter(|(i, _)| !positions.contains(i)).map(|(_, a)| a.clone()).collect();
    Some(if rest.is_empty() { Term::Const(name, atom.span()) } else { Term::Func(name, rest, atom.span()) })
}

/// `(p ?x1 c ?x3) :- (p~~c ?x1 ?x3)` for the case of `head` (fresh variables elsewhere).
fn bridge(head: &Term, positions: &[usize], span: Span) -> NRule {
    let args: Vec<Term> = head
        .args()
        .iter()
        .enumerate()
        .map(|(i, a)| if positions.contains(&i) { a.clone() } else { Term::Var(format!("x{}", i + 1), a.span()) })
        .collect();
    let general = Term::Func(head.name().expect("named").to_string(), args, head.span());
    let case = case_of(&general, positions).expect("constants at the split positions");
    NRule { head: general, body: vec![NLit::Pos(case)], span }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{build, Choice};
    use crate::machine::{GoalValue, StateMachine};
    use crate::parse::parse;
    use crate::program::flatten::flatten;

    fn split_text(text: &str) -> Option<String> {
        let (program, _) = split(&Program::new(flatten(&parse(text).description).unwrap()))?;
        Some(program.rules().iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))
    }

    #[test]
    fn cases_get_relations_of_their_own_and_variables_read_the_union() {
        let out = split_text(
            "(<= (goal ?r 100) (true (has ?r gold))) (<= (goal ?r 100) (true (has ?r all)))\n\
             (<= (goal ?r 0) (role ?r) (not (goal ?r 100)))\n\
             (<= (score ?r ?v) (goal ?r ?v)) (<= (lost ?r) (goal ?r 0))",
        );
        expect_test::expect![[r#"
            (goal~~100 ?r) :- (true (has ?r gold))
            (goal ?x1 100) :- (goal~~100 ?x1)
            (goal~~100 ?r) :- (true (has ?r all))
            (goal~~0 ?r) :- (role ?r) (not (goal~~100 ?r))
            (goal ?x1 0) :- (goal~~0 ?x1)
            (score ?r ?v) :- (goal ?r ?v)
            (lost ?r) :- (goal~~0 ?r)"#]]
        .assert_eq(&out.unwrap());
    }

    #[test]
    fn stratified_programs_are_left_alone() {
        assert_eq!(split_text("(<= (goal r 100) (p)) (<= (goal r 0) (not (p)))"), None);
    }

    #[test]
    fn cycles_through_the_negation_of_the_same_case_stay_unstratified() {
        for text in [
            "(<= p (not q)) (<= q (not p))",
            "(<= (p a) (not (p b))) (<= (p b) (r) (not (p a)))",
            "(<= (p a) (q ?x) (not (p ?x)))",
            "(<= (p a) (not (p b))) (<= (p ?x) (q ?x) (not (p a)))",
        ] {
            assert_eq!(split_text(text), None, "{text}");
            let rules = flatten(&parse(text).description).unwrap();
            assert_eq!(stratify(Program::new(rules.clone())).rules().len(), rules.len(), "{text}");
        }
    }

    /// `(goal robot 100)` holds when `(goal robot 0)` does not; `terminal` reads the union.
    const PRIZE: &str = "(role robot) (init start) (prize gold) (prize tin)
        (<= (legal robot (take ?x)) (true start) (prize ?x))
        (<= (next (has ?x)) (does robot (take ?x)))
        (<= terminal (goal robot ?v) (true (has ?x)))
        (<= (goal robot 0) (true start))
        (<= (goal robot 0) (true (has tin)))
        (<= (goal robot 100) (not (goal robot 0)))";

    #[test]
    fn every_engine_plays_a_locally_stratified_game() {
        let valid = crate::validated(PRIZE).unwrap_or_else(|d| panic!("{d:?}"));
        assert_eq!(valid.warnings.iter().map(|d| d.code).collect::<Vec<_>>(), ["locally-stratified"]);
        for choice in [Choice::Reasoner, Choice::Ground, Choice::Propnet] {
            let mut m = build(choice, &valid.description, Default::default(), Default::default(), &|| 0.0)
                .unwrap_or_else(|d| panic!("{choice:?}: {d:?}"))
                .engine;
            let s = m.initial_state();
            assert!(!m.is_terminal(&s).unwrap());
            assert_eq!(m.goals(&s).unwrap(), [[GoalValue::Int(0)]], "{choice:?}");
            let moves = m.legal_moves(&s, 0).unwrap();
            let texts: Vec<String> = moves.iter().map(|&x| m.move_text(x)).collect();
            assert_eq!(texts, ["(take gold)", "(take tin)"], "{choice:?}");
            for (mv, value) in moves.into_iter().zip([100, 0]) {
                let next = m.next_state(&s, &[mv]).unwrap();
                assert!(m.is_terminal(&next).unwrap(), "{choice:?}");
                assert_eq!(m.goals(&next).unwrap(), [[GoalValue::Int(value)]], "{choice:?}");
            }
        }
    }
}
