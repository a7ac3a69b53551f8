//! Computer players for the page, in plain Rust (tested natively): a move for one role in
//! the current position, one game of a match, and a match's tally. `lib.rs` converts the
//! results to JavaScript; the page runs these in workers.

use crate::session::{Result, Session};
use gdl_core::machine::StateMachine;
use gdl_core::players::arena::{play_game, tally, Game, Tally};
use gdl_core::players::Spec;
use serde::Serialize;

/// A computer's move and what it knows about it.
#[derive(Debug, Serialize)]
pub struct Thought {
    #[serde(rename = "move")]
    pub chosen: String,
    pub playouts: u64,
    /// The goal value it expects (0..100), if it has an estimate.
    pub expects: Option<f64>,
}

/// `uct:1000,random` as players.
pub fn specs(players: &str) -> Result<Vec<Spec>> {
    players.split(',').map(Spec::parse).collect()
}

impl Session {
    /// The move `player` (`random`, `uct:1000`, `uct:1s`, `perfect`, ...) chooses for role
    /// number `role` in the current position; `now` gives milliseconds.
    pub fn think(&mut self, player: &str, role: usize, seed: u64, now: &dyn Fn() -> f64) -> Result<Thought> {
        let spec = Spec::parse(player)?;
        let g = self.game()?;
        if role >= g.m.roles().len() {
            return Err(format!("the game has no role number {role}"));
        }
        let state = g.states[g.cursor].clone();
        if g.m.is_terminal(&state).map_err(|e| e.message)? {
            return Err("the game is over: there is no move to choose".into());
        }
        let d = spec.player(seed).choose(&mut g.m, &state, role, now).map_err(|e| e.message)?;
        Ok(Thought { chosen: g.m.move_text(d.chosen), playouts: d.playouts, expects: d.expects })
    }

    /// Game number `game` of a match between `players` from the initial state (seats as
    /// `gdl match` gives them), at most `max_steps` joint moves.
    pub fn match_game(
        &mut self,
        players: &str,
        seed: u64,
        game: usize,
        max_steps: usize,
        now: &dyn Fn() -> f64,
    ) -> Result<Game> {
        let specs = specs(players)?;
        let g = self.game()?;
        play_game(&mut g.m, &specs, seed, game, max_steps, now).map_err(|e| e.message)
    }
}

/// Each player's wins, draws, losses and scores over `games`.
pub fn match_tally(players: &str, games: &[Game]) -> Result<Vec<Tally>> {
    Ok(tally(&specs(players)?, games))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TICTACTOE: &str = include_str!("../../games/tictactoe.kif");

    fn clock() -> f64 {
        0.0
    }

    #[test]
    fn a_computer_answers_in_the_current_position() {
        let mut s = Session::default();
        assert!(s.load(TICTACTOE).ok);
        s.set_engine("auto", &clock).unwrap();
        for j in [["(mark 1 1)", "noop"], ["noop", "(mark 1 2)"], ["(mark 2 2)", "noop"], ["noop", "(mark 1 3)"]] {
            s.play(&j.map(String::from)).unwrap();
        }
        let t = s.think("uct:1000", 0, 1, &clock).unwrap();
        assert_eq!((t.chosen.as_str(), t.playouts), ("(mark 3 3)", 1000));
        assert_eq!(s.think("random", 1, 1, &clock).unwrap().chosen, "noop");
        assert!(s.think("alpha", 0, 1, &clock).unwrap_err().contains("unknown player"));
        assert!(s.think("random", 5, 1, &clock).unwrap_err().contains("no role number 5"));
    }

    #[test]
    fn match_games_are_tallied() {
        let mut s = Session::default();
        assert!(s.load(TICTACTOE).ok);
        let games: Vec<Game> = (0..4).map(|g| s.match_game("perfect,random", 9, g, 100, &clock).unwrap()).collect();
        assert_eq!(games[1].seats, [1, 0]);
        let t = match_tally("perfect,random", &games).unwrap();
        assert_eq!((t[0].games, t[0].losses), (4, 0));
        // The position played is untouched.
        assert_eq!(s.view().unwrap().step, 0);
    }
}
