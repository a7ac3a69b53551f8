//! Tests of the reasoner: evaluation, limits, demand and tabling, and plans independent of the order bodies are written in.

use super::*;
use crate::parse::parse;
use crate::program::specialise::specialise;
use crate::program::Program;

fn load(text: &str) -> Reasoner {
    let p = parse(text);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    Reasoner::new(&p.description, Limits::default()).unwrap()
}

fn games_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games")
}

#[test]
fn tictactoe_plays() {
    let text = std::fs::read_to_string(games_dir().join("tictactoe.kif")).unwrap();
    let mut r = load(&text);
    assert_eq!(r.roles(), ["x", "o"]);
    let s0 = r.initial_state();
    assert!(!r.is_terminal(&s0).unwrap());
    let x = r.legal_moves(&s0, 0).unwrap();
    let o = r.legal_moves(&s0, 1).unwrap();
    assert_eq!(x.len(), 9);
    assert_eq!(o.len(), 1);
    assert_eq!(r.move_text(o[0]), "noop");
    let s1 = r.next_state(&s0, &[x[0], o[0]]).unwrap();
    assert_ne!(s0, s1);
    assert_eq!(r.legal_moves(&s1, 1).unwrap().len(), 8);
}

#[test]
fn recursion_negation_and_propositions() {
    let mut r = load(
        "(role a) (init (at 1)) (succ 1 2) (succ 2 3) (succ 3 4)\n\
         (<= (less ?x ?y) (succ ?x ?y)) (<= (less ?x ?z) (less ?x ?y) (succ ?y ?z))\n\
         (<= (legal a (go ?y)) (true (at ?x)) (less ?x ?y) (not (blocked ?y)))\n\
         (blocked 3)\n\
         (<= (next (at ?y)) (does a (go ?y)))\n\
         (<= terminal (true (at 4)))\n\
         (<= (goal a 100) terminal) (<= (goal a 0) (not terminal))",
    );
    let s0 = r.initial_state();
    let moves: Vec<String> = r.legal_moves(&s0, 0).unwrap().into_iter().map(|m| r.move_text(m)).collect();
    assert_eq!(moves, ["(go 2)", "(go 4)"]);
    let four = r.legal_moves(&s0, 0).unwrap()[1];
    let s1 = r.next_state(&s0, &[four]).unwrap();
    assert!(r.is_terminal(&s1).unwrap());
    assert_eq!(r.goals(&s1).unwrap(), vec![vec![GoalValue::Int(100)]]);
    assert_eq!(r.goals(&s0).unwrap(), vec![vec![GoalValue::Int(0)]]);
}

#[test]
fn growing_terms_stop_at_the_depth_limit() {
    let p = parse(
        "(role a) (init (n z)) (<= (legal a go) (true (n ?x)))\n\
         (<= (next (n (s ?x))) (true (n ?x)))",
    );
    let mut r = Reasoner::new(&p.description, Limits { max_term_depth: 5, ..Limits::default() }).unwrap();
    let mut s = r.initial_state();
    let go = r.legal_moves(&s, 0).unwrap()[0];
    let mut err = None;
    for _ in 0..10 {
        match r.next_state(&s, &[go]) {
            Ok(n) => s = n,
            Err(e) => {
                err = Some(e);
                break;
            }
        }
    }
    let err = err.expect("the limit must be reached");
    assert!(err.message.contains("deeper than 5"), "{err}");
    assert!(err.message.contains("next/1"), "{err}");
}

#[test]
fn unstratified_is_refused() {
    let p = parse("(role a) (<= p (not q)) (<= q (not p))");
    let e = Reasoner::new(&p.description, Limits::default()).err().unwrap();
    assert_eq!(e.code, "unstratified");
}

#[test]
fn huge_joins_stop_at_the_step_limit() {
    let mut facts = String::new();
    for i in 0..100 {
        facts.push_str(&format!("(n {i}) "));
    }
    let p = parse(&format!(
        "(role a) {facts} (init s) (<= (legal a go) (true s))\n\
         (<= (next (p ?a ?b ?c ?d)) (n ?a) (n ?b) (n ?c) (n ?d) (true s))"
    ));
    let limits = Limits { max_join_steps: 1_000_000, ..Limits::default() };
    let mut r = Reasoner::new(&p.description, limits).unwrap();
    let s = r.initial_state();
    let go = r.legal_moves(&s, 0).unwrap()[0];
    let err = r.next_state(&s, &[go]).unwrap_err();
    assert!(err.message.contains("next/1 took more than 1000000 join steps"), "{err}");
    // The reasoner is still usable afterwards.
    assert_eq!(r.legal_moves(&s, 0).unwrap(), vec![go]);
}

#[test]
fn a_game_without_roles_cannot_be_played() {
    let mut r = load("(init s)");
    let err = crate::machine::StateMachine::playout(&mut r, &mut crate::rng::Rng::new(1), 10).unwrap_err();
    assert!(err.message.contains("no roles"), "{err}");
}

/// A clock for the time limit: milliseconds since the first call.
fn now_ms() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed().as_secs_f64() * 1e3
}

/// `(p ?a ?b ?c ?d ?e)` over 60 numbers: far more join steps than 30 ms allow.
const SLOW: &str = "(role a) (init s) (<= (legal a go) (true s)) (<= (next s) (does a go))\n\
     (<= (next (p ?a ?b ?c ?d ?e)) (true s) (n ?a) (n ?b) (n ?c) (n ?d) (n ?e) (distinct ?a ?e))";

fn slow_game(static_too: bool) -> String {
    let facts: String = (0..60).map(|i| format!("(n {i}) ")).collect();
    // 13 million facts computed when the game loads.
    let extra = if static_too {
        "(<= (q ?a ?b ?c ?d) (n ?a) (n ?b) (n ?c) (n ?d)) (<= (legal a go) (q ?a ?b ?c ?d))"
    } else {
        ""
    };
    format!("{facts}{SLOW}{extra}")
}

#[test]
fn slow_queries_stop_at_the_time_limit() {
    let p = parse(&slow_game(false));
    // Only the time may stop it: a fast machine reaches the default 2M facts within 30 ms.
    let time = Some(TimeLimit { millis: 30.0, now: now_ms });
    let limits = Limits { time, max_facts: 100_000_000, ..Limits::default() };
    let mut r = Reasoner::new(&p.description, limits).unwrap();
    let s = r.initial_state();
    let go = r.legal_moves(&s, 0).unwrap()[0];
    let t0 = now_ms();
    let err = r.next_state(&s, &[go]).unwrap_err();
    assert!(now_ms() - t0 < 1_000.0, "stopped late");
    assert!(err.message.contains("next/1 took longer than 30 ms"), "{err}");
    assert!(err.message.contains("raise the limit max_millis"), "{err}");
    // Each query has its own time: the next one starts afresh.
    assert_eq!(r.legal_moves(&s, 0).unwrap(), vec![go]);
}

#[test]
fn slow_loads_stop_at_the_time_limit() {
    let p = parse(&slow_game(true));
    let time = Some(TimeLimit { millis: 30.0, now: now_ms });
    let limits = Limits { time, max_facts: 100_000_000, ..Limits::default() };
    let t0 = now_ms();
    let err = Reasoner::new(&p.description, limits).err().expect("the load must time out");
    assert!(now_ms() - t0 < 1_000.0, "stopped late");
    assert!(err.message.contains("took longer than 30 ms"), "{err:?}");
}

