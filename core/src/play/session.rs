//! A session at the playground: at most one loaded game, the engine it is played with (and
//! why), its history, and what can be asked about it: playouts, a computer's move, a game
//! of a match, explanations, solutions, the game's requirements. The wasm API is this,
//! converted to JavaScript.

use super::chains::{chains, Chain};
use super::engines::build_named;
use super::game::Game;
use super::knows::{base_facts, knowledge, Knowledge};
use super::position::Position;
use super::stats::Stats;
use super::text::syntax_name;
use crate::analyze::{analyze, Declared, Options, Report};
use crate::ast::Description;
use crate::diagnostic::{located, Located};
use crate::engine::{reasoner_note, upgrade, Engine};
use crate::explain::{Explainer, Explanation};
use crate::infoset::defines_sees;
use crate::machine::StateMachine;
use crate::parse::detect_syntax;
use crate::players::arena::{play_game, Game as MatchGame};
use crate::players::catalogue::Entrant;
use crate::players::{self, catalogue, Spec};
use crate::protocol::game::{referee_game, Outside, Terms};
use crate::protocol::referee::Record;
use crate::reasoner::{Limits, Reasoner};
use crate::rng::Rng;
use crate::solve::{solve, Limit, Solution};
use crate::verdict::{verdict, Verdict};
use serde::Serialize;

pub type Result<T> = std::result::Result<T, String>;

/// Why a session without a game cannot answer.
const NOT_LOADED: &str = "no game is loaded: the rules have errors";

/// What loading a text gives: every diagnostic with its place, and the roles if it loaded.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Load {
    pub ok: bool,
    /// `prefix` or `infix`.
    #[cfg_attr(feature = "tsify", tsify(type = "\"prefix\" | \"infix\""))]
    pub syntax: &'static str,
    pub errors: usize,
    pub warnings: usize,
    pub diagnostics: Vec<Located>,
    pub roles: Vec<String>,
}

/// Everything the play pane shows about the current position.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct View {
    #[serde(flatten)]
    pub position: Position,
    /// Joint moves played to reach this position.
    pub step: usize,
    /// Every joint move of the history, including those after `step` that redo replays.
    pub history: Vec<Vec<String>>,
    pub engine: &'static str,
    /// Which engine runs and why (e.g. why `auto` kept the reasoner).
    pub engine_note: String,
    /// Per role, whether it is nature (GDL-II's `random`: it draws its moves uniformly).
    pub nature: Vec<bool>,
    /// The game has `sees` rules (GDL-II): roles see only what they perceive (`knows`).
    pub percepts: bool,
    /// How the game ended, in a terminal position (`crate::verdict`): what the faces print.
    pub verdict: Option<Verdict>,
}

/// What `Session::upgrade` did: whether the game moved to the network, and the new engine
/// note or why not.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Upgraded {
    pub moved: bool,
    pub note: String,
}

/// A computer's move and what it knows about it.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Thought {
    #[serde(rename = "move")]
    pub chosen: String,
    pub playouts: u64,
    /// The goal value it expects (0..100), if it has an estimate.
    pub expects: Option<f64>,
}

/// Told a thinking computer's [`Thought`] so far (see [`Session::think`]).
pub type ThoughtReport = Box<dyn FnMut(&Thought)>;

/// The loaded game.
struct Loaded {
    game: Game<Engine>,
    /// Which engine plays and why.
    note: String,
    /// `auto` plays on the reasoner only because of its own bounds (see `upgrade`).
    may_upgrade: bool,
    /// What it was loaded from, for `domain`, other engines and explanations.
    description: Description,
    text: String,
    domain: Option<Domain>,
    /// The number of base facts, once asked (`base_facts`).
    base: Option<Option<usize>>,
    /// The game has `sees` rules.
    percepts: bool,
}

/// A session: at most one loaded game and its history.
pub struct Session {
    limits: Limits,
    loaded: Option<Loaded>,
    rng: Rng,
    /// The generator of the moves drawn at random in play (`random_move`).
    draws: Rng,
}

impl Default for Session {
    fn default() -> Self {
        Session::new(Limits::default())
    }
}

/// What a board is drawn from: every fluent the game may have (its `base` facts, sorted;
/// empty if it has none) and the game's own orders of values (`chains`).
#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Domain {
    pub fluents: Vec<String>,
    pub chains: Vec<Chain>,
}

