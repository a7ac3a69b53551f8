//! The GGP protocol end to end, on loopback only: `gdl player` against hostile clients and
//! against our referee; `gdl match` refereeing players that never answer or answer garbage;
//! and, with Java, real third-party software from `../shared/ggp-referee`: the Dresden
//! GameController referees our player (tic-tac-toe, connect four; GDL-II: Monty Hall and
//! Kriegspiel tic-tac-toe 4×4, our player told only its percepts), and `gdl match`
//! referees Jocular. Each Java test says so and stops when Java is not installed
//! (`scripts/setup.sh` installs it with `need_java`).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::Duration;

fn gdl() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gdl"))
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// A file of `../shared`; the test fails when it is missing.
fn shared(path: &str) -> PathBuf {
    let p = root().join("../shared").join(path);
    assert!(p.exists(), "{} is missing: the protocol tests need ../shared", p.display());
    p
}

/// A process killed when the test ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `gdl player` on a free port, with its address; its stderr is drained in the background.
fn player(args: &[&str]) -> (Running, String) {
    let mut child = gdl().args(["player", "--port", "0"]).args(args).stderr(Stdio::piped()).spawn().unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let address = first.rsplit("http://").next().unwrap().to_string();
    assert!(first.contains("listening on http://127.0.0.1:"), "{first}");
    thread::spawn(move || lines.for_each(drop));
    (Running(child), address)
}

/// POSTs `body` and returns the status and the reply.
fn post(address: &str, body: &str) -> (u16, String) {
    let sent = ureq::post(&format!("http://{address}/")).timeout(Duration::from_secs(30)).send_string(body);
    match sent {
        Ok(r) => (r.status(), r.into_string().unwrap()),
        Err(ureq::Error::Status(code, r)) => (code, r.into_string().unwrap()),
        Err(e) => panic!("no answer to {body:.40}: {e}"),
    }
}

#[test]
fn our_player_answers_hostile_clients_and_keeps_serving() {
    let (_player, address) = player(&["--player", "uct:100", "--read-timeout", "1"]);
    assert_eq!(post(&address, "(INFO)"), (200, "available".into()));
    let preflight = ureq::request("OPTIONS", &format!("http://{address}/")).call().unwrap();
    assert_eq!(preflight.header("Access-Control-Allow-Origin"), Some("*"));
    let cases = [
        ("(PLAY m1 ((mark 1 1) noop)", 400, "is never closed"),
        ("\u{0}\u{1}garbage", 400, "not an s-expression"),
        ("(HELLO)", 400, "'hello' is not a message"),
        ("(PLAY nosuch NIL)", 400, "no match 'nosuch' here: START it first"),
        ("(START m1 z ((role x)) 10 3)", 400, "role 'z' is not in the game"),
        ("(START m1 x ((role x) (<= (legal x ?a) (not (foo ?a)))) 10 3)", 400, "the rules do not load: rules:1:"),
    ];
    for (message, status, says) in cases {
        let (code, reply) = post(&address, message);
        assert!(code == status && reply.contains(says), "{message:.40}: {code} {reply}");
    }
    // A body of 10 MB is refused without being read.
    let mut big = TcpStream::connect(&address).unwrap();
    big.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(big, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n", 10 << 20).unwrap();
    let mut sender = big.try_clone().unwrap();
    let sending = thread::spawn(move || (0..10).all(|_| sender.write_all(&[b'x'; 1 << 20]).is_ok()));
    let mut head = [0u8; 12];
    big.read_exact(&mut head).unwrap();
    assert_eq!(&head, b"HTTP/1.1 413");
    big.shutdown(std::net::Shutdown::Both).unwrap();
    let _ = sending.join();
    // Clients that trickle their message (a small one, or only its head) or send nothing at
    // all are cut off when --read-timeout (1 s) runs out, and others are served meanwhile.
    let trickle = |head: &'static str| {
        let mut slow = TcpStream::connect(&address).unwrap();
        write!(slow, "{head}").unwrap();
        thread::spawn(move || {
            for _ in 0..if head.is_empty() { 0 } else { 10 } {
                thread::sleep(Duration::from_millis(300));
                if slow.write_all(b" ").is_err() {
                    break;
                }
            }
            slow.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
            let mut head = [0u8; 12];
            slow.read_exact(&mut head).map(|_| String::from_utf8_lossy(&head).to_string()).unwrap_or_default()
        })
    };
    let slow = [
        trickle("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n(IN"),
        trickle("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n(IN"),
        trickle("POST / HTTP/1.1\r\nHost: x\r\nX-Slow: "),
        trickle(""),
    ];
    assert_eq!(post(&address, "(PING)"), (200, "available".into()));
    for (k, answer) in slow.into_iter().enumerate() {
        let answer = answer.join().unwrap();
        assert!(answer.starts_with("HTTP/1.1 408"), "slow client {k}: {answer}");
    }
    // A whole match against our referee, then another one: the player is still sound.
    let players = format!("http://{address},uct:100");
    played_in_time(&referee_tictactoe(&players, &["--games", "2", "--play-clock", "2"]), 2000.0);
}