#[test]
fn too_many_terms_stop_at_the_memory_limit() {
    let p = parse(
        "(role a) (init (n 0)) (<= (legal a go) (true (n ?x)))\n\
         (<= (next (n (s ?x))) (true (n ?x))) (<= (next (m ?x ?y)) (true (n ?x)) (true (n ?y)))",
    );
    let mut r = Reasoner::new(&p.description, Limits { max_terms: 40, ..Limits::default() }).unwrap();
    let err = crate::machine::StateMachine::playout(&mut r, &mut crate::rng::Rng::new(1), 100).unwrap_err();
    assert!(err.message.contains("more than 40 distinct terms"), "{err}");
    assert!(err.message.contains("raise the limit max_terms"), "{err}");
}

/// A recursive relation huge in full (every pair of a 200-step chain, in every state) that
/// the rules only ask about from one place: the top-down candidate computes it on demand,
/// with the same answers as the program as written.
#[test]
fn a_relation_asked_from_one_place_is_computed_on_demand() {
    let chain: String = (0..200).map(|i| format!("(succ {i} {}) (init (open {i}))\n", i + 1)).collect();
    let text = format!(
        "{chain}(role a) (init (at 0))\n\
         (<= (edge ?x ?y) (succ ?x ?y) (true (open ?x)))\n\
         (<= (reach ?x ?y) (edge ?x ?y))\n\
         (<= (reach ?x ?z) (edge ?x ?y) (reach ?y ?z))\n\
         (<= (legal a (go ?y)) (true (at ?x)) (succ ?x ?y) (reach ?x 200))\n\
         (<= (legal a stay) (true (at ?x)))\n\
         (<= (next (at ?y)) (does a (go ?y)))\n\
         (<= (next (at ?x)) (does a stay) (true (at ?x)))\n\
         (<= (next (open ?x)) (true (open ?x)) (true (at ?y)) (distinct ?x ?y))\n\
         (<= terminal (true (at 200))) (<= (goal a 100) (true (at 200)))"
    );
    let mut chosen = load(&text);
    assert!(chosen.is_tabled() || chosen.on_demand() == ["edge/2", "reach/2"], "{:?}", chosen.on_demand());
    let rules = specialise(Program::normalised(&parse(&text).description).unwrap()).into_rules();
    let mut plain = Reasoner::from_program(Program::new(rules), Limits::default()).unwrap();
    assert!(plain.on_demand().is_empty());
    let mut rng = crate::rng::Rng::new(7);
    let (mut s, mut t) = (chosen.initial_state(), plain.initial_state());
    for _ in 0..20 {
        let (a, b) = (chosen.legal_moves(&s, 0).unwrap(), plain.legal_moves(&t, 0).unwrap());
        let texts = |r: &Reasoner, ms: &[TermId]| ms.iter().map(|&m| r.move_text(m)).collect::<Vec<_>>();
        assert_eq!(texts(&chosen, &a), texts(&plain, &b));
        let k = rng.below(a.len());
        s = chosen.next_state(&s, &[a[k]]).unwrap();
        t = plain.next_state(&t, &[b[k]]).unwrap();
        assert_eq!(chosen.state_text(&s), plain.state_text(&t));
    }
}

/// Each level asks the next about both values of one more bit, in the manner of the corpus'
/// ruleDepth games: specialisation copies every level per constant use, many times over,
/// for nothing (the rules only ever hold for the current step). The program runs without
/// those copies, with the same answers.
#[test]
fn a_program_that_specialisation_multiplies_runs_as_written() {
    let mut text =
        String::from("(role r) (init (step 0)) (bit 0) (bit 1)\n(<= (legal r go) (p0 0)) (<= (legal r stop))\n");
    for k in 0..30 {
        let vars: String = (0..=k).map(|i| format!(" ?b{i}")).collect();
        let bits: String = (0..=k).map(|i| format!(" (bit ?b{i})")).collect();
        text += &format!("(<= (p{k}{vars}){bits} (true (step {k})))\n");
        text += &format!("(<= (p{k}{vars}){bits} (not (true (step {k}))) (p{n}{vars} 0) (p{n}{vars} 1))\n", n = k + 1);
    }
    text += "(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n)) (<= terminal (true (step 3)))\n(<= (goal r 100))\n";
    text += &(0..30).map(|i| format!("(succ {i} {})", i + 1)).collect::<String>();
    let plans = |r: &Reasoner| r.comps.iter().map(|c| c.rules.len()).sum::<usize>();
    let mut chosen = load(&text);
    let rules = normalise(&parse(&text).description).unwrap();
    let mut special = Reasoner::from_program(specialise(Program::new(rules.clone())), Limits::default()).unwrap();
    let plain = Reasoner::from_program(Program::new(rules), Limits::default()).unwrap();
    assert!(plans(&special) > 2 * plans(&plain), "{} specialised rules, {} as written", plans(&special), plans(&plain));
    assert!(chosen.is_tabled() || plans(&chosen) == plans(&plain), "the specialised program was chosen");
    let (mut s, mut t) = (chosen.initial_state(), special.initial_state());
    for _ in 0..3 {
        let (a, b) = (chosen.legal_moves(&s, 0).unwrap(), special.legal_moves(&t, 0).unwrap());
        let texts = |r: &Reasoner, ms: &[TermId]| ms.iter().map(|&m| r.move_text(m)).collect::<Vec<_>>();
        assert_eq!(texts(&chosen, &a), texts(&special, &b));
        let go = |r: &Reasoner, ms: &[TermId]| *ms.iter().find(|&&m| r.move_text(m) == "go").expect("go is legal");
        s = chosen.next_state(&s, &[go(&chosen, &a)]).unwrap();
        t = special.next_state(&t, &[go(&special, &b)]).unwrap();
    }
}

/// The rules loaded with every state-dependent relation answered top-down, with tables.
fn tabled(text: &str) -> Reasoner {
    let rules = specialise(Program::normalised(&parse(text).description).unwrap()).into_rules();
    let mut r = Reasoner::build(Program::new(rules.clone()), Limits::default()).ok().unwrap();
    r.tabled = Some(Box::new(Tabled::new(&mut r, &rules)));
    r.loaded()
}

/// Plays `count` random playouts on both reasoners, comparing every answer.
fn same_answers(a: &mut Reasoner, b: &mut Reasoner, count: usize, seed: u64) {
    let mut rng = crate::rng::Rng::new(seed);
    let texts = |r: &Reasoner, ms: &[TermId]| ms.iter().map(|&m| r.move_text(m)).collect::<Vec<_>>();
    for _ in 0..count {
        let (mut s, mut t) = (a.initial_state(), b.initial_state());
        for _ in 0..80 {
            assert_eq!(a.state_text(&s), b.state_text(&t));
            let terminal = a.is_terminal(&s).unwrap();
            assert_eq!(terminal, b.is_terminal(&t).unwrap());
            assert_eq!(a.goals(&s).unwrap(), b.goals(&t).unwrap());
            if terminal {
                break;
            }
            let (mut ja, mut jb) = (Vec::new(), Vec::new());
            for role in 0..a.roles().len() {
                let (ma, mb) = (a.legal_moves(&s, role).unwrap(), b.legal_moves(&t, role).unwrap());
                assert_eq!(texts(a, &ma), texts(b, &mb));
                let k = rng.below(ma.len());
                ja.push(ma[k]);
                jb.push(mb[k]);
            }
            s = a.next_state(&s, &ja).unwrap();
            t = b.next_state(&t, &jb).unwrap();
        }
    }
}

