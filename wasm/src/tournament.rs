//! Tournaments for the page's Match tab, all of them core's (`gdl_core::tournament`): a
//! record started from a plan, checked, the games it misses, a finished game added, the
//! leaderboard, the record as CSV, and one game of the schedule played on a session (in a
//! worker), remote entrants reached through a JavaScript function. Records cross as plain
//! objects; the page keeps them as JSON (`JSON.stringify`), the same fields `gdl tournament
//! --record` writes and `--resume` reads.

use crate::protocol::{reach_through, say_to};
use crate::{from_js, js_err, performance_now, to_js, Session};
use gdl_core::players::catalogue::{entrants, Entrant};
use gdl_core::protocol::game::Outside;
use gdl_core::tournament::{game_id, leaderboard, schedule, Finished, Plan, Record};
use wasm_bindgen::prelude::*;

/// A record from the page, checked by core (`Record::checked`).
fn record(value: JsValue) -> Result<Record, JsError> {
    from_js::<Record>(value, "not a tournament record")?.checked().map_err(js_err)
}

/// A tournament planned as `plan`, no game played; or why the plan cannot be played. Its
/// entrants may be written as a person types them (`uct` for `uct:1000`; several in one
/// item, separated by commas): core's catalogue reads and names them.
#[wasm_bindgen(js_name = tournamentStart, unchecked_return_type = "TournamentRecord")]
pub fn tournament_start(#[wasm_bindgen(unchecked_param_type = "Plan")] plan: JsValue) -> Result<JsValue, JsError> {
    let mut plan: Plan = from_js(plan, "not a tournament's plan")?;
    let read = entrants(&plan.entrants.join(",")).map_err(|e| js_err(format!("entrants: {e}")))?;
    plan.entrants = read.iter().map(Entrant::name).collect();
    to_js(&Record::new(plan).map_err(js_err)?)
}

/// The games of the record's schedule not finished yet, in schedule order; or what is
/// wrong with the record, in words.
#[wasm_bindgen(js_name = tournamentMissing, unchecked_return_type = "Fixture[]")]
pub fn tournament_missing(
    #[wasm_bindgen(unchecked_param_type = "TournamentRecord")] r: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&record(r)?.missing())
}

/// The record with `finished` added (a game already there is not added twice).
#[wasm_bindgen(js_name = tournamentFinish, unchecked_return_type = "TournamentRecord")]
pub fn tournament_finish(
    #[wasm_bindgen(unchecked_param_type = "TournamentRecord")] r: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Finished")] finished: JsValue,
) -> Result<JsValue, JsError> {
    let mut r = record(r)?;
    r.finish(from_js::<Finished>(finished, "not a finished game")?);
    to_js(&r)
}

/// The leaderboard so far, per game and overall, as core computes it.
#[wasm_bindgen(js_name = tournamentLeaderboard, unchecked_return_type = "Leaderboard")]
pub fn tournament_leaderboard(
    #[wasm_bindgen(unchecked_param_type = "TournamentRecord")] r: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&leaderboard(&record(r)?))
}

/// The protocol's match id of game `number` of the tournament `plan` (the page aborts it on Stop).
#[wasm_bindgen(js_name = tournamentGameId)]
pub fn tournament_game_id(
    #[wasm_bindgen(unchecked_param_type = "Plan")] plan: JsValue,
    number: u32,
) -> Result<String, JsError> {
    Ok(game_id(&from_js(plan, "not a tournament's plan")?, number as usize))
}

/// The record as CSV, one line per finished game.
#[wasm_bindgen(js_name = tournamentCsv)]
pub fn tournament_csv(
    #[wasm_bindgen(unchecked_param_type = "TournamentRecord")] r: JsValue,
) -> Result<String, JsError> {
    Ok(record(r)?.csv())
}

#[wasm_bindgen]
impl Session {
    /// Game number `game` of the schedule of the tournament `plan`, on the rules loaded (that
    /// game's). Remote entrants are reached through `post`; every fault is also said to `log`.
    #[wasm_bindgen(js_name = tournamentGame, unchecked_return_type = "Finished")]
    pub fn tournament_game(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Plan")] plan: JsValue,
        game: u32,
        #[wasm_bindgen(unchecked_param_type = "(url: string, message: string, clockMillis: number) => string")]
        post: js_sys::Function,
        #[wasm_bindgen(unchecked_param_type = "(fault: string) => void")] log: js_sys::Function,
    ) -> Result<JsValue, JsError> {
        let plan: Plan = from_js(plan, "not a tournament's plan")?;
        let fixture = schedule(&plan).into_iter().nth(game as usize);
        let fixture = fixture.ok_or_else(|| js_err(format!("the tournament has no game number {}", game + 1)))?;
        let outside = &mut Outside { reach: &mut reach_through(&post), now: &performance_now, log: &mut say_to(&log) };
        let finished = self.inner.tournament_game(&plan, &fixture, outside).map_err(js_err)?;
        to_js(&finished)
    }
}
