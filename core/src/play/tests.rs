//! Tests of the game's API (moved from the wasm crate, which now only converts it).

use super::*;
use crate::analyze::{Options, Outcome};
use crate::engine::Choice;
use crate::machine::playout::{playout_rng, step_playout};
use crate::machine::{GoalValue, StateMachine};
use crate::parse::parse;
use crate::players::arena::{tally, Game as MatchGame};
use crate::reasoner::Limits;
use crate::rng::Rng;
use text::{format, rule_graph};

const TICTACTOE: &str = include_str!("../../../games/tictactoe.kif");

fn strings(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

fn loaded() -> Session {
    let mut s = Session::default();
    assert!(s.load(TICTACTOE).ok);
    s
}

fn play(s: &mut Session, joint: &[&str]) -> Result<(), String> {
    s.game()?.play(&strings(joint))
}

fn clock() -> f64 {
    0.0
}

#[test]
fn load_reports_errors_with_lines_and_drops_the_game() {
    let mut s = loaded();
    let text = "(role x)\n(role o)\n(<= (legal ?p (mark ?x)) (true (cell ?x))";
    let r = s.load(text);
    assert!(!r.ok);
    assert_eq!(r.syntax, "prefix");
    assert!(r.errors >= 1);
    assert_eq!(r.diagnostics[0].line, 3);
    assert!(s.view().unwrap_err().contains("no game is loaded"));
}

/// `auto` keeps the reasoner for a walk whose moves read a static relation of 80³
/// facts (past the facts it allows a grounding); `upgrade` grounds it in full and moves
/// to the network, once. A game `auto` plays on the network is on it already.
#[test]
fn upgrade_moves_a_game_past_autos_bounds_to_the_network_once() {
    let n: String = (0..80).map(|i| format!("(n {i}) ")).collect();
    let succ: String = (0..79).map(|i| format!("(succ {i} {}) ", i + 1)).collect();
    let trio = format!(
        "(role p) {n} {succ} (init (at 0))
         (<= (trio ?a ?b ?c) (n ?a) (n ?b) (n ?c))
         (<= (legal p (go ?b)) (true (at ?a)) (succ ?a ?b) (trio ?a ?b ?b))
         (<= (next (at ?b)) (does p (go ?b)))
         (<= terminal (true (at 20))) (<= (goal p 100) (true (at 20)))"
    );
    let mut s = Session::default();
    assert!(s.load(&trio).ok);
    assert!(s.set_engine("auto", &clock).unwrap().starts_with("reasoner ("));
    let start = std::time::Instant::now();
    let now = || start.elapsed().as_secs_f64() * 1000.0;
    let up = s.upgrade(&now).unwrap();
    assert!(up.moved && up.note.starts_with("propnet ("), "{up:?}");
    let v = s.view().unwrap();
    assert_eq!((v.engine, v.step, v.engine_note), ("propnet", 0, up.note.clone()));
    assert_eq!(s.playouts(10, 100).unwrap().goals(), vec![vec![("100".to_string(), 10)]]);
    let again = s.upgrade(&now).unwrap();
    assert!(again.moved && again.note == up.note, "on the network, nothing ground again: {again:?}");

    let mut s = loaded();
    let note = s.set_engine("auto", &clock).unwrap();
    assert!(note.starts_with("propnet ("));
    let up = s.upgrade(&now).unwrap();
    assert!(up.moved && up.note == note, "{up:?}");
    // A game on the reasoner that `auto` did not leave there for its bounds stays on it.
    assert!(s.set_engine("reasoner", &clock).unwrap().starts_with("reasoner"));
    let up = s.upgrade(&now).unwrap();
    assert!(!up.moved && up.note.is_empty(), "{up:?}");
}

#[test]
fn play_undo_redo_and_a_win() {
    let mut s = loaded();
    let v = s.view().unwrap().position;
    assert_eq!(v.roles, strings(&["x", "o"]));
    assert_eq!(v.legal[0].len(), 9);
    assert_eq!(v.legal[1], strings(&["noop"]));
    let game = [
        ["(mark 1 1)", "noop"],
        ["noop", "(mark 1 2)"],
        ["(mark 2 2)", "noop"],
        ["noop", "(mark 1 3)"],
        ["(mark 3 3)", "noop"],
    ];
    for j in &game {
        play(&mut s, j).unwrap();
    }
    let v = s.view().unwrap().position;
    assert!(v.terminal);
    assert_eq!(v.goals, Some(vec![vec![GoalValue::Int(100)], vec![GoalValue::Int(0)]]));
    assert!(play(&mut s, &["noop", "noop"]).unwrap_err().contains("game is over"));

    let g = s.game().unwrap();
    g.undo().unwrap();
    let v = s.view().unwrap();
    assert!(!v.position.terminal && v.step == 4 && v.history.len() == 5);
    s.game().unwrap().redo().unwrap();
    assert!(s.view().unwrap().position.terminal);
    s.game().unwrap().go_to(1).unwrap();
    // Another move drops the redo history.
    play(&mut s, &["noop", "(mark 3 1)"]).unwrap();
    let v = s.view().unwrap();
    assert_eq!((v.step, v.history.len()), (2, 2));
    let g = s.game().unwrap();
    assert!(g.redo().is_err());
    g.go_to(0).unwrap();
    assert!(g.undo().unwrap_err().contains("nothing to undo"));
}

#[test]
fn illegal_moves_are_refused_and_replay_stops_at_them() {
    let mut s = loaded();
    assert!(play(&mut s, &["(mark 1 1)"]).unwrap_err().contains("one move per role"));
    assert!(play(&mut s, &["noop", "noop"]).unwrap_err().contains("noop is not a legal move for x"));
    let moves = vec![strings(&["(mark 1 1)", "noop"]), strings(&["noop", "(mark 1 1)"])];
    assert_eq!(s.replay(&moves).unwrap(), 1);
    assert_eq!(s.view().unwrap().step, 1);
}

#[test]
fn playouts_count_lengths_and_goals_like_gdl_playout() {
    let mut s = loaded();
    s.seed(7);
    let b = s.playouts(50, 1000).unwrap();
    assert_eq!((b.playouts, b.cut), (50, 0));
    assert!(b.min_length >= 5 && b.max_length <= 9 && b.min_length <= b.max_length);
    for hist in &b.goals() {
        assert_eq!(hist.iter().map(|(_, n)| n).sum::<u64>(), 50);
        assert!(hist.iter().all(|(l, _)| ["0", "50", "100"].contains(&l.as_str())));
    }
    // Same seed, same playouts as `gdl playout --seed`: each with the generator
    // `playout_rng` makes for it.
    let mut m = crate::load(TICTACTOE, Limits::default()).unwrap().reasoner;
    let mut rng = Rng::new(7);
    let total: u64 =
        (0..50).map(|_| step_playout(&mut m, &mut playout_rng(&mut rng), 1000).unwrap().length as u64).sum();
    assert_eq!(b.total_length, total);
    let cut = s.playouts(3, 2).unwrap();
    assert_eq!((cut.cut, cut.max_length), (3, 2));
    assert!(cut.goals().iter().all(Vec::is_empty));
}

#[test]
fn playouts_count_those_stopped_where_a_role_has_no_legal_move() {
    let mut s = Session::default();
    let trap = "(role r) (init (n 0)) (succ 0 1) (succ 1 2) (succ 2 3)
        (<= (legal r up) (true (n ?x))) (<= (legal r trap) (true (n ?x)))
        (<= (next (n ?y)) (does r up) (true (n ?x)) (succ ?x ?y)) (<= (next caught) (does r trap))
        (<= terminal (true (n 3))) (<= (goal r 100) (true (n 3)))";
    assert!(s.load(trap).ok);
    let b = s.playouts(100, 1000).unwrap();
    assert!(b.stuck > 30 && b.stuck < 100 && b.cut == 0, "{b:?}");
    assert_eq!(b.stuck_role.as_deref(), Some("r"));
    assert_eq!(b.goals()[0].iter().map(|(_, n)| n).sum::<u64>(), 100 - b.stuck);
    let note = b.stuck_note().unwrap();
    assert!(note.starts_with(&format!("{} playouts stopped where role r had no legal move", b.stuck)), "{note}");
}

/// Two batches merged count as one batch of all their playouts; the first stuck role and
/// the shortest and longest playouts are kept, an empty batch changes nothing.
#[test]
fn merged_stats_count_as_one_batch() {
    let mut s = loaded();
    s.seed(3);
    let mut first = s.playouts(40, 1000).unwrap();
    let second = s.playouts(25, 6).unwrap();
    let all = {
        let mut all = first.clone();
        all.merge(&second).unwrap();
        all
    };
    assert_eq!((all.playouts, all.cut), (65, first.cut + second.cut));
    assert_eq!(all.total_length, first.total_length + second.total_length);
    assert_eq!(all.min_length, first.min_length.min(second.min_length));
    assert_eq!(all.max_length, first.max_length.max(second.max_length));
    for (r, hist) in all.goals().iter().enumerate() {
        let ends = |b: &Stats| b.goals()[r].iter().map(|(_, n)| n).sum::<u64>();
        assert_eq!(hist.iter().map(|(_, n)| n).sum::<u64>(), ends(&first) + ends(&second));
    }
    let before = first.clone();
    first.merge(&Stats::new(&first.roles.clone())).unwrap();
    assert_eq!(first, before);
    for mut empty in [Stats::new(&before.roles), Stats::default()] {
        empty.merge(&before).unwrap();
        assert_eq!(empty, before);
    }
    assert!(first.merge(&Stats::new(&strings(&["red"]))).unwrap_err().contains("cannot merge"));
    // Serialised and read back (as the page hands them over), they are the same.
    let text = serde_json::to_string(&all.summary()).unwrap();
    assert!(text.contains(r#""goals":[[{"label":"#) && text.contains(r#""stuckNote":null"#), "{text}");
    assert_eq!(serde_json::from_str::<Stats>(&text).unwrap(), all);
}

/// The page's figures come from the summary: the average length, and per role each goal
/// value's share of the playouts that ended, highest value first.
#[test]
fn summary_gives_average_length_and_goal_shares() {
    let mut s = loaded();
    s.seed(5);
    let mut stats = s.playouts(30, 1000).unwrap();
    stats.merge(&s.playouts(20, 4).unwrap()).unwrap();
    let summary = stats.summary();
    assert_eq!(summary.average_length, stats.total_length as f64 / 50.0);
    let ended = 50 - stats.cut - stats.stuck;
    assert!(stats.cut > 0 && ended > 0, "{stats:?}");
    for (bars, hist) in summary.goals.iter().zip(stats.goals()) {
        let counts: Vec<(String, u64)> = bars.iter().rev().map(|b| (b.label.clone(), b.playouts)).collect();
        assert_eq!(counts, hist);
        for b in bars {
            assert_eq!(b.share, b.playouts as f64 / ended as f64);
        }
        assert!((bars.iter().map(|b| b.share).sum::<f64>() - 1.0).abs() < 1e-9);
    }
    assert_eq!(Stats::new(&stats.roles).summary().average_length, 0.0);
}

#[test]
fn format_round_trips_and_refuses_syntax_errors() {
    let infix = format(TICTACTOE, "infix").unwrap();
    assert!(infix.contains("legal(P, mark(C, R)) :-"), "{infix}");
    let back = format(&infix, "prefix").unwrap();
    assert_eq!(parse(&back).description, parse(TICTACTOE).description);
    // The blank lines that group the rules stay, through infix and back.
    assert!(infix.contains("role(o)\n\nopponent(x, o)"), "{infix}");
    assert_eq!(format(&back, "prefix").unwrap(), back);
    assert_eq!(format(&infix, "infix").unwrap(), infix);
    let grouped = "(role x)\n(role o)\n\n\n\n(index 1)\n; a comment\n\n(<= (p ?x)\n\n    (index ?x))\n";
    assert_eq!(
        format(grouped, "prefix").unwrap(),
        "(role x)\n(role o)\n\n(index 1)\n; a comment\n\n(<= (p ?x)\n    (index ?x))\n"
    );
    let e = format("(role x)\n(role", "infix").unwrap_err();
    assert!(e.starts_with("cannot convert to infix: syntax error at line 2, column 1"), "{e}");
    assert!(format("x", "lisp").is_err());
}

#[test]
fn rule_graph_has_signed_edges_and_kinds() {
    let g = rule_graph(TICTACTOE).unwrap();
    let kind = |id: &str| g.nodes.iter().find(|n| n.id == id).map(|n| n.kind);
    assert_eq!(kind("legal/2"), Some("state"));
    assert_eq!(kind("next/1"), Some("move"));
    assert_eq!(kind("index/1"), Some("static"));
    assert!(g.edges.iter().any(|e| e.from == "goal/2" && e.to == "line/1" && e.negative));
    assert!(rule_graph("(<= p").is_err());
}

#[test]
fn domain_lists_base_facts() {
    let mut s = loaded();
    let d = s.domain().unwrap().fluents;
    assert_eq!(d.len(), 27 + 2);
    assert!(d.contains(&"(cell 3 2 o)".to_string()) && d.contains(&"(control o)".to_string()));
    // Playing is unaffected.
    assert_eq!(s.view().unwrap().position.state.len(), 10);
    s.load("(role p) (init (s 1)) (<= (legal p a) (true (s 1))) (<= (next (s 1)) (does p a)) (<= terminal (true (s 2))) (goal p 100)");
    assert_eq!(s.domain().unwrap().fluents, Vec::<String>::new());
}

/// The corpus's chess with its files renamed so that their alphabetical order is not the
/// game's (a b c … → zulu kilo bravo …) and its lines in another order: the domain gives
/// the files in the game's own order (`next_file`).
#[test]
fn domain_orders_renamed_files_by_the_games_own_relation() {
    let path = crate::shared::corpus_games()
        .into_iter()
        .find(|p| p.ends_with("ggp-base/chess.kif"))
        .expect("ggp-base/chess.kif in the corpus");
    let text = std::fs::read_to_string(path).unwrap();
    let names = ["zulu", "kilo", "bravo", "yankee", "alpha", "mike", "echo", "delta"];
    let renamed = text.replace("(next_file", "(qfx");
    let mut lines: Vec<String> = renamed.lines().map(|l| rename_files(l, &names)).collect();
    // Reverse the facts and rules (each top-level line of this file is one or part of one:
    // reverse only the one-line facts, which keeps multi-line rules whole).
    let facts: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with('(') && lines[i].ends_with(')') && !lines[i].starts_with("(<="))
        .collect();
    let reversed: Vec<String> = facts.iter().rev().map(|&i| lines[i].clone()).collect();
    for (&i, l) in facts.iter().zip(reversed) {
        lines[i] = l;
    }
    let mut s = Session::default();
    assert!(s.load(&lines.join("\n")).ok);
    let chains = s.domain().unwrap().chains;
    let files = chains.iter().find(|c| c.relation == "qfx").expect("the renamed next_file is a chain");
    assert_eq!(files.values, names);
    let ranks = chains.iter().find(|c| c.relation == "next_rank").expect("next_rank is a chain");
    assert_eq!(ranks.values, ["1", "2", "3", "4", "5", "6", "7", "8"]);
}

/// `line` with the symbols a … h replaced by `names` (whole symbols only: `wb` stays).
fn rename_files(line: &str, names: &[&str]) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let renamed = match word.as_str() {
            w if w.len() == 1 && ("a"..="h").contains(&w) => names[(w.as_bytes()[0] - b'a') as usize],
            w => w,
        };
        out.push_str(renamed);
        word.clear();
    };
    for ch in line.chars() {
        if ch.is_whitespace() || ch == '(' || ch == ')' {
            flush(&mut word, &mut out);
            out.push(ch);
        } else {
            word.push(ch);
        }
    }
    flush(&mut word, &mut out);
    out
}

