//! A player's side of one match: its role, the position followed step by step from the
//! joint moves the referee sends, and a move chosen within the time it is given. In a GDL-II
//! game the player never knows the position: it keeps its role's history (its moves, the
//! percepts the referee sends) and plays from that with the honest player.

use super::message::Last;
use super::{for_hidden, think};
use crate::infoset::{defines_sees, History};
use crate::machine::StateMachine;
use crate::path::move_named;
use crate::players::honest::Guesses;
use crate::players::{legal, Spec, View};
use crate::rng::Rng;
use crate::solve::goal_number;
use std::hash::Hash;

/// One match as a player sees it.
pub struct Match<M: StateMachine> {
    pub id: String,
    pub role: usize,
    /// Joint moves played so far.
    pub step: usize,
    m: M,
    state: M::State,
    hidden: Option<Hidden<M>>,
    spec: Spec,
    rng: Rng,
}

/// GDL-II: the role's history, and its last move sent (the Dresden form of PLAY does not
/// repeat it).
type Hidden<M> = (History<<M as StateMachine>::Move>, Option<<M as StateMachine>::Move>);

/// A move chosen, and what went wrong choosing it (the player failed, so a random legal
/// move stands in).
pub struct Choice {
    pub text: String,
    pub playouts: u64,
    pub trouble: Option<String>,
}

