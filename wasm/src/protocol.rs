//! The GGP protocol for the page as a referee, all of it core's: the messages' text, the
//! words of a missing reply (`NoReply`, which the page's HTTP fills), a match refereed one
//! message at a time (`RefereeMatch`, for a remote seat of the Play pane), and whole games of
//! a match refereed by core with remote players reached through a JavaScript function
//! (`web/src/players/match-worker.ts` posts over HTTP).

use crate::{from_js, js_err, performance_now, to_js, Session};
use gdl_core::ast::Description;
use gdl_core::engine::Engine;
use gdl_core::machine::StateMachine;
use gdl_core::players::{arena::Game, catalogue::entrants};
use gdl_core::protocol::fault::{Answer, NoReply};
use gdl_core::protocol::game::{game_id, Outside, Terms};
use gdl_core::protocol::message::Message;
use gdl_core::protocol::referee::{Match, Record, Remote, Seat, Setup};
use gdl_core::reasoner::Limits;
use gdl_core::tournament::{step_by_step, Finished, Fixture, Plan};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// `(INFO)`, or `(ABORT id)` (a match ended outside its referee: the page closing, a Stop).
#[wasm_bindgen(js_name = protocolMessage)]
pub fn protocol_message(kind: &str, id: &str) -> Result<String, JsError> {
    let message = match kind {
        "info" => Message::Info,
        "abort" => Message::Abort { id: id.to_string() },
        k => return Err(js_err(format!("'{k}' is not a message sent outside a referee's match"))),
    };
    Ok(message.to_string())
}

/// Why a remote player gave no reply, as core words it ("no reply in 3 s").
#[wasm_bindgen(js_name = noReplyText)]
pub fn no_reply_text(#[wasm_bindgen(unchecked_param_type = "NoReply")] failure: JsValue) -> Result<String, JsError> {
    Ok(from_js::<NoReply>(failure, "why there is no reply")?.to_string())
}

/// The protocol's match id of game number `game` (from 0) of match `id`.
#[wasm_bindgen(js_name = matchGameId)]
pub fn match_game_id(id: &str, game: u32) -> String {
    game_id(id, game as usize)
}

/// What a match's players said and their faults, by step (core's `Record::log`).
#[wasm_bindgen(js_name = recordLog, unchecked_return_type = "Logged[]")]
pub fn record_log(#[wasm_bindgen(unchecked_param_type = "MatchRecord")] record: JsValue) -> Result<JsValue, JsError> {
    to_js(&from_js::<Record>(record, "not a match's record")?.log())
}

/// A reply's text, or (`failure`, a `NoReply`) why none came.
fn answer(reply: Option<String>, failure: JsValue) -> Result<Answer, JsError> {
    match reply {
        Some(text) => Ok(Ok(text)),
        None => Ok(Err(from_js(failure, "why there is no reply")?)),
    }
}

/// A reply to PLAY judged by core's referee: the move that stands and, if the reply did not, the fault.
#[derive(Serialize, tsify::Tsify)]
#[tsify(missing_as_null)]
pub struct Judged {
    #[serde(rename = "move")]
    pub chosen: String,
    pub fault: Option<String>,
}

/// A match of the GGP protocol refereed by core one message at a time, for a caller that reaches
/// the players itself (a remote seat of the Play pane, a student's player's games): it gives each
/// message to send, judges each answer, follows the moves played, and keeps its own game copy.
#[wasm_bindgen]
pub struct RefereeMatch {
    machine: Engine,
    description: Description,
    game: Match<Engine>,
    /// A tournament's game: its number and the tournament's seed (`finished`).
    fixture: Option<(usize, u64)>,
}

/// The rules of a referee's match, on the reasoner.
fn loaded(rules: &str) -> Result<(Engine, Description), JsError> {
    let loaded = gdl_core::load(rules, Limits::default())
        .map_err(|d| js_err(d.first().map_or("the rules do not load".into(), |d| d.message.clone())))?;
    Ok((Engine::Reasoner(Box::new(loaded.reasoner)), loaded.description))
}