/// Every game of the library plays the same top-down as bottom-up, and stays top-down.
#[test]
fn tabled_evaluation_answers_like_bottom_up_on_our_games() {
    for entry in std::fs::read_dir(games_dir()).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        if path.extension().is_none_or(|e| e != "kif") || text.contains("Intended error:") {
            continue;
        }
        let rules = specialise(Program::normalised(&parse(&text).description).unwrap()).into_rules();
        let mut plain = Reasoner::from_program(Program::new(rules), Limits::default()).unwrap();
        let mut top_down = tabled(&text);
        same_answers(&mut top_down, &mut plain, 3, 11);
        assert!(top_down.is_tabled(), "{} fell back to bottom-up", path.display());
    }
}

/// A rule asking about one role (chess's `terminal`: has the player in control a legal
/// move?) and the players asking each role's legal moves share one table per role: the
/// moves are not computed again, and they are the same as bottom-up.
#[test]
fn legal_moves_share_the_table_a_rule_asked_for_one_role() {
    let text = "(role white) (role black) (init (control white)) (init (taken 1 1))
        (index 1) (index 2) (index 3) (index 4) (index 5) (index 6) (index 7) (index 8)
        (<= (legal ?p (mark ?x ?y)) (true (control ?p)) (index ?x) (index ?y) (not (true (taken ?x ?y))))
        (<= (legal ?p noop) (role ?p) (not (true (control ?p))))
        (<= (has_move ?p) (legal ?p (mark ?x ?y)))
        (<= terminal (true (control ?p)) (not (has_move ?p)))
        (<= (next (taken ?x ?y)) (does ?p (mark ?x ?y)))
        (<= (next (taken ?x ?y)) (true (taken ?x ?y)))
        (<= (next (control black)) (true (control white)))
        (<= (next (control white)) (true (control black)))
        (<= (goal ?p 0) (role ?p))";
    let mut shared = tabled(text);
    let s = shared.initial_state();
    assert!(!shared.is_terminal(&s).unwrap());
    let before = shared.work;
    assert_eq!(shared.legal_moves(&s, 0).unwrap().len(), 63);
    let after_terminal = shared.work - before;
    let mut fresh = tabled(text);
    let before = fresh.work;
    fresh.legal_moves(&fresh.initial_state(), 0).unwrap();
    let alone = fresh.work - before;
    assert!(after_terminal * 4 < alone, "legal moves after terminal cost {after_terminal}, alone {alone}");
    let rules = specialise(Program::normalised(&parse(text).description).unwrap()).into_rules();
    let mut plain = Reasoner::from_program(Program::new(rules), Limits::default()).unwrap();
    same_answers(&mut shared, &mut plain, 2, 5);
    assert!(shared.is_tabled());
}

/// Recursion through the state (reachability over open cells, read under `not`), a
/// relation of the moves, calls with every argument given and calls with none: the same
/// answers as bottom-up.
#[test]
fn tabled_recursion_negation_and_moves_answer_like_bottom_up() {
    let cells: String = (0..12).map(|i| format!("(succ {i} {}) (init (open {i}))\n", i + 1)).collect();
    let text = format!(
        "{cells}(role a) (role b) (init (at 0)) (init (open 12))\n\
         (<= (edge ?x ?y) (succ ?x ?y) (true (open ?y)))\n\
         (<= (edge ?x ?y) (succ ?y ?x) (true (open ?y)))\n\
         (<= (reach ?x ?y) (edge ?x ?y))\n\
         (<= (reach ?x ?z) (reach ?x ?y) (edge ?y ?z))\n\
         (<= (cut ?x) (true (open ?x)) (true (at ?y)) (not (reach ?y ?x)) (distinct ?x ?y))\n\
         (<= (legal a (close ?x)) (true (open ?x)) (not (true (at ?x))))\n\
         (<= (legal a wait))\n\
         (<= (legal b (go ?y)) (true (at ?x)) (edge ?x ?y))\n\
         (<= (legal b stay))\n\
         (<= (closed ?x) (does a (close ?x)))\n\
         (<= (next (at ?y)) (does b (go ?y)) (not (closed ?y)))\n\
         (<= (next (at ?x)) (true (at ?x)) (does b (go ?y)) (closed ?y))\n\
         (<= (next (at ?x)) (true (at ?x)) (does b stay))\n\
         (<= (next (open ?x)) (true (open ?x)) (not (closed ?x)))\n\
         (<= terminal (true (at 12))) (<= terminal (not (reach 0 12)) (cut 12))\n\
         (<= (goal b 100) (true (at 12))) (<= (goal b 0) (not (true (at 12))))\n\
         (<= (goal a 100) (not (true (at 12)))) (<= (goal a 0) (true (at 12)))"
    );
    let rules = specialise(Program::normalised(&parse(&text).description).unwrap()).into_rules();
    let mut plain = Reasoner::from_program(Program::new(rules), Limits::default()).unwrap();
    let mut top_down = tabled(&text);
    same_answers(&mut top_down, &mut plain, 20, 5);
    assert!(top_down.is_tabled());
}

/// Two lines of cells walked from their ends, which the players close one by one.
fn two_lines() -> String {
    let line = |from: u32| -> String {
        (from..from + 12).map(|i| format!("(succ {i} {}) (init (open {}))\n", i + 1, i + 1)).collect()
    };
    format!(
        "{}{}(role a) (role b) (init (control a))\n\
         (<= (ray ?x ?y) (succ ?x ?y) (true (open ?y)))\n\
         (<= (ray ?x ?z) (succ ?x ?y) (true (open ?y)) (ray ?y ?z))\n\
         (<= (reached ?x) (ray 0 ?x)) (<= (reached ?x) (ray 100 ?x))\n\
         (<= (legal ?p (close ?x)) (true (control ?p)) (reached ?x))\n\
         (<= (legal ?p noop) (role ?p) (not (true (control ?p))))\n\
         (<= (closing ?x) (does ?p (close ?x)))\n\
         (<= (next (open ?x)) (true (open ?x)) (not (closing ?x)))\n\
         (<= (next (control a)) (true (control b))) (<= (next (control b)) (true (control a)))\n\
         (<= terminal (not (reached 1)) (not (reached 101)))\n\
         (<= (goal ?p 50) (role ?p))",
        line(0),
        line(100)
    )
}