/// The matches of a record all ended, with no fault, every move within `clock` milliseconds.
fn played_in_time((stderr, record): &(String, serde_json::Value), clock: f64) {
    assert!(!stderr.contains("gdl match: player"), "no fault: {stderr}");
    for m in record["matches"].as_array().unwrap() {
        assert!(m["goals"].is_array(), "the match ends: {m}");
        assert_eq!(m["faults"].as_array().unwrap().len(), 0, "{m}");
        assert!(m["steps"].as_array().unwrap().len() >= 5, "{m}");
        for step in m["steps"].as_array().unwrap() {
            assert!(step["millis"].as_array().unwrap().iter().all(|t| t.as_f64().unwrap() < clock), "{step}");
        }
    }
}

#[test]
fn our_player_refuses_a_read_timeout_that_is_not_one() {
    for given in ["0", "-1", "NaN", "1e300"] {
        let out = gdl().args(["player", "--port", "0", &format!("--read-timeout={given}")]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{given}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("is not a number of seconds above 0 and at most a day"), "{err}");
    }
}

/// Raises this process's limit of open files to `wanted` if the system allows; returns how
/// many it may open now.
fn open_files(wanted: u64) -> u64 {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit read and write the one struct given.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
        if limit.rlim_cur < wanted {
            let raised = libc::rlimit { rlim_cur: wanted.min(limit.rlim_max), rlim_max: limit.rlim_max };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    limit.rlim_cur
}

/// A thousand connections that send half a request head and then nothing, held open the whole
/// match (the player gives a message 60 s to arrive): INFO is answered at once, and against
/// our referee every PLAY gets its move within the 2 s clock. The old server, a thread per
/// connection and at most 64, answered 503 to everyone else while they idled.
#[test]
fn our_player_moves_in_time_while_a_thousand_connections_idle() {
    let idle = 1000;
    let files = open_files(idle + 200);
    let idle = idle.min(files.saturating_sub(200));
    if idle < 1000 {
        eprintln!("this process may open only {files} files: {idle} idle connections instead of 1000");
    }
    let (_player, address) = player(&["--player", "uct:60s", "--read-timeout", "60"]);
    let halves: Vec<TcpStream> = (0..idle)
        .map(|_| {
            let mut half = TcpStream::connect(&address).unwrap();
            half.write_all(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Le").unwrap();
            half
        })
        .collect();
    assert_eq!(post(&address, "(INFO)"), (200, "available".into()));
    let players = format!("http://{address},random");
    played_in_time(&referee_tictactoe(&players, &["--games", "1", "--start-clock", "5", "--play-clock", "2"]), 2000.0);
    // The idle connections were held, not cut, all along: none has been answered or closed.
    for half in halves.iter().step_by(100) {
        half.set_nonblocking(true).unwrap();
        let kind = (&*half).read(&mut [0u8; 16]).map(|n| format!("{n} bytes")).unwrap_err().kind();
        assert_eq!(kind, std::io::ErrorKind::WouldBlock);
    }
    assert_eq!(post(&address, "(INFO)"), (200, "available".into()));
}

/// A fake remote player on a free port: `answer` is what it does with each connection.
fn fake(answer: fn(TcpStream)) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            thread::spawn(move || answer(stream));
        }
    });
    address
}

