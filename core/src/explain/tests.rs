//! Tests of the explanations: rule instances for what holds, first failing conditions for what does not, followed backwards through the game.

use super::*;
use crate::parse::parse;

const TICTACTOE: &str = include_str!("../../../games/tictactoe.kif");

fn explainer(text: &str, path: &[[&str; 2]]) -> Explainer {
    let desc = parse(text).description;
    let path: Vec<Vec<String>> = path.iter().map(|j| j.iter().map(|m| m.to_string()).collect()).collect();
    Explainer::new(&desc, text, Limits::default(), &path).unwrap()
}

#[test]
fn a_legal_move_is_derived_from_the_state() {
    let mut e = explainer(TICTACTOE, &[]);
    let x = e.explain_text("(legal x (mark 1 1))", None).unwrap();
    assert!(x.holds, "{x:?}");
    assert_eq!(x.step, 0);
    let d = &x.derivations[0];
    assert_eq!(d.line, 42);
    assert_eq!(d.instance, "(<= (legal x (mark 1 1)) (true (control x)) (true (cell 1 1 b)))");
    let atoms: Vec<_> = d.premises.iter().map(|p| (p.atom.clone().unwrap(), p.holds)).collect();
    assert_eq!(atoms, [("(true (control x))".to_string(), true), ("(true (cell 1 1 b))".to_string(), true)]);
    // A fluent of the initial state comes from init, itself a rule instance over static facts.
    let f = e.explain_text("(true (cell 1 1 b))", None).unwrap();
    assert!(f.holds && f.derivations[0].premises[0].atom.as_deref() == Some("(init (cell 1 1 b))"));
    let init = e.explain_text("(init (cell 1 1 b))", None).unwrap();
    assert_eq!(init.derivations[0].instance, "(<= (init (cell 1 1 b)) (index 1) (index 1))");
    let index = e.explain_text("(index 1)", None).unwrap();
    assert!(index.holds && index.summary.contains("is a fact on line"), "{}", index.summary);
}

#[test]
fn what_does_not_hold_names_the_first_failing_literal_of_each_rule() {
    let mut e = explainer(TICTACTOE, &[["(mark 1 1)", "noop"]]);
    let x = e.explain_text("(legal o (mark 1 1))", None).unwrap();
    assert!(!x.holds);
    // Rule 1 fails at the cell; the noop rule's head does not match.
    assert_eq!(x.derivations.len(), 1);
    let d = &x.derivations[0];
    assert_eq!(d.failed, Some(1));
    let failing = &d.premises[1];
    assert_eq!((failing.literal.as_str(), failing.holds), ("(true (cell 1 1 b))", false));
    // Following the failing fluent back: (next (cell 1 1 b)) failed in move 1 because x marked it.
    let why = e.explain_text(failing.atom.as_ref().unwrap(), Some(failing.step)).unwrap();
    let p = &why.derivations[0].premises[0];
    assert_eq!((p.atom.as_deref(), p.step, p.atom_holds), (Some("(next (cell 1 1 b))"), 0, false));
    let next = e.explain_text("(next (cell 1 1 b))", Some(0)).unwrap();
    let empty_rule = next.derivations.iter().find(|d| d.line == 58).unwrap();
    let f = &empty_rule.premises[empty_rule.failed.unwrap()];
    assert_eq!(
        (f.literal.as_str(), f.atom.as_deref(), f.atom_holds),
        ("(not (marked 1 1))", Some("(marked 1 1)"), true)
    );
    let marked = e.explain_text("(marked 1 1)", Some(0)).unwrap();
    assert_eq!(marked.derivations[0].premises[0].literal, "(does x (mark 1 1))");
    let does = e.explain_text("(does x (mark 1 1))", Some(0)).unwrap();
    assert!(does.holds && does.summary.contains("x played (mark 1 1) in move 1"), "{}", does.summary);
}

