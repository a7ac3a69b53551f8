//! `gdl player`: an HTTP server that plays GGP matches, one at a time, as GGP-Base and the
//! Dresden GameController expect. The protocol itself (messages, a player's match) is
//! `gdl_core::protocol`; this file is the glue over `crate::http` (hyper on a tokio runtime of
//! one thread, each read bounded in time and size): each request's task answers INFO itself
//! and passes every other message over a channel to one match thread, which owns the engine
//! (the reasoner is not `Send`, and its thinking must not hold the runtime), loads the
//! START's rules and plays each PLAY within the clock less a margin:
//! `--margin` (at most 40% of the clock), raised when an answer is measured to leave later
//! than planned (the search's last playouts, freeing its tree, threads waiting for a core).
//! A match whose referee falls silent (no message for `quiet_limit` of its clocks) is
//! abandoned: INFO says available again and the next START replaces it.

use crate::args::PlayerArgs;
use crate::http::{self, Answer, Bounds, Reply, Request};
use crate::load::{usage, Outcome};
use gdl_core::diagnostic::LineIndex;
use gdl_core::engine::{self, Choice, Engine};
use gdl_core::players::Spec;
use gdl_core::propnet::Options as PropnetOptions;
use gdl_core::protocol::message::{Message, MAX_MESSAGE_BYTES};
use gdl_core::protocol::player::Match;
use gdl_core::reasoner::Limits;
use std::net::IpAddr;
use std::net::TcpListener;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// The headers of every answer: browser referees may call the player (CORS).
const HEADERS: [(&str, &str); 4] = [
    ("Access-Control-Allow-Origin", "*"),
    ("Access-Control-Allow-Methods", "POST, GET, OPTIONS"),
    ("Access-Control-Allow-Headers", "Content-Type"),
    ("Content-Type", "text/acl; charset=utf-8"),
];

/// A message for the match thread, when it arrived, and where its answer goes.
struct Job {
    message: Message,
    arrived: Instant,
    answer: oneshot::Sender<Answer>,
}

/// What the match thread needs to load a game and play it.
struct Setup {
    spec: Spec,
    seed: u64,
    choice: Choice,
    limits: Limits,
    options: PropnetOptions,
    margin: f64,
}

pub fn run(args: &PlayerArgs) -> Outcome {
    let spec = Spec::parse(&args.player).map_err(|e| usage(format!("--player: {e}")))?;
    if !(args.read_timeout > 0.0 && args.read_timeout <= 86_400.0) {
        return Err(usage(format!(
            "--read-timeout: {} is not a number of seconds above 0 and at most a day",
            args.read_timeout
        )));
    }
    let host: IpAddr = args.host.parse().map_err(|_| usage(format!("--host: '{}' is not an IP address", args.host)))?;
    if !host.is_loopback() {
        eprintln!("gdl player: warning: listening on {host}, so any machine that reaches this one can send it matches");
    }
    let listener = TcpListener::bind((host, args.port))
        .map_err(|e| usage(format!("cannot listen on {host}:{}: {e}", args.port)))?;
    let address = listener.local_addr().map_or(format!("{host}:{}", args.port), |a| a.to_string());
    eprintln!("gdl player: {spec} listening on http://{address}");
    let setup = Setup {
        spec,
        seed: args.seed,
        choice: args.engine.engine,
        limits: args.engine.limits.limits(),
        options: args.engine.propnet_options(),
        margin: args.margin,
    };
    let (margin, read_timeout) = (setup.margin, args.read_timeout);
    let busy = Arc::new(Mutex::new(None::<Busy>));
    let answered = Arc::new(Mutex::new(None::<f64>));
    let (jobs, inbox) = channel();
    let (playing, measured) = (busy.clone(), answered.clone());
    thread::spawn(move || play_matches(&setup, &inbox, &playing, &measured));
    let shared = Arc::new(Shared { jobs, busy, answered, margin });
    // The clock starts when the connection is taken, before its request is read.
    let bounds = Bounds { seconds: read_timeout, max_body: MAX_MESSAGE_BYTES };
    http::serve(listener, bounds, &HEADERS, move |request| serve(request, shared.clone()));
    Ok(())
}

/// What every request's task shares: the way to the match thread, whether a match is on,
/// when the last move left (milliseconds after its PLAY arrived), and the settings.
struct Shared {
    jobs: Sender<Job>,
    busy: Arc<Mutex<Option<Busy>>>,
    answered: Arc<Mutex<Option<f64>>>,
    margin: f64,
}

