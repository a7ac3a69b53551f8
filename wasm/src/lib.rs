//! GDL Playground in the browser: a thin wasm-bindgen layer over `gdl-core`.
//!
//! The game's API is `gdl_core::play`; this crate only converts its values to JavaScript
//! (plain objects through serde-wasm-bindgen, typed by the TypeScript declarations `tsify`
//! generates from the Rust types) and every error into a JS `Error` with its message.
//! `groundview.rs` converts the grounded program, `protocol.rs` the GGP protocol for the page
//! as a referee.
//! Build: `wasm-pack build wasm --target web` (see `scripts/setup.sh`, `build_web`).

pub mod groundview;
pub mod protocol;
pub mod student;
pub mod tournament;

use gdl_core::analyze::Options;
use gdl_core::play::{self, EngineInfo, Stats, ThoughtReport, ENGINES};
use gdl_core::players::arena::Game;
use gdl_core::reasoner::{Limits, TimeLimit};
use gdl_core::solve::Limit;
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;

thread_local! {
    /// The clock of the page, worker or node process the module runs in (each has a global
    /// `performance`; `Window` and `WorkerGlobalScope` are told apart for nothing).
    static PERFORMANCE: Option<web_sys::Performance> = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("performance"))
        .ok()
        .filter(|p| p.is_object())
        .map(JsCast::unchecked_into);
}

/// Milliseconds with sub-millisecond precision (`performance.now()`; the date's
/// milliseconds where there is no `performance`).
fn performance_now() -> f64 {
    PERFORMANCE.with(|p| p.as_ref().map_or_else(js_sys::Date::now, web_sys::Performance::now))
}

/// Plain JS objects and arrays (not `Map`s), numbers for integers.
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| JsError::new(&e.to_string()))
}

/// A value of `T` read from `value`, or an error saying it is not `what`.
fn from_js<T: DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(value).map_err(|e| JsError::new(&format!("{what}: {e}")))
}

fn js_err(message: String) -> JsError {
    JsError::new(&message)
}

/// A game session: load rules, then play, undo, redo and run playouts.
#[wasm_bindgen]
pub struct Session {
    inner: play::Session,
}

#[wasm_bindgen]
impl Session {
    /// `maxMillis`: the time one call may take (loading, one move), for sessions on the
    /// page's main thread, which must never freeze; none in workers, which can be cancelled.
    #[wasm_bindgen(constructor)]
    pub fn new(max_millis: Option<f64>) -> Session {
        console_error_panic_hook::set_once();
        let time = max_millis.map(|millis| TimeLimit { millis, now: performance_now });
        Session { inner: play::Session::new(Limits { time, ..Limits::default() }) }
    }

    /// Loads rules: `{ok, syntax, errors, warnings, diagnostics, roles}`. Diagnostics carry
    /// UTF-16 offsets `from`/`to` and 1-based `line`/`column`.
    #[wasm_bindgen(unchecked_return_type = "Load")]
    pub fn load(&mut self, text: &str) -> Result<JsValue, JsError> {
        to_js(&self.inner.load(text))
    }

    /// The current position: `{roles, step, state, terminal, goals, legal, history, engine,
    /// engineNote, nature, percepts}`.
    #[wasm_bindgen(unchecked_return_type = "View")]
    pub fn view(&mut self) -> Result<JsValue, JsError> {
        to_js(&self.inner.view().map_err(js_err)?)
    }

    /// What boards are drawn from: `{fluents, chains}`, every fluent the game may have (its
    /// `base` facts) and the game's own orders of values.
    #[wasm_bindgen(unchecked_return_type = "Domain")]
    pub fn domain(&mut self) -> Result<JsValue, JsError> {
        to_js(&self.inner.domain().map_err(js_err)?)
    }

    /// Plays the game with another engine (`auto`, `propnet`, `reasoner`, `ground`; see
    /// `capabilities()`), from the initial state; returns which engine runs and why.
    #[wasm_bindgen(js_name = setEngine)]
    pub fn set_engine(&mut self, name: &str) -> Result<String, JsError> {
        self.inner.set_engine(name, &performance_now).map_err(js_err)
    }

