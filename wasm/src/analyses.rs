//! The teaching analyses for the page, in plain Rust (tested natively): explain an atom in
//! the current position, solve the current position, check the game's requirements.
//! `lib.rs` converts the results to JavaScript.

use crate::session::{Result, Session};
use gdl_core::analyze::{analyze, Declared, Options, Report};
use gdl_core::explain::{Explainer, Explanation};
use gdl_core::solve::{solve, Solution};

impl Session {
    /// Why `query` (an atom such as `(legal x (mark 1 1))`) holds or not at `step` (default:
    /// the current position, or its last move for `next`), along the moves played so far.
    pub fn explain(&mut self, query: &str, step: Option<usize>) -> Result<Explanation> {
        let limits = self.limits();
        let g = self.game()?;
        let path = g.joints[..g.cursor].to_vec();
        let mut e = Explainer::new(&g.description, &g.text, limits, &path)?;
        e.explain_text(query, step)
    }

    /// The value of each legal move in the current position, within `budget` states.
    pub fn solve(&mut self, budget: u64) -> Result<Solution> {
        let g = self.game()?;
        let state = g.states[g.cursor].clone();
        solve(&mut g.m, &state, budget).map_err(|e| e.message)
    }

    /// The game's requirements (termination, playability, goals, winnability, base/input).
    pub fn analyze(&mut self, options: Options) -> Result<Report> {
        let limits = self.limits();
        let g = self.game()?;
        let declared = Declared::of(&g.description, limits);
        analyze(&mut g.m, &declared, options).map_err(|e| e.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gdl_core::analyze::Outcome;

    const TICTACTOE: &str = include_str!("../../games/tictactoe.kif");

    fn after(moves: &[[&str; 2]]) -> Session {
        let mut s = Session::default();
        assert!(s.load(TICTACTOE).ok);
        for j in moves {
            s.play(&j.iter().map(|m| m.to_string()).collect::<Vec<_>>()).unwrap();
        }
        s
    }

    #[test]
    fn explain_follows_the_current_position() {
        let mut s = after(&[["(mark 1 1)", "noop"]]);
        let e = s.explain("(legal o (mark 1 1))", None).unwrap();
        assert!(!e.holds && e.derivations[0].failed == Some(1));
        // After an undo the cell is empty again.
        s.undo().unwrap();
        assert!(s.explain("(legal x (mark 1 1))", None).unwrap().holds);
        assert!(s.explain("(next (cell 1 1 x))", None).unwrap_err().contains("no move has been played"));
        assert!(s.explain("(legal x", None).unwrap_err().contains("cannot read the query"));
    }

    #[test]
    fn solve_and_analyze_use_the_playing_engine() {
        let mut s = after(&[["(mark 2 2)", "noop"], ["noop", "(mark 1 2)"]]);
        let sol = s.solve(1_000_000).unwrap();
        assert!(sol.roles[0].summary.starts_with("x wins with (mark 1 1)"), "{}", sol.roles[0].summary);
        let r = s.analyze(Options::default()).unwrap();
        assert_eq!((r.method, r.states, r.well_formed), ("exhaustive", 5478, Outcome::Holds));
        // The position played is untouched.
        assert_eq!(s.view().unwrap().step, 2);
    }
}
