//! Tests of the solver and perft: guaranteed values, budgets, and lines of play counted on every engine.

use super::*;
use crate::engine::{build, Choice};
use crate::path::{parse_path, play};

fn game(name: &str) -> crate::reasoner::Reasoner {
    let text = std::fs::read_to_string(format!("{}/../games/{name}.kif", env!("CARGO_MANIFEST_DIR"))).unwrap();
    crate::load(&text, Default::default()).unwrap().reasoner
}

fn solve_after(name: &str, path: &str) -> Solution {
    let mut m = game(name);
    let (states, _) = play(&mut m, &parse_path(path).unwrap()).unwrap();
    solve(&mut m, states.last().unwrap(), Limit::nodes(10_000_000)).unwrap()
}

#[test]
fn tictactoe_is_a_draw_and_a_blunder_loses() {
    let s = solve_after("tictactoe", "");
    assert!(s.complete);
    assert_eq!(s.roles.len(), 1);
    let x = &s.roles[0];
    assert_eq!((x.role.as_str(), x.value), ("x", Some(50)));
    assert!(x.moves.iter().all(|mv| mv.value == Some(50)));
    assert_eq!(x.summary, "x can secure 50 whatever it plays");
    // o answers the centre on an edge: x wins, with exactly these moves (checked by an
    // independent minimax over tic-tac-toe boards).
    let s = solve_after("tictactoe", "(mark 2 2); (mark 1 2)");
    let x = &s.roles[0];
    let wins: Vec<&str> = x.moves.iter().filter(|mv| mv.value == Some(100)).map(|mv| mv.text.as_str()).collect();
    assert_eq!(wins, ["(mark 1 1)", "(mark 1 3)", "(mark 2 1)", "(mark 2 3)", "(mark 3 1)", "(mark 3 3)"]);
    assert!(x.summary.starts_with("x wins with (mark 1 1) or"), "{}", x.summary);
}

#[test]
fn nim_first_player_wins_by_making_the_xor_zero() {
    // Heaps 3, 4, 5: 3 ^ 4 ^ 5 = 2, and only taking 2 from heap a leaves 1 ^ 4 ^ 5 = 0.
    let s = solve_after("nim", "");
    let first = &s.roles[0];
    assert_eq!(first.value, Some(100));
    assert_eq!(first.summary, "first wins with (take a 2)");
    assert!(first.moves[1..].iter().all(|mv| mv.value == Some(0)));
}

#[test]
fn simultaneous_moves_secure_the_worst_case_and_budgets_stop_searches() {
    let s = solve_after("rps", "");
    assert!(s.roles.iter().all(|r| r.value.is_some()));
    let s = {
        let mut m = game("tictactoe");
        let init = m.initial_state();
        solve(&mut m, &init, Limit::nodes(100)).unwrap()
    };
    let why = s.stopped.as_deref().unwrap();
    assert!(
        !s.complete
            && why.starts_with("the node budget (100) ran out after 101 positions: the game tree from here has about "),
        "{why}"
    );
    assert!(why.ends_with("positions (estimated from 16 random lines of play)"), "{why}");
    assert!(s.roles[0].moves.iter().all(|mv| mv.value.is_none()));
    assert_eq!(s.roles[0].summary, "x: not solved within the budget");
}

#[test]
fn a_game_that_can_repeat_a_state_is_not_solved() {
    let text = "(role p) (init (at 1)) (<= (legal p (go 1)) (true (at 2))) (<= (legal p (go 2)) (true (at 1)))\n\
                (<= (legal p stop) (true (at 1))) (<= (next (at ?x)) (does p (go ?x))) (<= (next done) (does p stop))\n\
                (<= terminal (true done)) (goal p 100)";
    let mut m = crate::load(text, Default::default()).unwrap().reasoner;
    let init = m.initial_state();
    let s = solve(&mut m, &init, Limit::nodes(1000)).unwrap();
    assert!(s.stopped.unwrap().contains("returns to an earlier state"));
}

