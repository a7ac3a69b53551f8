//! A guess, before any evaluation, of how many rule instances a grounding will have: so
//! that the grounder gives up at once on a game whose grounding is sure to be far past any
//! bound (laikLee_hex), instead of evaluating the relaxed program to find out (and, when the
//! relation guessed biggest is one only terminal and goal need, grounds without them).
//!
//! Textbook join-size estimates over the rules as they are after the passes: a relation
//! given by facts has its facts (and each argument its distinct values); a derived one the
//! sum of its rules' estimates, each the join of its positive literals in the order
//! written, where a literal sharing variables with those before it is divided by the larger
//! number of values of each shared variable. `true` reads the facts of `init` (a lower
//! bound on `base`), `does` the estimate of `legal`; negations and (non-)equalities are not
//! counted. Recursive relations are estimated from `RECURSIVE_ROUNDS` unfoldings of their
//! rules. A rule's instances are its bindings of the head's and dynamic literals'
//! variables, at most the product of their values.
//!
//! Only a guess, wrong by factors of ten either way on the corpus (chess: 7·10⁵ where the
//! grounding has 2·10⁷ instances; sudokuGrade6E: 1.9·10⁶ where it grounds within auto's
//! bounds), so it separates no close call: `GUESSED_PAST_ANY_GROUNDING` is a bound no game
//! that grounds comes near (laikLee_hex's lists of paths: 4·10³⁵). See
//! tests/bench/NOTEBOOK.md, "auto's guess before grounding".

use super::relax::{dynamic_relations, key, matches};
use super::{source_relation, Failed};
use crate::ast::Term;
use crate::deps::RelKey;
use crate::diagnostic::{Diagnostic, Span};
use crate::program::{NLit, Program};
use rustc_hash::{FxHashMap, FxHashSet};

/// A guess of rule instances past which no grounding is tried: the largest guess for a
/// corpus game that grounds is 1.9·10⁶ (sudokuGrade6E), the next after it 4·10³⁵
/// (laikLee_hex, which does not ground).
pub const GUESSED_PAST_ANY_GROUNDING: f64 = 1e20;

/// An error, before any evaluation, when the guess of the program's rule instances is past
/// `most`, naming the relation with most of them (`max_instances`: the grounding's bound).
pub(super) fn give_up_past(program: &Program, most: f64, max_instances: usize) -> Result<(), Failed> {
    match instances(program) {
        (guess, Some(k)) if guess > most => Err(Failed {
            diagnostic: Diagnostic::error(
                "too-many-ground-rules",
                Span::default(),
                format!(
                    "the ground program would have far more than {max_instances} rule instances (about {guess:.0e} \
                     guessed from the sizes of the relations, most of them for {}/{}): raise the limit max_rules, \
                     or keep playing with the first-order reasoner",
                    k.0, k.1
                ),
            ),
            relation: Some(source_relation(&k.0)),
        }),
        _ => Ok(()),
    }
}

/// Rounds of a recursive component's rules: each unfolds the recursion once more.
const RECURSIVE_ROUNDS: usize = 3;

/// The estimated size of a relation: rows, and distinct values per argument.
#[derive(Clone, Default)]
struct Size {
    rows: f64,
    values: Vec<f64>,
}

