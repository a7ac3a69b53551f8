//! Snapshots of the text `gdl` prints for people, one or more per command, on the games of
//! `games/`: a change of wording shows in review as a change of `tests/snapshots/*.snap`.
//! Runs are deterministic (fixed seeds, one thread); what depends on the clock (seconds,
//! rates, counts of a timed run, the strategy the network measures faster) is masked.
//! After an intended change: `cargo insta review`, or `INSTA_UPDATE=always cargo test -p gdl-cli --test snapshots`.

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// `gdl` run from the repository's root, so that paths in the output read `games/…`.
fn gdl(args: &[&str]) -> Command {
    let mut command = Command::new(get_cargo_bin("gdl"));
    command.current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")).args(args);
    command
}

/// Masks of what changes from run to run.
fn filters() -> Vec<(&'static str, &'static str)> {
    vec![
        // `measure` picks the faster of the network's two strategies on a short run.
        (r", (sweep|propagate)\)", ", [strategy])"),
        (r"\d+\.\d+ s\b", "[seconds] s"),
        (r"\d+(\.\d+)? (playouts|nodes)/s", "[rate] $2/s"),
    ]
}

macro_rules! snapshot {
    ($name:literal, $args:expr) => {
        insta::with_settings!({ filters => filters(), prepend_module_to_snapshot => false }, {
            assert_cmd_snapshot!($name, gdl(&$args));
        })
    };
}

#[test]
fn check() {
    snapshot!("check_ok", ["check", "games/tictactoe.kif"]);
    snapshot!("check_error", ["check", "games/bug-unsafe.kif"]);
    snapshot!("check_unreadable", ["check", "games/no-such-game.kif"]);
}

#[test]
fn info() {
    snapshot!("info", ["info", "games/nim.kif"]);
    // Legal moves listed by role name (o before x).
    snapshot!("info_tictactoe", ["info", "games/tictactoe.kif"]);
    // The engines of the catalogue.
    snapshot!("info_unknown_engine", ["info", "games/nim.kif", "--engine", "fast"]);
    // GDL-II: what the candidate knows once a door is opened (`play::knows`, as the page).
    snapshot!(
        "info_as",
        ["info", "games/montyhall.kif", "--as", "candidate", "--path", "(choose 1), (hide 2); noop, (open 3)"]
    );
}

/// `gdl player`'s log of one match of tic-tac-toe refereed by `gdl match` against a seeded
/// random player, after a message that is not one: our player's budget is in playouts and the
/// clocks are long, so its moves are the same on every run; times and the port are masked.
#[test]
fn player_log() {
    let mut player = gdl(&["player", "--port", "0", "--player", "uct:100", "--seed", "1"]);
    let mut player = player.stderr(Stdio::piped()).spawn().unwrap();
    let mut log = BufReader::new(player.stderr.take().unwrap());
    let mut text = String::new();
    log.read_line(&mut text).unwrap();
    let address = text.trim().rsplit("http://").next().unwrap().to_string();
    // A message that is not one: answered 400, and said in the log.
    let refused = ureq::post(&format!("http://{address}/")).send_string("(HELLO)");
    assert!(matches!(refused, Err(ureq::Error::Status(400, _))));
    let players = format!("http://{address},random");
    let clocks = ["--start-clock", "60", "--play-clock", "60"];
    let refereed = gdl(&["match", "games/tictactoe.kif", "--players", &players, "--games", "1", "--seed", "5"])
        .args(clocks)
        .output()
        .unwrap();
    player.kill().unwrap();
    player.wait().unwrap();
    log.read_to_string(&mut text).unwrap();
    assert!(refereed.status.success(), "{}", String::from_utf8_lossy(&refereed.stderr));
    let mut masks = filters();
    masks.extend([
        (r"127\.0\.0\.1:\d+", "127.0.0.1:[port]"),
        (r"\b\d+ ms\b", "[ms] ms"),
        // The referee names its matches after the time they start.
        (r"gdl\.\d+\.", "gdl.[time]."),
    ]);
    insta::with_settings!({ filters => masks, prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("player_log", text);
    });
}

#[test]
fn fmt() {
    snapshot!("fmt_infix", ["fmt", "games/nim.kif", "--to", "infix"]);
}

#[test]
fn playout() {
    snapshot!("playout", ["playout", "games/tictactoe.kif", "--count", "3", "--seed", "7"]);
}

