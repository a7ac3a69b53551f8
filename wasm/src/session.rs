//! The playground's game session in plain Rust (no JavaScript types, so it is tested
//! natively): the loaded game, the positions visited with undo/redo, and playouts in
//! batches. `lib.rs` only converts its values to and from JavaScript.
//!
//! Invariant: `states[0]` is the initial state, `joints[i]` leads from `states[i]` to
//! `states[i + 1]`, and `0 <= cursor < states.len()`; positions after the cursor are the
//! redo history, dropped when another move is played.

use crate::engines;
use crate::text::{editor_diagnostics, EditorDiagnostic};
use gdl_core::ast::Description;
use gdl_core::deps::{DepGraph, RuleGraph};
use gdl_core::diagnostic::LineIndex;
use gdl_core::engine::{Engine, State};
use gdl_core::machine::{GoalValue, StateMachine};
use gdl_core::parse::{detect_syntax, parse, Parsed, Syntax};
use gdl_core::reasoner::{Limits, Reasoner};
use gdl_core::rng::Rng;
use serde::Serialize;

/// What loading a text gives the page: every diagnostic, and the roles if it loaded.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadResult {
    pub ok: bool,
    pub syntax: &'static str,
    pub errors: usize,
    pub warnings: usize,
    pub diagnostics: Vec<EditorDiagnostic>,
    pub roles: Vec<String>,
}

/// Everything the play pane shows about the current position.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct View {
    pub roles: Vec<String>,
    /// Joint moves played to reach this position.
    pub step: usize,
    /// The fluents, sorted canonical text.
    pub state: Vec<String>,
    pub terminal: bool,
    /// Per role, the goal values (only in terminal states).
    pub goals: Option<Vec<Vec<GoalValue>>>,
    /// Per role, its legal moves (empty in terminal states).
    pub legal: Vec<Vec<String>>,
    /// Every joint move of the history, including those after `step` that redo replays.
    pub history: Vec<Vec<String>>,
    pub engine: &'static str,
    /// Which engine runs and why (e.g. why `auto` kept the reasoner).
    pub engine_note: String,
}

/// What `Session::upgrade` did: whether the game moved to the network, and the new engine
/// note or why not.
#[derive(Debug, Serialize)]
pub struct Upgraded {
    pub moved: bool,
    pub note: String,
}

/// The totals of one batch of random playouts from the initial state.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Batch {
    pub playouts: u32,
    /// Playouts stopped at `max_steps` before reaching a terminal state.
    pub cut: u32,
    /// Playouts stopped where a role had no legal move in a state that is not terminal, and
    /// the first such role.
    pub stuck: u32,
    pub stuck_role: Option<String>,
    /// Sum of the playouts' lengths in joint moves.
    pub total_length: u64,
    pub min_length: u32,
    pub max_length: u32,
    /// Per role, `(goal value, playouts ending with it)`, in order of the values; several
    /// values for one role are joined with `/`, none is `none`.
    pub goals: Vec<Vec<(String, u32)>>,
}

pub(crate) struct Game {
    pub(crate) m: Engine,
    pub(crate) note: String,
    /// `auto` plays on the reasoner only because of its own bounds (see `upgrade`).
    may_upgrade: bool,
    /// What it was loaded from, for `domain`, other engines and explanations.
    pub(crate) description: Description,
    pub(crate) text: String,
    domain: Option<Vec<String>>,
    pub(crate) states: Vec<State>,
    pub(crate) joints: Vec<Vec<String>>,
    pub(crate) cursor: usize,
}

impl Game {
    /// Plays on with engine `m` (and its `note`), from the initial state.
    fn play_with(&mut self, m: Engine, note: String) {
        self.m = m;
        self.note = note;
        self.states = vec![self.m.initial_state()];
        self.joints.clear();
        self.cursor = 0;
    }
}

/// A game session: at most one loaded game and its history.
pub struct Session {
    limits: Limits,
    game: Option<Game>,
    rng: Rng,
}

pub type Result<T> = std::result::Result<T, String>;

impl Default for Session {
    fn default() -> Self {
        Session::new(Limits::default())
    }
}

fn syntax_name(s: Syntax) -> &'static str {
    match s {
        Syntax::Prefix => "prefix",
        Syntax::Infix => "infix",
    }
}

