//! GDL Playground in the browser: a thin wasm-bindgen layer over `gdl-core`.
//!
//! `session.rs` holds the game session in plain Rust; this file only converts values to
//! JavaScript (plain objects through serde-wasm-bindgen) and every error into a JS `Error`
//! with its message. `engines.rs` is the one place that lists engines.
//! Build: `wasm-pack build wasm --target web` (see `scripts/setup.sh`, `build_web`).

pub mod analyses;
pub mod engines;
pub mod groundview;
pub mod players;
pub mod session;
pub mod text;

use gdl_core::reasoner::{Limits, TimeLimit};
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// Milliseconds with sub-millisecond precision (pages, workers and node all have it).
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// Plain JS objects and arrays (not `Map`s), numbers for integers.
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| JsError::new(&e.to_string()))
}

fn js_err(message: String) -> JsError {
    JsError::new(&message)
}

/// A game session: load rules, then play, undo, redo and run playouts.
#[wasm_bindgen]
pub struct Session {
    inner: session::Session,
}

impl Default for Session {
    fn default() -> Self {
        Session::new(None)
    }
}

#[wasm_bindgen]
impl Session {
    /// `maxMillis`: the time one call may take (loading, one move), for sessions on the
    /// page's main thread, which must never freeze; none in workers, which can be cancelled.
    #[wasm_bindgen(constructor)]
    pub fn new(max_millis: Option<f64>) -> Session {
        console_error_panic_hook::set_once();
        let time = max_millis.map(|millis| TimeLimit { millis, now: performance_now });
        Session { inner: session::Session::new(Limits { time, ..Limits::default() }) }
    }

    /// Loads rules: `{ok, syntax, errors, warnings, diagnostics, roles}`. Diagnostics carry
    /// UTF-16 offsets `from`/`to` and 1-based `line`/`column`.
    pub fn load(&mut self, text: &str) -> Result<JsValue, JsError> {
        to_js(&self.inner.load(text))
    }

    /// The current position: `{roles, step, state, terminal, goals, legal, history, engine, engineNote}`.
    pub fn view(&mut self) -> Result<JsValue, JsError> {
        let view = self.inner.view().map_err(js_err)?;
        to_js(&view)
    }

    /// Every fluent the game may have (its `base` facts), for drawing boards.
    pub fn domain(&mut self) -> Result<Vec<String>, JsError> {
        self.inner.domain().map_err(js_err)
    }

    /// Plays the game with another engine (`auto`, `propnet`, `reasoner`, `ground`; see
    /// `capabilities()`), from the initial state; returns which engine runs and why.
    #[wasm_bindgen(js_name = setEngine)]
    pub fn set_engine(&mut self, name: &str) -> Result<String, JsError> {
        self.inner.set_engine(name, &performance_now).map_err(js_err)
    }

    /// For a long run of playouts that `auto` left on the reasoner because of its own
    /// bounds: grounds the game in full (seconds) and plays on from the initial state on its
    /// network if that is measured faster: `{moved, note}` (the new engine note, or why not).
    pub fn upgrade(&mut self) -> Result<JsValue, JsError> {
        let upgraded = self.inner.upgrade(&performance_now).map_err(js_err)?;
        to_js(&upgraded)
    }

    /// Plays a joint move (one move text per role, in role order); returns the new view.
    pub fn play(&mut self, joint: Vec<String>) -> Result<JsValue, JsError> {
        self.inner.play(&joint).map_err(js_err)?;
        self.view()
    }

    pub fn undo(&mut self) -> Result<JsValue, JsError> {
        self.inner.undo().map_err(js_err)?;
        self.view()
    }

    pub fn redo(&mut self) -> Result<JsValue, JsError> {
        self.inner.redo().map_err(js_err)?;
        self.view()
    }

    /// Jumps to the position after `step` joint moves of the history.
    #[wasm_bindgen(js_name = goTo)]
    pub fn go_to(&mut self, step: usize) -> Result<JsValue, JsError> {
        self.inner.go_to(step).map_err(js_err)?;
        self.view()
    }

    /// Plays `moves` (an array of joint moves) from the initial state while they are
    /// legal; returns how many were played.
    pub fn replay(&mut self, moves: JsValue) -> Result<usize, JsError> {
        let moves: Vec<Vec<String>> = serde_wasm_bindgen::from_value(moves)
            .map_err(|e| js_err(format!("moves must be an array of arrays of strings: {e}")))?;
        self.inner.replay(&moves).map_err(js_err)
    }