#[wasm_bindgen]
impl RefereeMatch {
    /// Match `id` on `rules`, on these clocks (seconds), replacement moves drawn from `seed`;
    /// the player at role number r is player r + 1.
    #[wasm_bindgen(constructor)]
    pub fn new(rules: &str, id: &str, start_clock: f64, play_clock: f64, seed: f64) -> Result<RefereeMatch, JsError> {
        let (mut machine, description) = loaded(rules)?;
        let roles = machine.roles().len();
        let setup = Setup {
            id,
            description: &description,
            start_clock,
            play_clock,
            max_steps: usize::MAX,
            seed: seed as u64,
            players: (1..=roles).collect(),
        };
        let game = Match::new(&mut machine, &setup, vec![String::new(); roles]).map_err(|e| js_err(e.message))?;
        Ok(RefereeMatch { machine, description, game, fixture: None })
    }

    /// Game `fixture` of the tournament `plan`, on `rules` (that game's), set up as core's
    /// tournament sets it up (`tournament::step_by_step`), for a game with a student's player.
    pub fn tournament(
        rules: &str,
        #[wasm_bindgen(unchecked_param_type = "Plan")] plan: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Fixture")] fixture: JsValue,
    ) -> Result<RefereeMatch, JsError> {
        let (mut machine, description) = loaded(rules)?;
        let plan: Plan = from_js(plan, "not a tournament's plan")?;
        let fixture: Fixture = from_js(fixture, "not a game of the tournament")?;
        let game = step_by_step(&mut machine, &description, &plan, &fixture).map_err(|e| js_err(e.message))?;
        Ok(RefereeMatch { machine, description, game, fixture: Some((fixture.number, plan.seed)) })
    }

    /// Keeps what role number `role`'s player said (a student's log line) with the record.
    pub fn said(&mut self, role: u32, text: String) {
        self.game.said(role as usize, text);
    }

    /// The record so far, the player at each role named as `players` says.
    #[wasm_bindgen(unchecked_return_type = "MatchRecord")]
    pub fn record(&self, players: Vec<String>) -> Result<JsValue, JsError> {
        to_js(&Record { players, ..self.game.record().clone() })
    }

    /// A tournament's game, once over: its result for the tournament's record.
    #[wasm_bindgen(unchecked_return_type = "Finished")]
    pub fn finished(&self) -> Result<JsValue, JsError> {
        let Some((fixture, seed)) = self.fixture else {
            return Err(js_err("this match is not a tournament's game".to_string()));
        };
        if !self.game.is_over() {
            return Err(js_err("the game is not over".to_string()));
        }
        to_js(&Finished { fixture, seed, record: self.game.record().clone() })
    }

    /// The START for role number `role`.
    #[wasm_bindgen(js_name = startMessage)]
    pub fn start_message(&self, role: u32) -> String {
        self.game.start_message(role as usize, &self.description).to_string()
    }

    /// Judges the answer to START (`reply`, or `failure`: why none) after `took` ms: the fault, if any.
    pub fn started(
        &mut self,
        role: u32,
        reply: Option<String>,
        #[wasm_bindgen(unchecked_param_type = "NoReply | null")] failure: JsValue,
        took: f64,
    ) -> Result<Option<String>, JsError> {
        Ok(self.game.started(role as usize, answer(reply, failure)?, took))
    }

    /// Whether the match is over (its game reached a terminal state).
    #[wasm_bindgen(getter)]
    pub fn over(&self) -> bool {
        self.game.is_over()
    }

    /// The number of joint moves played.
    pub fn steps(&self) -> u32 {
        self.game.record().steps.len() as u32
    }

    /// Plays the joint move `joint` (canonical texts, in role order).
    pub fn advance(&mut self, joint: Vec<String>) -> Result<(), JsError> {
        let moves = (joint.iter().enumerate())
            .map(|(r, text)| self.game.legal_move(&mut self.machine, r, text))
            .collect::<gdl_core::machine::Result<Vec<_>>>()
            .map_err(|e| js_err(e.message))?;
        self.game.advance(&mut self.machine, &moves, vec![0.0; moves.len()]).map_err(|e| js_err(e.message))
    }

    /// The PLAY for role number `role` at the next step.
    #[wasm_bindgen(js_name = playMessage)]
    pub fn play_message(&self, role: u32) -> String {
        self.game.play_message(role as usize).to_string()
    }

    /// Judges the answer to PLAY after `took` ms.
    #[wasm_bindgen(unchecked_return_type = "Judged")]
    pub fn answered(
        &mut self,
        role: u32,
        reply: Option<String>,
        #[wasm_bindgen(unchecked_param_type = "NoReply | null")] failure: JsValue,
        took: f64,
    ) -> Result<JsValue, JsError> {
        let judged = self
            .game
            .answered(&mut self.machine, role as usize, answer(reply, failure)?, took)
            .map_err(|e| js_err(e.message))?;
        to_js(&Judged { chosen: judged.text, fault: judged.fault })
    }

