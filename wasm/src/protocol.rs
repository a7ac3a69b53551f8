//! The GGP protocol for the page as a referee: the messages' text as core prints it, the
//! judgement of a reply as core's referee makes it (a late, missing or illegal move replaced,
//! in the same words), and whole games of a match refereed by core with remote players
//! reached through a JavaScript function (`web/src/players/remote.ts` posts over HTTP).

use crate::{from_js, js_err, performance_now, to_js, Session};
use gdl_core::engine::Engine;
use gdl_core::players::arena::Game;
use gdl_core::players::catalogue::entrants;
use gdl_core::protocol::game::Terms;
use gdl_core::protocol::message::{Last, Message};
use gdl_core::protocol::referee::{self, Record, Remote, Seat};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The START of a match on `rules` (either syntax; sent in prefix), for role `role`.
#[wasm_bindgen(js_name = protocolStart)]
pub fn protocol_start(rules: &str, id: &str, role: &str, start_clock: f64, play_clock: f64) -> String {
    let description = gdl_core::parse::parse(rules).description;
    Message::start(id, role, &description, start_clock, play_clock).to_string()
}

/// `(INFO)`, `(ABORT id)`, or `(PLAY id …)`/`(STOP id …)` telling `last` (as
/// `Session.told` gives it; none: NIL).
#[wasm_bindgen(js_name = protocolMessage)]
pub fn protocol_message(
    kind: &str,
    id: &str,
    #[wasm_bindgen(unchecked_param_type = "Last | undefined")] last: JsValue,
) -> Result<String, JsError> {
    let last = if last.is_undefined() { Last::Nothing } else { from_js(last, "what the player is told")? };
    let id = id.to_string();
    let message = match kind {
        "info" => Message::Info,
        "play" => Message::Play { id, last },
        "stop" => Message::Stop { id, last },
        "abort" => Message::Abort { id },
        k => return Err(js_err(format!("'{k}' is not a message a referee sends"))),
    };
    Ok(message.to_string())
}

/// A reply judged: the index of the legal move it names, or why it does not stand.
#[derive(Serialize, tsify::Tsify)]
#[tsify(missing_as_null)]
pub struct Judged {
    pub index: Option<usize>,
    pub why: Option<String>,
}

/// The reply (or, when there is none, `failure`: why) after `took` milliseconds, judged
/// against a play clock of `playClock` seconds and the `legal` moves (canonical texts).
#[wasm_bindgen(js_name = judgeMove, unchecked_return_type = "Judged")]
pub fn judge_move(
    reply: Option<String>,
    failure: Option<String>,
    took: f64,
    play_clock: f64,
    legal: Vec<String>,
) -> Result<JsValue, JsError> {
    let judged = match referee::judge(answer(reply, failure), took, play_clock, &legal) {
        Ok(k) => Judged { index: Some(k), why: None },
        Err(why) => Judged { index: None, why: Some(why) },
    };
    to_js(&judged)
}

/// What is wrong with the answer to a START (null: ready on time).
#[wasm_bindgen(js_name = judgeReady)]
pub fn judge_ready(reply: Option<String>, failure: Option<String>, took: f64, start_clock: f64) -> Option<String> {
    referee::judge_ready(answer(reply, failure), took, start_clock).err()
}

/// A fault as core's referee says it: "player 1 (x) at step 3: WHAT; played MOVE for it"
/// (`played` null: nothing was played for it; step 0: the start).
#[wasm_bindgen(js_name = faultLine)]
pub fn fault_line(player: u32, role: &str, step: u32, stop: bool, what: &str, played: Option<String>) -> String {
    let what = played.map_or(what.to_string(), |mv| referee::replaced(what, &mv));
    referee::fault_line(player as usize, role, step as usize, stop, &what)
}

/// A reply quoted for a message, on one line, cut at 60 characters.
#[wasm_bindgen]
pub fn quoted(reply: &str) -> String {
    referee::quoted(reply)
}

fn answer(reply: Option<String>, failure: Option<String>) -> Result<String, String> {
    reply.ok_or_else(|| failure.unwrap_or_else(|| "no reply".into()))
}

/// A game of a refereed match and its record.
#[derive(Serialize, tsify::Tsify)]
pub struct Refereed {
    #[tsify(type = "MatchGame")]
    pub game: Game,
    #[tsify(type = "MatchRecord")]
    pub record: Record,
}

/// Sends `message` to the player at `url` through the page's `post(url, message,
/// clockMillis)`, which returns the reply's text or throws an Error saying why there is none.
fn send(post: &js_sys::Function, url: &str, message: &Message, clock: f64) -> Result<String, String> {
    let (url, text) = (JsValue::from_str(url), JsValue::from_str(&message.to_string()));
    match post.call3(&JsValue::NULL, &url, &text, &JsValue::from_f64(clock)) {
        Ok(reply) => reply.as_string().ok_or_else(|| "the reply is not text".into()),
        Err(e) => Err(e.dyn_ref::<js_sys::Error>().map_or("no reply".into(), |e| String::from(e.message()))),
    }
}

#[wasm_bindgen]
impl Session {
    /// What a referee tells role number `role` after joint move number `step` of the moves
    /// played (0: nothing yet): the joint move, or in a GDL-II game only the role's own move
    /// and its percepts. `protocolMessage` prints it.
    #[wasm_bindgen(unchecked_return_type = "Last")]
    pub fn told(&mut self, role: u32, step: u32) -> Result<JsValue, JsError> {
        to_js(&self.inner.game().and_then(|g| g.told(role as usize, step as usize)).map_err(js_err)?)
    }

    /// Game number `game` of a match between `players` (`uct:1000,http://127.0.0.1:9147`),
    /// refereed by the protocol on these clocks (seconds): `{game, record}`. Remote players
    /// are reached through `post`; every fault is also said to `log` as it happens.
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = refereeGame, unchecked_return_type = "Refereed")]
    pub fn referee_game(
        &mut self,
        players: &str,
        game: u32,
        id: &str,
        start_clock: f64,
        play_clock: f64,
        max_steps: u32,
        seed: f64,
        #[wasm_bindgen(unchecked_param_type = "(url: string, message: string, clockMillis: number) => string")]
        post: js_sys::Function,
        #[wasm_bindgen(unchecked_param_type = "(fault: string) => void")] log: js_sys::Function,
    ) -> Result<JsValue, JsError> {
        let entrants = entrants(players).map_err(js_err)?;
        let terms = Terms { id, start_clock, play_clock, max_steps: max_steps as usize, seed: seed as u64 };
        let mut reach = |url: &str| -> Box<dyn Seat<Engine>> {
            let (post, to) = (post.clone(), url.to_string());
            Box::new(Remote { url: url.into(), post: move |m: &Message, clock| send(&post, &to, m, clock) })
        };
        let mut say = |fault: &str| {
            let _ = log.call1(&JsValue::NULL, &JsValue::from_str(fault));
        };
        let now = &performance_now;
        let (game, record) =
            self.inner.referee_game(&entrants, game as usize, &terms, &mut reach, now, &mut say).map_err(js_err)?;
        to_js(&Refereed { game, record })
    }
}

/// The names of a list of players (specs of ours and addresses), as tallies give them.
pub fn names(players: &str) -> Result<Vec<String>, JsError> {
    Ok(entrants(players).map_err(js_err)?.iter().map(|e| e.name()).collect())
}
