//! The JavaScript API of the wasm crate, run under node by `wasm-bindgen-test`
//! (`scripts/test`: `cargo test -p gdl-wasm --target wasm32-unknown-unknown` with
//! `wasm-bindgen-test-runner`). Values are read back as JS objects, as the page reads them.
#![cfg(target_arch = "wasm32")]

use gdl_wasm::groundview::JsGroundGame;
use gdl_wasm::{
    capabilities, detect_syntax, factors, format_text, match_tally, match_verdict, merge_playouts, player_catalogue,
    player_label, rule_graph, Session,
};
use js_sys::{Array, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

const TICTACTOE: &str = include_str!("../../games/tictactoe.kif");
const RPS: &str = include_str!("../../games/rps.kif");

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &key.into()).unwrap_or_else(|_| panic!("no field {key}"))
}

fn num(v: &JsValue, key: &str) -> f64 {
    get(v, key).as_f64().unwrap_or_else(|| panic!("{key} is not a number"))
}

fn strings(v: &JsValue) -> Vec<String> {
    v.dyn_ref::<Array>().expect("an array").iter().map(|x| x.as_string().expect("a string")).collect()
}

fn joint(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

/// The message of a JS `Error` thrown by the API.
fn message(e: wasm_bindgen::JsError) -> String {
    let v: JsValue = e.into();
    assert!(v.is_instance_of::<js_sys::Error>(), "errors are JS Errors");
    v.unchecked_into::<js_sys::Error>().message().into()
}

/// Factors are plain data: each factor's moves (role and move) and fluents, how terminal
/// combines them; and an error in words for rules with errors.
#[wasm_bindgen_test]
fn factors_are_plain_data() {
    let f = factors(include_str!("../../games/doubletictactoe.kif")).unwrap();
    let all = get(&f, "factors").dyn_into::<Array>().unwrap();
    assert_eq!(all.length(), 2);
    let first_move = get(&all.get(0), "moves").dyn_into::<Array>().unwrap().get(0);
    assert_eq!(get(&first_move, "role").as_string().unwrap(), "x");
    assert_eq!(get(&first_move, "move").as_string().unwrap(), "(mark 1 1 1)");
    assert_eq!(get(&all.get(1), "fluents").dyn_into::<Array>().unwrap().length(), 27);
    assert_eq!(get(&get(&f, "terminal"), "kind").as_string().unwrap(), "any");
    assert_eq!(strings(&get(&f, "bookkeeping")), ["(control o)", "(control x)"]);
    assert!(message(factors("(role").unwrap_err()).contains("the rules have errors"));
}

#[wasm_bindgen_test]
fn load_gives_roles_and_diagnostics_with_utf16_offsets() {
    let mut s = Session::new(None);
    let r = s.load(TICTACTOE).unwrap();
    assert_eq!(get(&r, "ok"), JsValue::TRUE);
    assert_eq!(strings(&get(&r, "roles")), ["x", "o"]);
    assert_eq!(get(&r, "syntax").as_string().unwrap(), "prefix");

    // Line 2 starts after a comment with a two-unit emoji: offsets count UTF-16 units.
    let text = "; 😀 rules\n(role x\n";
    let r = s.load(text).unwrap();
    assert_eq!(get(&r, "ok"), JsValue::FALSE);
    let d = get(&r, "diagnostics").dyn_into::<Array>().unwrap().get(0);
    assert_eq!(get(&d, "severity").as_string().unwrap(), "error");
    assert_eq!(num(&d, "line"), 2.0);
    assert_eq!(num(&d, "column"), 1.0);
    let from = num(&d, "from") as u32;
    let js_text = js_sys::JsString::from(text);
    assert_eq!(js_text.char_code_at(from), f64::from(b'('), "from points at the parenthesis");
}

#[wasm_bindgen_test]
fn play_to_a_win_undo_redo_and_errors() {
    let mut s = Session::new(None);
    s.load(TICTACTOE).unwrap();
    let v = s.view().unwrap();
    assert_eq!(num(&v, "step"), 0.0);
    assert_eq!(get(&v, "terminal"), JsValue::FALSE);
    let legal = get(&v, "legal").dyn_into::<Array>().unwrap();
    assert_eq!(strings(&legal.get(0)).len(), 9);
    assert_eq!(strings(&legal.get(1)), ["noop"]);

    for j in [["(mark 1 1)", "noop"], ["noop", "(mark 2 1)"], ["(mark 1 2)", "noop"], ["noop", "(mark 2 2)"]] {
        s.play(joint(&j)).unwrap();
    }
    let v = s.play(joint(&["(mark 1 3)", "noop"])).unwrap();
    assert_eq!(get(&v, "terminal"), JsValue::TRUE);
    let goals = get(&v, "goals").dyn_into::<Array>().unwrap();
    assert_eq!(goals.get(0).dyn_into::<Array>().unwrap().get(0).as_f64(), Some(100.0));
    assert_eq!(goals.get(1).dyn_into::<Array>().unwrap().get(0).as_f64(), Some(0.0));
    assert!(strings(&get(&v, "state")).contains(&"(cell 1 3 x)".to_string()));
    // Core's verdict comes with the view: the page prints its words.
    let verdict = get(&v, "verdict");
    assert_eq!(
        (get(&verdict, "text").as_string().unwrap(), get(&verdict, "ending").as_string().unwrap()),
        ("x wins".into(), "won".into())
    );

    let v = s.undo().unwrap();
    assert_eq!(num(&v, "step"), 4.0);
    assert_eq!(get(&v, "history").dyn_into::<Array>().unwrap().length(), 5);
    let v = s.redo().unwrap();
    assert_eq!(get(&v, "terminal"), JsValue::TRUE);
    let v = s.go_to(0).unwrap();
    assert_eq!(num(&v, "step"), 0.0);

    assert!(message(s.undo().unwrap_err()).contains("nothing to undo"));
    assert!(message(s.play(joint(&["noop", "noop"])).unwrap_err()).contains("not a legal move for x"));
    assert!(message(s.go_to(99).unwrap_err()).contains("beyond the history"));
}

#[wasm_bindgen_test]
fn replay_takes_js_arrays_and_stops_at_an_illegal_move() {
    let mut s = Session::new(None);
    s.load(TICTACTOE).unwrap();
    let moves = Array::of2(
        &Array::of2(&"(mark 2 2)".into(), &"noop".into()),
        &Array::of2(&"noop".into(), &"(mark 2 2)".into()),
    );
    assert_eq!(s.replay(moves.into()).unwrap(), 1);
    assert!(message(s.replay(JsValue::from(3)).unwrap_err()).contains("array of arrays"));
    s.load("(role x").unwrap();
    assert!(message(s.view().unwrap_err()).contains("no game is loaded"));
}

/// How many playouts of `b` ended, counted over role `role`'s goal values.
fn ends(b: &JsValue, role: u32) -> f64 {
    let goals = get(b, "goals").dyn_into::<Array>().unwrap();
    let hist = goals.get(role).dyn_into::<Array>().unwrap();
    hist.iter().map(|bar| num(&bar, "playouts")).sum()
}

#[wasm_bindgen_test]
fn playouts_in_batches_report_counts_lengths_and_goals() {
    let mut s = Session::new(None);
    s.load(RPS).unwrap();
    s.seed(3.0);
    let b = s.playouts(40, 1000).unwrap();
    assert_eq!(num(&b, "playouts"), 40.0);
    assert_eq!(num(&b, "cut"), 0.0);
    assert!(num(&b, "totalLength") >= 40.0);
    let goals = get(&b, "goals").dyn_into::<Array>().unwrap();
    assert_eq!(goals.length(), 2);
    let total = ends(&b, 0);
    assert_eq!(total, 40.0);
    assert_eq!(num(&b, "averageLength"), num(&b, "totalLength") / 40.0);
    let bars = get(&b, "goals").dyn_into::<Array>().unwrap().get(0).dyn_into::<Array>().unwrap();
    let shares: f64 = bars.iter().map(|bar| num(&bar, "share")).sum();
    assert!((shares - 1.0).abs() < 1e-9, "{shares}");
}

/// The page adds up its batches (and its workers' totals, with keys of their own) with
/// `mergePlayouts`, starting from `null`.
#[wasm_bindgen_test]
fn merged_playouts_add_up_the_batches() {
    let mut s = Session::new(None);
    s.load(RPS).unwrap();
    let first = s.playouts(40, 1000).unwrap();
    let second = s.playouts(25, 1000).unwrap();
    let totals = merge_playouts(JsValue::NULL, first).unwrap();
    Reflect::set(&totals, &"elapsedMs".into(), &JsValue::from(12.5)).unwrap();
    let totals = merge_playouts(totals, second.clone()).unwrap();
    assert_eq!(num(&totals, "playouts"), 65.0);
    assert_eq!(strings(&get(&totals, "roles")), strings(&get(&second, "roles")));
    assert_eq!(ends(&totals, 1), 65.0);
    assert_eq!(get(&totals, "stuckNote"), JsValue::NULL);
    s.load(TICTACTOE).unwrap();
    let other = s.playouts(1, 1000).unwrap();
    assert!(message(merge_playouts(totals, other).unwrap_err()).contains("cannot merge"));
    assert!(message(merge_playouts(JsValue::from(3), second).unwrap_err()).contains("not playout statistics"));
}

#[wasm_bindgen_test]
fn formatting_graph_and_capabilities() {
    let infix = format_text(TICTACTOE, "infix").unwrap();
    assert!(infix.contains(":-"));
    assert!(format_text(&infix, "prefix").unwrap().contains("(<= (legal ?p (mark ?c ?r))"));
    assert!(message(format_text("(role", "infix").unwrap_err()).contains("syntax error at line 1"));
    assert_eq!(detect_syntax("; comment (x)\n(role x)"), "prefix");
    assert_eq!(detect_syntax("% comment\nrole(x)."), "infix");
    assert_eq!(detect_syntax("  \n"), "prefix");

    let g = rule_graph(TICTACTOE).unwrap();
    let nodes = get(&g, "nodes").dyn_into::<Array>().unwrap();
    assert!(nodes.iter().any(|n| get(&n, "id").as_string().as_deref() == Some("terminal/0")));
    let edges = get(&g, "edges").dyn_into::<Array>().unwrap();
    assert!(edges.iter().any(|e| get(&e, "negative") == JsValue::TRUE));

    let caps = capabilities().unwrap();
    assert!(get(&caps, "ground").is_undefined(), "every build grounds: no flag says so");
    let engines = get(&caps, "engines").dyn_into::<Array>().unwrap();
    let names: Vec<String> = engines.iter().map(|e| get(&e, "name").as_string().unwrap()).collect();
    assert_eq!(names, ["auto", "propnet", "reasoner", "ground"]);
}

#[wasm_bindgen_test]
fn ground_reports_the_engine_stages_program_and_values_and_another_engine_plays() {
    let game = JsGroundGame::new(TICTACTOE).unwrap();
    let choice = game.choice().unwrap();
    assert_eq!(get(&choice, "engine").as_string().unwrap(), "propnet");
    assert!(num(&get(&choice, "network"), "gates") > 0.0);
    let told = Array::new();
    let record = js_sys::Function::new_with_args("stage", "this.push(stage)").bind0(&told);
    let g = game.ground("infix", 1, Some(record)).unwrap();
    // Progress is told each stage of core's list, the list the page's progress bar reads.
    let stages = gdl_wasm::groundview::ground_stage_names().unwrap().dyn_into::<Array>().unwrap();
    let names = |a: &Array| a.iter().map(|s| s.as_string().unwrap()).collect::<Vec<_>>();
    assert_eq!(names(&told), names(&stages));
    assert_eq!(
        names(&stages),
        ["normalised", "fixed", "specialised", "decomposed", "domains", "instantiated", "pruned", "unfolded", "ground"]
    );
    // After a limit stopped it, the page may ground again with limits 4 times as large.
    let larger = gdl_wasm::groundview::larger_limits(1).unwrap();
    assert_eq!(num(&larger, "scale"), 4.0);
    assert_eq!(num(&game.ground("prefix", 4, None).unwrap().summary().unwrap(), "rules"), 180.0);
    let summary = g.summary().unwrap();
    assert_eq!(num(&summary, "rules"), 180.0);
    assert_eq!(get(&summary, "stages").dyn_into::<Array>().unwrap().length(), 10);
    let atoms = g.atoms();
    assert!(atoms.iter().any(|a| a == "legal(x, mark(1, 1))"), "{atoms:?}");
    assert_eq!(g.heads().len(), 180);
    let texts = g.rule_texts();
    assert_eq!(texts.len(), 180);
    assert!(texts.iter().any(|t| t.starts_with("legal(x, mark(1, 1)) :- ")), "{texts:?}");
    assert_eq!(*g.starts().last().unwrap() as usize, g.literals().len());
    let empty: Vec<String> = ["1 1", "1 2", "1 3", "2 1", "2 2", "2 3", "3 1", "3 2", "3 3"]
        .iter()
        .map(|c| format!("(cell {c} b)"))
        .chain(["(control x)".to_string()])
        .collect();
    let values = g.evaluate(empty, joint(&["x"]), joint(&["(mark 1 1)"]));
    assert_eq!(values.len(), atoms.len() + 180);
    let at = |t: &str| atoms.iter().position(|a| a == t).unwrap();
    assert_eq!((values[at("legal(x, mark(1, 1))")], values[at("next(cell(1, 1, x))")]), (1, 1));
    assert!(g.stage_text("normalised").unwrap().contains(":-"));
    assert!(message(JsGroundGame::new("(role").err().unwrap()).contains("fix them"));

    let mut s = Session::new(None);
    s.load(TICTACTOE).unwrap();
    s.set_engine("ground").unwrap();
    assert_eq!(get(&s.view().unwrap(), "engine").as_string().unwrap(), "ground");
    let note = s.set_engine("auto").unwrap();
    assert!(note.starts_with("propnet ("), "{note}");
    assert_eq!(get(&s.view().unwrap(), "engine").as_string().unwrap(), "propnet");
    assert_eq!(get(&s.view().unwrap(), "engineNote").as_string().unwrap(), note);
    assert!(message(s.set_engine("propositional").unwrap_err()).contains("unknown engine"));
}

#[wasm_bindgen_test]
fn explain_solve_and_analyze_return_plain_objects() {
    let mut s = Session::new(None);
    s.load(TICTACTOE).unwrap();
    s.play(joint(&["(mark 2 2)", "noop"])).unwrap();
    let e = s.explain("(legal o (mark 2 2))", None).unwrap();
    assert_eq!(get(&e, "holds"), JsValue::FALSE);
    let d = get(&e, "derivations").dyn_into::<Array>().unwrap().get(0);
    assert_eq!(num(&d, "failed"), 1.0);
    let p = get(&d, "premises").dyn_into::<Array>().unwrap().get(1);
    assert_eq!(get(&p, "atom").as_string().unwrap(), "(true (cell 2 2 b))");
    let f = s.explain("(true (cell 2 2 x))", Some(1)).unwrap();
    assert_eq!(get(&f, "holds"), JsValue::TRUE);
    assert!(message(s.explain("(legal o", None).unwrap_err()).contains("cannot read the query"));

    s.play(joint(&["noop", "(mark 1 2)"])).unwrap();
    let sol = s.solve(1_000_000.0, 60_000.0).unwrap();
    let x = get(&sol, "roles").dyn_into::<Array>().unwrap().get(0);
    assert!(get(&x, "summary").as_string().unwrap().starts_with("x wins with (mark 1 1)"));
    assert_eq!(num(&x, "value"), 100.0);

    let r = s.analyze(100_000, 10, 100, 1.0).unwrap();
    assert_eq!(get(&r, "method").as_string().unwrap(), "exhaustive");
    assert_eq!(get(&r, "well_formed").as_string().unwrap(), "holds");
    assert_eq!(num(&r, "states"), 5478.0);
}

/// A session on the page's main thread has a time limit per call: a game too slow to load
/// is reported (naming the limit) instead of freezing the tab.
#[wasm_bindgen_test]
fn a_time_limit_stops_a_slow_load() {
    let numbers: String = (0..60).map(|i| format!("(n {i}) ")).collect();
    let slow = format!(
        "(role a) {numbers} (init s) (<= (next s) (does a go))\n\
         (<= (q ?a ?b ?c ?d) (n ?a) (n ?b) (n ?c) (n ?d)) (<= (legal a go) (q ?a ?b ?c ?d))"
    );
    let mut s = Session::new(Some(50.0));
    let r = s.load(&slow).unwrap();
    assert_eq!(get(&r, "ok"), JsValue::FALSE);
    // Warnings about the game (it never ends) come first; the time limit is among the errors.
    let texts: Vec<String> = get(&r, "diagnostics")
        .dyn_into::<Array>()
        .unwrap()
        .iter()
        .map(|d| get(&d, "message").as_string().unwrap())
        .collect();
    assert!(texts.iter().any(|t| t.contains("took longer than 50 ms") && t.contains("max_millis")), "{texts:?}");
    // The same session loads the next text at once.
    assert_eq!(get(&s.load(TICTACTOE).unwrap(), "ok"), JsValue::TRUE);
}

#[wasm_bindgen_test]
fn computer_players_think_and_play_matches() {
    let mut s = Session::new(None);
    s.load(TICTACTOE).unwrap();
    s.set_engine("auto").unwrap();
    let t = s.think("uct:200", 0, 1.0, None, 0.0).unwrap();
    assert!(get(&t, "move").as_string().unwrap().starts_with("(mark "));
    assert_eq!(num(&t, "playouts"), 200.0);
    assert!(message(s.think("alphabeta", 0, 1.0, None, 0.0).unwrap_err()).contains("unknown player 'alphabeta'"));
    // Thinking half a second, it reports how it goes: playouts so far and a legal move.
    let reports = Array::new();
    let push = js_sys::Function::new_with_args("r", "this.push(r)").bind0(&reports);
    let t = s.think("uct:500ms", 0, 1.0, Some(push), 0.0).unwrap();
    assert!(reports.length() >= 2, "{} reports", reports.length());
    let last = reports.get(reports.length() - 1);
    assert!(get(&last, "move").as_string().unwrap().starts_with("(mark "));
    assert!(num(&last, "playouts") > 0.0 && num(&last, "playouts") <= num(&t, "playouts"));
    let games = Array::new();
    for g in 0..2 {
        let game = s.match_game("perfect,random", 5.0, g, 100).unwrap();
        assert_eq!(get(&game, "seats").dyn_into::<Array>().unwrap().length(), 2);
        games.push(&game);
    }
    let verdict = match_verdict(joint(&["x", "o"]), games.get(0)).unwrap();
    assert!(["x wins", "o wins", "Draw"].contains(&get(&verdict, "text").as_string().unwrap().as_str()));
    // Moves drawn at random come from the engine's seeded generator: the same seed, the same moves.
    let draws = |seed| {
        let mut s = Session::new(None);
        s.load(TICTACTOE).unwrap();
        s.seed_draws(seed);
        (0..5).map(|_| s.random_move(0).unwrap()).collect::<Vec<_>>()
    };
    assert_eq!(draws(9.0), draws(9.0));
    assert!(message(s.random_move(7).unwrap_err()).contains("no role number 7"));
    let tally = match_tally("perfect,random", games.clone().into()).unwrap().dyn_into::<Array>().unwrap();
    let perfect = tally.get(0);
    assert_eq!((num(&perfect, "games"), num(&perfect, "losses")), (2.0, 0.0));
    assert!(message(match_tally("random", JsValue::from_str("no")).unwrap_err()).contains("not a list of games"));
}

/// The player catalogue comes as plain objects: kinds with their choices in the notation and
/// in words, and for a game with percepts the kinds that refuse it, with why.
#[wasm_bindgen_test]
fn the_player_catalogue_names_kinds_budgets_and_refusals() {
    let kinds = get(&player_catalogue(Some(true)).unwrap(), "kinds").dyn_into::<Array>().unwrap();
    let uct = kinds.iter().find(|k| get(k, "name").as_string().as_deref() == Some("uct")).unwrap();
    let default = get(&uct, "choices").dyn_into::<Array>().unwrap().get(num(&uct, "default") as u32);
    assert_eq!(get(&default, "spec").as_string().unwrap(), "uct:1s");
    assert_eq!(get(&default, "budgetLabel").as_string().unwrap(), "1 s a move");
    assert_eq!((num(&default, "millis"), get(&uct, "offered")), (1000.0, JsValue::FALSE));
    assert!(get(&uct, "refused").as_string().unwrap().contains("use honest"));
    assert_eq!(player_label("honest:1000").unwrap(), "honest, 1,000 playouts a move");
    assert!(message(player_label("uct,random").unwrap_err()).contains("not one player"));
}

/// GDL-II: what a role knows comes as plain objects: its steps, its percepts, the count of
/// its possible states and the share of each fluent among them; the view says which role is
/// nature and that the game has percepts.
#[wasm_bindgen_test]
fn knows_gives_a_roles_percepts_and_beliefs() {
    let mut s = Session::new(None);
    s.load(include_str!("../../../shared/corpus-gdl2/montyhall.kif")).unwrap();
    s.play(joint(&["(choose 1)", "(hide_car 2)"])).unwrap();
    let v = s.play(joint(&["noop", "(open_door 3)"])).unwrap();
    assert_eq!(get(&v, "percepts"), JsValue::TRUE);
    let nature = get(&v, "nature").dyn_into::<Array>().unwrap();
    assert_eq!((nature.get(0), nature.get(1)), (JsValue::FALSE, JsValue::TRUE));
    let k = s.knows("candidate", 100, 1.0).unwrap();
    assert_eq!((num(&k, "count"), get(&k, "sampled")), (2.0, JsValue::FALSE));
    let steps = get(&k, "steps").dyn_into::<Array>().unwrap();
    assert_eq!(get(&steps.get(0), "move").as_string().unwrap(), "(choose 1)");
    assert_eq!(strings(&get(&steps.get(1), "percepts")), ["(does candidate noop)", "(open_door 3)"]);
    let beliefs = get(&k, "beliefs").dyn_into::<Array>().unwrap();
    let share = |f: &str| beliefs.iter().find(|b| get(b, "fluent").as_string().unwrap() == f).map(|b| num(&b, "share"));
    assert_eq!((share("(car 1)"), share("(car 2)"), share("(chosen 1)")), (Some(0.5), Some(0.5), Some(1.0)));
    assert_eq!(get(&k, "states").dyn_into::<Array>().unwrap().length(), 2);
    assert!(message(s.knows("host", 100, 1.0).unwrap_err()).contains("host is not a role"));
}

/// A plain JS object from JSON, as the page builds a `NoReply`.
fn js(json: &str) -> JsValue {
    js_sys::JSON::parse(json).expect("JSON")
}

/// The Play pane's remote seat is refereed by core one message at a time: the messages, a
/// missing or illegal reply judged and replaced from the seed, in core's words.
#[wasm_bindgen_test]
fn a_referee_match_judges_each_answer_in_cores_words() {
    use gdl_wasm::protocol::{match_game_id, no_reply_text, record_log, RefereeMatch};
    assert_eq!(no_reply_text(js(r#"{"kind":"timeout","millis":2500}"#)).unwrap(), "no reply in 2.5 s");
    assert_eq!(no_reply_text(js(r#"{"kind":"status","code":503,"body":"busy"}"#)).unwrap(), "answered HTTP 503 'busy'");
    assert!(message(no_reply_text(js(r#"{"kind":"lost"}"#)).unwrap_err()).contains("why there is no reply"));
    assert_eq!(match_game_id("playground.7", 1), "playground.7.2");

    let replay = || {
        let mut m = RefereeMatch::new(TICTACTOE, "m1", 10.0, 3.0, 5.0).unwrap();
        assert!(m.start_message(0).starts_with("(START m1 x ((role x)"));
        let fault = m.started(0, None, js(r#"{"kind":"timeout","millis":10000}"#), 10.0).unwrap();
        assert_eq!(fault.as_deref(), Some("player 1 (x) at the start: no reply in 10 s"));
        assert_eq!(m.play_message(0), "(PLAY m1 NIL)");
        let judged = m.answered(0, Some("(mark 9 9)".into()), JsValue::NULL, 5.0).unwrap();
        let chosen = get(&judged, "move").as_string().unwrap();
        let fault = get(&judged, "fault").as_string().unwrap();
        assert_eq!(fault, format!("player 1 (x) at step 1: (mark 9 9) is not a legal move; played {chosen} for it"));
        m.advance(vec![chosen.clone(), "noop".into()]).unwrap();
        assert_eq!((m.steps(), m.play_message(1)), (1, format!("(PLAY m1 ({chosen} noop))")));
        assert!(message(m.advance(joint(&["noop", "noop"])).unwrap_err())
            .contains("noop is not a legal move of o at step 2"));
        let judged = m.answered(1, Some("(MARK 1 1)".into()), JsValue::NULL, 5.0).unwrap();
        assert!(get(&judged, "fault").is_null() || chosen == "(mark 1 1)");
        // What a player says is kept in the record, named as the page names the seats, and
        // the record's log gives it and the faults by step, in core's words.
        m.started(1, Some("ready".into()), JsValue::NULL, 1.0).unwrap();
        m.said(1, "thinking".into());
        let record = m.record(vec!["my:minimax".into(), "random".into()]).unwrap();
        assert_eq!(strings(&get(&record, "players")), ["my:minimax", "random"]);
        let log = record_log(record).unwrap();
        let line = |i: u32, key: &str| get(&js_sys::Reflect::get_u32(&log, i).unwrap(), key);
        assert_eq!(
            [line(0, "when").as_string(), line(1, "when").as_string()],
            [Some("at the start".into()), Some("at step 1".into())]
        );
        // o's line answers the next PLAY: step 2, said at the position after step 1.
        assert_eq!((line(2, "step").as_f64(), line(2, "position").as_f64()), (Some(2.0), Some(1.0)));
        assert_eq!(line(2, "text").as_string().as_deref(), Some("thinking"));
        chosen
    };
    // The move played for a failing player comes from the seed: the same every time.
    assert_eq!(replay(), replay());
}

/// A tournament as the Match tab runs it: started from a plan (entrants as typed, named by
/// core), each missing game played on a session, added, and the leaderboard core computes; a
/// damaged record is refused in words.
#[wasm_bindgen_test]
fn a_tournament_runs_game_by_game_to_its_leaderboard() {
    use gdl_wasm::tournament::{tournament_finish, tournament_leaderboard, tournament_missing, tournament_start};
    let plan = js_sys::JSON::parse(
        r#"{"games": [{"name": "games/tictactoe.kif", "roles": ["x", "o"]}], "entrants": ["random, uct:20"],
            "games_per_pairing": 1, "seed": 4, "start_clock": 10, "play_clock": 3, "max_steps": 100}"#,
    )
    .unwrap();
    let mut record = tournament_start(plan).unwrap();
    assert_eq!(strings(&get(&get(&record, "plan"), "entrants")), ["random", "uct:20"]);
    let mut session = Session::new(None);
    session.load(TICTACTOE).unwrap();
    let post = js_sys::Function::new_with_args("url, message, clock", "throw {kind: 'unreachable', detail: 'none'}");
    let log = js_sys::Function::new_no_args("");
    let missing: Array = tournament_missing(record.clone()).unwrap().unchecked_into();
    assert_eq!(missing.length(), 2);
    for fixture in missing.iter() {
        let plan = get(&record, "plan");
        let finished =
            session.tournament_game(plan, num(&fixture, "number") as u32, post.clone(), log.clone()).unwrap();
        record = tournament_finish(record, finished).unwrap();
    }
    assert_eq!(Array::from(&tournament_missing(record.clone()).unwrap()).length(), 0);
    let board = tournament_leaderboard(record.clone()).unwrap();
    assert_eq!((num(&board, "played"), num(&board, "scheduled")), (2.0, 2.0));
    let first = Array::from(&get(&board, "overall")).get(0);
    assert_eq!(num(&get(&first, "tally"), "games"), 2.0);
    Reflect::set(&record, &"schedule".into(), &Array::new()).unwrap();
    let refused = message(tournament_missing(record).unwrap_err());
    assert_eq!(refused, "the tournament record is damaged: its schedule is not the one its plan gives");
}

/// A student's player's match: what it knows in one `info` object, and the factors of its
/// rules as plain data (moves with their roles, fluents).
#[wasm_bindgen_test]
fn a_player_game_gives_its_info_and_the_factors_of_its_rules() {
    let referee =
        gdl_wasm::protocol::RefereeMatch::new(include_str!("../../games/doubletictactoe.kif"), "m1", 10.0, 3.0, 1.0)
            .unwrap();
    let mut game = gdl_wasm::student::PlayerGame::new(&referee.start_message(1), 1.0).unwrap();
    let info = game.info().unwrap();
    assert_eq!(get(&info, "id").as_string().unwrap(), "m1");
    assert_eq!((num(&info, "role"), num(&info, "startClock"), num(&info, "playClock")), (1.0, 10.0, 3.0));
    assert_eq!(strings(&get(&info, "roles")), ["x", "o"]);
    assert_eq!((num(&info, "step"), get(&info, "hidden").as_bool()), (0.0, Some(false)));
    assert!(strings(&get(&info, "moves")).is_empty());
    let factors = get(&game.factors().unwrap(), "factors").dyn_into::<Array>().unwrap();
    assert_eq!(factors.length(), 2);
    let first = factors.get(0);
    assert_eq!(strings(&get(&first, "fluents")).len(), 27);
    let moves = get(&first, "moves").dyn_into::<Array>().unwrap();
    assert_eq!(moves.length(), 18);
    assert!(["x", "o"].contains(&get(&moves.get(0), "role").as_string().unwrap().as_str()));
    assert!(get(&moves.get(0), "move").as_string().unwrap().starts_with("(mark "));
}
