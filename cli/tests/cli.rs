//! End-to-end tests of the `gdl` binary: exit codes, output shapes, the trace format.

use assert_cmd::Command;
use serde_json::Value;
use std::path::PathBuf;

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

fn gdl() -> Command {
    Command::cargo_bin("gdl").unwrap()
}

fn stdout(args: &[&str]) -> String {
    let out = gdl().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

const TTT: &str = "games/tictactoe.kif";

#[test]
fn check_exit_codes() {
    let ttt = repo(TTT);
    gdl().args(["check", ttt.to_str().unwrap()]).assert().code(0);
    let bad = repo("tests/diagnostics/unsafe.kif");
    let out = gdl().args(["check", bad.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unsafe.kif:3:22: error[unsafe-variable]"), "{err}");
    gdl().args(["check", "/no/such/file.kif"]).assert().code(2);
    gdl().args(["check"]).assert().code(2);
    gdl().args(["frobnicate"]).assert().code(2);
}

#[test]
fn check_json_lists_diagnostics_with_positions() {
    let bad = repo("tests/diagnostics/unbalanced.kif");
    let out = gdl().args(["check", bad.to_str().unwrap(), "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], false);
    let first = &v["diagnostics"][0];
    assert_eq!(first["line"], 3);
    assert_eq!(first["column"], 1);
    assert_eq!(first["severity"], "error");
}

#[test]
fn info_json() {
    let v: Value = serde_json::from_str(&stdout(&["info", repo(TTT).to_str().unwrap(), "--json"])).unwrap();
    assert_eq!(v["roles"], serde_json::json!(["x", "o"]));
    assert_eq!(v["terminal"], false);
    assert_eq!(v["legal"]["x"].as_array().unwrap().len(), 9);
    assert_eq!(v["legal"]["o"], serde_json::json!(["noop"]));
    assert!(v["init"].as_array().unwrap().iter().any(|f| f == "(control x)"));
}

#[test]
fn fmt_infix_then_prefix_is_stable() {
    let dir = tempfile::tempdir().unwrap();
    let infix = stdout(&["fmt", repo(TTT).to_str().unwrap(), "--to", "infix"]);
    assert!(infix.contains(":-"));
    let p = dir.path().join("ttt.gdl");
    std::fs::write(&p, &infix).unwrap();
    let prefix = stdout(&["fmt", p.to_str().unwrap(), "--to", "prefix"]);
    let original = stdout(&["fmt", repo(TTT).to_str().unwrap()]);
    assert_eq!(prefix, original);
}

#[test]
fn playout_trace_follows_the_format_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("t.jsonl");
    let game = repo(TTT);
    let game = game.to_str().unwrap();
    stdout(&["playout", game, "--count", "3", "--seed", "7", "--max-steps", "300", "--trace", trace.to_str().unwrap()]);
    let text = std::fs::read_to_string(&trace).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    for line in &lines {
        let p: Value = serde_json::from_str(line).unwrap();
        assert_eq!(p["roles"], serde_json::json!(["x", "o"]));
        let steps = p["steps"].as_array().unwrap();
        for (i, s) in steps.iter().enumerate() {
            let state: Vec<&str> = s["state"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
            let mut sorted = state.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(state, sorted, "state sorted, no duplicates");
            if i + 1 < steps.len() {
                assert_eq!(s["terminal"], false);
                assert!(s.get("goals").is_none());
                let joint = &s["joint"];
                for role in ["x", "o"] {
                    let legal = s["legal"][role].as_array().unwrap();
                    assert!(legal.contains(&joint[role]));
                }
            } else {
                assert_eq!(s["terminal"], true);
                assert!(s.get("legal").is_none() && s.get("joint").is_none());
                assert_eq!(s["goals"]["x"].as_array().unwrap().len(), 1);
            }
        }
        // Exactly the key order of the format: state, terminal, then legal/joint or goals.
        assert!(line.starts_with("{\"roles\":[\"x\",\"o\"],\"steps\":[{\"state\":["), "{line}");
    }
    // The same seed gives the same trace.
    let again = dir.path().join("u.jsonl");
    stdout(&["playout", game, "--count", "3", "--seed", "7", "--max-steps", "300", "--trace", again.to_str().unwrap()]);
    assert_eq!(text, std::fs::read_to_string(&again).unwrap());

    let out = stdout(&["replay", game, trace.to_str().unwrap()]);
    assert!(out.contains("3 passed, 0 failed"), "{out}");
    // A tampered trace is caught, with the step and the field.
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, lines[0].replacen("(control o)", "(control x)", 1)).unwrap();
    let out = gdl().args(["replay", game, bad.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("FAIL step 1 field state"), "{text}");
}

#[test]
fn cut_playouts_end_with_legal_moves_and_no_joint() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("t.jsonl");
    stdout(&["playout", repo(TTT).to_str().unwrap(), "--max-steps", "2", "--trace", trace.to_str().unwrap()]);
    let p: Value = serde_json::from_str(std::fs::read_to_string(&trace).unwrap().trim()).unwrap();
    let steps = p["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 3);
    let last = &steps[2];
    assert_eq!(last["terminal"], false);
    assert!(last.get("joint").is_none() && last.get("legal").is_some());
}

#[test]
fn bench_json_has_the_rate() {
    let v: Value = serde_json::from_str(&stdout(&[
        "bench",
        repo("games/nim.kif").to_str().unwrap(),
        "--seconds",
        "0.2",
        "--json",
    ]))
    .unwrap();
    assert!(v["playouts_per_sec"].as_f64().unwrap() > 0.0);
    assert!(v["avg_length"].as_f64().unwrap() > 0.0);
    // The game grounds: the automatic choice is the propositional network.
    assert_eq!(v["engine"], "propnet");
    let nim = repo("games/nim.kif");
    let args = ["bench", nim.to_str().unwrap(), "--seconds", "0.1", "--json", "--engine", "reasoner"];
    let v: Value = serde_json::from_str(&stdout(&args)).unwrap();
    assert_eq!(v["engine"], "reasoner");
}

#[test]
fn auto_says_which_engine_runs_and_why() {
    let ttt = repo(TTT);
    let out = gdl().args(["info", ttt.to_str().unwrap()]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("engine: propnet ("), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("grow.kif");
    std::fs::write(
        &game,
        "(role a) (init (n z)) (<= (legal a go) (true (n ?x))) (<= (next (n (s ?x))) (true (n ?x)))\n\
         (<= terminal (true (n (s (s z))))) (<= (goal a 0) (true (n ?x)))",
    )
    .unwrap();
    let out = gdl().args(["playout", game.to_str().unwrap()]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("engine: reasoner (the propositional network is not available: "), "{err}");
}

#[test]
fn propnet_traces_replay_on_the_reasoner_with_every_optimisation() {
    let dir = tempfile::tempdir().unwrap();
    let game = repo("games/connectfour.kif");
    for (opt, strategy) in
        [("none", "sweep"), ("frame", "propagate"), ("persist", "sweep"), ("frame,persist", "measure")]
    {
        let trace = dir.path().join(format!("{opt}-{strategy}.jsonl"));
        let args = ["--engine", "propnet", "--opt", opt, "--strategy", strategy, "--count", "3", "--trace"];
        gdl().args(["playout", game.to_str().unwrap()]).args(args).arg(&trace).assert().code(0);
        let out = stdout(&["replay", game.to_str().unwrap(), trace.to_str().unwrap(), "--engine", "reasoner"]);
        assert!(out.contains("3 passed, 0 failed"), "{opt} {strategy}: {out}");
    }
    let out = gdl().args(["bench", game.to_str().unwrap(), "--opt", "fast"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown optimisation \"fast\""));
}

#[test]
fn runtime_limits_are_reported_not_panics() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("grow.kif");
    std::fs::write(
        &game,
        "(role a) (init (n z)) (<= (legal a go) (true (n ?x))) (<= (next (n (s ?x))) (true (n ?x)))\n\
         (<= terminal (true (n done))) (<= (goal a 0) (true (n ?x)))",
    )
    .unwrap();
    let out = gdl().args(["playout", game.to_str().unwrap(), "--max-term-depth", "10"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("deeper than 10"), "{err}");
    // Endless games are cut at the step limit.
    let out = stdout(&["playout", game.to_str().unwrap(), "--max-steps", "5"]);
    assert!(out.contains("\"terminal\":false"), "{out}");
}

#[test]
fn explain_shows_the_failing_literal_and_json_nests_premises() {
    let game = repo(TTT);
    let game = game.to_str().unwrap();
    let out = stdout(&["explain", game, "--path", "(mark 1 1)", "--query", "(legal o (mark 1 1))", "--depth", "0"]);
    assert!(out.starts_with("(legal o (mark 1 1)) does not hold"), "{out}");
    assert!(out.contains("✗ (true (cell 1 1 b))   <- fails"), "{out}");
    let v: Value = serde_json::from_str(&stdout(&[
        "explain",
        game,
        "--path",
        "(mark 1 1); (mark 2 2)",
        "--query",
        "(next (cell 2 2 o))",
        "--json",
    ]))
    .unwrap();
    assert_eq!((v["holds"].as_bool(), v["step"].as_u64()), (Some(true), Some(1)));
    let does = &v["derivations"][0]["premises"][0];
    assert_eq!(does["literal"], "(does o (mark 2 2))");
    assert_eq!(does["detail"]["holds"], true);
    let bad =
        gdl().args(["explain", game, "--path", "(mark 1 1); (mark 1 1)", "--query", "terminal"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("move 2: (mark 1 1) is not legal for o"));
    gdl().args(["explain", game, "--query", "(legal ?x"]).assert().code(2);
}

#[test]
fn solve_says_who_wins_with_what() {
    let game = repo(TTT);
    let out = stdout(&["solve", game.to_str().unwrap(), "--path", "(mark 2 2); (mark 1 2)"]);
    assert!(out.starts_with("x wins with (mark 1 1) or (mark 1 3) or (mark 2 1)"), "{out}");
    assert!(out.contains("   50  (mark 3 2)"), "{out}");
    let v: Value =
        serde_json::from_str(&stdout(&["solve", game.to_str().unwrap(), "--budget", "50", "--json"])).unwrap();
    assert_eq!(v["complete"], false);
    assert!(v["nodes_per_sec"].as_f64().unwrap() > 0.0);
}

#[test]
fn perft_counts_and_checks_other_engines_against_the_reasoner() {
    let game = repo(TTT);
    let v: Value = serde_json::from_str(&stdout(&[
        "perft",
        game.to_str().unwrap(),
        "--depth",
        "5",
        "--engine",
        "ground",
        "--json",
    ]))
    .unwrap();
    assert_eq!(v["nodes"], serde_json::json!([1, 9, 72, 504, 3024, 15120]));
    assert_eq!(v["terminal"][5], 1440);
    assert_eq!((v["checked_against_reasoner"].as_bool(), v["agrees"].as_bool()), (Some(true), Some(true)));
}

#[test]
fn analyze_proves_or_labels_and_fails_with_witnesses() {
    let out = stdout(&["analyze", repo(TTT).to_str().unwrap()]);
    assert!(out.contains("exhaustive search of all 5478 reachable states"), "{out}");
    assert!(out.contains("well-formed: HOLDS"), "{out}");
    let out = stdout(&[
        "analyze",
        repo("games/connectfour.kif").to_str().unwrap(),
        "--max-states",
        "500",
        "--playouts",
        "20",
    ]);
    assert!(out.contains("NOT PROVEN: more than 500 states, so 20 random playouts"), "{out}");
    let dir = tempfile::tempdir().unwrap();
    let looping = dir.path().join("loop.kif");
    std::fs::write(
        &looping,
        "(role p) (init (at 1)) (<= (legal p (go 2)) (true (at 1))) (<= (legal p (go 1)) (true (at 2)))\n\
         (<= (next (at ?x)) (does p (go ?x))) (<= terminal (true (at 3))) (goal p 100)",
    )
    .unwrap();
    let out = gdl().args(["analyze", looping.to_str().unwrap(), "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let t = &v["checks"][0];
    assert_eq!((t["name"].as_str(), t["outcome"].as_str()), (Some("termination"), Some("fails")));
    assert_eq!(t["witness"], serde_json::json!([["(go 2)"], ["(go 1)"]]));
    assert_eq!(v["well_formed"], "fails");
}

#[test]
fn match_tallies_players_with_confidence_intervals() {
    let ttt = repo(TTT);
    let run = |threads: &str| -> Value {
        let args = ["match", ttt.to_str().unwrap(), "--players", "perfect,random", "--games", "10", "--seed", "3"];
        serde_json::from_str(&stdout(&[&args[..], &["--threads", threads, "--json"]].concat())).unwrap()
    };
    let v = run("1");
    let perfect = &v["players"][0];
    assert_eq!((perfect["player"].as_str(), perfect["games"].as_u64()), (Some("perfect"), Some(10)));
    assert_eq!(perfect["losses"], 0);
    assert_eq!(v["players"][1]["wins"], 0);
    assert!(perfect["points"]["plus_minus"].as_f64().unwrap() >= 0.0);
    // Seats alternate, and every game is the same whatever the number of threads.
    assert_eq!(v["games"][0]["seats"], serde_json::json!([0, 1]));
    assert_eq!(v["games"][1]["seats"], serde_json::json!([1, 0]));
    assert_eq!(v["games"], run("3")["games"]);
    let text = stdout(&["match", ttt.to_str().unwrap(), "--players", "uct:200,random", "--games", "2"]);
    assert!(text.contains("uct:200 vs random") && text.contains("points (95% CI)"), "{text}");
}

/// A game of `../shared/corpus-gdl2` (the test fails when it is missing).
fn gdl2_game(name: &str) -> std::path::PathBuf {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../shared/corpus-gdl2/{name}.kif"));
    assert!(path.exists(), "this test needs ../shared/corpus-gdl2 beside the repository: {}", path.display());
    path
}

/// GDL-II: the honest player plays Kriegspiel tic-tac-toe against random from what its role
/// sees, tallied as for GDL; a player that reads the true state is refused in words.
#[test]
fn match_plays_gdl2_with_the_honest_player() {
    let krieg = gdl2_game("kriegTTT_4x4");
    let args = ["match", krieg.to_str().unwrap(), "--players", "honest:100,random", "--games", "4", "--seed", "1"];
    let v: Value = serde_json::from_str(&stdout(&[&args[..], &["--json"]].concat())).unwrap();
    let honest = &v["players"][0];
    assert_eq!((honest["player"].as_str(), honest["games"].as_u64()), (Some("honest:100"), Some(4)));
    let decided = ["wins", "draws", "losses", "unfinished"].iter().map(|k| honest[k].as_u64().unwrap()).sum::<u64>();
    assert_eq!(decided, 4);
    let out = gdl().args(["match", krieg.to_str().unwrap(), "--players", "uct:10,random"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("uct reads the true state") && err.contains("use honest"), "{err}");
}

/// GDL-II: the role `random` is nature, no player sits there (`null` seat), and with one
/// seated role the table is the mean score.
#[test]
fn match_lets_nature_play_random() {
    let monty = gdl2_game("montyhall");
    let args = ["match", monty.to_str().unwrap(), "--players", "random", "--games", "4", "--seed", "2"];
    let v: Value = serde_json::from_str(&stdout(&[&args[..], &["--json"]].concat())).unwrap();
    assert_eq!(v["games"][0]["seats"], serde_json::json!([0, null]));
    assert_eq!(v["players"][0]["games"], 4);
    let text = stdout(&args);
    assert!(text.contains("role random: nature") && text.contains("mean score (95% CI)"), "{text}");
}

/// GDL-II: `gdl info --as ROLE --path MOVES` gives the role's moves, percepts and its
/// information set (exact here: the car is behind door 1 or 2).
#[test]
fn info_as_a_role_gives_its_information_set() {
    let monty = gdl2_game("montyhall");
    let path = "(choose 1), (hide_car 2); noop, (open_door 3)";
    let args = ["info", monty.to_str().unwrap(), "--as", "candidate", "--path", path];
    let v: Value = serde_json::from_str(&stdout(&[&args[..], &["--json"]].concat())).unwrap();
    assert_eq!((v["sampled"].as_bool(), v["count"].as_f64()), (Some(false), Some(2.0)));
    assert_eq!(v["states"].as_array().unwrap().len(), 2);
    assert_eq!(v["steps"][1]["percepts"], serde_json::json!(["(does candidate noop)", "(open_door 3)"]));
    let text = stdout(&args);
    assert!(text.contains("information set: 2 state(s), exact"), "{text}");
}

/// GDL-II: an information set that explodes (40 hidden dice rolls in a row, 40^8 states) ends
/// in a sample, clearly marked, with an estimate of the size.
#[test]
fn info_samples_an_information_set_that_explodes() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("dice.kif");
    let faces: String = (1..=40).map(|n| format!("(face {n}) ")).collect();
    std::fs::write(
        &game,
        format!(
            "(role p) (role random) (init (step 0)) {faces}(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) \
             (succ 5 6) (succ 6 7) (succ 7 8)\n(legal p wait) (<= (legal random (roll ?n)) (face ?n))\n\
             (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y)) (<= (next (rolled ?n)) (does random (roll ?n)))\n\
             (<= (next (rolled ?n)) (true (rolled ?n)))\n(<= (sees p tick) (does p wait))\n\
             (<= terminal (true (step 8))) (goal p 0) (goal random 0)"
        ),
    )
    .unwrap();
    let path = ["wait, (roll 7)"; 8].join("; ");
    let args = ["info", game.to_str().unwrap(), "--as", "p", "--path", &path, "--limit", "50", "--seed", "3"];
    let text = stdout(&args);
    assert!(text.contains("by estimate (from sampled lines of play; a sample of 50 shown)"), "{text}");
    assert!(text.contains("; below, a SAMPLE (seed 3, --limit 50)"), "{text}");
    let v: Value = serde_json::from_str(&stdout(&[&args[..], &["--json"]].concat())).unwrap();
    assert_eq!((v["sampled"].as_bool(), v["states"].as_array().unwrap().len()), (Some(true), 50));
    assert!(v["count"].as_f64().unwrap() > 1e9, "{}", v["count"]);
}

#[test]
fn match_explains_bad_players_and_games_too_big_for_perfect() {
    let ttt = repo(TTT);
    let out = gdl().args(["match", ttt.to_str().unwrap(), "--players", "uct,alphabeta"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown player 'alphabeta'"), "{err}");
    let c4 = repo("games/connectfour.kif");
    let out =
        gdl().args(["match", c4.to_str().unwrap(), "--players", "perfect,random", "--games", "1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("perfect player cannot play this game"), "{err}");
    // Its refusal comes within its time, with the tree's size as Best moves gives it.
    assert!(err.contains("the time ran out") && err.contains("the game tree from here has about"), "{err}");
    gdl().args(["match", ttt.to_str().unwrap(), "--players", "random", "--threads", "0"]).assert().code(2);
    // The catalogue's one reader of lists says which player is wrong and how to write it.
    let out = gdl().args(["match", ttt.to_str().unwrap(), "--players", "uct:10,,random"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--players: player number 2 is empty") && err.contains("http://host:port"), "{err}");
    // A student's player written in the page plays there, not here.
    let out = gdl().args(["match", ttt.to_str().unwrap(), "--players", "random,my:minimax"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--players: my:minimax is a player written in the page"));
    // A player that reads the true state is refused on a game with percepts before any game.
    let krieg = gdl2_game("kriegTTT_4x4");
    let out = gdl().args(["match", krieg.to_str().unwrap(), "--players", "random,perfect", "--json"]).output().unwrap();
    assert_eq!((out.status.code(), out.stdout.is_empty()), (Some(1), true));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the perfect player reads the true state"));
}

#[test]
fn one_player_match_reports_mean_score() {
    let puzzle = repo("games/eightpuzzle.kif");
    let text = stdout(&["match", puzzle.to_str().unwrap(), "--players", "random", "--games", "2", "--max-steps", "50"]);
    assert!(text.contains("mean score (95% CI)") && !text.contains("wins"), "{text}");
}

#[test]
fn bench_and_analyze_run_on_threads() {
    let bt = repo("games/breakthrough.kif");
    let v: Value =
        serde_json::from_str(&stdout(&["bench", bt.to_str().unwrap(), "--seconds", "0.2", "--threads", "2", "--json"]))
            .unwrap();
    assert_eq!(v["threads"], 2);
    assert!(v["playouts"].as_u64().unwrap() >= 2);
    let analyze =
        |threads: &str| stdout(&["analyze", bt.to_str().unwrap(), "--playouts", "40", "--threads", threads, "--json"]);
    let two = analyze("2");
    assert_eq!(two, analyze("2"), "the same seed and threads give the same report");
    let v: Value = serde_json::from_str(&two).unwrap();
    assert_eq!((v["method"].as_str(), v["playouts"].as_u64()), (Some("simulation"), Some(40)));
}

/// A walk to 5 where `trap` leaves the role without a legal move in a state that is not
/// terminal.
const TRAP: &str = "(role r) (init (n 0)) (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
    (<= (legal r up) (true (n ?x))) (<= (legal r trap) (true (n ?x)))
    (<= (next (n ?y)) (does r up) (true (n ?x)) (succ ?x ?y)) (<= (next caught) (does r trap))
    (<= terminal (true (n 5))) (<= (goal r 100) (true (n 5))) (<= (goal r 0) (not (true (n 5))))";

#[test]
fn playouts_stop_where_a_role_has_no_legal_move_and_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("trap.kif");
    std::fs::write(&game, TRAP).unwrap();
    let game = game.to_str().unwrap();
    for engine in ["reasoner", "propnet"] {
        let v: Value =
            serde_json::from_str(&stdout(&["bench", game, "--seconds", "0.1", "--json", "--engine", engine])).unwrap();
        assert!(v["stuck"].as_u64().unwrap() > 0, "{v}");
        assert!(v["stuck_note"].as_str().unwrap().contains("role r had no legal move"), "{v}");
        assert_eq!(v["cut"], 0, "{v}");
    }
    // The trace cuts a stopped playout as the oracle does: legal moves listed, none for r.
    let trace = dir.path().join("t.jsonl");
    let out = gdl().args(["playout", game, "--count", "20", "--trace", trace.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("warning: playout"), "{:?}", out);
    let text = std::fs::read_to_string(&trace).unwrap();
    let stopped: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|p| p["steps"].as_array().unwrap().last().unwrap()["terminal"] == false)
        .collect();
    assert!(!stopped.is_empty());
    for p in stopped {
        let last = p["steps"].as_array().unwrap().last().unwrap().clone();
        assert!(last.get("joint").is_none() && last["legal"]["r"] == serde_json::json!([]), "{last}");
    }
}

/// A walk of 80 cells whose moves read a static relation of 80³ facts: past the facts `auto`
/// allows a grounding (it plays on the reasoner), within the grounder's own limits.
fn trio_game() -> String {
    let n: String = (0..80).map(|i| format!("(n {i}) ")).collect();
    let succ: String = (0..79).map(|i| format!("(succ {i} {}) ", i + 1)).collect();
    format!(
        "(role p) {n} {succ} (init (at 0)) (init (time 0))
         (<= (trio ?a ?b ?c) (n ?a) (n ?b) (n ?c))
         (<= (legal p (go ?b)) (true (at ?a)) (succ ?a ?b) (trio ?a ?b ?b))
         (<= (legal p stay) (true (at ?a)))
         (<= (next (at ?b)) (does p (go ?b))) (<= (next (at ?a)) (does p stay) (true (at ?a)))
         (<= (next (time ?u)) (true (time ?t)) (succ ?t ?u))
         (<= terminal (true (at 20))) (<= terminal (true (time 30)))
         (<= (goal p 100) (true (at 20))) (<= (goal p 0) (not (true (at 20))))"
    )
}

#[test]
fn a_long_run_moves_to_the_network_ground_in_the_background_with_the_same_results() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("trio.kif");
    std::fs::write(&game, trio_game()).unwrap();
    let game = game.to_str().unwrap();
    let args = ["bench", game, "--seconds", "4", "--threads", "1", "--upgrade-after", "0", "--json"];
    let v: Value = serde_json::from_str(&stdout(&args)).unwrap();
    assert_eq!(v["engine"], "propnet", "{v}");
    assert!(v["upgraded_after_seconds"].as_f64().is_some(), "{v}");
    // Without the upgrade, the same run stays on the reasoner.
    let args = ["bench", game, "--seconds", "0.2", "--threads", "1", "--upgrade-after", "1", "--json"];
    let v: Value = serde_json::from_str(&stdout(&args)).unwrap();
    assert_eq!((&v["engine"], &v["upgraded_after_seconds"]), (&Value::from("reasoner"), &Value::Null), "{v}");
    // Playouts that change engine on the way are the reasoner's.
    let run = |engine: &str| {
        let count = ["playout", game, "--count", "40000", "--upgrade-after", "0", "--engine", engine];
        gdl().args(count).output().unwrap()
    };
    let (auto, reasoner) = (run("auto"), run("reasoner"));
    let said = String::from_utf8_lossy(&auto.stderr);
    assert!(said.contains("engine: moves to propnet ("), "{said}");
    assert_eq!(String::from_utf8_lossy(&auto.stdout), String::from_utf8_lossy(&reasoner.stdout));
    // So are a match's games: players with budgets in playouts play the same moves.
    let games = |engine: &str| {
        let args = ["match", game, "--players", "mc:3", "--games", "600", "--threads", "1", "--json"];
        let v: Value =
            serde_json::from_str(&stdout(&[&args[..], &["--upgrade-after", "0", "--engine", engine]].concat()))
                .unwrap();
        (v["engine"].as_str().unwrap().to_string(), v["games"].clone())
    };
    let (auto, reasoner) = (games("auto"), games("reasoner"));
    assert_eq!((auto.0.as_str(), reasoner.0.as_str()), ("propnet", "reasoner"));
    assert_eq!(auto.1, reasoner.1);
}