#[test]
fn replay() {
    // Two playouts of `gdl playout games/tictactoe.kif --seed 7`, the second's first step
    // tampered with ((control x) for (control o)).
    snapshot!("replay", ["replay", "games/tictactoe.kif", "cli/tests/traces/tictactoe-tampered.jsonl"]);
}

#[test]
fn bench() {
    insta::with_settings!({ filters => {
        let mut f = filters();
        // Timed: how many playouts end how varies.
        f.extend([
            (r"\d+ playouts in", "[count] playouts in"),
            (r"average length \d+\.\d", "average length [length]"),
            (r"(\]\]): \d+", "$1: [count]"),
        ]);
        f
    }, prepend_module_to_snapshot => false }, {
        assert_cmd_snapshot!("bench", gdl(&["bench", "games/nim.kif", "--seconds", "0.1", "--threads", "1"]));
    });
}

#[test]
fn match_() {
    snapshot!(
        "match_two_players",
        [
            "match",
            "games/tictactoe.kif",
            "--players",
            "perfect,uct:50",
            "--games",
            "4",
            "--seed",
            "3",
            "--threads",
            "1"
        ]
    );
    snapshot!(
        "match_one_player",
        [
            "match",
            "games/eightpuzzle.kif",
            "--players",
            "random",
            "--games",
            "2",
            "--max-steps",
            "30",
            "--threads",
            "1"
        ]
    );
    snapshot!("match_no_threads", ["match", "games/tictactoe.kif", "--players", "random", "--threads", "0"]);
    snapshot!("match_bad_player", ["match", "games/tictactoe.kif", "--players", "uct,alphabeta"]);
}

/// A match refereed by the protocol's referee (`--record`): the per-game lines, the table
/// and the record; on tic-tac-toe, and on Monty Hall (GDL-II: nature drawn from the seed, each
/// role told only its own move and percepts).
#[test]
fn refereed_match() {
    for (name, game, players) in [
        ("match_refereed", "games/tictactoe.kif", "random,uct:50"),
        ("match_refereed_gdl2", "games/montyhall.kif", "random,honest:20"),
    ] {
        let record = format!("target/{name}.json");
        let args = ["match", game, "--players", players, "--games", "2", "--seed", "3", "--record", &record];
        insta::with_settings!({ filters => filters(), prepend_module_to_snapshot => false }, {
            assert_cmd_snapshot!(name, gdl(&args));
        });
        let text = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join(&record)).unwrap();
        // The match id has the time it started; the milliseconds each answer took vary.
        let masks = vec![(r"gdl\.\d+\.", "gdl.[time]."), (r#""millis": \[[^\]]*\]"#, r#""millis": [masked]"#)];
        insta::with_settings!({ filters => masks, prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!(format!("{name}_record"), text);
        });
    }
}

#[test]
fn explain() {
    snapshot!("explain", ["explain", "games/tictactoe.kif", "--path", "(mark 1 1)", "--query", "terminal"]);
}

#[test]
fn solve() {
    snapshot!("solve", ["solve", "games/nim.kif"]);
}

#[test]
fn perft() {
    snapshot!("perft", ["perft", "games/tictactoe.kif", "--depth", "3"]);
}

#[test]
fn analyze() {
    snapshot!("analyze_exhaustive", ["analyze", "games/nim.kif"]);
    snapshot!(
        "analyze_sampled",
        ["analyze", "games/connectfour.kif", "--max-states", "500", "--playouts", "20", "--threads", "1"]
    );
    snapshot!("analyze_fails", ["analyze", "games/bug-unreachable.kif"]);
    // Factoring: two boards that share the turn; tic-tac-toe does not split.
    snapshot!(
        "analyze_factors",
        ["analyze", "games/doubletictactoe.kif", "--max-states", "500", "--playouts", "20", "--threads", "1"]
    );
    snapshot!("analyze_one_factor", ["analyze", "games/tictactoe.kif"]);
}

#[test]
fn ground() {
    snapshot!("ground_infix", ["ground", "games/nim.kif", "--format", "infix"]);
}

#[test]
fn help() {
    snapshot!("help", ["--help"]);
    // The options a run shares (playout, bench, match).
    snapshot!("help_playout", ["playout", "--help"]);
}