#[test]
fn another_engine_plays_the_same_game() {
    let mut s = loaded();
    s.set_engine("ground", &clock).unwrap();
    let v = s.view().unwrap();
    assert_eq!((v.engine, v.position.legal[0].len()), ("ground", 9));
    s.seed(7);
    let ground = s.playouts(30, 1000).unwrap();
    let note = s.set_engine("auto", &clock).unwrap();
    assert!(note.starts_with("propnet ("), "{note}");
    assert_eq!(s.view().unwrap().engine_note, note);
    s.seed(7);
    let propnet = s.playouts(30, 1000).unwrap();
    s.set_engine("reasoner", &clock).unwrap();
    s.seed(7);
    let first_order = s.playouts(30, 1000).unwrap();
    assert_eq!((ground.total_length, &ground.goals()), (first_order.total_length, &first_order.goals()));
    assert_eq!((propnet.total_length, propnet.goals()), (first_order.total_length, first_order.goals()));
    assert!(s.set_engine("propositional", &clock).unwrap_err().contains("unknown engine"));
}

#[test]
fn goal_labels() {
    assert_eq!(goal_label(&[]), "none");
    assert_eq!(goal_label(&[GoalValue::Int(50), GoalValue::Text("x".into())]), "50/x");
}

#[test]
fn engines_are_built_by_name() {
    let desc = parse(TICTACTOE).description;
    let limits = Limits::default();
    let name = |n| build_named(n, &desc, limits, &clock).unwrap().engine.engine_name();
    assert_eq!(
        [name("auto"), name("propnet"), name("reasoner"), name("ground")],
        ["propnet", "propnet", "reasoner", "ground"]
    );
    assert!(build_named("auto", &desc, limits, &clock).unwrap().note.starts_with("propnet ("));
    assert!(build_named("magic", &desc, limits, &clock).err().unwrap().contains("unknown engine"));
    let names: Vec<&str> = ENGINES.iter().map(|e| e.name).collect();
    assert_eq!(names, ["auto", "propnet", "reasoner", "ground"]);
    for e in &ENGINES {
        assert_eq!((Choice::named(e.name), e.choice.name()), (Ok(e.choice), e.name));
    }
}

