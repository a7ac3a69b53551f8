//! The schedule of a tournament: a round robin with the seats rotated. On a game of `n`
//! seated roles (GDL-II's nature, the role `random`, is never seated) among `k` entrants:
//! every group of `n` entrants meets; a group of up to three is played in every seating, a
//! larger one in a balanced sample, the `n` rotations of a seating drawn with the seed (each
//! entrant once at each role). With fewer entrants than roles, the entrants are listed round
//! the roles and the list is rotated `k` times (each entrant at each role once). Every
//! seating is played `games_per_pairing` times, the rounds one after another; games are
//! numbered in schedule order from 0, game after game of the plan.

use super::Plan;
use crate::gdl2::is_nature;
use crate::rng::Rng;
use serde::{Deserialize, Serialize};

/// Groups this large or smaller are played in every seating (3! = 6); larger ones in the
/// rotations of one seating.
const EVERY_SEATING_UP_TO: usize = 3;

/// One game of the schedule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Fixture {
    /// Its number in the schedule, from 0: the arena's game number for the seats' seeds.
    pub number: usize,
    /// Which game of the plan (an index into `Plan::games`).
    pub game: usize,
    /// The entrant (an index into `Plan::entrants`) at each role; `None` for nature.
    pub seats: Vec<Option<usize>>,
}

/// Every game of the tournament `plan`, in the order they are numbered.
pub fn schedule(plan: &Plan) -> Vec<Fixture> {
    let k = plan.entrants.len();
    let mut rng = Rng::new(plan.seed);
    let mut out = Vec::new();
    for (game, g) in plan.games.iter().enumerate() {
        let seated: Vec<usize> = (0..g.roles.len()).filter(|&r| !is_nature(&g.roles[r])).collect();
        let seatings = seatings(k, seated.len(), &mut rng);
        for _ in 0..plan.games_per_pairing {
            for seating in &seatings {
                let mut seats = vec![None; g.roles.len()];
                for (&r, &e) in seated.iter().zip(seating) {
                    seats[r] = Some(e);
                }
                out.push(Fixture { number: out.len(), game, seats });
            }
        }
    }
    out
}

/// The seatings of `k` entrants at `n` seated roles: each the entrant at each role.
fn seatings(k: usize, n: usize, rng: &mut Rng) -> Vec<Vec<usize>> {
    if n == 0 || k == 0 {
        return Vec::new();
    }
    if k < n {
        return (0..k).map(|turn| (0..n).map(|r| (r + turn) % k).collect()).collect();
    }
    let mut out = Vec::new();
    for group in combinations(k, n) {
        if n <= EVERY_SEATING_UP_TO {
            out.extend(permutations(&group));
        } else {
            let mut drawn = group;
            for i in (1..n).rev() {
                drawn.swap(i, rng.below(i + 1));
            }
            out.extend((0..n).map(|turn| (0..n).map(|r| drawn[(r + turn) % n]).collect::<Vec<_>>()));
        }
    }
    out
}

/// Every set of `n` of `0..k`, each in increasing order, ordered by their largest member.
fn combinations(k: usize, n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    (n - 1..k)
        .flat_map(|last| {
            combinations(last, n - 1).into_iter().map(move |mut c| {
                c.push(last);
                c
            })
        })
        .collect()
}

/// Every order of `items`.
fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    (0..items.len())
        .flat_map(|i| {
            let mut rest = items.to_vec();
            let first = rest.remove(i);
            permutations(&rest).into_iter().map(move |mut p| {
                p.insert(0, first);
                p
            })
        })
        .collect()
}