/// Goal values as the page prints them: `100`, `50/100` when a role has several, `none`.
pub fn goal_label(values: &[GoalValue]) -> String {
    if values.is_empty() {
        return "none".into();
    }
    let texts: Vec<String> = values
        .iter()
        .map(|v| match v {
            GoalValue::Int(i) => i.to_string(),
            GoalValue::Text(t) => t.clone(),
        })
        .collect();
    texts.join("/")
}

/// Parses `text`, failing with the first syntax error (line and column) if there is one.
fn parse_clean(text: &str, what: &str) -> Result<Parsed> {
    let parsed = parse(text);
    if let Some(d) = parsed.diagnostics.iter().find(|d| d.is_error()) {
        let (line, column) = LineIndex::new(text).line_col(d.span.start);
        return Err(format!("cannot {what}: syntax error at line {line}, column {column}: {}", d.message));
    }
    Ok(parsed)
}

/// The syntax called `name` (`prefix` or `infix`).
pub fn syntax_named(name: &str) -> Result<Syntax> {
    match name {
        "prefix" => Ok(Syntax::Prefix),
        "infix" => Ok(Syntax::Infix),
        _ => Err(format!("unknown syntax {name:?}: use prefix or infix")),
    }
}

/// The text printed in `to` (`prefix` or `infix`); comments between rules are kept.
pub fn format(text: &str, to: &str) -> Result<String> {
    let syntax = syntax_named(to)?;
    let parsed = parse_clean(text, &format!("convert to {to}"))?;
    Ok(gdl_core::print::print(&parsed.description, syntax))
}

/// The relation dependency graph of `text` (drawn even when validation fails, so that a
/// negation cycle can be seen).
pub fn rule_graph(text: &str) -> Result<RuleGraph> {
    let parsed = parse_clean(text, "draw the rule graph")?;
    Ok(DepGraph::build(&parsed.description).rule_graph())
}

/// The `base` facts of a valid description, as text. The playing reasoner computes only
/// what play needs, so a second one evaluates every static relation.
fn base_facts(desc: &Description, limits: Limits) -> Vec<String> {
    let Ok(mut m) = Reasoner::new(desc, limits) else { return Vec::new() };
    if m.evaluate_all().is_err() {
        return Vec::new();
    }
    let mut facts: Vec<String> = m.facts("base", 1).iter().map(|t| m.store().text(t[0]).to_string()).collect();
    facts.sort_unstable();
    facts
}

impl Session {
    pub fn new(limits: Limits) -> Session {
        Session { limits, game: None, rng: Rng::new(1) }
    }

    /// Loads a text. With errors the previous game is dropped (the page keeps the moves
    /// and replays them once the text loads again).
    pub fn load(&mut self, text: &str) -> LoadResult {
        let syntax = syntax_name(detect_syntax(text));
        let (diags, loaded) = match gdl_core::load(text, self.limits) {
            Ok(l) => {
                let note = gdl_core::engine::reasoner_note(&l.reasoner, "");
                (l.warnings, Some((Engine::Reasoner(Box::new(l.reasoner)), l.description, note)))
            }
            Err(d) => (d, None),
        };
        let errors = diags.iter().filter(|d| d.is_error()).count();
        let diagnostics = editor_diagnostics(text, &diags);
        self.game = loaded.map(|(m, description, note)| Game {
            states: vec![m.initial_state()],
            m,
            note,
            may_upgrade: false,
            description,
            text: text.to_string(),
            domain: None,
            joints: Vec::new(),
            cursor: 0,
        });
        let roles = self.game.as_ref().map_or_else(Vec::new, |g| g.m.roles().to_vec());
        LoadResult { ok: self.game.is_some(), syntax, errors, warnings: diagnostics.len() - errors, diagnostics, roles }
    }

    pub(crate) fn limits(&self) -> Limits {
        self.limits
    }

    pub(crate) fn game(&mut self) -> Result<&mut Game> {
        self.game.as_mut().ok_or_else(|| "no game is loaded: the rules have errors".to_string())
    }