    /// For a long run on the reasoner: the network `auto` picked, or (a game left on the
    /// reasoner for auto's bounds) the full grounding's if measured faster, played on from
    /// the initial state: `{moved, note}` (the engine note, or why not).
    #[wasm_bindgen(unchecked_return_type = "Upgraded")]
    pub fn upgrade(&mut self) -> Result<JsValue, JsError> {
        to_js(&self.inner.upgrade(&performance_now).map_err(js_err)?)
    }

    /// Plays a joint move (one move text per role, in role order); returns the new view.
    #[wasm_bindgen(unchecked_return_type = "View")]
    pub fn play(&mut self, joint: Vec<String>) -> Result<JsValue, JsError> {
        self.inner.game().and_then(|g| g.play(&joint)).map_err(js_err)?;
        self.view()
    }

    #[wasm_bindgen(unchecked_return_type = "View")]
    pub fn undo(&mut self) -> Result<JsValue, JsError> {
        self.inner.game().and_then(|g| g.undo()).map_err(js_err)?;
        self.view()
    }

    #[wasm_bindgen(unchecked_return_type = "View")]
    pub fn redo(&mut self) -> Result<JsValue, JsError> {
        self.inner.game().and_then(|g| g.redo()).map_err(js_err)?;
        self.view()
    }

    /// Jumps to the position after `step` joint moves of the history.
    #[wasm_bindgen(js_name = goTo, unchecked_return_type = "View")]
    pub fn go_to(&mut self, step: usize) -> Result<JsValue, JsError> {
        self.inner.game().and_then(|g| g.go_to(step)).map_err(js_err)?;
        self.view()
    }

    /// Plays `moves` (an array of joint moves) from the initial state while they are
    /// legal; returns how many were played.
    pub fn replay(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string[][]")] moves: JsValue,
    ) -> Result<usize, JsError> {
        let moves: Vec<Vec<String>> = from_js(moves, "moves must be an array of arrays of strings")?;
        self.inner.replay(&moves).map_err(js_err)
    }

    /// Seeds the generator of the moves `randomMove` draws (an integer below 2^53).
    #[wasm_bindgen(js_name = seedDraws)]
    pub fn seed_draws(&mut self, seed: f64) {
        self.inner.seed_draws(seed as u64);
    }

    /// A legal move of role number `role` at the current position, drawn uniformly by the
    /// engine's seeded generator (nature's moves, the Play pane's random moves).
    #[wasm_bindgen(js_name = randomMove)]
    pub fn random_move(&mut self, role: u32) -> Result<String, JsError> {
        self.inner.random_move(role as usize).map_err(js_err)
    }

    /// Why `atom` (e.g. `(legal x (mark 1 1))`) holds or not, along the moves played; each
    /// premise can be explained in turn. `step` defaults to the current position (its last
    /// move for `next`).
    #[wasm_bindgen(unchecked_return_type = "Explanation")]
    pub fn explain(&mut self, atom: &str, step: Option<u32>) -> Result<JsValue, JsError> {
        to_js(&self.inner.explain(atom, step.map(|s| s as usize)).map_err(js_err)?)
    }

    /// The goal value each legal move guarantees in the current position, searching at most
    /// `budget` positions for at most `millis` milliseconds; a search stopped early says how
    /// big the game tree is.
    #[wasm_bindgen(unchecked_return_type = "Solution")]
    pub fn solve(&mut self, budget: f64, millis: f64) -> Result<JsValue, JsError> {
        let now = &performance_now;
        to_js(&self.inner.solve(Limit { nodes: budget as u64, time: Some((millis, now)) }).map_err(js_err)?)
    }

    /// The game's requirements: exhaustive when its states fit `max_states`, otherwise
    /// `playouts` random playouts of at most `max_steps` moves: `{method, states, playouts,
    /// checks: [{name, role, outcome, required, detail, witness}], well_formed}`.
    #[wasm_bindgen(unchecked_return_type = "Report")]
    pub fn analyze(&mut self, max_states: u32, playouts: u32, max_steps: u32, seed: f64) -> Result<JsValue, JsError> {
        let options = Options {
            max_states: max_states as usize,
            playouts: playouts as usize,
            max_steps: max_steps as usize,
            seed: seed as u64,
        };
        to_js(&self.inner.analyze(options).map_err(js_err)?)
    }