    /// The STOP for role number `role`.
    #[wasm_bindgen(js_name = stopMessage)]
    pub fn stop_message(&self, role: u32) -> String {
        self.game.stop_message(role as usize).to_string()
    }

    /// Judges the answer to STOP: the fault, if any.
    pub fn stopped(
        &mut self,
        role: u32,
        reply: Option<String>,
        #[wasm_bindgen(unchecked_param_type = "NoReply | null")] failure: JsValue,
    ) -> Result<Option<String>, JsError> {
        Ok(self.game.stopped(role as usize, answer(reply, failure)?))
    }

    /// The ABORT of the match.
    #[wasm_bindgen(js_name = abortMessage)]
    pub fn abort_message(&self) -> String {
        self.game.abort_message().to_string()
    }
}

/// A game of a refereed match and its record.
#[derive(Serialize, tsify::Tsify)]
pub struct Refereed {
    #[tsify(type = "MatchGame")]
    pub game: Game,
    #[tsify(type = "MatchRecord")]
    pub record: Record,
    /// Its line, as `gdl match` says it: "game 1: 9 moves, goals 100 0, 2 faults".
    pub line: String,
}

/// The seat of a remote player at an address, reached through the page's `post` (see `send`).
pub(crate) fn reach_through(post: &js_sys::Function) -> impl FnMut(&str) -> Box<dyn Seat<Engine>> + '_ {
    move |url: &str| -> Box<dyn Seat<Engine>> {
        let (post, to) = (post.clone(), url.to_string());
        Box::new(Remote { url: url.into(), post: move |m: &Message, clock| send(&post, &to, m, clock) })
    }
}

/// Says each fault to the page's `log` as it happens.
pub(crate) fn say_to(log: &js_sys::Function) -> impl FnMut(&str) + '_ {
    move |fault: &str| {
        let _ = log.call1(&JsValue::NULL, &JsValue::from_str(fault));
    }
}

/// Sends `message` to the player at `url` through the page's `post(url, message,
/// clockMillis)`, which returns the reply's text or throws a `NoReply` saying why there is none.
fn send(post: &js_sys::Function, url: &str, message: &Message, clock: f64) -> Answer {
    let (url, text) = (JsValue::from_str(url), JsValue::from_str(&message.to_string()));
    match post.call3(&JsValue::NULL, &url, &text, &JsValue::from_f64(clock)) {
        Ok(reply) => reply.as_string().ok_or_else(|| NoReply::Unreadable { detail: "the reply is not text".into() }),
        Err(e) => {
            Err(serde_wasm_bindgen::from_value(e).unwrap_or_else(|e| NoReply::Unreachable { detail: e.to_string() }))
        }
    }
}

#[wasm_bindgen]
impl Session {
    /// Game `game` of a match between `players` (`uct:1000,http://127.0.0.1:9147`) refereed on
    /// `terms` (its id, clocks in seconds, move limit, seed): `{game, record, line}`; remote
    /// players reached by `post`, faults said to `log`.
    #[wasm_bindgen(js_name = refereeGame, unchecked_return_type = "Refereed")]
    pub fn referee_game(
        &mut self,
        players: &str,
        game: u32,
        #[wasm_bindgen(unchecked_param_type = "Terms")] terms: JsValue,
        #[wasm_bindgen(unchecked_param_type = "(url: string, message: string, clockMillis: number) => string")]
        post: js_sys::Function,
        #[wasm_bindgen(unchecked_param_type = "(fault: string) => void")] log: js_sys::Function,
    ) -> Result<JsValue, JsError> {
        let entrants = entrants(players).map_err(js_err)?;
        let terms: Terms = from_js(terms, "not a match's terms")?;
        let outside = &mut Outside { reach: &mut reach_through(&post), now: &performance_now, log: &mut say_to(&log) };
        let g = game as usize;
        let (game, record) = self.inner.referee_game(&entrants, g, &terms, outside).map_err(js_err)?;
        let line = record.summary(g);
        to_js(&Refereed { game, record, line })
    }
}

/// The names of a list of players (specs of ours and addresses), as tallies give them.
pub fn names(players: &str) -> Result<Vec<String>, JsError> {
    Ok(entrants(players).map_err(js_err)?.iter().map(|e| e.name()).collect())
}