    pub fn view(&mut self) -> Result<View> {
        let g = self.game()?;
        let state = g.states[g.cursor].clone();
        let note = g.note.clone();
        let m = &mut g.m;
        let terminal = m.is_terminal(&state).map_err(|e| e.message)?;
        let (goals, legal) = if terminal {
            (Some(m.goals(&state).map_err(|e| e.message)?), vec![Vec::new(); m.roles().len()])
        } else {
            let mut legal = Vec::new();
            for r in 0..m.roles().len() {
                let moves = m.legal_moves(&state, r).map_err(|e| e.message)?;
                legal.push(moves.into_iter().map(|x| m.move_text(x)).collect());
            }
            (None, legal)
        };
        Ok(View {
            roles: m.roles().to_vec(),
            step: g.cursor,
            state: m.state_text(&state),
            terminal,
            goals,
            legal,
            history: g.joints.clone(),
            engine: m.engine_name(),
            engine_note: note,
        })
    }

    /// Every fluent the game may have: its `base` facts, sorted (empty if it has none).
    /// The page draws a board's empty rows from them. Computed once per load.
    pub fn domain(&mut self) -> Result<Vec<String>> {
        let limits = self.limits;
        let g = self.game()?;
        Ok(g.domain.get_or_insert_with(|| base_facts(&g.description, limits)).clone())
    }

    /// Plays the loaded game with engine `name` (see `engines.rs`), from its initial state;
    /// returns which engine runs and why. `now` gives milliseconds.
    pub fn set_engine(&mut self, name: &str, now: &dyn Fn() -> f64) -> Result<String> {
        let limits = self.limits;
        let g = self.game()?;
        let chosen = engines::build(name, &g.description, limits, now)?;
        g.play_with(chosen.engine, chosen.note);
        g.may_upgrade = chosen.may_upgrade;
        Ok(g.note.clone())
    }

    /// For a long run of playouts that `auto` left on the reasoner because of its own
    /// bounds: grounds the game with the grounder's own limits (seconds) and, if its network
    /// is measured faster, plays on it from the initial state (the playouts stay the same).
    /// Says whether it moved, with the new engine note or why not (empty when there was
    /// nothing to try). `now` gives milliseconds.
    pub fn upgrade(&mut self, now: &dyn Fn() -> f64) -> Result<Upgraded> {
        let limits = self.limits;
        let g = self.game()?;
        if !std::mem::take(&mut g.may_upgrade) {
            return Ok(Upgraded { moved: false, note: String::new() });
        }
        match gdl_core::engine::upgrade(&g.description, limits, Default::default(), now) {
            Ok(up) => {
                g.play_with(up.engine(), up.note);
                Ok(Upgraded { moved: true, note: g.note.clone() })
            }
            Err(why) => Ok(Upgraded { moved: false, note: why }),
        }
    }

    /// Plays one joint move (a move text per role, in role order) from the current position.
    pub fn play(&mut self, joint: &[String]) -> Result<()> {
        let g = self.game()?;
        let state = g.states[g.cursor].clone();
        let m = &mut g.m;
        let roles = m.roles().to_vec();
        if joint.len() != roles.len() {
            return Err(format!("a joint move needs one move per role ({}), got {}", roles.len(), joint.len()));
        }
        if m.is_terminal(&state).map_err(|e| e.message)? {
            return Err("the game is over: no more moves can be played".into());
        }
        let mut moves = Vec::with_capacity(roles.len());
        for (r, text) in joint.iter().enumerate() {
            let legal = m.legal_moves(&state, r).map_err(|e| e.message)?;
            match legal.iter().find(|&&x| m.move_text(x) == *text) {
                Some(&x) => moves.push(x),
                None => return Err(format!("{text} is not a legal move for {} here", roles[r])),
            }
        }
        let next = m.next_state(&state, &moves).map_err(|e| e.message)?;
        g.states.truncate(g.cursor + 1);
        g.joints.truncate(g.cursor);
        g.states.push(next);
        g.joints.push(joint.to_vec());
        g.cursor += 1;
        Ok(())
    }

    /// Goes back to the initial state and plays `moves` while they are legal; returns how
    /// many were played (a share link made with other rules may stop early). The whole
    /// replay is one call: with a time limit it stops when that time is up.
    pub fn replay(&mut self, moves: &[Vec<String>]) -> Result<usize> {
        let deadline = self.limits.time.map(|t| t.deadline());
        let g = self.game()?;
        g.states.truncate(1);
        g.joints.clear();
        g.cursor = 0;
        for (i, joint) in moves.iter().enumerate() {
            if deadline.is_some_and(|d| d.passed()) || self.play(joint).is_err() {
                return Ok(i);
            }
        }
        Ok(moves.len())
    }

