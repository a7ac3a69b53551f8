//! A player written by a student (in JavaScript, on the page: `wasm/src/student.rs`), given one
//! match as core's protocol player follows it ([`super::player::Match`], from the referee's
//! messages) and the calls it searches the game with. States are numbers: each state the
//! player reaches is kept for the match under its number, so that a player can use them as
//! keys and a call across the wasm boundary carries a number, not a state.
//!
//! Invariant: the player never holds the true state of a GDL-II game. The messages carry only
//! its role's moves and percepts, the match keeps no position then ([`StudentGame::current`]
//! refuses), and every state it can name was reached from the initial state by its own calls
//! or guessed from its history ([`StudentGame::guesses`], the honest player's guesses).

use super::message::Message;
use super::player::Match;
use crate::machine::playout::Outcome;
use crate::machine::StateMachine;
use crate::path::move_named;
use crate::players::honest::Guesses;
use crate::players::{scores, Spec, PLAYOUT_MAX_STEPS};
use crate::propnet::factors::{of_text, Factors};
use crate::rng::Rng;
use crate::solve::goal_number;
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::hash::Hash;

/// What a GDL-II game answers a player that asks for the position.
pub const HIDDEN: &str = "this game hides the position (it has sees): a player knows only its own moves and percepts \
                          (game.history) and the states that fit them (game.guesses)";

/// What a player knows of its match, in one piece: who plays, the clocks, how far it is, and
/// (GDL-II) its own moves and percepts.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct GameInfo {
    pub id: String,
    /// The player's role, by its number among `roles`.
    pub role: u32,
    pub roles: Vec<String>,
    /// The clocks, in seconds.
    pub start_clock: f64,
    pub play_clock: f64,
    /// Joint moves played so far.
    pub step: u32,
    /// Whether the game hides the position (GDL-II).
    pub hidden: bool,
    /// GDL-II: the role's own moves so far (empty otherwise).
    pub moves: Vec<String>,
    /// GDL-II: what the role perceived after each of its moves, as sorted texts.
    pub percepts: Vec<Vec<String>>,
}

/// One match of a student's player.
pub struct StudentGame<M: StateMachine> {
    game: Match<M>,
    start_clock: f64,
    play_clock: f64,
    /// The rules of the START, for the factors, found when first asked.
    rules: String,
    factors: Option<std::result::Result<Factors, String>>,
    /// Every state named so far, by number, and the number of each.
    states: Vec<M::State>,
    numbers: FxHashMap<M::State, u32>,
    rng: Rng,
}

type Result<T> = std::result::Result<T, String>;