/// The domain of a valid description. The playing reasoner computes only what play needs,
/// so a second one, on the rules as written, evaluates every static relation.
fn domain_of(desc: &Description, limits: Limits) -> Domain {
    let Ok(program) = crate::program::Program::normalised(desc) else { return Domain::default() };
    let Ok(mut m) = Reasoner::from_program(program, limits) else { return Domain::default() };
    if m.evaluate_all().is_err() {
        return Domain::default();
    }
    let mut fluents: Vec<String> = m.facts("base", 1).iter().map(|t| m.store().text(t[0]).to_string()).collect();
    fluents.sort_unstable();
    Domain { fluents, chains: chains(desc, &m) }
}

impl Session {
    pub fn new(limits: Limits) -> Session {
        Session { limits, loaded: None, rng: Rng::new(1), draws: Rng::new(1) }
    }

    /// Loads a text, on the reasoner. With errors the previous game is dropped (the page
    /// keeps the moves and replays them once the text loads again).
    pub fn load(&mut self, text: &str) -> Load {
        let syntax = syntax_name(detect_syntax(text));
        let (diagnostics, loaded) = match crate::load(text, self.limits) {
            Ok(l) => {
                let note = reasoner_note(&l.reasoner, "");
                let game = Game::new(Engine::Reasoner(Box::new(l.reasoner)));
                let text = text.to_string();
                let percepts = l.description.rules().any(crate::gdl2::is_sees);
                let (description, domain) = (l.description, None);
                (
                    l.warnings,
                    Some(Loaded { game, note, may_upgrade: false, description, text, domain, base: None, percepts }),
                )
            }
            Err(d) => (d, None),
        };
        self.loaded = loaded;
        let errors = diagnostics.iter().filter(|d| d.is_error()).count();
        let roles = self.loaded.as_ref().map_or_else(Vec::new, |l| l.game.machine().roles().to_vec());
        let (ok, warnings, diagnostics) =
            (self.loaded.is_some(), diagnostics.len() - errors, located(text, &diagnostics));
        Load { ok, syntax, errors, warnings, diagnostics, roles }
    }

    fn loaded(&mut self) -> Result<&mut Loaded> {
        self.loaded.as_mut().ok_or_else(|| NOT_LOADED.to_string())
    }

    /// The loaded game and its history.
    pub fn game(&mut self) -> Result<&mut Game<Engine>> {
        Ok(&mut self.loaded()?.game)
    }

    pub fn view(&mut self) -> Result<View> {
        let l = self.loaded()?;
        let position = l.game.position()?;
        let verdict = position.goals.as_deref().map(|g| verdict(&position.roles, Some(g)));
        Ok(View {
            position,
            step: l.game.step(),
            history: l.game.history().to_vec(),
            engine: l.game.machine().engine_name(),
            engine_note: l.note.clone(),
            nature: l.game.machine().roles().iter().map(|r| crate::gdl2::is_nature(r)).collect(),
            percepts: l.percepts,
            verdict,
        })
    }

    /// What role `role` knows at the current position: its moves, its percepts after each,
    /// its information set (exact up to `limit` states, else a sample drawn with `seed`)
    /// summed up per fluent (`Knowledge`). Never reads the true state.
    pub fn knows(&mut self, role: &str, limit: usize, seed: u64) -> Result<Knowledge> {
        let game = self.game()?;
        let Some(r) = game.machine().roles().iter().position(|x| x == role) else {
            return Err(format!("{role} is not a role of this game (roles: {})", game.machine().roles().join(", ")));
        };
        let h = game.history_of(r)?;
        let l = self.loaded()?;
        let (description, known) = (&l.description, &mut l.base);
        let mut base = || *known.get_or_insert_with(|| base_facts(description));
        knowledge(l.game.here().0, h, limit, seed, &mut base).map_err(|e| e.message)
    }

    /// What boards are drawn from: every fluent the game may have and the game's own orders
    /// of values (see `Domain`). Computed once per load.
    pub fn domain(&mut self) -> Result<Domain> {
        let limits = self.limits;
        let l = self.loaded()?;
        Ok(l.domain.get_or_insert_with(|| domain_of(&l.description, limits)).clone())
    }