    pub fn undo(&mut self) -> Result<()> {
        let g = self.game()?;
        g.cursor = g.cursor.checked_sub(1).ok_or("nothing to undo: this is the initial state")?;
        Ok(())
    }

    pub fn redo(&mut self) -> Result<()> {
        let g = self.game()?;
        if g.cursor + 1 >= g.states.len() {
            return Err("nothing to redo".into());
        }
        g.cursor += 1;
        Ok(())
    }

    /// Moves to the position after `step` joint moves of the history (0: initial state).
    pub fn go_to(&mut self, step: usize) -> Result<()> {
        let g = self.game()?;
        if step >= g.states.len() {
            return Err(format!("step {step} is beyond the history ({} moves)", g.states.len() - 1));
        }
        g.cursor = step;
        Ok(())
    }

    /// Seeds the generator of the next playouts (the same seed gives the same playouts as
    /// `gdl playout --seed`).
    pub fn seed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    /// Runs `count` random playouts from the initial state, each cut after `max_steps`.
    pub fn playouts(&mut self, count: u32, max_steps: usize) -> Result<Batch> {
        let Some(g) = self.game.as_mut() else { return Err("no game is loaded: the rules have errors".into()) };
        let names = g.m.roles().to_vec();
        let roles = names.len();
        let mut b = Batch { goals: vec![Vec::new(); roles], min_length: u32::MAX, ..Batch::default() };
        // Per role, each list of goal values and its count (few: a list).
        let mut ends: Vec<Vec<(Vec<GoalValue>, u32)>> = vec![Vec::new(); roles];
        g.m.playouts(&mut self.rng, count as usize, max_steps, &mut |_, o| {
            let length = o.length as u32;
            b.playouts += 1;
            b.total_length += u64::from(length);
            b.min_length = b.min_length.min(length);
            b.max_length = b.max_length.max(length);
            let Some(goals) = &o.goals else {
                match o.stuck {
                    Some(r) => {
                        b.stuck += 1;
                        b.stuck_role.get_or_insert_with(|| names[r].clone());
                    }
                    None => b.cut += 1,
                }
                return;
            };
            for (hist, values) in ends.iter_mut().zip(goals) {
                match hist.iter_mut().find(|(v, _)| v == values) {
                    Some((_, n)) => *n += 1,
                    None => hist.push((values.clone(), 1)),
                }
            }
        })
        .map_err(|e| e.message)?;
        for (hist, mut ends) in b.goals.iter_mut().zip(ends) {
            ends.sort();
            hist.extend(ends.iter().map(|(values, n)| (goal_label(values), *n)));
        }
        if b.playouts == 0 {
            b.min_length = 0;
        }
        Ok(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gdl_core::machine::playout::{playout_rng, step_playout};

    const TICTACTOE: &str = include_str!("../../games/tictactoe.kif");

    fn strings(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| s.to_string()).collect()
    }

    fn loaded() -> Session {
        let mut s = Session::default();
        assert!(s.load(TICTACTOE).ok);
        s
    }

    #[test]
    fn load_reports_errors_with_lines_and_drops_the_game() {
        let mut s = loaded();
        let r = s.load("(role x)\n(role o)\n(<= (legal ?p (mark ?x)) (true (cell ?x))");
        assert!(!r.ok);
        assert_eq!(r.syntax, "prefix");
        assert!(r.errors >= 1);
        assert_eq!(r.diagnostics[0].line, 3);
        assert!(s.view().unwrap_err().contains("no game is loaded"));
    }

    /// `auto` keeps the reasoner for a walk whose moves read a static relation of 80³
    /// facts (past the facts it allows a grounding); `upgrade` grounds it in full and moves
    /// to the network, once. A game `auto` plays on the network has nothing to upgrade.
    #[test]
    fn upgrade_moves_a_game_past_autos_bounds_to_the_network_once() {
        let n: String = (0..80).map(|i| format!("(n {i}) ")).collect();
        let succ: String = (0..79).map(|i| format!("(succ {i} {}) ", i + 1)).collect();
        let trio = format!(
            "(role p) {n} {succ} (init (at 0))
             (<= (trio ?a ?b ?c) (n ?a) (n ?b) (n ?c))
             (<= (legal p (go ?b)) (true (at ?a)) (succ ?a ?b) (trio ?a ?b ?b))
             (<= (next (at ?b)) (does p (go ?b)))
             (<= terminal (true (at 20))) (<= (goal p 100) (true (at 20)))"
        );
        let mut s = Session::default();
        assert!(s.load(&trio).ok);
        assert!(s.set_engine("auto", &|| 0.0).unwrap().starts_with("reasoner ("));
        let start = std::time::Instant::now();
        let now = || start.elapsed().as_secs_f64() * 1000.0;
        let up = s.upgrade(&now).unwrap();
        assert!(up.moved && up.note.starts_with("propnet ("), "{up:?}");
        let v = s.view().unwrap();
        assert_eq!((v.engine, v.step, v.engine_note), ("propnet", 0, up.note));
        assert_eq!(s.playouts(10, 100).unwrap().goals, vec![vec![("100".to_string(), 10)]]);
        assert!(!s.upgrade(&now).unwrap().moved);

        let mut s = loaded();
        assert!(s.set_engine("auto", &|| 0.0).unwrap().starts_with("propnet ("));
        let up = s.upgrade(&now).unwrap();
        assert!(!up.moved && up.note.is_empty(), "{up:?}");
    }

    #[test]
    fn play_undo_redo_and_a_win() {
        let mut s = loaded();
        let v = s.view().unwrap();
        assert_eq!(v.roles, strings(&["x", "o"]));
        assert_eq!(v.legal[0].len(), 9);
        assert_eq!(v.legal[1], strings(&["noop"]));
        let game = [
            ["(mark 1 1)", "noop"],
            ["noop", "(mark 1 2)"],
            ["(mark 2 2)", "noop"],
            ["noop", "(mark 1 3)"],
            ["(mark 3 3)", "noop"],
        ];
        for j in &game {
            s.play(&strings(j)).unwrap();
        }
        let v = s.view().unwrap();
        assert!(v.terminal);
        assert_eq!(v.goals, Some(vec![vec![GoalValue::Int(100)], vec![GoalValue::Int(0)]]));
        assert!(s.play(&strings(&["noop", "noop"])).unwrap_err().contains("game is over"));

        s.undo().unwrap();
        let v = s.view().unwrap();
        assert!(!v.terminal && v.step == 4 && v.history.len() == 5);
        s.redo().unwrap();
        assert!(s.view().unwrap().terminal);
        s.go_to(1).unwrap();
        // Another move drops the redo history.
        s.play(&strings(&["noop", "(mark 3 1)"])).unwrap();
        let v = s.view().unwrap();
        assert_eq!((v.step, v.history.len()), (2, 2));
        assert!(s.redo().is_err());
        s.go_to(0).unwrap();
        assert!(s.undo().unwrap_err().contains("nothing to undo"));
    }

    #[test]
    fn illegal_moves_are_refused_and_replay_stops_at_them() {
        let mut s = loaded();
        assert!(s.play(&strings(&["(mark 1 1)"])).unwrap_err().contains("one move per role"));
        assert!(s.play(&strings(&["noop", "noop"])).unwrap_err().contains("noop is not a legal move for x"));
        let moves = vec![strings(&["(mark 1 1)", "noop"]), strings(&["noop", "(mark 1 1)"])];
        assert_eq!(s.replay(&moves).unwrap(), 1);
        assert_eq!(s.view().unwrap().step, 1);
    }

    #[test]
    fn playouts_count_lengths_and_goals_like_gdl_playout() {
        let mut s = loaded();
        s.seed(7);
        let b = s.playouts(50, 1000).unwrap();
        assert_eq!((b.playouts, b.cut), (50, 0));
        assert!(b.min_length >= 5 && b.max_length <= 9 && b.min_length <= b.max_length);
        for hist in &b.goals {
            assert_eq!(hist.iter().map(|(_, n)| n).sum::<u32>(), 50);
            assert!(hist.iter().all(|(l, _)| ["0", "50", "100"].contains(&l.as_str())));
        }
        // Same seed, same playouts as `gdl playout --seed`: each with the generator
        // `playout_rng` makes for it.
        let mut m = gdl_core::load(TICTACTOE, Limits::default()).unwrap().reasoner;
        let mut rng = Rng::new(7);
        let total: u64 =
            (0..50).map(|_| step_playout(&mut m, &mut playout_rng(&mut rng), 1000).unwrap().length as u64).sum();
        assert_eq!(b.total_length, total);
        let cut = s.playouts(3, 2).unwrap();
        assert_eq!((cut.cut, cut.max_length), (3, 2));
        assert!(cut.goals.iter().all(Vec::is_empty));
    }

    #[test]
    fn playouts_count_those_stopped_where_a_role_has_no_legal_move() {
        let mut s = Session::default();
        let trap = "(role r) (init (n 0)) (succ 0 1) (succ 1 2) (succ 2 3)
            (<= (legal r up) (true (n ?x))) (<= (legal r trap) (true (n ?x)))
            (<= (next (n ?y)) (does r up) (true (n ?x)) (succ ?x ?y)) (<= (next caught) (does r trap))
            (<= terminal (true (n 3))) (<= (goal r 100) (true (n 3)))";
        assert!(s.load(trap).ok);
        let b = s.playouts(100, 1000).unwrap();
        assert!(b.stuck > 30 && b.stuck < 100 && b.cut == 0, "{b:?}");
        assert_eq!(b.stuck_role.as_deref(), Some("r"));
        assert_eq!(b.goals[0].iter().map(|(_, n)| n).sum::<u32>(), 100 - b.stuck);
    }

    #[test]
    fn format_round_trips_and_refuses_syntax_errors() {
        let infix = format(TICTACTOE, "infix").unwrap();
        assert!(infix.contains("legal(P, mark(C, R)) :-"), "{infix}");
        let back = format(&infix, "prefix").unwrap();
        assert_eq!(parse(&back).description, parse(TICTACTOE).description);
        let e = format("(role x)\n(role", "infix").unwrap_err();
        assert!(e.starts_with("cannot convert to infix: syntax error at line 2, column 1"), "{e}");
        assert!(format("x", "lisp").is_err());
    }

    #[test]
    fn rule_graph_has_signed_edges_and_kinds() {
        let g = rule_graph(TICTACTOE).unwrap();
        let kind = |id: &str| g.nodes.iter().find(|n| n.id == id).map(|n| n.kind);
        assert_eq!(kind("legal/2"), Some("state"));
        assert_eq!(kind("next/1"), Some("move"));
        assert_eq!(kind("index/1"), Some("static"));
        assert!(g.edges.iter().any(|e| e.from == "goal/2" && e.to == "line/1" && e.negative));
        assert!(rule_graph("(<= p").is_err());
    }

    #[test]
    fn domain_lists_base_facts() {
        let mut s = loaded();
        let d = s.domain().unwrap();
        assert_eq!(d.len(), 27 + 2);
        assert!(d.contains(&"(cell 3 2 o)".to_string()) && d.contains(&"(control o)".to_string()));
        // Playing is unaffected.
        assert_eq!(s.view().unwrap().state.len(), 10);
        s.load("(role p) (init (s 1)) (<= (legal p a) (true (s 1))) (<= (next (s 1)) (does p a)) (<= terminal (true (s 2))) (goal p 100)");
        assert_eq!(s.domain().unwrap(), Vec::<String>::new());
    }

    #[test]
    fn another_engine_plays_the_same_game() {
        let mut s = loaded();
        s.set_engine("ground", &|| 0.0).unwrap();
        let v = s.view().unwrap();
        assert_eq!((v.engine, v.legal[0].len()), ("ground", 9));
        s.seed(7);
        let ground = s.playouts(30, 1000).unwrap();
        let note = s.set_engine("auto", &|| 0.0).unwrap();
        assert!(note.starts_with("propnet ("), "{note}");
        assert_eq!(s.view().unwrap().engine_note, note);
        s.seed(7);
        let propnet = s.playouts(30, 1000).unwrap();
        s.set_engine("reasoner", &|| 0.0).unwrap();
        s.seed(7);
        let first_order = s.playouts(30, 1000).unwrap();
        assert_eq!((ground.total_length, &ground.goals), (first_order.total_length, &first_order.goals));
        assert_eq!((propnet.total_length, propnet.goals), (first_order.total_length, first_order.goals));
        assert!(s.set_engine("propositional", &|| 0.0).unwrap_err().contains("unknown engine"));
    }

    #[test]
    fn goal_labels() {
        assert_eq!(goal_label(&[]), "none");
        assert_eq!(goal_label(&[GoalValue::Int(50), GoalValue::Text("x".into())]), "50/x");
    }
}
