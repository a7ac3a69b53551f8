//! Tests of the network: its traces equal the reasoner's under every optimisation and strategy, lanes included.

use super::*;
use crate::ground::{ground, Options as GroundOptions};
use crate::machine::playout::{step_playout, Outcome};
use crate::reasoner::Reasoner;
use crate::trace::record_playout;

fn load(text: &str) -> (Reasoner, Ground) {
    let loaded = crate::load(text, Default::default()).unwrap_or_else(|d| panic!("{d:?}"));
    let g = ground(&loaded.description, GroundOptions::default(), &|| 0.0, &mut |_| {}).unwrap();
    (loaded.reasoner, g)
}

fn game(name: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games").join(name)).unwrap()
}

/// Links are added one per step; `conn` is recursive over the state (a cyclic block), and
/// `fixed` never changes (a permanent fluent).
const LINKS: &str = "(role r) (node a) (node b) (node c) (node d)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6)
(init (step 0)) (init fixed)
(<= (legal r (add ?x ?y)) (node ?x) (node ?y) (distinct ?x ?y) (not (true (link ?x ?y))) (true fixed))
(<= (legal r wait) (true fixed))
(<= (next (link ?x ?y)) (does r (add ?x ?y)))
(<= (next (link ?x ?y)) (true (link ?x ?y)))
(<= (next fixed) (true fixed))
(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
(<= (conn ?x ?y) (true (link ?x ?y)))
(<= (conn ?x ?z) (node ?y) (true (link ?x ?y)) (conn ?y ?z))
(<= terminal (conn a d))
(<= terminal (true (step 6)))
(<= (goal r 100) (conn a d))
(<= (goal r 0) (not (conn a d)))";

const ALL_OPTS: [Opt; 4] = [
    Opt { frame: false, persist: false },
    Opt { frame: true, persist: false },
    Opt { frame: false, persist: true },
    Opt { frame: true, persist: true },
];

/// Every optimisation and strategy gives the reasoner's traces, and `playout` makes the
/// same choices as the step-by-step playout.
fn plays_like_the_reasoner(text: &str, seeds: u64) {
    let (mut r, g) = load(text);
    for opt in ALL_OPTS {
        for strategy in [Strategy::Sweep, Strategy::Propagate] {
            let mut p = Propnet::new(&g, Options { opt, strategy: Some(strategy) }, &|| 0.0).unwrap();
            for seed in 0..seeds {
                let a = record_playout(&mut r, &mut Rng::new(seed), 200).unwrap();
                let b = record_playout(&mut p, &mut Rng::new(seed), 200).unwrap();
                if let Some(i) = (0..a.steps.len().max(b.steps.len())).find(|&i| a.steps.get(i) != b.steps.get(i)) {
                    panic!("seed {seed} {opt:?} {strategy:?} step {i}:\n{:?}\n{:?}", a.steps.get(i), b.steps.get(i));
                }
                let x = step_playout(&mut r, &mut Rng::new(seed), 200).unwrap();
                let y = p.playout(&mut Rng::new(seed), 200).unwrap();
                assert_eq!(x, y, "seed {seed} {opt:?} {strategy:?}");
            }
        }
    }
}

/// GDL-II: percepts too (`sees` in every trace step with a joint move), in games with
/// keywords inside percepts, `next` in `sees` bodies, `sees` as a condition, `random`.
#[test]
fn gdl2_games_perceive_like_the_reasoner() {
    for name in ["montyhall", "kriegTTT_4x4", "blind_breakthrough_5x5", "transit", "mastermind"] {
        let text = crate::shared::gdl2_game(name);
        plays_like_the_reasoner(&text, 3);
        let (mut r, _) = load(&text);
        let traces: Vec<_> = (0..5).map(|seed| record_playout(&mut r, &mut Rng::new(seed), 200).unwrap()).collect();
        let steps = || traces.iter().flat_map(|t| &t.steps);
        assert!(steps().all(|s| s.joint.is_some() == s.sees.is_some()), "{name}");
        assert!(steps().flat_map(|s| s.sees.iter().flatten()).any(|(_, p)| !p.is_empty()), "{name}");
    }
}

/// A game that defines `sees` stays a GDL-II game when grounding leaves no `sees` rule: every
/// engine gives each role an empty list of percepts; a GDL game gives none at all.
#[test]
fn percepts_that_never_hold_are_empty_lists() {
    let text = "(role a) (init s) (legal a go) (<= (next t) (does a go)) (<= terminal (true t)) (goal a 0)\n\
                (<= (sees a seen) (true s) (does a stay))";
    let (mut r, g) = load(text);
    let mut p = Propnet::new(&g, Options::default(), &|| 0.0).unwrap();
    let mut ground = g.reasoner(Default::default()).unwrap();
    let a = record_playout(&mut r, &mut Rng::new(1), 10).unwrap();
    assert_eq!(a.steps[0].sees.as_ref().map(|s| s["a"].len()), Some(0));
    assert_eq!(a, record_playout(&mut p, &mut Rng::new(1), 10).unwrap());
    assert_eq!(a, record_playout(&mut ground, &mut Rng::new(1), 10).unwrap());
    let (mut r, _) = load(LINKS);
    assert!(record_playout(&mut r, &mut Rng::new(1), 10).unwrap().steps.iter().all(|s| s.sees.is_none()));
}

#[test]
fn tictactoe_plays_like_the_reasoner() {
    plays_like_the_reasoner(&game("tictactoe.kif"), 20);
}

#[test]
fn connectfour_breakthrough_nim_rps_eightpuzzle_play_like_the_reasoner() {
    for name in ["connectfour.kif", "breakthrough.kif", "nim.kif", "rps.kif", "eightpuzzle.kif"] {
        plays_like_the_reasoner(&game(name), 3);
    }
}

#[test]
fn recursion_over_the_state_is_a_cyclic_block() {
    plays_like_the_reasoner(LINKS, 30);
    let (_, g) = load(LINKS);
    let p = Propnet::new(&g, Options { strategy: Some(Strategy::Propagate), ..Options::default() }, &|| 0.0).unwrap();
    assert!(p.stats.cyclic_blocks > 0, "{:?}", p.stats);
}

#[test]
fn persist_folds_permanent_fluents_and_labels_the_others() {
    let (_, g) = load(LINKS);
    let build = |opt| Propnet::new(&g, Options { opt, strategy: Some(Strategy::Sweep) }, &|| 0.0).unwrap().stats;
    let (plain, persist) = (build(ALL_OPTS[0]), build(ALL_OPTS[2]));
    // `fixed` is permanent; every link, once added, stays (persistent).
    assert_eq!((plain.permanent, plain.persistent), (0, 0));
    assert_eq!((persist.permanent, persist.persistent), (1, 12), "{persist:?}");
    assert!(persist.gates < plain.gates, "{persist:?} {plain:?}");
    let (_, g) = load(&game("tictactoe.kif"));
    let ttt = Propnet::new(&g, Options { opt: ALL_OPTS[3], strategy: Some(Strategy::Sweep) }, &|| 0.0).unwrap();
    assert!(ttt.stats.persistent > 0 && ttt.stats.ephemeral > 0, "{:?}", ttt.stats);
}

#[test]
fn frame_rules_no_longer_read_their_own_fluent() {
    // With the frame rewriting, `(true (link x y))` is read by `conn` and `legal` only, not by
    // its own `next`: fewer gate inputs.
    let (_, g) = load(LINKS);
    let build = |opt| Propnet::new(&g, Options { opt, strategy: Some(Strategy::Sweep) }, &|| 0.0).unwrap().stats;
    let (plain, frame) = (build(ALL_OPTS[0]), build(ALL_OPTS[1]));
    assert!(frame.inputs < plain.inputs, "{frame:?} {plain:?}");
}

#[test]
fn measured_strategy_is_one_of_the_two() {
    let (_, g) = load(&game("tictactoe.kif"));
    let start = std::time::Instant::now();
    let now = || start.elapsed().as_secs_f64() * 1000.0;
    let p = Propnet::new(&g, Options::default(), &now).unwrap();
    assert!([Strategy::Sweep, Strategy::Propagate].contains(&p.stats.strategy));
}

/// The 64-lane batch gives playout `j` exactly as the one-at-a-time playout with the
/// generator `playout_rng` makes for it: outcomes, lengths, cuts, for every optimisation,
/// whether lanes run the whole batch, hand its last 20 playouts over to be finished one at
/// a time, or are not used.
fn batch_equals_one_at_a_time(text: &str, count: usize, max_steps: usize) {
    let (_, g) = load(text);
    for opt in ALL_OPTS {
        for lanes_from in [Some(1), Some(20), None] {
            let mut p = Propnet::new(&g, Options { opt, strategy: Some(Strategy::Sweep) }, &|| 0.0).unwrap();
            p.stats.lanes_from = lanes_from;
            let mut series = Rng::new(9);
            let one: Vec<Outcome> = (0..count)
                .map(|_| {
                    step_playout(&mut p, &mut crate::machine::playout::playout_rng(&mut series), max_steps).unwrap()
                })
                .collect();
            let mut batch: Vec<Option<Outcome>> = vec![None; count];
            p.playouts(&mut Rng::new(9), count, max_steps, &mut |j, o| {
                assert!(batch[j].replace(o.clone()).is_none(), "playout {j} reported twice");
            })
            .unwrap();
            let batch: Vec<Outcome> = batch.into_iter().map(|o| o.expect("every playout reported")).collect();
            assert_eq!(one, batch, "{opt:?} max_steps {max_steps} lanes from {lanes_from:?}");
        }
    }
}

#[test]
fn batch_playouts_equal_one_at_a_time() {
    for name in ["tictactoe.kif", "connectfour.kif", "nim.kif", "rps.kif", "eightpuzzle.kif"] {
        batch_equals_one_at_a_time(&game(name), 150, 1000);
    }
    batch_equals_one_at_a_time(&game("breakthrough.kif"), 70, 1000);
    // Cut playouts, and fewer playouts than lanes.
    batch_equals_one_at_a_time(&game("tictactoe.kif"), 100, 4);
    batch_equals_one_at_a_time(&game("connectfour.kif"), 5, 1000);
    // A cyclic block swept lane-wise.
    batch_equals_one_at_a_time(LINKS, 130, 1000);
}

/// A walk to 5 where `trap` leaves both roles without a legal move in a state that is not
/// terminal: about one playout in two stops there.
const TRAP: &str = "(role r) (role q) (init (n 0)) (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
    (<= (legal r up) (true (n ?x))) (<= (legal r trap) (true (n ?x))) (<= (legal q wait) (true (n ?x)))
    (<= (next (n ?y)) (does r up) (true (n ?x)) (succ ?x ?y)) (<= (next caught) (does r trap))
    (<= terminal (true (n 5))) (<= (goal ?p 100) (role ?p) (true (n 5))) (<= (goal ?p 0) (role ?p) (not (true (n 5))))";

#[test]
fn playouts_stop_where_a_role_has_no_legal_move() {
    let (_, g) = load(TRAP);
    let mut p = Propnet::new(&g, Options::default(), &|| 0.0).unwrap();
    let mut stuck = 0;
    p.playouts(&mut Rng::new(1), 100, 100, &mut |_, o| {
        if let Some(role) = o.stuck {
            assert_eq!((role, o.goals.is_none()), (0, true), "the first role without a move: r");
            stuck += 1;
        }
    })
    .unwrap();
    assert!(stuck > 20 && stuck < 100, "{stuck} of 100 stopped");
    batch_equals_one_at_a_time(TRAP, 150, 100);
    // The reasoner stops them at the same places.
    let (mut r, _) = load(TRAP);
    let mut series = Rng::new(9);
    let mut series_p = Rng::new(9);
    for _ in 0..50 {
        let a = step_playout(&mut r, &mut crate::machine::playout::playout_rng(&mut series), 100).unwrap();
        let b = step_playout(&mut p, &mut crate::machine::playout::playout_rng(&mut series_p), 100).unwrap();
        assert_eq!(a, b);
    }
}

/// From a state other than the initial one (a student's player's bulk playouts), the batch
/// gives playout `j` exactly as the one-at-a-time playout from that state.
#[test]
fn batch_playouts_from_a_state_equal_one_at_a_time() {
    for name in ["tictactoe.kif", "connectfour.kif"] {
        let (_, g) = load(&game(name));
        let mut p = Propnet::new(&g, Options::default(), &|| 0.0).unwrap();
        p.stats.lanes_from = Some(1);
        let mut state = p.initial_state();
        for _ in 0..3 {
            let joint: Vec<_> = (0..p.roles().len()).map(|r| p.legal_moves(&state, r).unwrap()[0]).collect();
            state = p.next_state(&state, &joint).unwrap();
        }
        let mut series = Rng::new(4);
        let one: Vec<Outcome> = (0..100)
            .map(|_| p.playout_from(&state, &mut crate::machine::playout::playout_rng(&mut series), 1000).unwrap())
            .collect();
        let mut batch: Vec<Option<Outcome>> = vec![None; 100];
        p.playouts_from(&state, &mut Rng::new(4), 100, 1000, &mut |j, o| batch[j] = Some(o.clone())).unwrap();
        let batch: Vec<Outcome> = batch.into_iter().map(|o| o.expect("every playout reported")).collect();
        assert_eq!(one, batch, "{name}");
        assert!(one.iter().all(|o| o.length < 40), "{name}: playouts start from the state, not the initial one");
    }
}

/// Marks on six squares; the game is won by four marked squares in a row, read through
/// `quad` (360 instances, more than `LEFT_OUT_LIMIT` allows), which only terminal and goal
/// need; the rest grounds into 45 rules.
const TRIPLES: &str = "(role r) (v 1) (v 2) (v 3) (v 4) (v 5) (v 6)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6)
(init (step 0))
(<= (legal r (mark ?x)) (v ?x) (not (true (m ?x))))
(<= (next (m ?x)) (does r (mark ?x)))
(<= (next (m ?x)) (true (m ?x)))
(<= (next (step ?n)) (true (step ?k)) (succ ?k ?n))
(<= (quad ?a ?b ?c ?d) (true (m ?a)) (true (m ?b)) (true (m ?c)) (true (m ?d))
    (distinct ?a ?b) (distinct ?a ?c) (distinct ?a ?d) (distinct ?b ?c) (distinct ?b ?d) (distinct ?c ?d))
(<= win (quad ?a ?b ?c ?d) (succ ?a ?b) (succ ?b ?c) (succ ?c ?d))
(<= terminal win)
(<= terminal (true (step 5)))
(<= (goal r 100) win)
(<= (goal r 0) (not win))";
const LEFT_OUT_LIMIT: usize = 50;

/// When only terminal and goal overflow the grounding, the network plays with the reasoner
/// computing them per state: the traces (network under every option, one playout at a time
/// and in batches, and the ground engine with the first-order rules) are the reasoner's.
#[test]
fn terminal_and_goal_left_to_the_reasoner_play_like_it() {
    let loaded = crate::load(TRIPLES, Default::default()).unwrap();
    let flat = ground(&loaded.description, GroundOptions::default(), &|| 0.0, &mut |_| {}).unwrap();
    assert!(flat.outputs.is_none() && flat.stats.rules > LEFT_OUT_LIMIT, "{}", flat.stats.rules);
    let options = GroundOptions { max_rules: LEFT_OUT_LIMIT, ..Default::default() };
    let g = ground(&loaded.description, options, &|| 0.0, &mut |_| {}).unwrap();
    assert!(g.outputs.is_some() && g.stats.warnings.iter().any(|w| w.contains("terminal and goal")));
    assert!(g.stats.rules <= LEFT_OUT_LIMIT && !g.print(crate::parse::Syntax::Prefix).contains("quad"));
    let mut r = loaded.reasoner;
    let mut ground_engine = g.reasoner(Default::default()).unwrap();
    let mut nets: Vec<Propnet> = ALL_OPTS
        .iter()
        .flat_map(|&opt| [Strategy::Sweep, Strategy::Propagate].map(|s| (opt, Some(s))))
        .chain([(Opt { frame: true, persist: true }, None)])
        .map(|(opt, strategy)| Propnet::new(&g, Options { opt, strategy }, &|| 0.0).unwrap())
        .collect();
    assert!(nets.last().unwrap().stats.lanes_from.is_none() && nets[0].factors().is_none());
    let mut ended = [0, 0];
    for seed in 0..40 {
        let a = record_playout(&mut r, &mut Rng::new(seed), 20).unwrap();
        assert_eq!(a, record_playout(&mut ground_engine, &mut Rng::new(seed), 20).unwrap(), "seed {seed}");
        for p in &mut nets {
            assert_eq!(a, record_playout(p, &mut Rng::new(seed), 20).unwrap(), "seed {seed} {:?}", p.stats);
        }
        let x = step_playout(&mut r, &mut Rng::new(seed), 20).unwrap();
        ended[usize::from(x.goals.as_ref().is_some_and(|g| g[0] == [GoalValue::Int(100)]))] += 1;
    }
    assert!(ended[0] > 0 && ended[1] > 0, "both outcomes are played: {ended:?}");
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    let init = r.initial_state();
    r.playouts_from(&init, &mut Rng::new(7), 64, 20, &mut |i, o| xs.push((i, o.clone()))).unwrap();
    let p = nets.last_mut().unwrap();
    let init = p.initial_state();
    p.playouts_from(&init, &mut Rng::new(7), 64, 20, &mut |i, o| ys.push((i, o.clone()))).unwrap();
    assert_eq!(xs, ys);
}

/// A game whose network part overflows too still fails.
#[test]
fn a_network_part_that_overflows_still_fails() {
    let loaded = crate::load(TRIPLES, Default::default()).unwrap();
    let options = GroundOptions { max_rules: 5, ..Default::default() };
    let e = ground(&loaded.description, options, &|| 0.0, &mut |_| {}).unwrap_err();
    assert_eq!(e.code, "too-many-ground-rules", "{}", e.message);
}