/// Answers one request: CORS preflight, INFO, or a message passed to the match thread.
/// Once a move has been sent, notes when it left.
async fn serve(request: Request, shared: Arc<Shared>) -> Reply {
    let arrived = request.arrived;
    let (answer, is_move) = match request.method.as_str() {
        "OPTIONS" => ((204, String::new()), false),
        "POST" => match String::from_utf8(request.body) {
            Ok(text) => respond_to(&text, arrived, &shared).await,
            Err(_) => ((400, "error: the message is not UTF-8 text".to_string()), false),
        },
        // A browser or a person looking: say whether a match is on.
        "GET" => ((200, status(&shared.busy).to_string()), false),
        m => ((405, format!("error: {m} is not a GGP message: POST the message")), false),
    };
    let sent = is_move.then(|| {
        let answered = shared.answered.clone();
        Box::new(move || *answered.lock().expect("no thread panics holding it") = Some(millis(arrived)))
            as Box<dyn FnOnce() + Send>
    });
    Reply { answer, sent }
}

/// The match being played: its id, when its referee last sent a message, and how long a
/// silence means the referee has gone.
struct Busy {
    id: String,
    heard: Instant,
    quiet_limit: Duration,
}

impl Busy {
    fn new(id: String, start_clock: f64, play_clock: f64) -> Busy {
        Busy { id, heard: Instant::now(), quiet_limit: quiet_limit(start_clock, play_clock) }
    }

    /// No message for longer than a referee waits between two: it has gone.
    fn abandoned(&self) -> bool {
        self.heard.elapsed() > self.quiet_limit
    }
}

/// The silence after which a match is taken as abandoned: three of its longest clock, and
/// 5 s for the network (a referee sends a message at least every play clock).
fn quiet_limit(start_clock: f64, play_clock: f64) -> Duration {
    Duration::from_secs_f64(3.0 * start_clock.max(play_clock).max(0.0) + 5.0)
}

fn status(busy: &Mutex<Option<Busy>>) -> &'static str {
    match &*busy.lock().expect("no thread panics holding it") {
        Some(b) if !b.abandoned() => "busy",
        _ => "available",
    }
}

/// Milliseconds since `t`.
fn millis(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// The answer to a message, and whether it is a move: INFO here, the rest by the match
/// thread. A START still loading when its clock (less the margin) runs out is answered
/// `ready`: its PLAY waits for it.
async fn respond_to(text: &str, arrived: Instant, shared: &Shared) -> (Answer, bool) {
    let stopped = || (500, "error: the player has stopped".to_string());
    let message = match Message::parse(text) {
        Ok(m) => m,
        Err(e) => return ((400, format!("error: {e}")), false),
    };
    let (start_clock, is_move) = match &message {
        Message::Info => return ((200, status(&shared.busy).into()), false),
        Message::Start { .. } if status(&shared.busy) == "busy" => return ((200, "busy".into()), false),
        Message::Start { start_clock, .. } => (Some(*start_clock), false),
        Message::Play { .. } => (None, true),
        _ => (None, false),
    };
    let (tx, rx) = oneshot::channel();
    if shared.jobs.send(Job { message, arrived, answer: tx }).is_err() {
        return (stopped(), false);
    }
    let Some(seconds) = start_clock else {
        let answer = rx.await.unwrap_or_else(|_| stopped());
        let is_move = is_move && answer.0 == 200;
        return (answer, is_move);
    };
    let wait = Duration::try_from_secs_f64((seconds - shared.margin / 1000.0).max(0.0)).unwrap_or(Duration::MAX);
    let wait = wait.saturating_sub(arrived.elapsed());
    let answer = match tokio::time::timeout(wait, rx).await {
        Ok(Ok(answer)) => answer,
        Err(_) => (200, "ready".into()),
        Ok(Err(_)) => stopped(),
    };
    (answer, false)
}

/// The match being played, and the margin kept back from the play clock (milliseconds):
/// `base` to begin with, raised by what the moves are measured to need.
struct Playing {
    game: Match<Engine>,
    play_clock: f64,
    base: f64,
    margin: f64,
    /// When the last move's thinking was planned to end (milliseconds after its PLAY).
    planned: Option<f64>,
}

/// The match thread: one message at a time, in the order they came.
fn play_matches(setup: &Setup, inbox: &Receiver<Job>, busy: &Mutex<Option<Busy>>, answered: &Mutex<Option<f64>>) {
    let mut current: Option<Playing> = None;
    let set_busy = |b: Option<Busy>| *busy.lock().expect("no thread panics holding it") = b;
    for job in inbox {
        // A message of the match being played: its referee is still there.
        if let Some(b) = &mut *busy.lock().expect("no thread panics holding it") {
            if job.message.id() == Some(b.id.as_str()) {
                b.heard = Instant::now();
            }
        }
        let answer = match job.message {
            Message::Info => (200, status(busy).into()),
            Message::Start { id, role, rules, start_clock, play_clock } => match &current {
                Some(_) if status(busy) == "busy" => (200, "busy".into()),
                _ => match load(setup, &id, &role, &rules, job.arrived) {
                    Ok(game) => {
                        if let Some(old) = &current {
                            eprintln!(
                                "gdl player: match {} abandoned: its referee sent nothing for too long",
                                old.game.id
                            );
                        }
                        set_busy(Some(Busy::new(id, start_clock, play_clock)));
                        let base = setup.margin.min(0.4 * play_clock * 1000.0);
                        current = Some(Playing { game, play_clock, base, margin: base, planned: None });
                        (200, "ready".into())
                    }
                    Err(e) => (400, format!("error: {e}")),
                },
            },
            Message::Play { id, last } => match playing(&mut current, &id) {
                Err(e) => e,
                Ok(p) => match p.game.advance(&last) {
                    Err(e) => (400, format!("error: {e}")),
                    Ok(()) => play(p, job.arrived, answered),
                },
            },
            Message::Stop { id, last } => match playing(&mut current, &id) {
                Err(e) => e,
                Ok(p) => {
                    if let Err(e) = p.game.advance(&last) {
                        eprintln!("gdl player: match {id}: the last moves: {e}");
                    }
                    let goals = p.game.goals().map_or("not over".to_string(), |g| format!("{g:?}"));
                    eprintln!("gdl player: match {id} over after {} moves: goals {goals}", p.game.step);
                    current = None;
                    set_busy(None);
                    (200, "done".into())
                }
            },
            Message::Abort { id } => match playing(&mut current, &id) {
                Err(e) => e,
                Ok(_) => {
                    eprintln!("gdl player: match {id} aborted");
                    current = None;
                    set_busy(None);
                    (200, "aborted".into())
                }
            },
        };
        let _ = job.answer.send(answer);
    }
}

/// The match `id` if it is the one being played, else the error to answer.
fn playing<'a>(current: &'a mut Option<Playing>, id: &str) -> Result<&'a mut Playing, Answer> {
    match current {
        Some(p) if p.game.id != id => {
            Err((400, format!("error: no match '{id}' here: this player is playing '{}'", p.game.id)))
        }
        Some(p) => Ok(p),
        None => Err((400, format!("error: no match '{id}' here: START it first"))),
    }
}

