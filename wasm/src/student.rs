//! A student's player's match (`PlayerGame`) over core's `protocol::student::StudentGame`: the
//! calls the page's `web/src/student/api.ts` wraps; states are numbers, roles too.

use crate::{js_err, performance_now, to_js};
use gdl_core::engine::{self, Choice, Engine};
use gdl_core::propnet;
use gdl_core::protocol::message::Message;
use gdl_core::protocol::student::StudentGame;
use gdl_core::reasoner::Limits;
use wasm_bindgen::prelude::*;

/// One match of a student's player, followed message by message.
#[wasm_bindgen]
pub struct PlayerGame {
    inner: StudentGame<Engine>,
}

/// The rules of a START on the engine `auto` picks.
fn load(rules: &str) -> Result<Engine, String> {
    let valid = gdl_core::validated(rules)
        .map_err(|d| format!("the rules do not load: {}", d.first().map_or(String::new(), |d| d.message.clone())))?;
    let chosen = engine::build(
        Choice::Auto,
        &valid.description,
        Limits::default(),
        propnet::Options::default(),
        &performance_now,
    )
    .map_err(|d| d.message)?;
    Ok(chosen.engine)
}

#[wasm_bindgen]
impl PlayerGame {
    /// The match of a START message, the player's draws seeded by `seed`.
    #[wasm_bindgen(constructor)]
    pub fn new(start: &str, seed: f64) -> Result<PlayerGame, JsError> {
        Ok(PlayerGame { inner: StudentGame::start(start, seed as u64, load).map_err(js_err)? })
    }

    /// What the player knows of its match: id, role (by number), roles, clocks (seconds),
    /// step, whether the position is hidden, and (GDL-II) its own moves and percepts.
    #[wasm_bindgen(getter, unchecked_return_type = "GameInfo")]
    pub fn info(&mut self) -> Result<JsValue, JsError> {
        to_js(&self.inner.info())
    }

    /// The game's factors (independent subgames), from the rules alone.
    #[wasm_bindgen(unchecked_return_type = "Factors")]
    pub fn factors(&mut self) -> Result<JsValue, JsError> {
        to_js(self.inner.factors().map_err(js_err)?)
    }

    /// Follows a PLAY, STOP or ABORT: `"play"`, `"stop"` or `"abort"`.
    pub fn follow(&mut self, message: &str) -> Result<String, JsError> {
        Ok(self.inner.follow(message).map_err(js_err)?.to_string())
    }

    /// The move the player replied to the last PLAY (GDL-II referees may send only percepts next).
    pub fn sent(&mut self, text: &str) -> Result<(), JsError> {
        self.inner.sent(text).map_err(js_err)
    }

    pub fn initial(&mut self) -> u32 {
        self.inner.initial()
    }

    pub fn current(&mut self) -> Result<u32, JsError> {
        self.inner.current().map_err(js_err)
    }

    pub fn legal(&mut self, state: u32, role: u32) -> Result<Vec<String>, JsError> {
        self.inner.legal(state, role as usize).map_err(js_err)
    }

    pub fn next(&mut self, state: u32, joint: Vec<String>) -> Result<u32, JsError> {
        self.inner.next(state, &joint).map_err(js_err)
    }

    pub fn terminal(&mut self, state: u32) -> Result<bool, JsError> {
        self.inner.terminal(state).map_err(js_err)
    }

    pub fn goals(&mut self, state: u32) -> Result<Vec<f64>, JsError> {
        self.inner.goals(state).map_err(js_err)
    }

    pub fn fluents(&mut self, state: u32) -> Result<Vec<String>, JsError> {
        self.inner.fluents(state).map_err(js_err)
    }

    pub fn playouts(&mut self, state: u32, count: u32) -> Result<Vec<f64>, JsError> {
        self.inner.playouts(state, count).map_err(js_err)
    }

    pub fn guesses(&mut self, count: u32) -> Result<Vec<u32>, JsError> {
        self.inner.guesses(count as usize).map_err(js_err)
    }

    pub fn random(&mut self, count: u32) -> Result<u32, JsError> {
        self.inner.random(count).map_err(js_err)
    }
}

/// The kind of a GGP message (`info`, `start`, `play`, `stop`, `abort`), or why it cannot be read.
#[wasm_bindgen(js_name = messageKind)]
pub fn message_kind(text: &str) -> Result<String, JsError> {
    let kind = match Message::parse(text).map_err(js_err)? {
        Message::Info => "info",
        Message::Start { .. } => "start",
        Message::Play { .. } => "play",
        Message::Stop { .. } => "stop",
        Message::Abort { .. } => "abort",
    };
    Ok(kind.into())
}