impl<M: StateMachine + 'static> StudentGame<M>
where
    M::State: Hash,
{
    /// The match of a START (`load` makes the engine from its rules), its draws seeded by `seed`.
    pub fn start(start: &str, seed: u64, load: impl FnOnce(&str) -> Result<M>) -> Result<StudentGame<M>> {
        let message = Message::parse(start)?;
        let Message::Start { id, role, rules, start_clock, play_clock } = message else {
            return Err(format!("expected a START, but the referee sent {message}"));
        };
        let game = Match::new(&id, &role, load(&rules)?, Spec::Random, seed)?;
        Ok(StudentGame {
            game,
            start_clock,
            play_clock,
            rules,
            factors: None,
            states: Vec::new(),
            numbers: FxHashMap::default(),
            rng: Rng::new(seed),
        })
    }

    /// What the player knows of its match now.
    pub fn info(&mut self) -> GameInfo {
        let (moves, percepts) = self.history();
        GameInfo {
            id: self.game.id.clone(),
            role: self.game.role as u32,
            roles: self.game.roles().to_vec(),
            start_clock: self.start_clock,
            play_clock: self.play_clock,
            step: self.game.step as u32,
            hidden: self.game.is_hidden(),
            moves,
            percepts,
        }
    }

    /// The game's independent subgames (`propnet::factors`): each factor's moves (with their
    /// roles) and fluents, the bookkeeping, and how terminal and the goals combine them. They
    /// come from the rules alone, which every player is given, and name no state: a GDL-II
    /// game gives them whole, and they tell nothing of the hidden position.
    pub fn factors(&mut self) -> Result<&Factors> {
        let rules = &self.rules;
        self.factors.get_or_insert_with(|| of_text(rules)).as_ref().map_err(Clone::clone)
    }

    /// Follows a PLAY, STOP or ABORT of this match: `"play"` when a move is wanted, `"stop"`
    /// at the end, `"abort"`.
    pub fn follow(&mut self, text: &str) -> Result<&'static str> {
        let message = Message::parse(text)?;
        let (kind, id, last) = match &message {
            Message::Play { id, last } => ("play", id, Some(last)),
            Message::Stop { id, last } => ("stop", id, Some(last)),
            Message::Abort { id } => ("abort", id, None),
            _ => return Err(format!("expected PLAY, STOP or ABORT, but the referee sent {message}")),
        };
        if *id != self.game.id {
            return Err(format!("no match '{id}' here: this player is playing '{}'", self.game.id));
        }
        if let Some(last) = last {
            self.game.advance(last)?;
        }
        Ok(kind)
    }

    /// The move the player replied to the last PLAY (GDL-II: the Dresden form of the next PLAY
    /// gives only the percepts, not the move).
    pub fn sent(&mut self, text: &str) -> Result<()> {
        self.game.sent(text)
    }

    /// The number of `state`, kept from now on.
    fn number(&mut self, state: M::State) -> u32 {
        if let Some(&n) = self.numbers.get(&state) {
            return n;
        }
        let n = self.states.len() as u32;
        self.states.push(state.clone());
        self.numbers.insert(state, n);
        n
    }

    fn state(&self, n: u32) -> Result<M::State> {
        (self.states.get(n as usize).cloned())
            .ok_or_else(|| format!("{n} is not a state of this match: use a state the game gave (initial, next, …)"))
    }

    fn role_number(&self, role: usize) -> Result<usize> {
        let roles = self.game.roles();
        if role < roles.len() {
            Ok(role)
        } else {
            Err(format!("there is no role number {role}: the roles are {}", roles.join(", ")))
        }
    }

    pub fn initial(&mut self) -> u32 {
        let s = self.game.machine().initial_state();
        self.number(s)
    }

    /// The position now, in a game that shows it; a GDL-II game refuses ([`HIDDEN`]).
    pub fn current(&mut self) -> Result<u32> {
        let s = self.game.position().cloned().ok_or(HIDDEN)?;
        Ok(self.number(s))
    }

    /// The legal moves of role number `role` in `state`, sorted.
    pub fn legal(&mut self, state: u32, role: usize) -> Result<Vec<String>> {
        let (s, r) = (self.state(state)?, self.role_number(role)?);
        let m = self.game.machine();
        let moves = m.legal_moves(&s, r).map_err(|e| e.message)?;
        Ok(moves.into_iter().map(|mv| m.move_text(mv)).collect())
    }

    /// The state after the joint move `joint` (one move per role, in role order) in `state`.
    pub fn next(&mut self, state: u32, joint: &[String]) -> Result<u32> {
        let s = self.state(state)?;
        let m = self.game.machine();
        let roles = m.roles().to_vec();
        if joint.len() != roles.len() {
            return Err(format!("a joint move has one move per role ({}), not {}", roles.len(), joint.len()));
        }
        let mut moves = Vec::with_capacity(joint.len());
        for (r, text) in joint.iter().enumerate() {
            let legal = m.legal_moves(&s, r).map_err(|e| e.message)?;
            let mv = move_named(m, &legal, text)
                .ok_or_else(|| format!("{text} is not a legal move of {} in state {state}", roles[r]))?;
            moves.push(mv);
        }
        let next = m.next_state(&s, &moves).map_err(|e| e.message)?;
        Ok(self.number(next))
    }

    pub fn terminal(&mut self, state: u32) -> Result<bool> {
        let s = self.state(state)?;
        self.game.machine().is_terminal(&s).map_err(|e| e.message)
    }

    /// Each role's goal value in `state` (0 for a role without an integer goal).
    pub fn goals(&mut self, state: u32) -> Result<Vec<f64>> {
        let s = self.state(state)?;
        let goals = self.game.machine().goals(&s).map_err(|e| e.message)?;
        Ok(goals.iter().map(|g| goal_number(g) as f64).collect())
    }

    /// The fluents true in `state`, as sorted texts.
    pub fn fluents(&mut self, state: u32) -> Result<Vec<String>> {
        let s = self.state(state)?;
        Ok(self.game.machine().state_text(&s))
    }

    /// `count` random playouts from `state` (on the network, 64 at a time): each role's mean
    /// goal value (0..100; a playout cut at the players' limit counts 50 for everyone).
    pub fn playouts(&mut self, state: u32, count: u32) -> Result<Vec<f64>> {
        let s = self.state(state)?;
        let roles = self.game.roles().len();
        let mut sums = vec![0.0; roles];
        let mut add = |_: usize, outcome: &Outcome| {
            let each = outcome.goals.as_ref().map_or_else(|| vec![0.5; roles], |g| scores(g));
            sums.iter_mut().zip(each).for_each(|(sum, v)| *sum += v);
        };
        let (m, rng) = (self.game.machine(), &mut self.rng);
        m.playouts_from(&s, rng, count as usize, PLAYOUT_MAX_STEPS, &mut add).map_err(|e| e.message)?;
        Ok(sums.into_iter().map(|v| 100.0 * v / f64::from(count.max(1))).collect())
    }

    /// A whole number below `count`, drawn from the match's seed: a player that draws its
    /// choices here plays the same game again with the same seed.
    pub fn random(&mut self, count: u32) -> Result<u32> {
        if count == 0 {
            return Err(
                "random(0) has nothing to draw: random(n) draws a whole number from 0 to n - 1, so give n of 1 or more"
                    .into(),
            );
        }
        Ok(self.rng.below(count as usize) as u32)
    }

    /// GDL-II: the role's own moves so far, and what it perceived after each (sorted texts).
    pub fn history(&mut self) -> (Vec<String>, Vec<Vec<String>>) {
        let Some(h) = self.game.history().cloned() else { return (Vec::new(), Vec::new()) };
        let m = self.game.machine();
        (h.moves.iter().map(|&mv| m.move_text(mv)).collect(), h.percepts)
    }

    /// Up to `count` states the game may be in, guessed from the role's history alone (as the
    /// honest player guesses them: more likely states more often); without `sees`, the position.
    pub fn guesses(&mut self, count: usize) -> Result<Vec<u32>> {
        let Some(h) = self.game.history().cloned() else { return Ok(vec![self.current()?]) };
        let found = Guesses::new(count).after(self.game.machine(), &h, &mut self.rng).map_err(|e| e.message)?.to_vec();
        Ok(found.into_iter().map(|s| self.number(s)).collect())
    }
}