#[test]
fn a_computer_answers_in_the_current_position() {
    let mut s = loaded();
    s.set_engine("auto", &clock).unwrap();
    for j in [["(mark 1 1)", "noop"], ["noop", "(mark 1 2)"], ["(mark 2 2)", "noop"], ["noop", "(mark 1 3)"]] {
        play(&mut s, &j).unwrap();
    }
    let t = s.think("uct:1000", 0, 1, 0.0, &clock, None).unwrap();
    assert_eq!((t.chosen.as_str(), t.playouts), ("(mark 3 3)", 1000));
    assert_eq!(s.think("random", 1, 1, 0.0, &clock, None).unwrap().chosen, "noop");
    assert!(s.think("alpha", 0, 1, 0.0, &clock, None).unwrap_err().contains("unknown player"));
    assert!(s.think("random", 5, 1, 0.0, &clock, None).unwrap_err().contains("no role number 5"));
}

/// A search tells how it goes every `REPORT_MILLIS` of its clock: playouts so far (growing)
/// and its best move so far, by its text; the last report agrees with the move chosen when
/// the search had settled. The same seed chooses the same move whether reported or not.
#[test]
fn a_thinking_computer_reports_its_playouts_and_best_move_so_far() {
    for player in ["uct:2000", "mc:2000"] {
        let mut s = loaded();
        s.set_engine("auto", &clock).unwrap();
        play(&mut s, &["(mark 1 1)", "noop"]).unwrap();
        play(&mut s, &["noop", "(mark 2 2)"]).unwrap();
        // A clock that moves 10 ms at each reading: a report about every 10 readings.
        let t = std::cell::Cell::new(0.0);
        let ticking = || {
            t.set(t.get() + 10.0);
            t.get()
        };
        let reports = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let sink = reports.clone();
        let report = Box::new(move |r: &Thought| sink.borrow_mut().push((r.chosen.clone(), r.playouts)));
        let chosen = s.think(player, 0, 7, 0.0, &ticking, Some(report)).unwrap();
        let reports = reports.borrow();
        assert!(reports.len() >= 10, "{player}: {} reports", reports.len());
        assert!(reports.windows(2).all(|w| w[0].1 < w[1].1), "{player}: {reports:?}");
        assert!(reports.iter().all(|(m, _)| m.starts_with("(mark ")), "{player}: {reports:?}");
        assert_eq!(s.think(player, 0, 7, 0.0, &clock, None).unwrap().chosen, chosen.chosen, "{player}");
    }
}