/// Tables outlive their state while nothing they read changes: closing a cell of one
/// line walks that line again, not the other one; and every answer stays that of bottom-up
/// evaluation, on lines of play and on states reached by a jump (a new playout).
#[test]
fn tables_whose_facts_did_not_change_are_kept_across_states() {
    let text = two_lines();
    // The first state from scratch, then the next one after the last cell of the second
    // line is closed: the first line's walk is kept.
    let mut r = tabled(&text);
    let s = r.initial_state();
    let before = r.work;
    let moves = r.legal_moves(&s, 0).unwrap();
    let alone = r.work - before;
    let close = moves.into_iter().find(|&m| r.move_text(m) == "(close 112)").unwrap();
    let noop = r.legal_moves(&s, 1).unwrap()[0];
    let s = r.next_state(&s, &[close, noop]).unwrap();
    let before = r.work;
    assert_eq!(r.legal_moves(&s, 1).unwrap().len(), 23, "both lines but the closed cell");
    let again = r.work - before;
    assert!(again * 3 < alone * 2, "the next state cost {again}, the first {alone}");
    let rules = specialise(Program::normalised(&parse(&text).description).unwrap()).into_rules();
    let mut plain = Reasoner::from_program(Program::new(rules), Limits::default()).unwrap();
    let mut kept = tabled(&text);
    same_answers(&mut kept, &mut plain, 12, 9);
    assert!(kept.tabled.as_ref().unwrap().keeps());
}

/// The explainer's model of a state stores `true` afresh: the tables kept from the state
/// before cannot be told what left it, and are dropped.
#[test]
fn tables_kept_before_a_model_do_not_outlive_it() {
    let mut r = tabled(&two_lines());
    let s = r.initial_state();
    let moves = r.legal_moves(&s, 0).unwrap();
    let close = moves.into_iter().find(|&m| r.move_text(m) == "(close 112)").unwrap();
    let noop = r.legal_moves(&s, 1).unwrap()[0];
    let closed = r.next_state(&s, &[close, noop]).unwrap();
    r.legal_moves(&closed, 1).unwrap();
    // Back to every cell open, by difference: its tables walk to cell 112.
    assert_eq!(r.legal_moves(&s, 0).unwrap().len(), 24);
    r.evaluate_in(&State::from(vec![]), None).unwrap();
    let texts: Vec<String> = r.legal_moves(&closed, 1).unwrap().iter().map(|&m| r.move_text(m)).collect();
    assert_eq!(texts.len(), 23, "{texts:?}");
    assert!(!texts.contains(&"(close 112)".to_string()), "{texts:?}");
}

/// Where every state changes a fact every rule reads, keeping tables saves nothing: after
/// a window of states, each state is evaluated afresh.
#[test]
fn tables_are_not_kept_where_every_state_changes_what_they_read() {
    let steps: String = (0..300).map(|i| format!("(succ {i} {})", i + 1)).collect();
    let text = format!(
        "{steps}(role a) (init (step 0)) (cell 1) (cell 2) (cell 3)\n\
         (<= (free ?x ?n) (true (step ?n)) (cell ?x))\n\
         (<= (legal a (mark ?x)) (true (step ?n)) (free ?x ?n))\n\
         (<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))\n\
         (<= terminal (true (step 300))) (<= (goal a 100) (true (step 300)))"
    );
    // A window of states, each reached by the first legal move.
    let play = |text: &str| {
        let mut r = tabled(text);
        let mut s = r.initial_state();
        for _ in 0..295 {
            let moves = r.legal_moves(&s, 0).unwrap();
            s = r.next_state(&s, &moves[..1]).unwrap();
        }
        r
    };
    let mut r = play(&text);
    assert!(!r.tabled.as_ref().unwrap().keeps());
    let rules = specialise(Program::normalised(&parse(&text).description).unwrap()).into_rules();
    let mut plain = Reasoner::from_program(Program::new(rules), Limits::default()).unwrap();
    same_answers(&mut r, &mut plain, 2, 3);
    // A table that holds in every state, asked by each of them again and again, saves its
    // work once a state (as it would be evaluated once a state), not once an ask.
    let asked = text.replace("(cell ?x))\n", "(cell ?x) (pairs ?a ?b) (distinct ?a ?x))\n")
        + "(init fixed) (<= (next fixed) (true fixed)) (<= (pairs ?a ?b) (true fixed) (succ ?a 1) (succ 1 ?b))\
         (<= (legal a (jump ?m)) (true (step ?n)) (succ ?n ?m))";
    assert_ne!(asked, text);
    assert!(!play(&asked).tabled.as_ref().unwrap().keeps());
}

/// Keys share the slots that note when they changed: a key may read as changed later
/// than it did (its tables are evaluated again), never earlier (a stale table kept).
#[test]
fn a_change_is_never_read_as_older_than_it_is() {
    let mut changes = super::tabled::Changes::default();
    let mut truth = std::collections::HashMap::new();
    let mut rng = crate::rng::Rng::new(7);
    // Far more keys than slots, noted over many states.
    for epoch in 1..=20_000u32 {
        for _ in 0..5 {
            let key = ((rng.below(4) as u16), rng.next_u64() % 200_000);
            changes.note(key, epoch);
            truth.insert(key, epoch);
        }
    }
    let collided = truth.iter().filter(|&(&k, &e)| changes.last(k) > e).count();
    assert!(truth.iter().all(|(&k, &e)| changes.last(k) >= e));
    assert!(collided > 0, "the keys should outnumber the slots");
    changes.clear();
    assert!(truth.keys().all(|&k| changes.last(k) == 0));
}

/// A game on a line of cells walked forward from cell 20 toward targets, with `extra` facts
/// and `rules` (`ray` and `(legal a (shoot ?t))`): only target 22 can be shot.
fn shooting_game(extra: &str, rules: &str) -> String {
    let line: String = (0..24).map(|i| format!("(succ {i} {}) (init (open {}))\n", i + 1, i + 1)).collect();
    format!(
        "{line}{extra}\n(role a) (init (at 20)) (target 2) (target 5) (target 9) (target 22)\n{rules}\n\
         (<= (legal a wait) (true (at ?x)))\n\
         (<= (next (open ?x)) (true (open ?x)) (not (does a (shoot ?x))))\n\
         (<= (next (at ?x)) (true (at ?x)))\n\
         (<= terminal (not (true (open 22))))\n\
         (<= (goal a 100) (not (true (open 22)))) (<= (goal a 0) (true (open 22)))"
    )
}

/// The first state of a shooting game costs less than half the work with the calls no state
/// can answer refused than with every call walked; the answers stay those of bottom-up
/// evaluation.
fn assert_walks_refused(text: &str) {
    let first_state = |r: &mut Reasoner| {
        let s = r.initial_state();
        let before = r.work;
        let moves: Vec<String> = r.legal_moves(&s, 0).unwrap().iter().map(|&m| r.move_text(m)).collect();
        assert_eq!(moves, ["(shoot 22)", "wait"]);
        r.work - before
    };
    let mut filtered = tabled(text);
    let mut walking = tabled(text);
    walking.tabled.as_mut().unwrap().relaxed = Default::default();
    let (refused, walked) = (first_state(&mut filtered), first_state(&mut walking));
    assert!(refused * 2 < walked, "with the calls refused {refused} work units, walked {walked}");
    let rules = specialise(Program::normalised(&parse(text).description).unwrap()).into_rules();
    let mut plain = Reasoner::from_program(Program::new(rules), Limits::default()).unwrap();
    same_answers(&mut tabled(text), &mut plain, 4, 5);
}