    /// Plays the loaded game with engine `name` (see `ENGINES`), from its initial state;
    /// returns which engine runs and why. `now` gives milliseconds.
    pub fn set_engine(&mut self, name: &str, now: &dyn Fn() -> f64) -> Result<String> {
        let limits = self.limits;
        let l = self.loaded()?;
        let chosen = build_named(name, &l.description, limits, now)?;
        l.game = Game::new(chosen.engine);
        l.note = chosen.note;
        l.may_upgrade = chosen.may_upgrade;
        Ok(l.note.clone())
    }

    /// For a long run of playouts on the reasoner (the page's workers start on it while
    /// `auto` decides): the network this session plays on, if `auto` picked one; else, when
    /// `auto` left the game on the reasoner because of its own bounds, the game ground with
    /// the grounder's own limits (seconds), played on from the initial state if its network
    /// is measured faster (the playouts stay the same). Says whether the session plays on a
    /// network, with its engine note, or why not (empty when there was nothing to try). `now`
    /// gives milliseconds.
    pub fn upgrade(&mut self, now: &dyn Fn() -> f64) -> Result<Upgraded> {
        let limits = self.limits;
        let l = self.loaded()?;
        if l.game.machine().engine_name() == "propnet" {
            return Ok(Upgraded { moved: true, note: l.note.clone() });
        }
        if !std::mem::take(&mut l.may_upgrade) {
            return Ok(Upgraded { moved: false, note: String::new() });
        }
        match upgrade(&l.description, limits, Default::default(), now) {
            Ok(up) => {
                l.game = Game::new(up.engine());
                l.note = up.note;
                Ok(Upgraded { moved: true, note: l.note.clone() })
            }
            Err(why) => Ok(Upgraded { moved: false, note: why }),
        }
    }

    /// Goes back to the initial state and plays `moves` while they are legal; returns how
    /// many were played (a share link made with other rules may stop early). The whole
    /// replay is one call: with a time limit it stops when that time is up.
    pub fn replay(&mut self, moves: &[Vec<String>]) -> Result<usize> {
        let deadline = self.limits.time.map(|t| t.deadline());
        Ok(self.game()?.replay(moves, &|| deadline.as_ref().is_some_and(|d| d.passed())))
    }

    /// Seeds the generator of the next playouts (the same seed gives the same playouts as
    /// `gdl playout --seed`).
    pub fn seed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    /// Seeds the generator of the moves `random_move` draws.
    pub fn seed_draws(&mut self, seed: u64) {
        self.draws = Rng::new(seed);
    }

    /// A legal move of role `role` at the current position, drawn uniformly with the seeded
    /// generator of `seed_draws`: nature's moves and the moves played at random in play.
    pub fn random_move(&mut self, role: usize) -> Result<String> {
        let position = self.game()?.position()?;
        let Some(moves) = position.legal.get(role) else {
            return Err(format!("there is no role number {role} (the game has {})", position.roles.len()));
        };
        if moves.is_empty() {
            return Err(format!("{} has no legal move here", position.roles[role]));
        }
        Ok(moves[self.draws.below(moves.len())].clone())
    }

    /// Runs `count` random playouts from the initial state, each cut after `max_steps`.
    pub fn playouts(&mut self, count: u32, max_steps: usize) -> Result<Stats> {
        let Some(l) = self.loaded.as_mut() else { return Err(NOT_LOADED.into()) };
        let (m, _) = l.game.here();
        let mut stats = Stats::new(m.roles());
        m.playouts(&mut self.rng, count as usize, max_steps, &mut |_, o| stats.add(o)).map_err(|e| e.message)?;
        Ok(stats)
    }