#[test]
fn match_games_are_tallied() {
    let mut s = loaded();
    let games: Vec<MatchGame> = (0..4).map(|g| s.match_game("perfect,random", 9, g, 100, &clock).unwrap()).collect();
    assert_eq!(games[1].seats, [Some(1), Some(0)]);
    let t = tally(&crate::players::catalogue::ours("perfect,random").unwrap(), &games);
    assert_eq!((t[0].games, t[0].losses), (4, 0));
    // The position played is untouched.
    assert_eq!(s.view().unwrap().step, 0);
    assert!(crate::players::catalogue::ours("uct:10,alpha").unwrap_err().contains("unknown player 'alpha'"));
}

fn after(moves: &[[&str; 2]]) -> Session {
    let mut s = loaded();
    for j in moves {
        play(&mut s, j).unwrap();
    }
    s
}

#[test]
fn explain_follows_the_current_position() {
    let mut s = after(&[["(mark 1 1)", "noop"]]);
    let e = s.explain("(legal o (mark 1 1))", None).unwrap();
    assert!(!e.holds && e.derivations[0].failed == Some(1));
    // After an undo the cell is empty again.
    s.game().unwrap().undo().unwrap();
    assert!(s.explain("(legal x (mark 1 1))", None).unwrap().holds);
    assert!(s.explain("(next (cell 1 1 x))", None).unwrap_err().contains("no move has been played"));
    assert!(s.explain("(legal x", None).unwrap_err().contains("cannot read the query"));
}