/// The estimated rule instances of the program's dynamic rules, and the relation whose
/// rules have most of them.
pub fn instances(program: &Program) -> (f64, Option<RelKey>) {
    let (rules, graph) = (program.rules(), program.graph());
    let dynamic = dynamic_relations(graph);
    let mut given: FxHashMap<RelKey, Vec<&Term>> = FxHashMap::default();
    let mut by_head: FxHashMap<RelKey, Vec<usize>> = FxHashMap::default();
    for (i, r) in rules.iter().enumerate() {
        by_head.entry(key(&r.head)).or_default().push(i);
        given.entry(key(&r.head)).or_default().push(&r.head);
    }
    given.retain(|k, _| by_head[k].iter().all(|&i| rules[i].body.is_empty()));
    let mut sizes: FxHashMap<RelKey, Size> = FxHashMap::default();
    let mut per_relation: FxHashMap<RelKey, f64> = FxHashMap::default();
    for scc in graph.sccs() {
        let rounds = if graph.is_recursive(&scc) { RECURSIVE_ROUNDS } else { 1 };
        for _ in 0..rounds {
            let mut next: Vec<(RelKey, Size)> = Vec::new();
            for &r in &scc {
                let k = &graph.rels[r];
                if given.contains_key(k) {
                    continue;
                }
                let mut size = Size { rows: 0.0, values: vec![0.0; k.1] };
                let mut instances = 0.0;
                for &i in by_head.get(k).map_or(&[][..], Vec::as_slice) {
                    let rule = &rules[i];
                    let bound = join(&rule.body, &given, &sizes);
                    let most = |vars: &mut dyn Iterator<Item = &str>| {
                        vars.fold(1.0, |p, v| p * bound.values.get(v).copied().unwrap_or(1.0)).min(bound.rows)
                    };
                    let mut head_vars = Vec::new();
                    rule.head.for_each_var(&mut |v, _| head_vars.push(v));
                    size.rows += most(&mut head_vars.iter().copied());
                    for (j, arg) in rule.head.args().iter().enumerate() {
                        let mut vars = Vec::new();
                        arg.for_each_var(&mut |v, _| vars.push(v));
                        size.values[j] += most(&mut vars.into_iter());
                    }
                    if dynamic.contains(k) {
                        let mut vars: FxHashSet<&str> = head_vars.into_iter().collect();
                        (rule.body.iter())
                            .filter(|l| matches!(l, NLit::Pos(t) | NLit::Neg(t) if dynamic.contains(&key(t))))
                            .for_each(|l| {
                                l.for_each_var(&mut |v, _| {
                                    vars.insert(v);
                                })
                            });
                        instances += most(&mut vars.into_iter());
                    }
                }
                size.values.iter_mut().for_each(|v| *v = v.min(size.rows));
                per_relation.insert(k.clone(), instances);
                next.push((k.clone(), size));
            }
            sizes.extend(next);
        }
    }
    let total = per_relation.values().sum();
    let most = per_relation.into_iter().max_by(|a, b| a.1.total_cmp(&b.1).then_with(|| b.0.cmp(&a.0)));
    (total, most.filter(|m| m.1 > 0.0).map(|m| m.0))
}

/// The bindings of a body's positive literals: rows, and values per variable.
struct Bound<'a> {
    rows: f64,
    values: FxHashMap<&'a str, f64>,
}

fn join<'a>(body: &'a [NLit], given: &FxHashMap<RelKey, Vec<&Term>>, sizes: &FxHashMap<RelKey, Size>) -> Bound<'a> {
    let mut bound = Bound { rows: 1.0, values: FxHashMap::default() };
    for l in body {
        let NLit::Pos(t) = l else { continue };
        let (rows, values) = literal(t, given, sizes);
        let mut shared = 1.0;
        for (v, n) in values {
            match bound.values.get_mut(v) {
                Some(m) => {
                    shared *= m.max(n).max(1.0);
                    *m = m.min(n);
                }
                None => drop(bound.values.insert(v, n)),
            }
        }
        bound.rows = bound.rows * rows / shared;
    }
    bound
}

