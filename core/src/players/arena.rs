//! Games and matches between players: who sits where, one game played to the end, and the
//! tally of a match per player (wins, draws, losses, mean score, 95% confidence intervals).
//! Seats rotate between games: in game `g`, role `r` is played by player `(r + g) mod k`
//! of the `k` listed, so two players swap seats every game, a one-player game gives each
//! player its turn, and with more roles than players the list cycles. The role `random`
//! (GDL-II's nature) has no seat: it draws its moves uniformly (`nature`), and the seats
//! rotate over the other roles. In a game with `sees` each seat is shown only its role's
//! history (`View::History`: its moves and percepts); nature and the seats of a game without
//! `sees` are shown the state.

use super::{Player, Spec, View};
use crate::infoset::{defines_sees, History};
use crate::machine::{Result, StateMachine};
use crate::rng::Rng;
use crate::solve::goal_number;
use crate::verdict::{verdict_of_numbers, Ending, Verdict};
use serde::{Deserialize, Serialize};
use std::hash::Hash;

/// The player (index into the list) at each role in game `game`; `None` for nature.
pub fn seats(players: usize, roles: &[String], game: usize) -> Vec<Option<usize>> {
    let mut seated = 0;
    (roles.iter())
        .map(|role| {
            (!crate::gdl2::is_nature(role)).then(|| {
                seated += 1;
                (seated - 1 + game) % players
            })
        })
        .collect()
}

/// GDL-II's nature at role `random`: each move drawn uniformly among the legal ones, with
/// the generator seeded by `seed` (a match uses `player_seed` of the role).
pub fn nature<M: StateMachine + 'static>(seed: u64) -> Box<dyn Player<M>>
where
    M::State: Hash,
{
    Box::new(super::random::Random::new(seed))
}

/// The seed of the player at `role` in game `game` of a match seeded with `seed`.
pub fn player_seed(seed: u64, game: usize, role: usize) -> u64 {
    Rng::new(seed ^ ((game as u64) << 20 | role as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64()
}

/// How one game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null, rename = "MatchGame"))]
pub struct Game {
    /// The player index at each role (`None`: the role `random`, played by nature).
    pub seats: Vec<Option<usize>>,
    /// Each role's goal value; `None` when the game did not end within the move limit.
    pub goals: Option<Vec<i64>>,
    /// Joint moves played.
    pub length: usize,
    /// The joint moves, as text (one move per role), so that the game can be replayed.
    pub moves: Vec<Vec<String>>,
}

impl Game {
    /// How this game ended between `roles` (core's one judgement: `crate::verdict`), nature
    /// known by its empty seat.
    pub fn verdict(&self, roles: &[String]) -> Verdict {
        let nature: Vec<bool> = self.seats.iter().map(Option::is_none).collect();
        verdict_of_numbers(roles, &nature, self.goals.as_deref())
    }
}

/// Plays game `game` of a match between `specs` from the initial state, at most
/// `max_steps` joint moves.
pub fn play_game<M: StateMachine + 'static>(
    m: &mut M,
    specs: &[Spec],
    seed: u64,
    game: usize,
    max_steps: usize,
    now: &dyn Fn() -> f64,
) -> Result<Game>
where
    M::State: Hash,
{
    let roles = m.roles().len();
    let seats = seats(specs.len(), m.roles(), game);
    let mut players: Vec<Box<dyn Player<M>>> = (seats.iter().enumerate())
        .map(|(r, &p)| {
            let seed = player_seed(seed, game, r);
            p.map_or_else(|| nature(seed), |p| specs[p].player(seed))
        })
        .collect();
    let hidden = defines_sees(m)?;
    let mut histories: Vec<History<M::Move>> = (0..roles).map(History::new).collect();
    let mut state = m.initial_state();
    let mut moves = Vec::new();
    for length in 0..=max_steps {
        if m.is_terminal(&state)? {
            let goals = m.goals(&state)?.iter().map(|g| goal_number(g)).collect();
            return Ok(Game { seats, goals: Some(goals), length, moves });
        }
        if length == max_steps {
            break;
        }
        let mut joint = Vec::new();
        for r in 0..roles {
            let view = if hidden && seats[r].is_some() { View::History(&histories[r]) } else { View::State(&state, r) };
            joint.push(players[r].choose(m, view, now)?.chosen);
        }
        moves.push(joint.iter().map(|&mv| m.move_text(mv)).collect());
        if hidden {
            let seen = m.percepts(&state, &joint)?.unwrap_or_else(|| vec![Vec::new(); roles]);
            for (r, (h, percepts)) in histories.iter_mut().zip(seen).enumerate() {
                h.push(joint[r], percepts);
            }
        }
        state = m.next_state(&state, &joint)?;
    }
    Ok(Game { seats, goals: None, length: max_steps, moves })
}

/// A mean with the half-width of its 95% confidence interval (normal approximation).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Estimate {
    pub mean: f64,
    pub plus_minus: f64,
}

