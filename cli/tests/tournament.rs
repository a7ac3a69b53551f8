//! `gdl tournament` end to end: the leaderboard of a small seeded tournament (a snapshot),
//! the same table on one thread or two, a tournament resumed from a cut record ending as an
//! uninterrupted one without replaying a finished game, an entrant that never answers
//! reported while the tournament goes on, a `gdl player` as an entrant, and records refused
//! in words.

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};

/// `gdl` run from the repository's root, so that paths in the output read `games/…`.
fn gdl(args: &[&str]) -> Command {
    let mut command = Command::new(get_cargo_bin("gdl"));
    command.current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")).args(args);
    command
}

/// A file of this test's own under `target/`.
fn scratch(name: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/tournament-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).display().to_string()
}

/// Three of our players on budgets in playouts (deterministic for the seed), on
/// tic-tac-toe and Monty Hall (GDL-II: nature never seated; mc and uct play it as honest).
const SMALL: [&str; 6] =
    ["tournament", "games/tictactoe.kif", "games/montyhall.kif", "--entrants", "random,mc:20,uct:50", "--seed"];

fn run(args: &[&str]) -> Output {
    let out = gdl(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    out
}

/// Standard output without the seconds the run took.
fn table(out: &Output) -> String {
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    text.split_once('\n').map(|(head, rest)| format!("{}\n{rest}", head.rsplit_once(", ").unwrap().0)).unwrap()
}

#[test]
fn leaderboard_of_a_small_seeded_tournament() {
    let filters = vec![(r"\d+\.\d+ s\b", "[seconds] s"), (r", (sweep|propagate)\)", ", [strategy])")];
    let args = [&SMALL[..], &["3", "--games-per-pairing", "2", "--threads", "1"]].concat();
    insta::with_settings!({ filters => filters, prepend_module_to_snapshot => false }, {
        assert_cmd_snapshot!("tournament_small", gdl(&args));
    });
}

#[test]
fn threads_change_nothing_in_the_table() {
    let one = run(&[&SMALL[..], &["5", "--threads", "1"]].concat());
    let two = run(&[&SMALL[..], &["5", "--threads", "2"]].concat());
    assert_eq!(table(&one), table(&two));
}

#[test]
fn a_resumed_tournament_ends_as_an_uninterrupted_one_and_replays_nothing() {
    let (whole, cut, csv) = (scratch("whole.json"), scratch("cut.json"), scratch("whole.csv"));
    let uninterrupted = run(&[&SMALL[..], &["7", "--threads", "2", "--record", &whole, "--csv", &csv]].concat());
    let mut record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&whole).unwrap()).unwrap();
    let finished = record["finished"].as_array_mut().unwrap();
    assert_eq!(finished.len(), 6 + 3);
    assert_eq!(std::fs::read_to_string(&csv).unwrap().lines().count(), 1 + 9);
    // As if interrupted: games 2, 5 and 8 never finished.
    finished.retain(|f| ![1, 4, 7].contains(&f["fixture"].as_u64().unwrap()));
    std::fs::write(&cut, record.to_string()).unwrap();
    let resumed = run(&[&SMALL[..], &["7", "--threads", "2", "--resume", &cut]].concat());
    assert_eq!(table(&resumed), table(&uninterrupted));
    let stderr = String::from_utf8(resumed.stderr).unwrap();
    let played: Vec<&str> = stderr.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(played.len(), 3, "{stderr}");
    for n in [2, 5, 8] {
        assert!(played.iter().any(|l| l.starts_with(&format!("game {n}: "))), "{stderr}");
    }
    // The record grew in place: every game there once.
    let grown: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&cut).unwrap()).unwrap();
    assert_eq!(grown["finished"].as_array().unwrap().len(), 9);
}

#[test]
fn an_entrant_that_never_answers_is_reported_and_the_tournament_goes_on() {
    let out = run(&[
        "tournament",
        "games/tictactoe.kif",
        "--entrants",
        "random,http://127.0.0.1:1",
        "--play-clock",
        "1",
        "--threads",
        "2",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("2 of 2 games"), "{text}");
    assert!(text.contains("faults of http://127.0.0.1:1:\n  game 1: player 2 (o) at the start: no reply"), "{text}");
    // The table counts them by kind: never reached.
    let line = text.lines().find(|l| l.starts_with(' ') && l.contains("http://127.0.0.1:1")).unwrap();
    assert!(line.trim_end().ends_with(" unreachable"), "{line}");
}

/// A process killed when the test ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_gdl_player_enters_over_the_protocol() {
    let mut child = gdl(&["player", "--port", "0", "--player", "uct:50"]).stderr(Stdio::piped()).spawn().unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let address = format!("http://{}", first.rsplit("http://").next().unwrap());
    std::thread::spawn(move || lines.for_each(drop));
    let _player = Running(child);
    let entrants = format!("random,{address}");
    let out = run(&[
        "tournament",
        "games/tictactoe.kif",
        "--entrants",
        &entrants,
        "--games-per-pairing",
        "2",
        "--threads",
        "2",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("4 of 4 games"), "{text}");
    assert!(!text.contains("faults of"), "{text}");
    // The remote entrant sat in all four games (two each side).
    let line = text.lines().find(|l| l.starts_with(' ') && l.contains(&address)).unwrap();
    assert_eq!(line.split_whitespace().nth(2), Some("4"), "{text}");
}

#[test]
fn records_of_something_else_are_refused_in_words() {
    let (record, other) = (scratch("refused.json"), scratch("other.json"));
    std::fs::write(&other, r#"{"game": "games/tictactoe.kif", "matches": []}"#).unwrap();
    let out = gdl(&[&SMALL[..], &["1", "--resume", &other]].concat()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("--resume: ") && stderr.contains("is not a tournament record, but a match's"), "{stderr}");
    run(&[&SMALL[..], &["1", "--record", &record]].concat());
    let out = gdl(&[&SMALL[..], &["2", "--resume", &record]].concat()).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("the record is of another tournament: its seed is 1, not 2"), "{stderr}");
    std::fs::write(&record, "{\"format\": \"gdl tournament record\", \"version\": 1").unwrap();
    let out = gdl(&[&SMALL[..], &["1", "--resume", &record]].concat()).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("it is not JSON"), "{stderr}");
    let out = gdl(&["tournament", "games/tictactoe.kif", "--entrants", "random"]).output().unwrap();
    assert!(String::from_utf8(out.stderr).unwrap().contains("two entrants at least"));
}