/// The rows of one literal and the values of each of its variables.
fn literal<'a>(
    t: &'a Term,
    given: &FxHashMap<RelKey, Vec<&Term>>,
    sizes: &FxHashMap<RelKey, Size>,
) -> (f64, Vec<(&'a str, f64)>) {
    // `true(f)` reads `init(f)`, `does(r, m)` reads `legal(r, m)`.
    let (name, args) = match (t.name(), t.args()) {
        (Some("true"), args) => ("init", args),
        (Some("does"), args) => ("legal", args),
        (name, args) => (name.unwrap_or_default(), args),
    };
    let k: RelKey = (name.to_string(), args.len());
    if let Some(facts) = given.get(&k) {
        let pattern = Term::Func(name.to_string(), args.to_vec(), Default::default());
        let mut rows = 0.0;
        let mut values: FxHashMap<&'a str, FxHashSet<String>> = FxHashMap::default();
        for f in facts {
            let mut bound = Vec::new();
            if matches(&pattern, f, &mut bound) {
                rows += 1.0;
                for (v, x) in bound {
                    if let Some(v) = var_in(t, v) {
                        values.entry(v).or_default().insert(x.to_string());
                    }
                }
            }
        }
        return (rows, values.into_iter().map(|(v, s)| (v, s.len() as f64)).collect());
    }
    let size = sizes.get(&k).cloned().unwrap_or_default();
    let mut values = Vec::new();
    for (j, arg) in args.iter().enumerate() {
        let column = size.values.get(j).copied().unwrap_or(0.0);
        arg.for_each_var(&mut |v, _| values.push((v, column)));
    }
    (size.rows, values)
}

/// The variable of `t` named `v` (with `t`'s lifetime).
fn var_in<'a>(t: &'a Term, v: &str) -> Option<&'a str> {
    let mut found = None;
    t.for_each_var(&mut |w, _| {
        if w == v {
            found = Some(w)
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn program(text: &str) -> Program {
        Program::normalised(&parse(text).description).unwrap()
    }

    /// `n` free digits beside the one fluent (a digit): 100ⁿ instances of `wide` from the
    /// initial state alone.
    /// A game whose relation `wide` has 100^(n+1) instances, read by `reader` (a head).
    fn wide_read_by(n: usize, reader: &str) -> String {
        let digits: String = (0..100).map(|i| format!("(digit {i}) ")).collect();
        let vars: String = (0..n).map(|i| format!(" ?d{i}")).collect();
        let digit_literals: String = (0..n).map(|i| format!(" (digit ?d{i})")).collect();
        format!(
            "{digits}(role p) (init (at 0)) (<= (legal p noop) (true (at ?x)))\n\
             (<= (next (at ?y)) (true (at ?x)) (digit ?y))\n\
             (<= (wide ?x{vars}) (true (at ?x)){digit_literals})\n\
             (<= {reader} (wide ?x{vars})) (goal p 100)"
        )
    }

    fn wide(n: usize) -> String {
        wide_read_by(n, "terminal")
    }

    #[test]
    fn a_game_sure_to_fail_is_guessed_past_any_grounding() {
        // 10²² instances of `wide` and as many of `terminal`, which no grounding survives.
        let (guess, most) = instances(&program(&wide(11)));
        assert!((2e22..2.1e22).contains(&guess), "{guess:e}");
        assert!(matches!(most, Some((name, _)) if name == "wide" || name == "terminal"));
        let e = give_up_past(&program(&wide(11)), GUESSED_PAST_ANY_GROUNDING, 1000).unwrap_err();
        let start = "the ground program would have far more than 1000 rule instances (about 2e22 guessed";
        assert!(e.diagnostic.message.starts_with(start), "{}", e.diagnostic.message);
        // Only terminal reads it: the game is ground without terminal and goal at once,
        // which the reasoner computes.
        let g = super::super::ground(&parse(&wide(11)).description, Default::default(), &|| 0.0, &mut |_| {});
        let g = g.unwrap();
        assert!(g.outputs.is_some() && g.stats.warnings[0].contains("about 2e22 guessed"), "{:?}", g.stats.warnings);
        let auto = |text: &str| {
            let desc = parse(text).description;
            crate::engine::build(crate::engine::Choice::Auto, &desc, Default::default(), Default::default(), &|| 0.0)
        };
        let note = auto(&wide(11)).unwrap().note;
        assert!(note.starts_with("propnet (") && note.contains("terminal and goal by the reasoner"), "{note}");
        // Read by a legal move, it is needed to play: `auto` gives up on it before
        // evaluating anything, and says so.
        let chosen = auto(&wide_read_by(11, "(legal p stop)")).unwrap();
        assert!(chosen.note.starts_with("reasoner (the propositional network is not available"), "{}", chosen.note);
        assert!(chosen.note.contains("guessed from the sizes of the relations"), "{}", chosen.note);
        assert!(chosen.may_upgrade);
    }

    #[test]
    fn games_that_ground_are_guessed_far_below_it() {
        for game in ["tictactoe", "breakthrough", "checkers", "othello", "hex", "lists"] {
            let path = format!("{}/../games/{game}.kif", env!("CARGO_MANIFEST_DIR"));
            let (guess, _) = instances(&program(&std::fs::read_to_string(path).unwrap()));
            assert!(guess > 0.0 && guess < 1e7, "{game}: {guess:e}");
        }
        // Two digits fewer, 10¹⁸: still tried (and stopped by the grounding's own bounds).
        assert!(give_up_past(&program(&wide(9)), GUESSED_PAST_ANY_GROUNDING, 1000).is_ok());
    }
}
