//! Tests of the analyses: exhaustive and sampled, on small games whose answers are known.

use super::*;
use crate::path::play;
use crate::reasoner::Reasoner;

fn load(text: &str) -> (Reasoner, Declared) {
    let l = crate::load(text, Default::default()).unwrap();
    let declared = Declared::of(&l.description, Default::default());
    (l.reasoner, declared)
}

fn game(name: &str) -> String {
    std::fs::read_to_string(format!("{}/../games/{name}.kif", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn check<'a>(r: &'a Report, name: &str, role: Option<&str>) -> &'a Check {
    r.checks.iter().find(|c| c.name == name && c.role.as_deref() == role).unwrap_or_else(|| panic!("{name} {role:?}"))
}

/// A witness path replays in the game and ends where the detail says.
fn replays(m: &mut Reasoner, path: &[Vec<String>]) -> <Reasoner as StateMachine>::State {
    play(m, path).unwrap().0.pop().unwrap()
}

#[test]
fn tictactoe_is_well_formed_exactly() {
    let (mut m, declared) = load(&game("tictactoe"));
    let r = analyze(&mut m, &declared, Options::default()).unwrap();
    assert_eq!((r.method, r.states), ("exhaustive", 5478));
    assert_eq!(r.well_formed, Outcome::Holds);
    let t = check(&r, "termination", None);
    assert_eq!(t.outcome, Outcome::Holds);
    assert!(t.detail.ends_with("every game ends within 9 moves"), "{}", t.detail);
    for name in ["playability", "goals", "base", "input"] {
        assert_eq!(check(&r, name, None).outcome, Outcome::Holds, "{name}");
    }
    let win = check(&r, "weak winnability", Some("o"));
    assert_eq!(win.outcome, Outcome::Holds);
    let end = replays(&mut m, win.witness.as_ref().unwrap());
    assert!(m.is_terminal(&end).unwrap() && m.goals(&end).unwrap()[1] == [GoalValue::Int(100)]);
    let strong = check(&r, "strong winnability", Some("x"));
    assert_eq!((strong.outcome, strong.required), (Outcome::Fails, false));
    assert_eq!(strong.detail, "x cannot force a win: against best play it gets 50");
}

#[test]
fn nim_is_strongly_winnable_for_the_first_player() {
    let (mut m, declared) = load(&game("nim"));
    let r = analyze(&mut m, &declared, Options::default()).unwrap();
    let strong = check(&r, "strong winnability", Some("first"));
    assert_eq!(strong.outcome, Outcome::Holds);
    let path = strong.witness.as_ref().unwrap();
    assert_eq!(path[0], ["(take a 2)", "noop"]);
    let end = replays(&mut m, path);
    assert_eq!(m.goals(&end).unwrap()[0], [GoalValue::Int(100)]);
    assert_eq!(check(&r, "strong winnability", Some("second")).outcome, Outcome::Fails);
}

const BROKEN: &str = "(role p) (role q) (init (at 1))\n\
    (<= (legal p (go 2)) (true (at 1))) (<= (legal p (go 1)) (true (at 2))) (<= (legal p (go 3)) (true (at 2)))\n\
    (<= (legal q wait) (true (at 1))) (<= (legal q wait) (true (at 2)))\n\
    (<= (next (at ?x)) (does p (go ?x)))\n\
    (<= terminal (true (at 3))) (<= terminal (true (at 4)))\n\
    (<= (goal p 100) (true (at 3)))\n\
    (base (at 1)) (base (at 2))\n";

#[test]
fn failures_come_with_witness_paths() {
    let (mut m, declared) = load(BROKEN);
    let r = analyze(&mut m, &declared, Options::default()).unwrap();
    assert_eq!(r.well_formed, Outcome::Fails);
    let t = check(&r, "termination", None);
    assert_eq!(t.outcome, Outcome::Fails);
    assert_eq!(t.witness.as_ref().unwrap(), &[["(go 2)", "wait"], ["(go 1)", "wait"]]);
    assert!(t.detail.contains("return to the position after move 0"), "{}", t.detail);
    let g = check(&r, "goals", None);
    assert_eq!(g.outcome, Outcome::Fails);
    assert_eq!(g.detail, "in this terminal state q has no goal value");
    assert_eq!(g.witness.as_ref().unwrap(), &[["(go 2)", "wait"], ["(go 3)", "wait"]]);
    let b = check(&r, "base", None);
    assert_eq!((b.outcome, b.detail.as_str()), (Outcome::Fails, "the fluent (at 3) is not declared in base"));
    assert_eq!(check(&r, "weak winnability", Some("q")).outcome, Outcome::Fails);
    assert_eq!(check(&r, "weak winnability", Some("p")).outcome, Outcome::Holds);
    assert_eq!(check(&r, "strong winnability", Some("p")).outcome, Outcome::NotProven);
}

#[test]
fn a_role_without_moves_is_found() {
    let text = "(role p) (role q) (init s) (<= (legal p a) (true s)) (<= (next t) (does p a))\n\
                (<= (legal p a) (true t)) (<= (legal q b) (true s)) (<= (next u) (true t))\n\
                (<= terminal (true u)) (goal p 100) (goal q 0)";
    let (mut m, declared) = load(text);
    let r = analyze(&mut m, &declared, Options::default()).unwrap();
    let p = check(&r, "playability", None);
    assert_eq!(p.outcome, Outcome::Fails);
    assert_eq!(p.detail, "q has no legal move in this state, which is not terminal");
    assert_eq!(p.witness.as_ref().unwrap(), &[["a", "b"]]);
}

#[test]
fn big_games_are_simulated_and_labelled_not_proven() {
    let (mut m, declared) = load(&game("connectfour"));
    let options = Options { max_states: 2_000, playouts: 50, ..Options::default() };
    let r = analyze(&mut m, &declared, options).unwrap();
    assert_eq!((r.method, r.playouts), ("simulation", 50));
    assert_eq!(check(&r, "termination", None).outcome, Outcome::NotProven);
    assert_eq!(check(&r, "playability", None).outcome, Outcome::NotProven);
    assert_eq!(r.well_formed, Outcome::NotProven);
    // A random win is a proof of weak winnability.
    let w = check(&r, "weak winnability", Some("red"));
    assert_eq!(w.outcome, Outcome::Holds);
    let end = replays(&mut m, w.witness.as_ref().unwrap());
    assert!(m.is_terminal(&end).unwrap());
    // The cycle of BROKEN is found by simulation too.
    let (mut m, declared) = load(BROKEN);
    let r = analyze(&mut m, &declared, Options { max_states: 1, playouts: 20, ..Options::default() }).unwrap();
    assert_eq!(check(&r, "termination", None).outcome, Outcome::Fails);
}
