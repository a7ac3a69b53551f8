//! Tests of factoring: the factors of known games, and their independence checked on the
//! network in reachable positions of `games/` and of the corpus's multi-board games.

use super::*;
use crate::ground::{ground, Options as GroundOptions};
use crate::machine::StateMachine;
use crate::propnet::{Options, Propnet, State, Strategy};
use crate::rng::Rng;

fn grounded(text: &str) -> Option<Ground> {
    let loaded = crate::load(text, Default::default()).ok()?;
    ground(&loaded.description, GroundOptions::default(), &|| 0.0, &mut |_| {}).ok()
}

fn game(name: &str) -> String {
    std::fs::read_to_string(format!("{}/../games/{name}.kif", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn sizes(f: &Factors) -> Vec<(usize, usize)> {
    f.factors.iter().map(|f| (f.fluents.len(), f.moves.len())).collect()
}

#[test]
fn the_lamps_beside_tictactoe_are_factors_no_goal_reads() {
    let f = factors(&grounded(&game("lamptictactoe")).unwrap());
    // The board (27 cells, 9 marks per role), then each lamp (off, on; a switch per role).
    assert_eq!(sizes(&f), [vec![(27, 18)], vec![(2, 2); 16]].concat());
    assert_eq!(f.terminal, Combination::One(0));
    assert_eq!(f.relevant, [0]);
    assert_eq!(f.factor_of_move("o", "(switch 16)"), Some(f.factor_of_move("x", "(switch 16)").unwrap()));
}

#[test]
fn double_tictactoe_has_two_boards_sharing_the_turn() {
    let f = factors(&grounded(&game("doubletictactoe")).unwrap());
    // Each board: 27 cell fluents, 9 marks for each role.
    assert_eq!(sizes(&f), [(27, 18), (27, 18)]);
    assert!(f.factors[0].fluents.iter().all(|t| t.starts_with("(cell 1 ")), "{:?}", f.factors[0].fluents);
    assert!(f.factors[1].moves.iter().all(|m| m.text.starts_with("(mark 2 ")));
    assert_eq!(f.bookkeeping, ["(control o)", "(control x)"]);
    assert_eq!(
        f.free_moves.iter().map(|m| (m.role.as_str(), m.text.as_str())).collect::<Vec<_>>(),
        [("x", "noop"), ("o", "noop")]
    );
    assert_eq!(f.terminal, Combination::Any(vec![0, 1]));
    let goal =
        |role: &str, value: &str| &f.goals.iter().find(|g| g.role == role && g.value == value).unwrap().combination;
    assert_eq!(goal("x", "100"), &Combination::Any(vec![0, 1]));
    assert_eq!(goal("o", "50"), &Combination::All(vec![0, 1]));
    assert_eq!(f.relevant, [0, 1]);
    assert_eq!(f.factor_of_move("o", "(mark 2 1 3)"), Some(1));
    assert_eq!(f.factor_of_move("o", "noop"), None);
}

#[test]
fn factors_of_text_say_why_there_are_none() {
    assert_eq!(of_text(&game("doubletictactoe")).unwrap().factors.len(), 2);
    assert!(of_text("(role").unwrap_err().contains("the rules have errors"));
}

#[test]
fn tictactoe_is_one_factor() {
    let f = factors(&grounded(&game("tictactoe")).unwrap());
    assert_eq!(sizes(&f), [(27, 18)]);
    assert_eq!(f.terminal, Combination::One(0));
}

/// Three light boards played in series by a step counter: the counter is bookkeeping, each
/// board a factor, the goal a disjunction and the end the counter's alone.
#[test]
fn a_clock_is_bookkeeping_and_the_goal_a_disjunction() {
    let text = "(role robot) (board 0) (board 1) (board 2) (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
    (init (step 0))
    (<= (legal robot (press ?b)) (board ?b) (not (true (on ?b))))
    (<= (legal robot wait) (true (step ?s)))
    (<= (next (on ?b)) (does robot (press ?b)))
    (<= (next (on ?b)) (true (on ?b)))
    (<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
    (<= won (true (on ?b)))
    (<= terminal (true (step 4)))
    (<= (goal robot 100) won) (<= (goal robot 0) (not won))";
    let f = factors(&grounded(text).unwrap());
    assert_eq!(sizes(&f), [(1, 1), (1, 1), (1, 1)]);
    assert_eq!(f.bookkeeping.len(), 5);
    assert_eq!(f.terminal, Combination::Bookkeeping);
    assert_eq!(f.goals[1].combination, Combination::Any(vec![0, 1, 2]));
    assert_eq!(f.goals[0].combination, Combination::All(vec![0, 1, 2]));
    assert!(f.relevant.len() == 3);
}

/// A move that reads two boards links them: one factor.
#[test]
fn a_move_that_reads_both_boards_joins_them() {
    let text = "(role r) (init (a 0)) (init (b 0))
    (<= (legal r go) (true (a 0)) (true (b 0)))
    (<= (legal r (flip a)) (true (a 0)))
    (<= (next (a 1)) (does r (flip a)))
    (<= (next (b 1)) (true (b 1)))
    (<= terminal (true (a 1)))
    (<= (goal r 100) (true (a 1)))";
    let f = factors(&grounded(text).unwrap());
    assert_eq!(f.factors.len(), 1, "{f:?}");
}

/// `s` with the bits of `bits` taken from `from`.
fn mixed(s: &State, from: &State, bits: &[u32]) -> State {
    let mut out = s.to_vec();
    for &b in bits {
        let (w, m) = ((b >> 6) as usize, 1u64 << (b & 63));
        out[w] = (out[w] & !m) | (from[w] & m);
    }
    out.into()
}

fn same_bits(a: &State, b: &State, bits: &[u32]) -> bool {
    bits.iter().all(|&b_| (a[(b_ >> 6) as usize] ^ b[(b_ >> 6) as usize]) >> (b_ & 63) & 1 == 0)
}

/// Independence on the network, in reachable positions: with the same bookkeeping, a
/// factor's legal moves and its next fluents are the same whatever the other factors hold,
/// and the bookkeeping's next is the same whatever is played. Returns the number of factors.
fn independent(name: &str, g: &Ground) -> usize {
    let f = factors(g);
    let Ok(mut m) = Propnet::new(g, Options { strategy: Some(Strategy::Sweep), ..Default::default() }, &|| 0.0) else {
        return f.factors.len();
    };
    let bits = m.fluent_text.len() as u32;
    let in_factor: Vec<u32> = f.factors.iter().flat_map(|k| k.fluent_bits.iter().copied()).collect();
    let book: Vec<u32> = (0..bits).filter(|b| !in_factor.contains(b)).collect();
    let roles = m.roles().len();
    let mut rng = Rng::new(7);
    // (state, joint move played) along random playouts, by step.
    let mut lines: Vec<Vec<(State, Vec<u32>)>> = Vec::new();
    for _ in 0..8 {
        let (mut s, mut line) = (m.initial_state(), Vec::new());
        for _ in 0..40 {
            if m.is_terminal(&s).unwrap() {
                break;
            }
            let legal: Vec<Vec<u32>> = (0..roles).map(|r| m.legal_moves(&s, r).unwrap()).collect();
            if legal.iter().any(Vec::is_empty) {
                break;
            }
            let joint: Vec<u32> = legal.iter().map(|l| l[rng.below(l.len())]).collect();
            let next = m.next_state(&s, &joint).unwrap();
            line.push((s, joint));
            s = next;
        }
        lines.push(line);
    }
    for step in 0..40 {
        let here: Vec<&(State, Vec<u32>)> = lines.iter().filter_map(|l| l.get(step)).collect();
        for (a, b) in here.iter().zip(here.iter().skip(1)) {
            let ((s, joint), (t, other)) = (a, b);
            if !same_bits(s, t, &book) {
                continue;
            }
            let (next_s, next_t) = (m.next_state(s, joint).unwrap(), m.next_state(t, other).unwrap());
            assert!(same_bits(&next_s, &next_t, &book), "{name}: the bookkeeping's next depends on the moves");
            for (k, factor) in f.factors.iter().enumerate() {
                let u = mixed(t, s, &factor.fluent_bits);
                let next_u = m.next_state(&u, joint).unwrap();
                assert!(
                    same_bits(&next_s, &next_u, &factor.fluent_bits),
                    "{name}: factor {k}'s next reads other factors"
                );
                for r in 0..roles {
                    let own = |l: Vec<u32>| -> Vec<u32> {
                        l.into_iter().filter(|x| factor.move_numbers.contains(x)).collect()
                    };
                    let (ls, lu) = (own(m.legal_moves(s, r).unwrap()), own(m.legal_moves(&u, r).unwrap()));
                    assert_eq!(ls, lu, "{name}: factor {k}'s legal moves read other factors");
                }
            }
        }
    }
    f.factors.len()
}

#[test]
fn factors_are_independent_in_every_game_of_games() {
    let dir = format!("{}/../games", env!("CARGO_MANIFEST_DIR"));
    let mut factored = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if let Some(g) = grounded(&std::fs::read_to_string(&path).unwrap()) {
            if independent(&name, &g) > 1 {
                factored.push(name);
            }
        }
    }
    factored.sort();
    assert!(factored.contains(&"doubletictactoe".to_string()), "{factored:?}");
}

/// The corpus's multi-board games: each factor found is independent, and those listed split.
#[test]
fn factors_of_the_corpus_multi_board_games_are_independent() {
    let marks = ["factoring", "Parallel", "double", "dual", "hodgepodge", "multiple"];
    let mut found = Vec::new();
    for path in crate::shared::corpus_games() {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if !marks.iter().any(|m| name.contains(m)) {
            continue;
        }
        if let Some(g) = grounded(&std::fs::read_to_string(&path).unwrap()) {
            let n = independent(&name, &g);
            if n > 1 {
                found.push(format!("{name}: {n}"));
            }
        }
    }
    found.sort();
    found.dedup();
    for known in ["factoringEasyTurtleBrain: 3", "factoringDelusionsOfAdequacy: 4", "snakeParallel: 2"] {
        assert!(found.contains(&known.to_string()), "{known} not in {found:?}");
    }
}