#[test]
fn solve_and_analyze_use_the_playing_engine() {
    let mut s = after(&[["(mark 2 2)", "noop"], ["noop", "(mark 1 2)"]]);
    let sol = s.solve(crate::solve::Limit::nodes(1_000_000)).unwrap();
    assert!(sol.roles[0].summary.starts_with("x wins with (mark 1 1)"), "{}", sol.roles[0].summary);
    let r = s.analyze(Options::default()).unwrap();
    assert_eq!((r.method, r.states, r.well_formed), ("exhaustive", 5478, Outcome::Holds));
    // The position played is untouched.
    assert_eq!(s.view().unwrap().step, 2);
}

/// GDL-II: explain answers whether a role perceived something with the last move (what the
/// lesson on `sees` checks), from the engine.
#[test]
fn explain_answers_percepts_of_the_last_move() {
    let mut s = Session::new(Default::default());
    assert!(s.load(include_str!("../../../games/montyhall.kif")).ok);
    s.replay(&[vec!["(choose 1)".into(), "(hide 2)".into()], vec!["noop".into(), "(open 3)".into()]]).unwrap();
    let e = s.explain("(sees candidate (opened 3))", None).unwrap();
    assert!(e.in_move && e.holds && e.step == 1, "{e:?}");
    assert!(!s.explain("(sees candidate (opened 2))", None).unwrap().holds);
    assert!(!s.explain("(sees candidate (opened 3))", Some(0)).unwrap().holds);
}