/// The game of a START: its rules checked, the engine chosen, the role found.
fn load(setup: &Setup, id: &str, role: &str, rules: &str, arrived: Instant) -> Result<Match<Engine>, String> {
    let valid = gdl_core::validated(rules).map_err(|diags| {
        let index = LineIndex::new(rules);
        let first = diags.iter().find(|d| d.is_error()).or(diags.first()).map(|d| index.render("rules", d));
        format!("the rules do not load: {}", first.unwrap_or_default())
    })?;
    let now = || millis(arrived);
    let chosen =
        engine::build(setup.choice, &valid.description, setup.limits, setup.options, &now).map_err(|d| d.message)?;
    let game = Match::new(id, role, chosen.engine, setup.spec, setup.seed)?;
    let plays = if game.is_hidden() {
        format!(", GDL-II: plays {} from its role's history", game.spec())
    } else {
        String::new()
    };
    eprintln!("gdl player: match {id} as {role}, engine {}{plays}, ready after {:.0} ms", chosen.note, now());
    Ok(game)
}

/// A move within the play clock: thinking stops `margin` before it. When the last move
/// left later than planned, the margin grows to the base plus one and a half times the delay.
fn play(p: &mut Playing, arrived: Instant, answered: &Mutex<Option<f64>>) -> Answer {
    let left = answered.lock().expect("no thread panics holding it").take();
    if let (Some(planned), Some(left)) = (p.planned.take(), left) {
        p.margin = p.margin.max(p.base + 1.5 * (left - planned));
    }
    let now = || millis(arrived);
    let clock = p.play_clock * 1000.0;
    let planned = clock - p.margin;
    match p.game.choose(planned - now(), &now) {
        Err(e) => (400, format!("error: {e}")),
        Ok(choice) => {
            p.planned = Some(planned);
            if let Some(why) = &choice.trouble {
                eprintln!("gdl player: the player failed ({why}); a random legal move stands in");
            }
            eprintln!(
                "gdl player: match {} step {}: {} after {} playouts, {:.0} ms (margin {:.0} ms of {clock:.0})",
                p.game.id,
                p.game.step + 1,
                choice.text,
                choice.playouts,
                now(),
                p.margin
            );
            (200, choice.text)
        }
    }
}