/// Runs `gdl match` on tic-tac-toe between `players` with `args`; returns stderr and the record.
fn referee_tictactoe(players: &str, args: &[&str]) -> (String, serde_json::Value) {
    let record = tempfile::NamedTempFile::new().unwrap();
    let out = gdl()
        .arg("match")
        .arg(root().join("games/tictactoe.kif"))
        .args(["--players", players])
        .args(args)
        .arg("--record")
        .arg(record.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{stderr}");
    (stderr, serde_json::from_str(&std::fs::read_to_string(record.path()).unwrap()).unwrap())
}

/// `gdl match` on tic-tac-toe between the player at `address` and `random`, on clocks of
/// half a second.
fn referee_against(address: &str) -> (String, serde_json::Value) {
    referee_tictactoe(
        &format!("http://{address},random"),
        &["--games", "1", "--start-clock", "0.5", "--play-clock", "0.5"],
    )
}

#[test]
fn our_player_answers_concurrent_asks() {
    let (_player, address) = player(&["--player", "random"]);
    let start = "(START m1 x ((role x) (init (on)) (<= (legal x stop) (true (on))) (<= (next off) (does x stop)) (<= terminal (true off)) (goal x 100)) 10 3)";
    // Many at once: every INFO is answered, and of three STARTs exactly one is taken.
    let asks: Vec<_> = (0..24)
        .map(|k| {
            let address = address.clone();
            thread::spawn(move || post(&address, if k % 8 == 0 { start } else { "(INFO)" }))
        })
        .collect();
    let answers: Vec<(u16, String)> = asks.into_iter().map(|t| t.join().unwrap()).collect();
    assert!(answers.iter().all(|(code, _)| *code == 200), "{answers:?}");
    let ready = answers.iter().filter(|(_, a)| a == "ready").count();
    assert_eq!(ready, 1, "{answers:?}");
    assert_eq!(
        answers.iter().filter(|(_, a)| a == "busy").count()
            + ready
            + answers.iter().filter(|(_, a)| a == "available").count(),
        24
    );
    assert_eq!(post(&address, "(PLAY m1 NIL)"), (200, "stop".into()));
    assert_eq!(post(&address, "(ABORT m1)"), (200, "aborted".into()));
    assert_eq!(post(&address, "(INFO)"), (200, "available".into()));
}

/// A referee that vanishes without ABORT does not keep the player busy for ever: after a
/// silence of three clocks and 5 s (8 s with 1 s clocks) the match is abandoned, INFO says
/// available, and a new START is taken.
#[test]
fn our_player_frees_itself_from_a_match_whose_referee_has_gone() {
    let (_player, address) = player(&["--player", "random"]);
    let start = |id: &str| {
        format!("(START {id} x ((role x) (init (on)) (<= (legal x stop) (true (on))) (<= (next off) (does x stop)) (<= terminal (true off)) (goal x 100)) 1 1)")
    };
    assert_eq!(post(&address, &start("gone")), (200, "ready".into()));
    thread::sleep(Duration::from_secs(4));
    assert_eq!(post(&address, "(INFO)"), (200, "busy".into()));
    assert_eq!(post(&address, &start("next")), (200, "busy".into()));
    thread::sleep(Duration::from_millis(4500));
    assert_eq!(post(&address, "(INFO)"), (200, "available".into()));
    assert_eq!(post(&address, &start("next")), (200, "ready".into()));
    assert_eq!(post(&address, "(PLAY next NIL)"), (200, "stop".into()));
    let (code, answer) = post(&address, "(PLAY gone NIL)");
    assert_eq!(code, 400);
    assert!(answer.contains("this player is playing 'next'"), "{answer}");
}

#[test]
fn our_referee_finishes_a_match_against_a_player_that_never_answers() {
    let address = fake(|stream| {
        thread::sleep(Duration::from_secs(60));
        drop(stream);
    });
    let (stderr, record) = referee_against(&address);
    assert!(stderr.contains("player 1 (x) at the start: no reply in 0.5 s"), "{stderr}");
    assert!(stderr.contains("player 1 (x) at step 1: no reply in 0.5 s; played "), "{stderr}");
    let m = &record["matches"][0];
    assert!(m["goals"].is_array(), "the match ends: {m}");
    assert!(m["faults"][1]["message"].as_str().unwrap().contains("at step 1: no reply in 0.5 s; played ("));
}

#[test]
fn our_referee_finishes_a_match_against_a_player_that_answers_garbage() {
    let address = fake(|mut stream| {
        let mut buffer = [0u8; 65536];
        let _ = stream.read(&mut buffer);
        let _ = stream.write_all(b"HTTP/1.0 200 OK\r\nContent-Length: 12\r\n\r\n(((( \"taunt\"");
    });
    let (stderr, record) = referee_against(&address);
    assert!(stderr.contains("player 1 (x) at the start: answered '(((( \"taunt\"' instead of ready"), "{stderr}");
    assert!(stderr.contains("player 1 (x) at step 1: the reply is not a move: "), "{stderr}");
    assert!(record["matches"][0]["goals"].is_array());
}

/// Whether Java runs here; when not, the test says it is skipped.
fn java(test: &str) -> bool {
    let ok = Command::new("java").arg("-version").output().is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped {test}: java is not installed (scripts/setup.sh need_java installs it)");
    }
    ok
}