/// Monty Hall: after choosing door 1 and seeing door 3 opened, the candidate knows its moves
/// and percepts and that the car is behind door 1 or 2, half of its possible states each;
/// nature (`random`) knows the state. The view says which role is nature.
#[test]
fn knows_gives_a_roles_moves_percepts_and_beliefs() {
    let mut s = Session::default();
    assert!(s.load(&crate::shared::gdl2_game("montyhall")).ok);
    play(&mut s, &["(choose 1)", "(hide_car 2)"]).unwrap();
    play(&mut s, &["noop", "(open_door 3)"]).unwrap();
    let v = s.view().unwrap();
    assert_eq!((v.nature, v.percepts), (vec![false, true], true));
    let k = s.knows("candidate", 100, 1).unwrap();
    assert_eq!((k.count, k.sampled, k.states.len()), (2.0, false, 2));
    assert_eq!(
        k.steps[0],
        KnownStep { played: "(choose 1)".into(), percepts: strings(&["(does candidate (choose 1))"]) }
    );
    assert_eq!(k.steps[1].percepts, ["(does candidate noop)", "(open_door 3)"]);
    let share = |f: &str| k.beliefs.iter().find(|b| b.fluent == f).map(|b| b.share);
    assert_eq!((share("(car 1)"), share("(car 2)"), share("(car 3)")), (Some(0.5), Some(0.5), None));
    assert_eq!((share("(chosen 1)"), share("(closed 3)")), (Some(1.0), None));
    let nature = s.knows("random", 100, 1).unwrap();
    assert_eq!((nature.count, nature.states), (1.0, vec![v.position.state.clone()]));
    assert!(s
        .knows("host", 100, 1)
        .unwrap_err()
        .contains("host is not a role of this game (roles: candidate, random)"));
    // Tic-tac-toe has no `sees`: every role sees every move, and knows the state.
    let mut t = loaded();
    play(&mut t, &["(mark 1 1)", "noop"]).unwrap();
    assert!(!t.view().unwrap().percepts);
    let k = t.knows("o", 100, 1).unwrap();
    assert_eq!((k.count, k.steps[0].percepts.clone()), (1.0, strings(&["(mark 1 1)", "noop"])));
    assert!(k.beliefs.iter().all(|b| b.share == 1.0));
}

