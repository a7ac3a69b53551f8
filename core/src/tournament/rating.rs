//! Ratings: a Bradley–Terry model fitted to the games' pairwise results, on the Elo scale
//! (400 points: ten times the odds), with a 95% interval. Each game compares every two seats
//! held by different entrants as core's verdict ranks them (a winner above the drawn, the
//! drawn above the losers; equals, and every seat of a game cut at the move limit, tie); a
//! tie counts half a win to each. One-player games and ill-formed endings compare no one.
//! Every entrant also draws one game against an average opponent (rated 0), so that an
//! entrant that won every game still has a finite rating.

use serde::Serialize;

/// Rounds of the fitting (minorisation–maximisation; it converges long before).
const ROUNDS: usize = 2000;

/// An entrant's rating and the half-width of its 95% interval, in Elo points (0: average).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Rating {
    pub elo: f64,
    pub plus_minus: f64,
}

/// Pairwise results among `k` entrants: `wins[i][j]` is what `i` scored against `j` (1 a
/// win, ½ a tie), `games[i][j]` how often they met.
pub struct Results {
    wins: Vec<Vec<f64>>,
    games: Vec<Vec<f64>>,
}

impl Results {
    pub fn new(k: usize) -> Results {
        Results { wins: vec![vec![0.0; k]; k], games: vec![vec![0.0; k]; k] }
    }

    /// One meeting of `i` and `j`: `score` is what `i` scored (1, ½ or 0).
    pub fn add(&mut self, i: usize, j: usize, score: f64) {
        self.wins[i][j] += score;
        self.wins[j][i] += 1.0 - score;
        self.games[i][j] += 1.0;
        self.games[j][i] += 1.0;
    }

    /// Each entrant's rating; `None` for one that met no one.
    pub fn ratings(&self) -> Vec<Option<Rating>> {
        let k = self.wins.len();
        // Strengths; the average opponent, met once with a tie by everyone, has strength 1.
        let mut p = vec![1.0; k];
        for _ in 0..ROUNDS {
            let next: Vec<f64> = (0..k)
                .map(|i| {
                    let won: f64 = self.wins[i].iter().sum::<f64>() + 0.5;
                    let met: f64 = (0..k).map(|j| self.games[i][j] / (p[i] + p[j])).sum::<f64>() + 1.0 / (p[i] + 1.0);
                    won / met
                })
                .collect();
            p = next;
        }
        let elo = 400.0 / std::f64::consts::LN_10;
        (0..k)
            .map(|i| {
                if self.games[i].iter().all(|&n| n == 0.0) {
                    return None;
                }
                // The information about log-strength i (the model's Fisher information).
                let info = |n: f64, pj: f64| n * p[i] * pj / (p[i] + pj).powi(2);
                let information: f64 = (0..k).map(|j| info(self.games[i][j], p[j])).sum::<f64>() + info(1.0, 1.0);
                Some(Rating { elo: elo * p[i].ln(), plus_minus: 1.96 * elo / information.sqrt() })
            })
            .collect()
    }
}