    /// Why `atom` (e.g. `(legal x (mark 1 1))`) holds or not, along the moves played:
    /// `{atom, step, holds, summary, derivations: [{rule, line, instance, premises, failed,
    /// note}]}`; each premise `{literal, holds, atom, step, atom_holds}` can be explained in
    /// turn. `step` defaults to the current position (its last move for `next`).
    pub fn explain(&mut self, atom: &str, step: Option<u32>) -> Result<JsValue, JsError> {
        let e = self.inner.explain(atom, step.map(|s| s as usize)).map_err(js_err)?;
        to_js(&e)
    }

    /// The goal value each legal move guarantees in the current position, searching at most
    /// `budget` positions: `{roles: [{role, moves: [{move, value}], value, summary}], nodes,
    /// complete, stopped}`.
    pub fn solve(&mut self, budget: f64) -> Result<JsValue, JsError> {
        let solution = self.inner.solve(budget as u64).map_err(js_err)?;
        to_js(&solution)
    }

    /// The game's requirements: exhaustive when its states fit `max_states`, otherwise
    /// `playouts` random playouts of at most `max_steps` moves: `{method, states, playouts,
    /// checks: [{name, role, outcome, required, detail, witness}], well_formed}`.
    pub fn analyze(&mut self, max_states: u32, playouts: u32, max_steps: u32, seed: f64) -> Result<JsValue, JsError> {
        let options = gdl_core::analyze::Options {
            max_states: max_states as usize,
            playouts: playouts as usize,
            max_steps: max_steps as usize,
            seed: seed as u64,
        };
        let report = self.inner.analyze(options).map_err(js_err)?;
        to_js(&report)
    }

    /// The move `player` (`random`, `mc:500`, `uct:1000`, `uct:1s`, `perfect`) chooses for
    /// role number `role` in the current position: `{move, playouts, expects}`.
    pub fn think(&mut self, player: &str, role: u32, seed: f64) -> Result<JsValue, JsError> {
        let thought = self.inner.think(player, role as usize, seed as u64, &performance_now).map_err(js_err)?;
        to_js(&thought)
    }

    /// Game number `game` of a match between `players` (`uct:1000,random`; seats rotate
    /// with the game's number), from the initial state: `{seats, goals, length}`.
    #[wasm_bindgen(js_name = matchGame)]
    pub fn match_game(&mut self, players: &str, seed: f64, game: u32, max_steps: u32) -> Result<JsValue, JsError> {
        let g = self
            .inner
            .match_game(players, seed as u64, game as usize, max_steps as usize, &performance_now)
            .map_err(js_err)?;
        to_js(&g)
    }

    /// Seeds the playouts' random generator (an integer below 2^53).
    pub fn seed(&mut self, seed: f64) {
        self.inner.seed(seed as u64);
    }

    /// Runs `count` random playouts from the initial state, each cut after `max_steps` joint
    /// moves: `{playouts, cut, totalLength, minLength, maxLength, goals}`. Call it again
    /// for the next batch (a worker reports progress and checks for Cancel in between).
    pub fn playouts(&mut self, count: u32, max_steps: u32) -> Result<JsValue, JsError> {
        let batch = self.inner.playouts(count, max_steps as usize).map_err(js_err)?;
        to_js(&batch)
    }
}

/// Each player's results over the games of a match (from `matchGame`): `[{player, games,
/// wins, draws, losses, unfinished, points: {mean, plus_minus}, score: {mean, plus_minus}}]`.
#[wasm_bindgen(js_name = matchTally)]
pub fn match_tally(players: &str, games: JsValue) -> Result<JsValue, JsError> {
    let games: Vec<gdl_core::players::arena::Game> =
        serde_wasm_bindgen::from_value(games).map_err(|e| JsError::new(&format!("not a list of games: {e}")))?;
    to_js(&players::match_tally(players, &games).map_err(js_err)?)
}

/// The rules printed in `to` (`"prefix"` or `"infix"`).
#[wasm_bindgen(js_name = formatText)]
pub fn format_text(text: &str, to: &str) -> Result<String, JsError> {
    session::format(text, to).map_err(js_err)
}

/// The relation dependency graph: `{nodes: [{id, name, arity, stratum, kind, recursive,
/// defined}], edges: [{from, to, negative}]}`.
#[wasm_bindgen(js_name = ruleGraph)]
pub fn rule_graph(text: &str) -> Result<JsValue, JsError> {
    let graph = session::rule_graph(text).map_err(js_err)?;
    to_js(&graph)
}

/// What this build can do: `{ground, engines: [{name, note}]}` (the first engine is the default).
#[wasm_bindgen]
pub fn capabilities() -> Result<JsValue, JsError> {
    to_js(&engines::capabilities())
}
