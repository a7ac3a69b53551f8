//! The referee of `gdl match` when a player is remote (`http://host:port` in `--players`) or
//! a record is asked for (`--record`): each game is one match of the GGP protocol, refereed
//! by `gdl_core::protocol::referee`; remote players are reached over HTTP here, one message
//! at a time, each within its clock.

use crate::args::MatchArgs;
use crate::load::{invalid, usage, Loader, Outcome};
use crate::tally::table;
use gdl_core::engine::Engine;
use gdl_core::machine::StateMachine;
use gdl_core::players::arena::tally_named;
use gdl_core::protocol::fault::{Answer, NoReply};
use gdl_core::protocol::game::{referee_game, Entrant, Outside, Terms};
use gdl_core::protocol::message::{Message, MAX_MESSAGE_BYTES};
use gdl_core::protocol::referee::{Remote, Seat};
use serde_json::json;
use std::io::Read;
use std::time::{Duration, Instant, SystemTime};

/// The seat of a remote player at an address, reached over HTTP through `agent`.
pub fn reach_over(agent: &ureq::Agent) -> impl FnMut(&str) -> Box<dyn Seat<Engine>> + '_ {
    move |url: &str| -> Box<dyn Seat<Engine>> {
        let (agent, to) = (agent.clone(), url.to_string());
        Box::new(Remote { url: url.to_string(), post: move |m: &Message, clock| post(&agent, &to, m, clock) })
    }
}

/// POSTs `message` to the player at `url` and returns the reply's text, or why there is
/// none within `clock` ms.
fn post(agent: &ureq::Agent, url: &str, message: &Message, clock: f64) -> Answer {
    let start = Instant::now();
    let sent = agent
        .post(url)
        .timeout(Duration::from_secs_f64(clock / 1000.0))
        .set("Content-Type", "text/acl")
        .send_string(&message.to_string());
    let timed_out = || start.elapsed().as_secs_f64() * 1000.0 >= clock;
    match sent {
        Ok(response) => {
            let mut text = String::new();
            let read = response.into_reader().take(MAX_MESSAGE_BYTES as u64 + 1).read_to_string(&mut text);
            match read {
                Err(_) if timed_out() => Err(NoReply::Timeout { millis: clock }),
                Err(e) => Err(NoReply::Unreadable { detail: e.to_string() }),
                Ok(_) if text.len() > MAX_MESSAGE_BYTES => Err(NoReply::TooLong),
                Ok(_) => Ok(text),
            }
        }
        Err(ureq::Error::Status(code, response)) => {
            Err(NoReply::Status { code, body: response.into_string().unwrap_or_default() })
        }
        Err(_) if timed_out() => Err(NoReply::Timeout { millis: clock }),
        Err(e) => Err(NoReply::Unreachable { detail: e.to_string() }),
    }
}

pub fn run(args: &MatchArgs, entrants: &[Entrant]) -> Outcome {
    let (file, json) = (&args.file, args.json);
    for (name, clock) in [("--start-clock", args.start_clock), ("--play-clock", args.play_clock)] {
        if !(clock.is_finite() && clock > 0.0) {
            return Err(usage(format!("{name}: {clock} is not a number of seconds above 0")));
        }
    }
    let loader = Loader::new(file, &args.run.engine, json)?;
    let mut m = loader.engine(file, json)?;
    let roles = m.roles().to_vec();
    let names: Vec<String> = entrants.iter().map(Entrant::name).collect();
    let agent = ureq::AgentBuilder::new().build();
    let started = Instant::now();
    let now = || started.elapsed().as_secs_f64() * 1000.0;
    let stamp = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let terms = Terms {
        id: format!("gdl.{stamp}"),
        start_clock: args.start_clock,
        play_clock: args.play_clock,
        max_steps: args.run.max_steps,
        seed: args.run.seed,
    };
    let mut reach = reach_over(&agent);
    let (mut games, mut records) = (Vec::new(), Vec::new());
    for g in 0..args.games {
        let log = &mut |s: &str| eprintln!("gdl match: {s}");
        let outside = &mut Outside { reach: &mut reach, now: &now, log };
        let (game, record) =
            referee_game(&mut m, &loader.description, entrants, g, &terms, outside).map_err(invalid)?;
        if !json {
            eprintln!("{}", record.summary(g));
        }
        games.push(game);
        records.push(record);
    }
    let seconds = started.elapsed().as_secs_f64();
    let tallies = tally_named(&names, &games);
    if let Some(path) = &args.record {
        let text = serde_json::to_string_pretty(&json!({"game": file.display().to_string(), "matches": records}))
            .expect("serialisable");
        std::fs::write(path, text + "\n")
            .map_err(|e| usage(format!("--record: cannot write {}: {e}", path.display())))?;
    }
    if json {
        println!(
            "{}",
            json!({"game": file.display().to_string(), "engine": m.engine_name(), "roles": roles,
                   "seconds": seconds, "players": tallies, "matches": records})
        );
    } else {
        print!(
            "{}: {} games, {}, engine {}, clocks {} s / {} s, {seconds:.1} s\n{}",
            file.display(),
            args.games,
            names.join(" vs "),
            m.engine_name(),
            args.start_clock,
            args.play_clock,
            table(&roles, &tallies)
        );
    }
    Ok(())
}