impl Estimate {
    pub fn of(samples: &[f64]) -> Estimate {
        let n = samples.len() as f64;
        if samples.is_empty() {
            return Estimate { mean: 0.0, plus_minus: 0.0 };
        }
        let mean = samples.iter().sum::<f64>() / n;
        let var = if n > 1.0 { samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
        Estimate { mean, plus_minus: 1.96 * (var / n).sqrt() }
    }
}

/// One player's results over a match (a player seated at several roles of a game counts
/// once per seat).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Tally {
    pub player: String,
    pub games: usize,
    /// Strictly the highest goal of the game (`crate::verdict`; a one-player game counts its
    /// score in `points` only).
    pub wins: usize,
    /// Tied for the highest.
    pub draws: usize,
    pub losses: usize,
    /// Games that did not end within the move limit.
    pub unfinished: usize,
    /// Points per game: 1 a win, ½ a draw, 0 a loss (unfinished games count as draws; in a
    /// one-role game, the goal value / 100).
    pub points: Estimate,
    /// Goal value per game (unfinished: 50).
    pub score: Estimate,
}

/// Each player's tally over `games`.
pub fn tally(specs: &[Spec], games: &[Game]) -> Vec<Tally> {
    tally_named(&specs.iter().map(Spec::to_string).collect::<Vec<_>>(), games)
}

/// Each player's tally over `games`, the players given by name (remote players included).
pub fn tally_named(names: &[String], games: &[Game]) -> Vec<Tally> {
    tally_at(names, games, None)
}

/// The players' results at one seat of a match.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct RoleTally {
    pub role: String,
    pub tallies: Vec<Tally>,
}

/// Per role (nature's left out): each player's tally over the games it played at that seat.
pub fn tally_by_role(specs: &[Spec], roles: &[String], games: &[Game]) -> Vec<RoleTally> {
    tally_by_role_named(&specs.iter().map(Spec::to_string).collect::<Vec<_>>(), roles, games)
}

/// The same, the players given by name (remote players included).
pub fn tally_by_role_named(names: &[String], roles: &[String], games: &[Game]) -> Vec<RoleTally> {
    (roles.iter().enumerate())
        .filter(|(_, role)| !crate::gdl2::is_nature(role))
        .map(|(r, role)| RoleTally { role: role.clone(), tallies: tally_at(names, games, Some(r)) })
        .collect()
}

/// Each player's tally over `games`, counting only its seats at role `only` when given.
fn tally_at(names: &[String], games: &[Game], only: Option<usize>) -> Vec<Tally> {
    // The verdict's lists are read, not its words: the roles go by number here.
    let roles = |g: &Game| (1..=g.seats.len()).map(|r| format!("role {r}")).collect::<Vec<_>>();
    names
        .iter()
        .enumerate()
        .map(|(p, name)| {
            let (mut points, mut score) = (Vec::new(), Vec::new());
            let mut t = Tally {
                player: name.clone(),
                games: 0,
                wins: 0,
                draws: 0,
                losses: 0,
                unfinished: 0,
                points: Estimate::of(&[]),
                score: Estimate::of(&[]),
            };
            for g in games {
                for (r, _) in g.seats.iter().enumerate().filter(|&(r, &q)| q == Some(p) && only.is_none_or(|o| o == r))
                {
                    t.games += 1;
                    let v = g.verdict(&roles(g));
                    let Some(mine) = v.scores[r] else {
                        t.unfinished += 1;
                        points.push(0.5);
                        score.push(50.0);
                        continue;
                    };
                    score.push(mine as f64);
                    let point = if v.ending == Ending::Scored {
                        // One seated role: the score is all there is.
                        mine as f64 / 100.0
                    } else if v.winners.contains(&r) {
                        t.wins += 1;
                        1.0
                    } else if v.drawn.contains(&r) {
                        t.draws += 1;
                        0.5
                    } else {
                        t.losses += 1;
                        0.0
                    };
                    points.push(point);
                }
            }
            t.points = Estimate::of(&points);
            t.score = Estimate::of(&score);
            t
        })
        .collect()
}