/// Kriegspiel tic-tac-toe 5×5, eleven steps in: too many possible states to list, so the count
/// is an estimate, at least the states seen and at most 2^base, and says so in words.
#[test]
fn an_estimated_count_stays_within_its_bounds() {
    let mut s = Session::default();
    assert!(s.load(&crate::shared::gdl2_game("kriegTTT_5x5")).ok);
    for joint in [
        ["(mark 4 4)", "(mark 3 5)"],
        ["(mark 4 1)", "(mark 5 1)"],
        ["(mark 5 1)", "(mark 4 1)"],
        ["(mark 5 5)", "(mark 5 3)"],
        ["(mark 2 4)", "(mark 4 2)"],
        ["(mark 1 3)", "(mark 2 1)"],
        ["(mark 4 5)", "(mark 2 2)"],
        ["(mark 1 2)", "(mark 4 1)"],
        ["(mark 5 3)", "(mark 1 1)"],
        ["(mark 4 3)", "(mark 1 4)"],
        ["(mark 4 2)", "(mark 5 4)"],
    ] {
        play(&mut s, &joint).unwrap();
    }
    let k = s.knows("xplayer", 1000, 1).unwrap();
    let base = k.base.expect("the game grounds");
    assert!(k.sampled && k.states.len() == 1000, "{}", k.count_text);
    assert!(k.seen as f64 <= k.count && k.count <= 2f64.powi(base as i32), "{} of 2^{base}", k.count);
    assert!(
        k.count_text.starts_with("at least ") && k.count_text.contains(" distinct states seen; about "),
        "{}",
        k.count_text
    );
    assert!(k.count_text.ends_with(&format!("at most 2^{base} by the game's {base} base facts")), "{}", k.count_text);
}

/// Moves drawn in play (nature's, Random move) come from the session's seeded generator: the
/// same seed draws the same legal moves; a role without a choice or out of range says why.
#[test]
fn random_moves_are_legal_and_seeded() {
    let draws = |seed| {
        let mut s = Session::default();
        assert!(s.load(&crate::shared::gdl2_game("montyhall")).ok);
        s.seed_draws(seed);
        (0..8).map(|_| s.random_move(1).unwrap()).collect::<Vec<_>>()
    };
    let a = draws(5);
    assert_eq!(a, draws(5));
    assert!(a.iter().all(|m| ["(hide_car 1)", "(hide_car 2)", "(hide_car 3)"].contains(&m.as_str())), "{a:?}");
    assert!(a.iter().collect::<std::collections::BTreeSet<_>>().len() > 1, "{a:?}");
    let mut s = Session::default();
    assert!(s.load(&crate::shared::gdl2_game("montyhall")).ok);
    assert_eq!(s.random_move(2).unwrap_err(), "there is no role number 2 (the game has 2)");
}

/// The view of a finished Monty Hall game carries core's verdict: the candidate's result,
/// nature left out.
#[test]
fn a_finished_views_verdict_leaves_nature_out() {
    let mut s = Session::default();
    assert!(s.load(&crate::shared::gdl2_game("montyhall")).ok);
    assert!(s.view().unwrap().verdict.is_none());
    for joint in [["(choose 1)", "(hide_car 2)"], ["noop", "(open_door 3)"], ["switch", "noop"]] {
        play(&mut s, &joint).unwrap();
    }
    let v = s.view().unwrap();
    assert!(v.position.terminal);
    let verdict = v.verdict.unwrap();
    assert_eq!((verdict.text.as_str(), verdict.winners.as_slice()), ("candidate scores 100: a win", &[0][..]));
}