/// A call no state can answer is refused before a table is made for it: a walk along a
/// line toward a target behind its start (the line only goes forward) would walk to the
/// line's end in every state. The walk also carries a colour only the state binds: the
/// relaxation leaves that position out.
#[test]
fn calls_no_state_can_answer_are_refused() {
    assert_walks_refused(&shooting_game(
        "(init (colour red)) (<= (next (colour ?c)) (true (colour ?c)))",
        "(<= (ray ?x ?y ?c) (succ ?x ?y) (true (open ?y)) (true (colour ?c)))\n\
         (<= (ray ?x ?z ?c) (succ ?x ?y) (true (open ?y)) (ray ?y ?z ?c))\n\
         (<= (legal a (shoot ?t)) (true (at ?x)) (true (colour ?c)) (target ?t) (ray ?x ?t ?c))",
    ));
}

/// A position only type tests bind (chess's square a threat test ignores, `(coordinate
/// ?ignorex)`) is left out of the relaxation, which would otherwise hold every ignored square
/// with every pair of a line, past the size a relaxation may have: the walk is refused as
/// above.
#[test]
fn positions_only_type_tests_bind_are_left_out() {
    let cells: String = (0..25).map(|i| format!("(cell {i}) ")).collect();
    assert_walks_refused(&shooting_game(
        &format!("{cells}(init (ignore 3 4)) (<= (next (ignore ?i ?j)) (true (ignore ?i ?j)))"),
        "(<= (ray ?x ?y ?i ?j) (succ ?x ?y) (true (open ?y)) (cell ?i) (cell ?j))\n\
         (<= (ray ?x ?z ?i ?j) (succ ?x ?y) (true (open ?y)) (ray ?y ?z ?i ?j))\n\
         (<= (legal a (shoot ?t)) (true (at ?x)) (true (ignore ?i ?j)) (target ?t) (ray ?x ?t ?i ?j))",
    ));
}

/// A chain of calls deeper than the stacks allow falls back to bottom-up evaluation, with
/// the same answers.
#[test]
fn tabled_evaluation_too_deep_falls_back_to_bottom_up() {
    let chain: String = (0..400).map(|i| format!("(succ {i} {}) (init (open {i}))\n", i + 1)).collect();
    let text = format!(
        "{chain}(role a) (init (at 0))\n\
         (<= (path ?x) (true (open ?x)) (succ ?x 400))\n\
         (<= (path ?x) (true (open ?x)) (succ ?x ?y) (path ?y))\n\
         (<= (legal a go) (path 0))\n\
         (<= (legal a stay) (true (at ?x)))\n\
         (<= (next (at ?x)) (true (at ?x)))\n\
         (<= (next (open ?x)) (true (open ?x)) (does a stay))\n\
         (<= terminal (not (true (open 0)))) (<= (goal a 100))"
    );
    let rules = specialise(Program::normalised(&parse(&text).description).unwrap()).into_rules();
    let mut plain = Reasoner::from_program(Program::new(rules), Limits::default()).unwrap();
    let mut top_down = tabled(&text);
    same_answers(&mut top_down, &mut plain, 3, 1);
    assert!(!top_down.is_tabled(), "400 nested calls must not run top-down");
}

/// The first probe of a game visits up to 60 states of its line, fewer once its work is
/// large (never fewer than 6, or 3 when its states cost far more); a later probe visits the
/// states it is told.
#[test]
fn probes_reach_the_middle_of_cheap_games_and_stop_early_in_costly_ones() {
    let counter = "(role a) (init (c 0)) (<= (legal a go)) (<= (next (c ?y)) (true (c ?x)) (succ ?x ?y))\n\
                   (<= terminal (true (c 100))) (<= (goal a 100))\n";
    let succ: String = (0..100).map(|i| format!("(succ {i} {})", i + 1)).collect();
    let mut cheap = load(&format!("{counter}{succ}"));
    assert_eq!(cheap.probe(None).unwrap(), PROBE_STATES.1);
    assert_eq!(cheap.probe(Some(10)).unwrap(), 10);
    // Each state derives n^3 facts of `big`.
    let costly = |n: usize| {
        let values: String = (0..n).map(|i| format!("(n {i})")).collect();
        let text = format!(
            "{counter}{succ}{values}\n(<= (big ?a ?b ?c) (n ?a) (n ?b) (n ?c) (true (c ?x)))\n\
             (<= (legal a stay) (big ?a ?b ?c))"
        );
        Reasoner::from_program(Program::normalised(&parse(&text).description).unwrap(), Limits::default()).unwrap()
    };
    assert_eq!(costly(50).probe(None).unwrap(), PROBE_STATES.0);
    assert_eq!(costly(120).probe(None).unwrap(), PROBE_STATES.0 / 2);
}

/// A probe's line avoids ending the game: where one of two moves ends it at once, the line
/// still goes on (with a move that ends it only when every move tried does).
#[test]
fn probes_go_on_past_moves_that_end_the_game() {
    let succ: String = (0..100).map(|i| format!("(succ {i} {})", i + 1)).collect();
    let text = format!(
        "(role a) (init (c 0)) (<= (legal a go)) (<= (legal a stop))\n\
         (<= (next (c ?y)) (true (c ?x)) (succ ?x ?y)) (<= (next over) (does a stop))\n\
         (<= terminal (true over)) (<= terminal (true (c 20))) (<= (goal a 100))\n{succ}"
    );
    let mut r = load(&text);
    assert_eq!(r.probe(None).unwrap(), 21, "the line reaches (c 20), where the game ends");
}