#[test]
fn next_defaults_to_the_last_move_and_trees_expand_levels() {
    let mut e = explainer(TICTACTOE, &[["(mark 2 2)", "noop"], ["noop", "(mark 1 1)"]]);
    let t = e.tree("(next (cell 1 1 o))", None, 2).unwrap();
    assert_eq!(t.step, 1);
    assert!(t.holds && t.in_move);
    let p = &t.derivations[0].premises[0];
    assert_eq!(p.literal, "(does o (mark 1 1))");
    assert!(p.detail.as_ref().unwrap().holds);
    let t = e.tree("(true (cell 2 2 x))", None, 3).unwrap();
    assert!(!t.in_move);
    let next = t.derivations[0].premises[0].detail.as_ref().unwrap();
    // Kept from the previous state, which itself got it from x's move.
    assert_eq!(next.derivations[0].line, 54);
    let kept = next.derivations[0].premises[0].detail.as_ref().unwrap();
    assert_eq!((kept.atom.as_str(), kept.step), ("(true (cell 2 2 x))", 1));
    assert!(kept.derivations[0].premises[0].detail.as_ref().unwrap().holds);
    assert!(e.explain_text("(next (cell 1 1 o))", Some(2)).unwrap_err().contains("no move has been played"));
}

#[test]
fn recursive_derivations_are_well_founded() {
    let text = "(role a) (init (at 1)) (succ 1 2) (succ 2 3) (succ 3 4)\n\
                (<= (less ?x ?y) (less ?x ?z) (less ?z ?y))\n\
                (<= (less ?x ?y) (succ ?x ?y))\n\
                (<= (legal a (go ?y)) (true (at ?x)) (less ?x ?y))\n\
                (<= (next (at ?y)) (does a (go ?y)))\n\
                (<= terminal (true (at 4))) (goal a 100)";
    let mut e = Explainer::new(&parse(text).description, text, Limits::default(), &[]).unwrap();
    // Depth-first, (less 1 2) could be "derived" from (less 1 2) (less 2 2)...: ranks forbid it.
    let mut frontier = vec![("(less 1 4)".to_string(), 0)];
    let mut seen = 0;
    while let Some((atom, depth)) = frontier.pop() {
        assert!(depth < 5, "derivation of (less 1 4) does not bottom out");
        let x = e.explain_text(&atom, None).unwrap();
        assert!(x.holds, "{atom}");
        seen += 1;
        for p in &x.derivations[0].premises {
            if p.literal.starts_with("(less") {
                frontier.push((p.atom.clone().unwrap(), depth + 1));
            }
        }
    }
    assert!(seen >= 3);
    let no = e.explain_text("(less 4 1)", None).unwrap();
    assert!(!no.holds && no.derivations.len() == 2);
}

#[test]
fn bad_queries_and_paths_are_reported() {
    let mut e = explainer(TICTACTOE, &[]);
    assert!(e.explain_text("(legal ?p noop)", None).unwrap_err().contains("variables"));
    assert!(e.explain_text("(legal x", None).unwrap_err().contains("cannot read the query"));
    let x = e.explain_text("(frob 1)", None).unwrap();
    assert!(!x.holds && x.summary.contains("never mention frob/1"), "{}", x.summary);
    let desc = parse(TICTACTOE).description;
    let bad = Explainer::new(&desc, TICTACTOE, Limits::default(), &[vec!["noop".into(), "noop".into()]]);
    assert!(bad.err().unwrap().contains("move 1: noop is not legal for x"));
}

/// A conjunction under `not` becomes a relation of the flattening (`aux~1`): it is shown
/// with a name that parses, so the explanation goes on through it, in the tree and when
/// asked about by the name shown (as the page does when a premise is clicked).
#[test]
fn a_negated_conjunction_is_explained_through_its_own_relation() {
    let game = "(role p) (init (a 1)) (init (b 2))\n\
                (<= (legal p go) (not (and (true (a 1)) (true (b 3)))))\n\
                (<= (next (a 1)) (true (a 1))) (<= terminal (true (b 3))) (<= (goal p 100) (true (a 1)))";
    let mut e = explainer(game, &[]);
    let t = e.tree("(legal p go)", None, 2).unwrap();
    let premise = &t.derivations[0].premises[0];
    assert_eq!(premise.atom.as_deref(), Some("aux_1"));
    let inner = premise.detail.as_ref().expect("explained one level deeper");
    assert!(!inner.holds && inner.atom == "aux_1", "{inner:?}");
    let failed = &inner.derivations[0];
    assert_eq!(failed.premises[failed.failed.unwrap()].atom.as_deref(), Some("(true (b 3))"));
    assert!(!e.explain_text("aux_1", None).unwrap().holds);
}