/// The Dresden GameController referees a match of `game` (a file of `../shared`) between our
/// player as the first role and its random player as the second, in GDL (`version` 1) or
/// GDL-II (2: our player gets its percepts only); returns its log.
fn dresden(game: &str, play_clock: &str, version: &str) -> String {
    let (_player, address) = player(&["--player", "uct:500ms"]);
    let (host, port) = address.split_once(':').unwrap();
    let out = Command::new("java")
        .arg("-jar")
        .arg(shared("ggp-referee/gamecontroller-cli.jar"))
        .arg("m1")
        .arg(shared(game))
        .args(["10", play_clock, version, "-remote", "1", "ours", host, port, version, "-random", "2"])
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{log}");
    log
}

/// The referee's log shows a finished match where our player was never late nor illegal
/// (the referee's own random player may be: it tracks every state it may be in, and in a
/// GDL-II game can run out of its clock on a loaded machine; the referee then plays for it).
fn clean(log: &str) {
    assert!(log.contains("Game over! results:"), "{log}");
    for line in log.lines().map(str::to_lowercase) {
        for bad in ["illegal", "timeout", "timed out"] {
            assert!(!(line.contains(bad) && line.contains("ours")), "the referee's log says {bad}:\n{log}");
        }
        for bad in ["io error", "exception"] {
            assert!(!line.contains(bad), "the referee's log says {bad}:\n{log}");
        }
    }
    let ours = log.lines().filter(|l| l.contains("reply from ours:")).count();
    assert!(ours >= 3, "our player answered {ours} PLAYs:\n{log}");
}

#[test]
fn the_dresden_gamecontroller_referees_our_player_at_tictactoe() {
    if java("the_dresden_gamecontroller_referees_our_player_at_tictactoe") {
        clean(&dresden("corpus/ggp-base/tictactoe.kif", "3", "1"));
    }
}

#[test]
fn the_dresden_gamecontroller_referees_our_player_at_connect_four() {
    if java("the_dresden_gamecontroller_referees_our_player_at_connect_four") {
        clean(&dresden("corpus/ggp-base/connectFour.kif", "3", "1"));
    }
}