/// A rule's plan does not depend on the order its body was written in: the board's
/// fluents are measured in the initial state, so a four-in-a-row test over a 3D board costs
/// the same in any of the orders tried (the author's, backwards, and their rotations).
#[test]
fn plans_do_not_depend_on_the_order_of_the_body() {
    let mut body = vec!["(true (cell ?x1 ?y1 ?z1 ?s))", "(direction ?xd ?yd ?zd)"];
    for (i, j) in [(1, 2), (2, 3), (3, 4)] {
        for d in ["x", "y", "z"] {
            body.push(Box::leak(format!("(next_coord ?{d}d ?{d}{i} ?{d}{j})").into_boxed_str()));
        }
        body.push(Box::leak(format!("(true (cell ?x{j} ?y{j} ?z{j} ?s))").into_boxed_str()));
    }
    let directions: String = [
        "plus equal equal",
        "equal plus equal",
        "equal equal plus",
        "plus plus equal",
        "plus minus equal",
        "plus equal plus",
        "plus equal minus",
        "equal plus plus",
        "equal plus minus",
        "plus plus plus",
        "plus plus minus",
        "plus minus plus",
        "plus minus minus",
    ]
    .iter()
    .map(|d| format!("(direction {d})"))
    .collect();
    let game = |body: &str| {
        format!(
            "(role x) (role o) (init (control x)) (<= (init (cell ?x ?y ?z b)) (coord ?x) (coord ?y) (coord ?z))\n\
             (coord 1) (coord 2) (coord 3) (coord 4) (succ 1 2) (succ 2 3) (succ 3 4) {directions}\n\
             (<= (next_coord equal ?x ?x) (coord ?x)) (<= (next_coord plus ?x ?y) (succ ?x ?y))\n\
             (<= (next_coord minus ?x ?y) (succ ?y ?x))\n\
             (<= (line ?s) {body})\n\
             (<= (legal ?p (mark ?x ?y ?z)) (true (control ?p)) (true (cell ?x ?y ?z b)))\n\
             (<= (legal x noop) (true (control o))) (<= (legal o noop) (true (control x)))\n\
             (<= (next (cell ?x ?y ?z ?p)) (does ?p (mark ?x ?y ?z)))\n\
             (<= (next (cell ?x ?y ?z ?s)) (true (cell ?x ?y ?z ?s)) (not (marked ?x ?y ?z)))\n\
             (<= (marked ?x ?y ?z) (does ?p (mark ?x ?y ?z)))\n\
             (<= (next (control x)) (true (control o))) (<= (next (control o)) (true (control x)))\n\
             (<= terminal (line x)) (<= terminal (line o)) (<= terminal (not open))\n\
             (<= open (true (cell ?x ?y ?z b)))\n\
             (<= (goal x 100) (line x)) (<= (goal x 0) (not (line x)))\n\
             (<= (goal o 100) (line o)) (<= (goal o 0) (not (line o)))"
        )
    };
    let work = |body: &[&str]| {
        let text = game(&body.join(" "));
        let mut r =
            Reasoner::from_program(Program::normalised(&parse(&text).description).unwrap(), Limits::default()).unwrap();
        let load = r.work;
        r.probe(Some(12)).unwrap();
        r.work - load
    };
    let mut works = Vec::new();
    for mut order in [body.clone(), body.iter().rev().copied().collect()] {
        for _ in 0..order.len() {
            works.push(work(&order));
            order.rotate_left(1);
        }
    }
    let (least, most) = (works.iter().min().unwrap(), works.iter().max().unwrap());
    assert!(*most as f64 <= *least as f64 * 1.1, "{works:?}");
}

/// A relation too big in full, asked by a rule that writes the call before the conditions
/// that bind its arguments: loading finds the program that asks it with every argument
/// bound (bindings passed first, not in the order written), as it does for the order a
/// Prolog programmer would write.
#[test]
fn a_call_written_before_its_bindings_is_asked_with_them() {
    let values: String = (0..22).map(|i| format!("(v {i})")).collect();
    let game = |body: &str| {
        format!(
            "(role r) {values}\n\
             (init (cell 1 0)) (init (cell 2 1)) (init (cell 3 2)) (init (cell 4 3)) (init (cell 5 4))\n\
             (<= (distinct5 ?a ?b ?c ?d ?e) (v ?a) (v ?b) (v ?c) (v ?d) (v ?e) (distinct ?a ?b) (distinct ?a ?c)\n\
                 (distinct ?a ?d) (distinct ?a ?e) (distinct ?b ?c) (distinct ?b ?d) (distinct ?b ?e)\n\
                 (distinct ?c ?d) (distinct ?c ?e) (distinct ?d ?e))\n\
             (<= ok {body})\n\
             (<= (legal r (set ?i ?x)) (true (cell ?i ?y)) (v ?x))\n\
             (<= (next (cell ?i ?x)) (does r (set ?i ?x)))\n\
             (<= (next (cell ?i ?y)) (true (cell ?i ?y)) (not (moved ?i)))\n\
             (<= (moved ?i) (does r (set ?i ?x)))\n\
             (<= terminal (not ok)) (<= (goal r 100) ok) (<= (goal r 0) (not ok))"
        )
    };
    let cells = "(true (cell 1 ?a)) (true (cell 2 ?b)) (true (cell 3 ?c)) (true (cell 4 ?d)) (true (cell 5 ?e))";
    for body in [format!("{cells} (distinct5 ?a ?b ?c ?d ?e)"), format!("(distinct5 ?a ?b ?c ?d ?e) {cells}")] {
        let text = game(&body);
        let mut r = load(&text);
        let s = r.initial_state();
        assert!(!r.is_terminal(&s).unwrap(), "{body}");
        assert_eq!(r.legal_moves(&s, 0).unwrap().len(), 110, "{body}");
    }
}

/// Estimates count how often a constant comes: a 30 by 30 board holds one marker `a`, so
/// the move rule starts from the marker's cell, not from every pair of neighbours.
#[test]
fn a_rare_constant_is_where_a_rule_starts() {
    let mut text = String::from(
        "(role r) (<= (legal r stay))\n\
         (<= (legal r (move ?x1 ?y ?x2)) (succ ?x1 ?x2) (true (cell ?x1 ?y a)) (true (cell ?x2 ?y o)))\n\
         (<= (legal r (move ?x1 ?y ?x2)) (succ ?x2 ?x1) (true (cell ?x1 ?y a)) (true (cell ?x2 ?y o)))\n\
         (<= (next (cell ?x ?y ?c)) (true (cell ?x ?y ?c))) (<= terminal (true (cell 1 1 a)))\n\
         (<= (goal r 100))\n",
    );
    for x in 1..=30 {
        text.push_str(&format!("(succ {} {x})\n", x - 1));
        for y in 1..=30 {
            let c = if (x, y) == (12, 5) { "a" } else { "o" };
            text.push_str(&format!("(init (cell {x} {y} {c})) "));
        }
    }
    let mut r =
        Reasoner::from_program(Program::normalised(&parse(&text).description).unwrap(), Limits::default()).unwrap();
    let s = r.initial_state();
    let before = r.work;
    assert_eq!(r.legal_moves(&s, 0).unwrap().len(), 3);
    let work = r.work - before;
    assert!(work < 80, "{work} units of work for the legal moves");
}

/// A cross product looks one literal ahead: after `(own r ?p)`, `coord ?u` matches fewer facts
/// (8) than the cells of a kind of piece (10 of 40), but each of its values multiplies every
/// literal after it; the cells bind the squares `step` then starts from.
#[test]
fn a_generator_that_only_multiplies_waits() {
    let mut text = String::from(
        "(role r) (own r a) (<= (legal r stay))\n\
         (<= (legal r (move ?x ?y ?u ?v)) (coord ?u) (coord ?v) (own r ?p) (true (cell ?x ?y ?p)) \
             (step ?x ?y ?u ?v))\n\
         (<= (next (cell ?x ?y ?c)) (true (cell ?x ?y ?c))) (<= terminal (true (cell 1 1 z)))\n\
         (<= (goal r 100))\n",
    );
    for x in 1..=8 {
        text.push_str(&format!("(coord {x})\n"));
        for y in 1..=8 {
            for (u, v) in [(x + 1, y), (x, y + 1), (x + 1, y + 1)] {
                if u <= 8 && v <= 8 {
                    text.push_str(&format!("(step {x} {y} {u} {v}) "));
                }
            }
            // 40 pieces of four kinds.
            if (x + y) % 2 == 0 || (x <= 2 && y % 2 == 0) {
                let kind = ["a", "b", "c", "d"][(x + 2 * y) % 4];
                text.push_str(&format!("(init (cell {x} {y} {kind})) "));
            }
        }
    }
    let mut r =
        Reasoner::from_program(Program::normalised(&parse(&text).description).unwrap(), Limits::default()).unwrap();
    let s = r.initial_state();
    let before = r.work;
    let moves = r.legal_moves(&s, 0).unwrap().len();
    let work = r.work - before;
    assert_eq!(moves, 14);
    // 136 units; 335 when `coord` went first.
    assert!(work < 200, "{work} units of work for the legal moves");
}