    /// The move `player` (`random`, `mc:500`, `uct:1000`, `uct:1s`, `perfect`, `honest:1000`)
    /// chooses for role number `role` in the current position: `{move, playouts, expects}`
    /// (in a game with `sees`, from the role's history alone), with what is left of its budget
    /// in time once `spent` milliseconds are gone (the time since the move was asked for).
    /// While it searches, `progress` (if given) is called with the same shape, so far, about
    /// every 100 ms.
    #[wasm_bindgen(unchecked_return_type = "Thought")]
    pub fn think(
        &mut self,
        player: &str,
        role: u32,
        seed: f64,
        #[wasm_bindgen(unchecked_param_type = "(soFar: Thought) => void")] progress: Option<js_sys::Function>,
        spent: f64,
    ) -> Result<JsValue, JsError> {
        let report = progress.map(|f| -> ThoughtReport {
            Box::new(move |t| {
                if let Ok(v) = to_js(t) {
                    let _ = f.call1(&JsValue::NULL, &v);
                }
            })
        });
        to_js(&self.inner.think(player, role as usize, seed as u64, spent, &performance_now, report).map_err(js_err)?)
    }

    /// Game number `game` of a match between `players` (`uct:1000,random`; seats rotate
    /// with the game's number), from the initial state: `{seats, goals, length}`.
    #[wasm_bindgen(js_name = matchGame, unchecked_return_type = "MatchGame")]
    pub fn match_game(&mut self, players: &str, seed: f64, game: u32, max_steps: u32) -> Result<JsValue, JsError> {
        let now = &performance_now;
        to_js(&self.inner.match_game(players, seed as u64, game as usize, max_steps as usize, now).map_err(js_err)?)
    }

    /// What `role` knows at the current position (GDL-II): `{role, steps: [{move,
    /// percepts}], count, sampled, beliefs: [{fluent, share}], states}`, its information set
    /// exact up to `limit` states, else a sample drawn with `seed` and an estimated count.
    #[wasm_bindgen(unchecked_return_type = "Knowledge")]
    pub fn knows(&mut self, role: &str, limit: u32, seed: f64) -> Result<JsValue, JsError> {
        to_js(&self.inner.knows(role, limit as usize, seed as u64).map_err(js_err)?)
    }

    /// Seeds the playouts' random generator (an integer below 2^53).
    pub fn seed(&mut self, seed: f64) {
        self.inner.seed(seed as u64);
    }

    /// Runs `count` random playouts from the initial state, each cut after `max_steps` joint
    /// moves: `{playouts, cut, stuck, stuckRole, stuckNote, totalLength, minLength,
    /// maxLength, goals, outcomes, roles}`. Call it again for the next batch (a worker
    /// reports progress and checks for Cancel in between) and add them with `mergePlayouts`.
    #[wasm_bindgen(unchecked_return_type = "Summary")]
    pub fn playouts(&mut self, count: u32, max_steps: u32) -> Result<JsValue, JsError> {
        to_js(&self.inner.playouts(count, max_steps as usize).map_err(js_err)?.summary())
    }
}

/// The playouts of `a` and `b` (from `playouts`, or both merged before) added up, as
/// `playouts` gives them; `a` may be `null` (none yet). Other keys are ignored.
#[wasm_bindgen(js_name = mergePlayouts, unchecked_return_type = "Summary")]
pub fn merge_playouts(
    #[wasm_bindgen(unchecked_param_type = "Stats | null")] a: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Stats")] b: JsValue,
) -> Result<JsValue, JsError> {
    let mut a: Stats = if a.is_null() { Stats::default() } else { from_js(a, "not playout statistics")? };
    a.merge(&from_js(b, "not playout statistics")?).map_err(js_err)?;
    to_js(&a.summary())
}

/// Each player's results over the games of a match (from `matchGame`): `[{player, games,
/// wins, draws, losses, unfinished, points: {mean, plus_minus}, score: {mean, plus_minus}}]`.
#[wasm_bindgen(js_name = matchTally, unchecked_return_type = "Tally[]")]
pub fn match_tally(
    players: &str,
    #[wasm_bindgen(unchecked_param_type = "MatchGame[]")] games: JsValue,
) -> Result<JsValue, JsError> {
    let games: Vec<Game> = from_js(games, "not a list of games")?;
    to_js(&gdl_core::players::arena::tally_named(&protocol::names(players)?, &games))
}