#[test]
fn perft_counts_tictactoe_lines_and_ground_and_propnet_agree_with_the_reasoner() {
    let mut m = game("tictactoe");
    let p = perft(&mut m, 6).unwrap();
    assert_eq!(p.nodes, [1, 9, 72, 504, 3024, 15120, 54720]);
    assert_eq!(p.terminal, [0, 0, 0, 0, 0, 1440, 5328]);
    for name in ["connectfour", "breakthrough", "rps", "nim"] {
        let text = std::fs::read_to_string(format!("{}/../games/{name}.kif", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let desc = crate::validated(&text).unwrap().description;
        let mut first_order = crate::reasoner::Reasoner::new(&desc, Default::default()).unwrap();
        let expected = perft(&mut first_order, 3).unwrap();
        for choice in [Choice::Ground, Choice::Propnet] {
            let mut m = build(choice, &desc, Default::default(), Default::default(), &|| 0.0).unwrap().engine;
            assert_eq!(perft(&mut m, 3).unwrap(), expected, "{name} {}", m.engine_name());
        }
    }
}

#[test]
fn joints_vary_the_last_role_fastest() {
    assert_eq!(every_joint(&[vec![1, 2], vec![3], vec![4, 5]]), [[1, 3, 4], [1, 3, 5], [2, 3, 4], [2, 3, 5]]);
    assert_eq!(every_joint::<u8>(&[vec![1], vec![]]), Vec::<Vec<u8>>::new());
}

/// Two moves at each of five steps: a tree of 1 + 2 + 4 + ... + 32 positions.
const BINARY_TREE: &str = "(role p) (init (step 0)) (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)\n\
    (<= (legal p a) (true (step ?n))) (<= (legal p b) (true (step ?n)))\n\
    (<= (next (step ?m)) (true (step ?n)) (succ ?n ?m)) (<= terminal (true (step 5))) (goal p 50)";

#[test]
fn the_tree_size_is_exact_on_a_uniform_tree_and_a_search_stops_on_time() {
    let mut m = crate::load(BINARY_TREE, Default::default()).unwrap().reasoner;
    let init = m.initial_state();
    let size = tree_size(&mut m, &init, None).unwrap();
    assert_eq!((size.positions, size.probes), (63.0, 16));
    // A clock that advances a millisecond at each reading: the search stops within 10 ms of it.
    let ms = std::cell::Cell::new(0.0);
    let now = || {
        ms.set(ms.get() + 1.0);
        ms.get()
    };
    let mut t = game("tictactoe");
    let init = t.initial_state();
    let s = solve(&mut t, &init, Limit { nodes: 1_000_000, time: Some((10.0, &now)) }).unwrap();
    let why = s.stopped.unwrap();
    assert!(why.starts_with("the time ran out after "), "{why}");
    assert!(s.nodes < 1000, "{} nodes", s.nodes);
    assert_eq!(magnitude(5478.0), "5,478");
    assert_eq!(magnitude(3.2e43), "10^44");
}

/// `game`'s rules starting from `cells` (`(board) column row mark` of each marked cell, the
/// others blank) with x to move.
fn from_position(game: &str, cells: &[&str], blanks: &[&str]) -> Solution {
    let text = std::fs::read_to_string(format!("{}/../games/{game}.kif", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let rules: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("(<= (init") && !l.starts_with("(init"))
        .collect::<Vec<_>>()
        .join("\n");
    let init: String = cells.iter().chain(blanks).map(|c| format!("(init (cell {c}))\n")).collect();
    let mut m = crate::load(&format!("{rules}\n{init}(init (control x))"), Default::default()).unwrap().reasoner;
    let s = m.initial_state();
    solve(&mut m, &s, Limit::nodes(10_000_000)).unwrap()
}

/// Why the solver does not solve double tic-tac-toe's boards apart (tests/bench/NOTEBOOK.md,
/// "## Factoring"): they share the turn, so the value of the two boards together is not the
/// best of their values alone. Board 1: x can fork and win (100 alone); board 2: o threatens a
/// line, x must block (50 alone). Together x cannot win (50): forking lets o complete board 2,
/// and blocking there gives o the tempo to defuse board 1.
#[test]
fn double_tictactoe_is_not_the_best_of_its_boards_solved_apart() {
    let blank = |marked: &[&str], board: &str| -> Vec<String> {
        let mut v = Vec::new();
        for c in 1..=3 {
            for r in 1..=3 {
                let at = format!("{c} {r}");
                if !marked.iter().any(|m| m.starts_with(&at)) {
                    v.push(format!("{board}{at} b"));
                }
            }
        }
        v
    };
    let one = ["1 1 x", "3 3 x", "2 2 o"];
    let two = ["1 1 o", "2 1 o", "2 3 x"];
    let value = |s: Solution| s.roles.iter().find(|r| r.role == "x").and_then(|r| r.value).unwrap();
    let alone = |cells: &[&str]| {
        let blanks = blank(cells, "");
        value(from_position("tictactoe", cells, &blanks.iter().map(String::as_str).collect::<Vec<_>>()))
    };
    let (v1, v2) = (alone(&one), alone(&two));
    let marked: Vec<String> =
        one.iter().map(|c| format!("1 {c}")).chain(two.iter().map(|c| format!("2 {c}"))).collect();
    let blanks: Vec<String> = blank(&one, "1 ").into_iter().chain(blank(&two, "2 ")).collect();
    let marked: Vec<&str> = marked.iter().map(String::as_str).collect();
    let together =
        value(from_position("doubletictactoe", &marked, &blanks.iter().map(String::as_str).collect::<Vec<_>>()));
    assert_eq!((v1, v2, together), (100, 50, 50));
    assert_ne!(together, v1.max(v2), "the best board for the mover is not the value of both");
}

/// `name`'s rules (from `games/`, with each `(from to)` of `renames` applied to the text)
/// on the propnet, which knows the game's factors, at its initial state.
fn on_propnet(name: &str, renames: &[(&str, &str)]) -> (crate::engine::Engine, crate::engine::State) {
    let mut text = std::fs::read_to_string(format!("{}/../games/{name}.kif", env!("CARGO_MANIFEST_DIR"))).unwrap();
    for (from, to) in renames {
        text = text.replace(from, to);
    }
    let desc = crate::validated(&text).unwrap().description;
    let m = build(Choice::Propnet, &desc, Default::default(), Default::default(), &|| 0.0).unwrap().engine;
    let s = m.initial_state();
    (m, s)
}

/// Each move's text and value, sorted by text.
fn values(s: &Solution) -> Vec<(String, Option<i64>)> {
    let mut v: Vec<_> = s.roles.iter().flat_map(|r| r.moves.iter().map(|mv| (mv.text.clone(), mv.value))).collect();
    v.sort();
    v
}

/// A one-player game with factors no goal reads (sudoku beside six lamps) is solved with
/// the lamps' moves left out: the same value for every move as the whole game's search, on
/// far fewer states; so is a disguised copy (every symbol renamed). The lamps at the root
/// are worth what the best fill is worth.
#[test]
fn lamps_no_goal_reads_are_left_out_of_a_one_player_solve_with_the_same_values() {
    let disguise = [
        ("light", "q1"),
        ("lamp", "q2"),
        ("switch", "q3"),
        ("cell", "q4"),
        ("fill", "q5"),
        ("solver", "q6"),
        ("conflict", "q7"),
    ];
    for renames in [&[][..], &disguise[..]] {
        let (mut m, s) = on_propnet("lampsudoku", renames);
        let factored = solve(&mut m, &s, Limit::nodes(10_000_000)).unwrap();
        let whole = solve_whole(&mut m, &s, Limit::nodes(10_000_000)).unwrap();
        assert!(factored.complete && whole.complete);
        assert_eq!(values(&factored), values(&whole), "{renames:?}");
        assert_eq!(factored.roles[0].value, Some(100));
        let why = factored.factored.as_deref().unwrap();
        assert!(why.starts_with("left out the 6 moves of 6 factors that neither the end nor a goal reads"), "{why}");
        assert!(whole.factored.is_none());
        assert!(factored.nodes * 10 < whole.nodes, "{} against {}", factored.nodes, whole.nodes);
        let lamp = factored.roles[0]
            .moves
            .iter()
            .find(|mv| mv.text.contains(if renames.is_empty() { "switch" } else { "q3" }));
        assert_eq!(lamp.unwrap().value, Some(100));
    }
}

/// Elsewhere the whole game is searched: a game of two roles, though its lamps are factors no
/// goal reads (a lamp is a pass, and passing can matter there), double tic-tac-toe (both
/// boards decide the game), and a game of one factor, solved as before (sudoku: the same
/// values and states as the whole game's search).
#[test]
fn the_whole_game_is_searched_outside_the_factored_class() {
    for name in ["lamptictactoe", "doubletictactoe", "sudoku", "nim"] {
        let (m, _) = on_propnet(name, &[]);
        assert!(super::factored::left_out(&m).is_none(), "{name}");
    }
    let (mut m, s) = on_propnet("sudoku", &[]);
    let plain = solve(&mut m, &s, Limit::nodes(10_000_000)).unwrap();
    let whole = solve_whole(&mut m, &s, Limit::nodes(10_000_000)).unwrap();
    assert!(plain.factored.is_none());
    assert_eq!((values(&plain), plain.nodes), (values(&whole), whole.nodes));
}

/// A state where only left-out moves are legal is outside the argument (the player must
/// pass there): the solve then searches the whole game, with its values.
#[test]
fn a_state_with_only_passes_legal_makes_the_solve_search_the_whole_game() {
    let text = "(role p) (init (a 0)) (init (lamp off))
        (<= (legal p go) (true (a 0)))
        (<= (legal p switch) (true (lamp off)))
        (<= (next (a 1)) (does p go))
        (<= (next (a 0)) (true (a 0)) (not (does p go)))
        (<= (next (a 2)) (true (a 1)))
        (<= (next (lamp on)) (does p switch))
        (<= (next (lamp off)) (true (lamp off)) (not (does p switch)))
        (<= terminal (true (a 2)))
        (<= (goal p 100) (true (a 2))) (<= (goal p 0) (not (true (a 2))))";
    let desc = crate::validated(text).unwrap().description;
    let mut m = build(Choice::Propnet, &desc, Default::default(), Default::default(), &|| 0.0).unwrap().engine;
    assert!(super::factored::left_out(&m).is_some(), "the lamp is a factor no goal reads");
    let s = m.initial_state();
    let solution = solve(&mut m, &s, Limit::nodes(1_000)).unwrap();
    let whole = solve_whole(&mut m, &s, Limit::nodes(1_000)).unwrap();
    assert!(solution.factored.is_none());
    assert_eq!(values(&solution), values(&whole));
    assert_eq!(values(&solution)[0], ("go".to_string(), Some(100)));
}