/// A type test on a variable bound from a relation whose values are all of that type is
/// dropped from the plan (`domains`); one on a variable bound from `true` stays, since a
/// state may come from outside the rules.
#[test]
fn type_tests_the_rules_imply_are_dropped() {
    let text = "(role r) (bit 0) (bit 1) (init (s 1)) (<= (legal r go) (both 0) (seen 1))
        (<= (next (s 1)) (does r go))
        (<= terminal (true (s 2))) (<= (goal r 100))
        (<= (pair ?a ?b) (bit ?a) (bit ?b) (true (s 1)))
        (<= (both ?a) (pair ?a ?b) (bit ?a) (bit ?b))
        (<= (seen ?x) (true (s ?x)) (bit ?x))";
    let mut r =
        Reasoner::from_program(Program::normalised(&parse(text).description).unwrap(), Limits::default()).unwrap();
    let steps = |r: &Reasoner, name: &str| {
        let rel = r.rels.get(name, 1).unwrap();
        let comp = r.comps.iter().find(|c| c.rels.contains(&rel)).unwrap();
        comp.rules.iter().map(|c| c.full.steps.len()).collect::<Vec<_>>()
    };
    assert_eq!(steps(&r, "both"), [1], "both's bit tests are implied by pair");
    assert_eq!(steps(&r, "seen"), [2], "seen's bit test stays");
    for (value, both, seen) in [("1", 2, 1), ("7", 0, 0)] {
        let store = r.store_mut();
        let (sym, value) = (store.symbol("s"), store.constant(value));
        let s = sorted_state(vec![store.intern(sym, &[value]).unwrap()]);
        r.evaluate_in(&s, None).unwrap();
        assert_eq!((r.fact_count("both", 1), r.fact_count("seen", 1)), (both, seen), "in (s {value})");
    }
}

/// A static relation over the probes' fact limit (216,000 triples): no candidate that
/// computes it in full can be loaded, and once one has failed, no other computing it by the
/// same rules is loaded to learn it. It ends up on demand, with the same answers as the
/// program as written.
#[test]
fn a_program_that_cannot_be_loaded_is_not_loaded_again() {
    let mut text = String::from(
        "(role r) (init (at 0))\n\
         (<= (triple ?x ?y ?z) (n ?x) (n ?y) (n ?z))\n\
         (<= (ahead ?x ?z) (succ ?y ?z) (succ ?x ?y) (true (at ?x)))\n\
         (<= (legal r (go ?y)) (true (at ?x)) (triple ?x ?y ?y) (succ ?x ?y))\n\
         (<= (legal r (jump ?z)) (true (at ?x)) (ahead ?x ?z) (triple ?x ?z ?z))\n\
         (<= (legal r stay) (true (at ?x)))\n\
         (<= (next (at ?y)) (does r (go ?y)))\n\
         (<= (next (at ?y)) (does r (jump ?y)))\n\
         (<= (next (at ?x)) (does r stay) (true (at ?x)))\n\
         (<= terminal (true (at 59))) (<= (goal r 100))\n",
    );
    for i in 0..60 {
        text.push_str(&format!("(n {i}) (succ {i} {})\n", i + 1));
    }
    let mut chosen = load(&text);
    // Top-down (cannot load), then not loaded: `ahead` on demand (both orders) and the
    // rules as written; loaded: `ahead` and `triple` on demand, and `triple` alone, each in
    // both orders. 8 loads when programs that cannot load are loaded to learn it.
    assert_eq!(chosen.programs_loaded(), 5);
    assert_eq!(chosen.on_demand(), ["triple/3"]);
    let mut plain =
        Reasoner::from_program(Program::normalised(&parse(&text).description).unwrap(), Limits::default()).unwrap();
    let texts = |r: &Reasoner, ms: &[TermId]| ms.iter().map(|&m| r.move_text(m)).collect::<Vec<_>>();
    let (mut s, mut t) = (chosen.initial_state(), plain.initial_state());
    for _ in 0..5 {
        let (a, b) = (chosen.legal_moves(&s, 0).unwrap(), plain.legal_moves(&t, 0).unwrap());
        assert_eq!(texts(&chosen, &a), texts(&plain, &b));
        s = chosen.next_state(&s, &[a[a.len() - 1]]).unwrap();
        t = plain.next_state(&t, &[b[b.len() - 1]]).unwrap();
        assert_eq!(chosen.state_text(&s), plain.state_text(&t));
    }
}

/// A game the rules as written play best: every cell of an 80 x 80 board, cleared one by one.
fn board_to_clear() -> String {
    let mut text = String::from(
        "(role r)\n\
         (<= (pair ?x ?y) (n ?x) (n ?y))\n\
         (<= (init (cell ?x ?y)) (pair ?x ?y))\n\
         (<= (full ?x ?y) (true (cell ?x ?y)))\n\
         (<= (legal r (clear ?x ?y)) (full ?x ?y) (pair ?y ?x))\n\
         (<= (next (cell ?x ?y)) (true (cell ?x ?y)) (not (does r (clear ?x ?y))))\n\
         (<= terminal (not (full 0 0))) (<= (goal r 100))\n",
    );
    for i in 0..80 {
        text.push_str(&format!("(n {i})\n"));
    }
    text
}

/// The rules as written win; the biggest relation on demand (`pair`) does not pay, and no
/// other is tried: the next is smaller, and each try is a load (7 loads when `full` on
/// demand, dearer already, was tried again in both orders).
#[test]
fn refinements_stop_at_the_first_that_does_not_pay() {
    let chosen = load(&board_to_clear());
    assert!(!chosen.is_tabled() && chosen.on_demand().is_empty(), "{:?}", chosen.on_demand());
    assert_eq!(chosen.programs_loaded(), 5);
}

/// With a clock, once the first program passed and the choice took 300 ms (here a clock
/// that moves a second each time it is read), the choice ends: the top-down candidate plays.
#[test]
fn with_a_clock_the_choice_ends_when_its_time_is_up() {
    fn jumping_clock() -> f64 {
        thread_local!(static NOW: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) });
        NOW.with(|n| {
            n.set(n.get() + 1_000.0);
            n.get()
        })
    }
    let limits = Limits { time: Some(TimeLimit { millis: 1e12, now: jumping_clock }), ..Limits::default() };
    let quick = Reasoner::new(&parse(&board_to_clear()).description, limits).unwrap();
    assert!(quick.is_tabled());
    assert_eq!(quick.programs_loaded(), 1);
}