impl<M: StateMachine + 'static> Match<M>
where
    M::State: Hash,
{
    /// The match `id` on the game `m`, playing `role`.
    pub fn new(id: &str, role: &str, mut m: M, spec: Spec, seed: u64) -> Result<Match<M>, String> {
        let Some(r) = m.roles().iter().position(|x| x == role) else {
            return Err(format!("role '{role}' is not in the game: its roles are {}", m.roles().join(", ")));
        };
        let state = m.initial_state();
        let hidden = defines_sees(&mut m).map_err(|e| e.message)?.then(|| (History::new(r), None));
        let spec = if hidden.is_some() { for_hidden(spec) } else { spec };
        Ok(Match { id: id.to_string(), role: r, step: 0, m, state, hidden, spec, rng: Rng::new(seed) })
    }

    /// The player that plays (in a GDL-II game, one that plays from the role's history).
    pub fn spec(&self) -> Spec {
        self.spec
    }

    /// Whether the game hides moves (GDL-II): the player knows its history, not the position.
    pub fn is_hidden(&self) -> bool {
        self.hidden.is_some()
    }

    pub fn roles(&self) -> &[String] {
        self.m.roles()
    }

    /// The game's state machine, for a player that searches it itself (a student's player
    /// on the page: `wasm/src/student.rs`).
    pub fn machine(&mut self) -> &mut M {
        &mut self.m
    }

    /// The position, where the player knows it; `None` in a GDL-II game, where it knows only
    /// its history.
    pub fn position(&self) -> Option<&M::State> {
        self.hidden.is_none().then_some(&self.state)
    }

    /// GDL-II: the role's history (its moves and percepts); `None` in a game without `sees`.
    pub fn history(&self) -> Option<&History<M::Move>> {
        self.hidden.as_ref().map(|(h, _)| h)
    }

    /// Plays the referee's last joint move (`Nothing` before the first move); in a GDL-II
    /// game, adds the role's move and percepts to its history.
    pub fn advance(&mut self, last: &Last) -> Result<(), String> {
        if self.hidden.is_some() {
            return self.perceive(last);
        }
        let moves = match last {
            Last::Nothing if self.step == 0 => return Ok(()),
            Last::Nothing => return Err(format!("NIL as the last moves, but {} moves have been played", self.step)),
            Last::Moves(moves) => moves,
            Last::Percepts { .. } => return Err("percepts, but this game has no sees: send the joint move".into()),
        };
        let roles = self.m.roles().to_vec();
        if moves.len() != roles.len() {
            return Err(format!("{} moves for {} roles", moves.len(), roles.len()));
        }
        if self.is_over() {
            return Err("moves after the end of the game".into());
        }
        let mut joint = Vec::new();
        for (r, text) in moves.iter().enumerate() {
            let legal = self.m.legal_moves(&self.state, r).map_err(|e| e.message)?;
            let Some(mv) = move_named(&self.m, &legal, text) else {
                return Err(format!("{text} is not a legal move of {} at step {}", roles[r], self.step + 1));
            };
            joint.push(mv);
        }
        self.state = self.m.next_state(&self.state, &joint).map_err(|e| e.message)?;
        self.step += 1;
        Ok(())
    }

    /// GDL-II: one more step of the role's history, its own move being the one the referee
    /// says (or, when it does not, the one this player sent).
    fn perceive(&mut self, last: &Last) -> Result<(), String> {
        let (own, percepts) = match last {
            Last::Nothing if self.step == 0 => return Ok(()),
            Last::Nothing => return Err(format!("NIL as the last percepts, but {} moves have been played", self.step)),
            Last::Moves(percepts) => (None, percepts),
            Last::Percepts { own, percepts, .. } => (own.as_deref(), percepts),
        };
        let Some((_, sent)) = &self.hidden else { unreachable!("perceive is for GDL-II games") };
        let mv = match (own, *sent) {
            (None, Some(mv)) => mv,
            (Some(text), Some(mv)) if self.m.move_text(mv) == text => mv,
            // A move the referee played for us.
            (Some(text), _) => self.own_move(text)?.ok_or_else(|| {
                format!("{text} is not a legal move of {} at step {}", self.m.roles()[self.role], self.step + 1)
            })?,
            (None, None) => return Err("percepts before this player made any move: send its move too".into()),
        };
        let Some((history, sent)) = &mut self.hidden else { unreachable!("perceive is for GDL-II games") };
        history.push(mv, percepts.clone());
        *sent = None;
        self.step += 1;
        Ok(())
    }

    /// GDL-II: the role's move named `text`, legal in a state that fits its history; `None`
    /// when it names none.
    fn own_move(&mut self, text: &str) -> Result<Option<M::Move>, String> {
        let Some((history, _)) = &self.hidden else { return Ok(None) };
        let mut guess = Guesses::new(1);
        let states = guess.after(&mut self.m, history, &mut self.rng).map_err(|e| e.message)?;
        let legal = match states.first() {
            Some(s) => self.m.legal_moves(s, self.role).map_err(|e| e.message)?,
            None => Vec::new(),
        };
        Ok(move_named(&self.m, &legal, text))
    }

    /// GDL-II: the move this player sent when it chose it itself (not by `choose`), kept for
    /// the Dresden form of PLAY, which gives only the percepts. A text that names no legal
    /// move is not kept: the referee played another one for it.
    pub fn sent(&mut self, text: &str) -> Result<(), String> {
        if self.hidden.is_some() {
            let mv = self.own_move(text)?;
            if let Some((_, sent)) = &mut self.hidden {
                *sent = mv;
            }
        }
        Ok(())
    }

    /// Whether the position is terminal (an engine error counts as over); in a GDL-II game
    /// only the referee knows, and says so with STOP.
    pub fn is_over(&mut self) -> bool {
        self.hidden.is_none() && self.m.is_terminal(&self.state).unwrap_or(true)
    }

    /// Each role's goal value when the game is over.
    pub fn goals(&mut self) -> Option<Vec<i64>> {
        if !self.is_over() {
            return None;
        }
        self.m.goals(&self.state).ok().map(|g| g.iter().map(|v| goal_number(v)).collect())
    }

    /// A legal move thinking `millis` milliseconds at most; when the player fails, a random
    /// legal move and why.
    pub fn choose(&mut self, millis: f64, now: &dyn Fn() -> f64) -> Result<Choice, String> {
        if self.is_over() {
            return Err("the game is over: there is no move to make".into());
        }
        let seed = self.rng.next_u64();
        let view = match &self.hidden {
            Some((history, _)) => View::History(history),
            None => View::State(&self.state, self.role),
        };
        let (mv, playouts, trouble) = match think(self.spec, seed, &mut self.m, view, millis, now) {
            Ok(d) => (d.chosen, d.playouts, None),
            Err(e) => {
                // In a GDL-II game, a state consistent with the history stands for the position.
                let state = match &self.hidden {
                    Some((history, _)) => Guesses::new(1)
                        .after(&mut self.m, history, &mut self.rng)
                        .map_err(|g| {
                            format!("{}; and no position fits what this player saw: {}", e.message, g.message)
                        })?
                        .first()
                        .cloned()
                        .ok_or_else(|| format!("{}; and no position fits what this player saw", e.message))?,
                    None => self.state.clone(),
                };
                let moves = legal(&mut self.m, &state, self.role).map_err(|e| e.message)?;
                (moves[self.rng.below(moves.len())], 0, Some(e.message))
            }
        };
        if let Some((_, sent)) = &mut self.hidden {
            *sent = Some(mv);
        }
        Ok(Choice { text: self.m.move_text(mv), playouts, trouble })
    }
}