/// The messages the referee's log shows it sent to our player after the START.
fn sent_to_ours(log: &str) -> Vec<&str> {
    let sent = log.lines().filter_map(|l| l.split_once("message to ours sent: ").map(|(_, m)| m));
    sent.filter(|m| !m.starts_with("\"(START")).collect()
}

#[test]
fn the_dresden_gamecontroller_referees_our_player_at_monty_hall() {
    if java("the_dresden_gamecontroller_referees_our_player_at_monty_hall") {
        let log = dresden("corpus-gdl2/montyhall.kif", "3", "2");
        clean(&log);
        // Our player (the candidate) is told its percepts, never where nature hid the car.
        let sent = sent_to_ours(&log);
        assert_eq!(sent.len(), 4, "NIL, two PLAYs with percepts, STOP:\n{log}");
        assert!(sent[1].starts_with("\"(PLAY m1 ((DOES CANDIDATE (CHOOSE "), "{}", sent[1]);
        assert!(sent.iter().all(|m| !m.contains("HIDE_CAR")), "{sent:?}");
        assert!(log.contains("seesTerms(RANDOM) = [(DOES CANDIDATE (CHOOSE "), "{log}");
    }
}

#[test]
fn the_dresden_gamecontroller_referees_our_player_at_kriegspiel_tictactoe() {
    if java("the_dresden_gamecontroller_referees_our_player_at_kriegspiel_tictactoe") {
        let log = dresden("corpus-gdl2/kriegTTT_4x4.kif", "3", "2");
        clean(&log);
        // Each PLAY after the first says whether our own mark went in: (YOUGOTIT m n) or (MARK m n).
        for m in &sent_to_ours(&log)[1..] {
            let percepts = m.split_once(" m1 ").unwrap().1;
            assert!(percepts.starts_with("((YOUGOTIT ") || percepts.starts_with("((MARK "), "{m}");
        }
    }
}

#[test]
fn our_referee_plays_jocular_to_the_end_of_tictactoe() {
    if !java("our_referee_plays_jocular_to_the_end_of_tictactoe") {
        return;
    }
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut jocular = Command::new("java")
        .arg("-jar")
        .arg(shared("ggp-referee/jocular.jar"))
        .args(["--daemon", &format!("--port={port}")])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Jocular says on stderr when it listens (a probe connection would upset it).
    let mut log = BufReader::new(jocular.stderr.take().unwrap()).lines();
    let _jocular = Running(jocular);
    let up = log.by_ref().map_while(Result::ok).any(|line| line.contains("Awaiting incoming connections"));
    assert!(up, "Jocular stopped before listening on port {port}");
    thread::spawn(move || log.for_each(drop));
    let record = tempfile::NamedTempFile::new().unwrap();
    let out = gdl()
        .arg("match")
        .arg(shared("corpus/ggp-base/tictactoe.kif"))
        .args(["--players", &format!("http://127.0.0.1:{port},uct:300"), "--games", "1"])
        .args(["--start-clock", "10", "--play-clock", "3", "--record"])
        .arg(record.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(record.path()).unwrap()).unwrap();
    let m = &record["matches"][0];
    assert!(m["goals"].is_array(), "the match ends: {m}");
    assert_eq!(m["faults"].as_array().unwrap().len(), 0, "Jocular's moves were all read and legal: {stderr}");
}

#[test]
fn our_referee_finishes_a_match_against_a_player_that_is_not_there() {
    let address = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().to_string();
    let (stderr, record) = referee_against(&address);
    assert!(stderr.contains("player 1 (x) at step 1: no reply: "), "{stderr}");
    assert!(record["matches"][0]["goals"].is_array());
    let out = gdl()
        .arg("match")
        .arg(root().join("games/tictactoe.kif"))
        .args(["--players", "http://,random"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--players: 'http://' needs a host and port"));
}