/// A limit reached by what is asked of a relation on demand (its demand relation
/// `magic~r~bf`) puts the relation's callers on demand, as a limit of the relation itself
/// does; not the demand relation, which no rule of the game defines (gt_two_thirds_6p
/// disguised: two loads of the same program again).
#[test]
fn too_much_asked_of_a_relation_on_demand_puts_its_callers_on_demand() {
    let text = "(role a) (q 1) (q 2) (<= (p ?x ?y) (q ?x) (r ?x ?y)) (<= (r ?x ?y) (q ?x) (q ?y))";
    let rules = crate::program::normalise(&parse(text).description).unwrap();
    let r = ("r".to_string(), 2);
    let on_demand = [r.clone()];
    assert_eq!(adapt::on_demand_after(&rules, &[], &r), vec![r.clone()]);
    assert_eq!(adapt::on_demand_after(&rules, &on_demand, &r), vec![("p".to_string(), 2)]);
    let asked = ("magic~r~bf".to_string(), 1);
    assert_eq!(adapt::on_demand_after(&rules, &on_demand, &asked), vec![("p".to_string(), 2)]);
}

/// Where the order written passes no binding to a relation on demand (`reach` before the
/// condition that binds its start, so that it is computed in full), bindings first differs
/// and is probed first, so that its cost caps the probe of the order written.
#[test]
fn bindings_first_is_probed_before_the_order_written() {
    let text = "(role a) (init (cell 1)) (edge 1 2) (edge 2 3)\n\
        (<= (reach ?x ?y) (edge ?x ?y)) (<= (reach ?x ?z) (edge ?x ?y) (reach ?y ?z))\n\
        (<= (legal a (go ?y)) (reach ?x ?y) (true (cell ?x))) (<= (next (cell ?y)) (does a (go ?y)))\n\
        (<= terminal (true (cell 3))) (<= (goal a 100) terminal)";
    let rules = crate::program::normalise(&parse(text).description).unwrap();
    let programs = adapt::on_demand_programs(&rules, &[("reach".to_string(), 2)]);
    let written: Vec<bool> = programs.iter().map(|(_, as_written)| *as_written).collect();
    assert_eq!(written, [false, true]);
    // Bindings first asks `reach` from its start; as written, `reach` is computed in full.
    let computes = |p: &[crate::program::NRule], name: &str| p.iter().any(|r| r.head.name() == Some(name));
    assert!(computes(&programs[0].0, "reach~bf") && !computes(&programs[0].0, "reach"));
    assert!(computes(&programs[1].0, "reach"));
}

#[test]
fn a_program_loads_with_the_graph_a_pass_computed() {
    // The reasoner takes the program's graph instead of computing it again: a relation only
    // the graph knows of is one the reasoner knows.
    let rules = normalise(&parse("(role p) (init a) (<= (legal p go) (true a)) (<= (next a) (true a))").description);
    let rules = rules.unwrap();
    let mut graph = crate::program::graph_of(&rules);
    graph.id(("only_in_the_graph".to_string(), 1));
    let r = Reasoner::from_program(Program::with_graph(rules.clone(), graph), Limits::default()).unwrap();
    assert!(r.rels.get("only_in_the_graph", 1).is_some());
    // A rule for `true` defines nothing (the state is given): the graph is computed without it.
    let mut given = rules;
    given.extend(normalise(&parse("(<= (true b) (true a))").description).unwrap());
    let mut graph = crate::program::graph_of(&given);
    graph.id(("only_in_the_graph".to_string(), 1));
    let r = Reasoner::from_program(Program::with_graph(given, graph), Limits::default()).unwrap();
    assert!(r.rels.get("only_in_the_graph", 1).is_none());
}

/// Removing facts keeps every index's chains exact: after each removal (the last fact
/// moving into the hole), each key's chain holds the facts a fresh store holds under it.
#[test]
fn a_store_removes_facts_and_keeps_its_chains() {
    use super::store::{RelStore, SigNode};
    let mut terms = TermStore::default();
    let (cell, open) = (terms.symbol("cell"), terms.symbol("open"));
    let n: Vec<TermId> = (0..5).map(|i| terms.constant(&i.to_string())).collect();
    let mut facts = Vec::new();
    for &x in &n {
        for &y in &n {
            facts.push(terms.intern(cell, &[x, y]).unwrap());
        }
        facts.push(terms.intern(open, &[x]).unwrap());
    }
    let guard = |sym| SigNode::Guard { path: Box::new([0]), sym, arity: 2 };
    let sigs = [
        vec![guard(cell), SigNode::Key { path: Box::new([0, 0]) }],
        vec![guard(cell), SigNode::Key { path: Box::new([0, 1]) }],
        vec![SigNode::Key { path: Box::new([0]) }],
    ];
    let with = |present: &[TermId], terms: &TermStore| {
        let mut s = RelStore::new(1);
        for sig in &sigs {
            s.add_index(sig.clone(), terms);
        }
        for &f in present {
            s.insert(&[f], terms);
        }
        s
    };
    let chain = |s: &RelStore, ix: u16, key: u64| {
        let mut got = Vec::new();
        let mut f = s.chain_start(ix, key);
        while f != super::store::NONE {
            got.push(s.tuple(f)[0]);
            f = s.chain_next(ix, f);
        }
        got.sort();
        got
    };
    let mut store = with(&facts, &terms);
    let mut present = facts.clone();
    let mut rng = crate::rng::Rng::new(7);
    while !present.is_empty() {
        let gone = present.swap_remove(rng.below(present.len()));
        assert!(store.remove(&[gone], &terms));
        assert!(!store.remove(&[gone], &terms), "removed twice");
        let fresh = with(&present, &terms);
        assert_eq!(store.len(), fresh.len());
        for &f in &facts {
            for (ix, key) in fresh.keys(&[f], &terms) {
                assert_eq!(chain(&store, ix, key), chain(&fresh, ix, key));
            }
        }
    }
    assert!(store.insert(&[facts[0]], &terms), "a removed fact can come back");
}

/// The explainer's model holds a state's `true` facts in the state's order, and only them,
/// whatever states were changed into before (here: an empty state after a changed one).
#[test]
fn the_model_of_a_state_holds_its_facts_after_changed_states() {
    let cells: String = (0..8).map(|i| format!("(init (on {i})) ")).collect();
    let text = format!(
        "{cells}(role a) (<= (legal a (off ?x)) (true (on ?x)))\n\
         (<= (next (on ?x)) (true (on ?x)) (not (does a (off ?x))))\n\
         (<= terminal (not (true (on 0)))) (goal a 100)"
    );
    let rules = specialise(Program::normalised(&parse(&text).description).unwrap()).into_rules();
    let mut r = Reasoner::from_program(Program::new(rules), Limits::default()).unwrap();
    let s = r.initial_state();
    let off = r.legal_moves(&s, 0).unwrap()[3];
    let t = r.next_state(&s, &[off]).unwrap();
    r.legal_moves(&t, 0).unwrap(); // one fact changed: stored by difference
    let trues = |r: &Reasoner| r.facts("true", 1).iter().map(|f| r.store().text(f[0]).to_string()).collect::<Vec<_>>();
    r.evaluate_in(&State::from(vec![]), None).unwrap();
    assert!(trues(&r).is_empty(), "{:?}", trues(&r));
    r.legal_moves(&s, 0).unwrap();
    r.legal_moves(&t, 0).unwrap();
    r.evaluate_in(&t, None).unwrap();
    let expected: Vec<String> = t.iter().map(|&f| r.store().text(f).to_string()).collect();
    assert_eq!(trues(&r), expected, "in the state's order");
}