    /// The move `player` (`random`, `uct:1000`, `uct:1s`, `perfect`, `honest:1000`, ...)
    /// chooses for role number `role` in the current position, with what is left of its
    /// budget in time once `spent` milliseconds are gone (`Spec::after`: the time since the
    /// move was asked for); `now` gives milliseconds. In a
    /// game with `sees` the player is shown the role's history only (`mc`, `uct`, `perfect`
    /// then refuse, saying to use `honest`). While it searches, `report` (if any) is told its
    /// playouts and best move so far, every `players::REPORT_MILLIS`.
    pub fn think(
        &mut self,
        player: &str,
        role: usize,
        seed: u64,
        spent: f64,
        now: &dyn Fn() -> f64,
        report: Option<ThoughtReport>,
    ) -> Result<Thought> {
        let spec = Spec::parse(player)?.after(spent);
        let game = self.game()?;
        let (m, state) = game.here();
        if role >= m.roles().len() {
            return Err(format!("the game has no role number {role}"));
        }
        if m.is_terminal(state).map_err(|e| e.message)? {
            return Err("the game is over: there is no move to choose".into());
        }
        // In a game with `sees` the player is shown its role's history, never the state.
        let history = if defines_sees(m).map_err(|e| e.message)? { Some(game.history_of(role)?) } else { None };
        let (m, state) = game.here();
        let view = match &history {
            Some(h) => players::View::History(h),
            None => players::View::State(state, role),
        };
        let mut p = spec.player(seed);
        if let Some(mut report) = report {
            let moves = m.legal_moves(state, role).map_err(|e| e.message)?;
            let texts: Vec<String> = moves.into_iter().map(|mv| m.move_text(mv)).collect();
            p.report_to(Box::new(move |d| {
                report(&Thought { chosen: texts[d.chosen].clone(), playouts: d.playouts, expects: d.expects })
            }));
        }
        let d = p.choose(m, view, now).map_err(|e| e.message)?;
        Ok(Thought { chosen: m.move_text(d.chosen), playouts: d.playouts, expects: d.expects })
    }

    /// Game number `game` of a match between `players` (`uct:1000,random`) from the initial
    /// state (seats as `gdl match` gives them), at most `max_steps` joint moves; `now` gives
    /// milliseconds.
    pub fn match_game(
        &mut self,
        players: &str,
        seed: u64,
        game: usize,
        max_steps: usize,
        now: &dyn Fn() -> f64,
    ) -> Result<MatchGame> {
        let specs = catalogue::ours(players)?;
        let (m, _) = self.game()?.here();
        play_game(m, &specs, seed, game, max_steps, now).map_err(|e| e.message)
    }

    /// Game number `game` of a refereed match between `entrants` (remote players reached
    /// through `outside`), from the initial state: the game and its record.
    pub fn referee_game(
        &mut self,
        entrants: &[Entrant],
        game: usize,
        terms: &Terms,
        outside: &mut Outside<Engine>,
    ) -> Result<(MatchGame, Record)> {
        let l = self.loaded()?;
        let (m, _) = l.game.here();
        referee_game(m, &l.description, entrants, game, terms, outside).map_err(|e| e.message)
    }

    /// Game `fixture` of the tournament `plan` on the rules loaded (the fixture's game):
    /// refereed as `tournament::play` does, remote entrants reached through `reach`.
    pub fn tournament_game(
        &mut self,
        plan: &crate::tournament::Plan,
        fixture: &crate::tournament::Fixture,
        outside: &mut Outside<Engine>,
    ) -> Result<crate::tournament::Finished> {
        let entrants = catalogue::entrants(&plan.entrants.join(","))?;
        let l = self.loaded()?;
        let (m, _) = l.game.here();
        crate::tournament::play(m, &l.description, plan, &entrants, fixture, outside).map_err(|e| e.message)
    }

    /// Why `query` (an atom such as `(legal x (mark 1 1))`) holds or not at `step` (default:
    /// the current position, or its last move for `next`), along the moves played so far.
    pub fn explain(&mut self, query: &str, step: Option<usize>) -> Result<Explanation> {
        let limits = self.limits;
        let l = self.loaded()?;
        let mut e = Explainer::new(&l.description, &l.text, limits, l.game.played())?;
        e.explain_text(query, step)
    }

    /// The value of each legal move in the current position, within `limit` (states, time).
    pub fn solve(&mut self, limit: Limit) -> Result<Solution> {
        let (m, state) = self.game()?.here();
        solve(m, state, limit).map_err(|e| e.message)
    }

    /// The game's requirements (termination, playability, goals, winnability, base/input).
    pub fn analyze(&mut self, options: Options) -> Result<Report> {
        let limits = self.limits;
        let l = self.loaded()?;
        let declared = Declared::of(&l.description, limits);
        analyze(l.game.here().0, &declared, options).map_err(|e| e.message)
    }
}