/// Who sits where in game number `game` of a match between `players` players on `roles`:
/// per role, the player's number, or null for nature (seats rotate with the game's number).
#[wasm_bindgen(js_name = matchSeats, unchecked_return_type = "(number | null)[]")]
pub fn match_seats(players: u32, roles: Vec<String>, game: u32) -> Result<JsValue, JsError> {
    to_js(&gdl_core::players::arena::seats(players as usize, &roles, game as usize))
}

/// How one game of a match ended between `roles`, in core's words (`gdl_core::verdict`).
#[wasm_bindgen(js_name = matchVerdict, unchecked_return_type = "Verdict")]
pub fn match_verdict(
    roles: Vec<String>,
    #[wasm_bindgen(unchecked_param_type = "MatchGame")] game: JsValue,
) -> Result<JsValue, JsError> {
    let game: Game = from_js(game, "not a game of a match")?;
    to_js(&game.verdict(&roles))
}

/// Per role of the game (`roles`, nature's left out), each player's results at that seat.
#[wasm_bindgen(js_name = matchTallyByRole, unchecked_return_type = "RoleTally[]")]
pub fn match_tally_by_role(
    players: &str,
    roles: Vec<String>,
    #[wasm_bindgen(unchecked_param_type = "MatchGame[]")] games: JsValue,
) -> Result<JsValue, JsError> {
    let games: Vec<Game> = from_js(games, "not a list of games")?;
    to_js(&gdl_core::players::arena::tally_by_role_named(&protocol::names(players)?, &roles, &games))
}

/// The player catalogue (`players::catalogue`): every kind of player with its budgets and
/// labels, and, for a game whose roles see only part of the state (`percepts`; null: no game),
/// what each refuses and why.
#[wasm_bindgen(js_name = playerCatalogue, unchecked_return_type = "Catalogue")]
pub fn player_catalogue(percepts: Option<bool>) -> Result<JsValue, JsError> {
    to_js(&gdl_core::players::catalogue::catalogue(percepts))
}

/// A player (`uct:1s`, `http://127.0.0.1:9147`) in words: "MCTS, 1 s a move", "remote player
/// at http://127.0.0.1:9147".
#[wasm_bindgen(js_name = playerLabel)]
pub fn player_label(player: &str) -> Result<String, JsError> {
    match gdl_core::players::catalogue::entrants(player).map_err(js_err)?.as_slice() {
        [one] => Ok(one.label()),
        _ => Err(js_err(format!("'{player}' is not one player"))),
    }
}

/// The syntax of `text` as the engine reads it: `"prefix"` if the first character outside
/// comments and whitespace is `(` (or there is none), else `"infix"`.
#[wasm_bindgen(js_name = detectSyntax, unchecked_return_type = "\"prefix\" | \"infix\"")]
pub fn detect_syntax(text: &str) -> String {
    play::text::syntax_name(gdl_core::parse::detect_syntax(text)).to_string()
}

/// The rules printed in `to` (`"prefix"` or `"infix"`).
#[wasm_bindgen(js_name = formatText)]
pub fn format_text(text: &str, to: &str) -> Result<String, JsError> {
    play::text::format(text, to).map_err(js_err)
}

/// The relation dependency graph: relations with their stratum and kind, uses with their sign.
#[wasm_bindgen(js_name = ruleGraph, unchecked_return_type = "RuleGraph")]
pub fn rule_graph(text: &str) -> Result<JsValue, JsError> {
    to_js(&play::text::rule_graph(text).map_err(js_err)?)
}

/// The game's factors, its independent subgames, as plain data: each factor's moves (role
/// and move) and fluents, the bookkeeping, the moves in no factor, how terminal and the goals
/// combine the factors (`propnet::factors`).
#[wasm_bindgen(unchecked_return_type = "Factors")]
pub fn factors(text: &str) -> Result<JsValue, JsError> {
    to_js(&gdl_core::propnet::factors::of_text(text).map_err(js_err)?)
}

/// What this build can do.
#[derive(Serialize, tsify::Tsify)]
pub struct Capabilities {
    /// The engines, the default first.
    pub engines: &'static [EngineInfo],
}

/// What this build can do: `{engines: [{name, note}]}` (the first engine is the default).
#[wasm_bindgen(unchecked_return_type = "Capabilities")]
pub fn capabilities() -> Result<JsValue, JsError> {
    to_js(&Capabilities { engines: &ENGINES })
}
