//! The result of a finished game, decided once for every face (the CLI's lines and tables,
//! the Play pane, the Match tab): from the roles and their goal values, who won, who drew,
//! who lost, each role's score, and the sentence the faces print.
//!
//! - GDL-II's nature (the role `random`, `gdl2::is_nature`) is never a winner, a loser or
//!   part of a draw: only the seated roles are compared.
//! - One seated role: the game is a puzzle, it gets its score (100 is a win, 0 a loss).
//! - Several: the strictly highest goal wins; roles tied for the highest draw (all of them
//!   tied: a draw, said to score nothing when that is 0), the others lose.
//! - An ill-formed ending (a seated role with no goal value, two goal values, or a value that
//!   is not a number) says so in words and names no winner.
//! - A game cut at the move limit says so and names no winner.

use crate::gdl2::is_nature;
use crate::machine::GoalValue;
use serde::{Deserialize, Serialize};

/// What kind of ending a game had.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub enum Ending {
    /// One seated role has strictly the highest goal.
    Won,
    /// Several seated roles share the highest goal (all of them: a draw).
    Drawn,
    /// A one-player game: its score is the result.
    Scored,
    /// A seated role has no goal value, several, or one that is not a number.
    IllFormed,
    /// The game did not end within the move limit.
    Unfinished,
}

/// The result of one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Verdict {
    pub ending: Ending,
    /// Roles (indices) that won: the strictly highest goal, or a one-player game's 100.
    pub winners: Vec<usize>,
    /// Roles that share the highest goal with another.
    pub drawn: Vec<usize>,
    /// Roles below the highest goal, or a one-player game's 0.
    pub losers: Vec<usize>,
    /// Per role, its goal value when it has exactly one number (nature: `None`).
    pub scores: Vec<Option<i64>>,
    /// The result in words, e.g. "candidate scores 100: a win", "Draw", "x wins".
    pub text: String,
}

/// The result of a game between `roles` that ended with `goals` (per role, its goal values),
/// or was cut at the move limit (`None`).
pub fn verdict(roles: &[String], goals: Option<&[Vec<GoalValue>]>) -> Verdict {
    let nature: Vec<bool> = roles.iter().map(|r| is_nature(r)).collect();
    verdict_with_nature(roles, &nature, goals)
}

/// The same, told which roles are nature (`nature[r]`; a match knows it from its seats).
pub fn verdict_with_nature(roles: &[String], nature: &[bool], goals: Option<&[Vec<GoalValue>]>) -> Verdict {
    let seated: Vec<usize> = (0..roles.len()).filter(|&r| !nature.get(r).copied().unwrap_or(false)).collect();
    let mut v = Verdict {
        ending: Ending::Unfinished,
        winners: Vec::new(),
        drawn: Vec::new(),
        losers: Vec::new(),
        scores: vec![None; roles.len()],
        text: "Cut at the move limit: no result".into(),
    };
    let Some(goals) = goals else { return v };
    let mut faults = Vec::new();
    for &r in &seated {
        match goals.get(r).map(Vec::as_slice).unwrap_or_default() {
            [GoalValue::Int(n)] => v.scores[r] = Some(*n),
            [] => faults.push(format!("{} has no goal value", roles[r])),
            [GoalValue::Text(t)] => faults.push(format!("the goal value of {} is {t}, not a number", roles[r])),
            values => faults.push(format!("{} has {} goal values ({})", roles[r], values.len(), values_text(values))),
        }
    }
    if !faults.is_empty() {
        v.ending = Ending::IllFormed;
        v.text = format!("Ill-formed ending: {}", faults.join("; "));
        return v;
    }
    let name = |rs: &[usize]| rs.iter().map(|&r| roles[r].as_str()).collect::<Vec<_>>().join(" and ");
    match seated[..] {
        [] => {
            v.ending = Ending::Scored;
            v.text = "Game over (no role but nature)".into();
        }
        [r] => {
            let score = v.scores[r].unwrap_or_default();
            v.ending = Ending::Scored;
            v.text = match score {
                100 => {
                    v.winners.push(r);
                    format!("{} scores 100: a win", roles[r])
                }
                0 => {
                    v.losers.push(r);
                    format!("{} scores 0: a loss", roles[r])
                }
                _ => format!("{} scores {score}", roles[r]),
            };
        }
        _ => {
            let best = seated.iter().filter_map(|&r| v.scores[r]).max().unwrap_or_default();
            let top: Vec<usize> = seated.iter().copied().filter(|&r| v.scores[r] == Some(best)).collect();
            v.losers = seated.iter().copied().filter(|r| !top.contains(r)).collect();
            if let [w] = top[..] {
                v.ending = Ending::Won;
                v.winners = top;
                v.text = format!("{} wins", roles[w]);
            } else {
                v.ending = Ending::Drawn;
                v.text = match (v.losers.is_empty(), best) {
                    // Everyone tied at nothing: a draw in which nobody scored.
                    (true, 0) => "Draw: every role scores 0".into(),
                    (true, _) => "Draw".into(),
                    (false, _) => format!("{} draw for first", name(&top)),
                };
                v.drawn = top;
            }
        }
    }
    v
}

/// The result of a game whose goals are recorded as numbers (a match's games: one number
/// per role), or cut at the move limit (`None`); `nature[r]` says which roles are nature.
pub fn verdict_of_numbers(roles: &[String], nature: &[bool], goals: Option<&[i64]>) -> Verdict {
    let goals: Option<Vec<Vec<GoalValue>>> = goals.map(|g| g.iter().map(|&n| vec![GoalValue::Int(n)]).collect());
    verdict_with_nature(roles, nature, goals.as_deref())
}

fn values_text(values: &[GoalValue]) -> String {
    let texts: Vec<String> = values.iter().map(crate::solve::goal_text).collect();
    texts.join(" and ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use GoalValue::{Int, Text};

    fn roles(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    fn judge(names: &[&str], goals: &[&[GoalValue]]) -> Verdict {
        let goals: Vec<Vec<GoalValue>> = goals.iter().map(|g| g.to_vec()).collect();
        verdict(&roles(names), Some(&goals))
    }

    /// Monty Hall: the candidate is the one seated role, nature's 100 is no part of the result.
    #[test]
    fn monty_hall_is_the_candidates_game() {
        let won = judge(&["candidate", "random"], &[&[Int(100)], &[Int(100)]]);
        assert_eq!(
            (won.ending, &won.winners[..], &won.text[..]),
            (Ending::Scored, &[0][..], "candidate scores 100: a win")
        );
        assert!(won.drawn.is_empty() && won.losers.is_empty());
        assert_eq!(won.scores, [Some(100), None]);
        let lost = judge(&["candidate", "random"], &[&[Int(0)], &[Int(100)]]);
        assert_eq!(
            (lost.ending, &lost.losers[..], &lost.text[..]),
            (Ending::Scored, &[0][..], "candidate scores 0: a loss")
        );
        assert!(lost.winners.is_empty());
    }

    /// With several players, nature is neither a winner nor part of a draw.
    #[test]
    fn nature_is_never_judged() {
        let v = judge(&["p1", "random", "p2"], &[&[Int(50)], &[Int(100)], &[Int(50)]]);
        assert_eq!((v.ending, &v.drawn[..], &v.text[..]), (Ending::Drawn, &[0, 2][..], "Draw"));
        let v = judge(&["p1", "random", "p2"], &[&[Int(0)], &[Int(100)], &[Int(100)]]);
        assert_eq!((&v.winners[..], &v.losers[..], &v.text[..]), (&[2][..], &[0][..], "p2 wins"));
        // Nature's own goals may be anything, even ill-formed.
        let v = judge(&["p1", "random", "p2"], &[&[Int(100)], &[], &[Int(0)]]);
        assert_eq!(v.text, "p1 wins");
    }

    #[test]
    fn wins_draws_and_shared_firsts() {
        assert_eq!(judge(&["x", "o"], &[&[Int(0)], &[Int(100)]]).text, "o wins");
        assert_eq!(judge(&["x", "o"], &[&[Int(50)], &[Int(50)]]).text, "Draw");
        let nothing = judge(&["a", "b", "c"], &[&[Int(0)], &[Int(0)], &[Int(0)]]);
        assert_eq!(
            (nothing.ending, &nothing.drawn[..], &nothing.text[..]),
            (Ending::Drawn, &[0, 1, 2][..], "Draw: every role scores 0")
        );
        let v = judge(&["a", "b", "c"], &[&[Int(80)], &[Int(80)], &[Int(10)]]);
        assert_eq!((v.ending, &v.drawn[..], &v.losers[..]), (Ending::Drawn, &[0, 1][..], &[2][..]));
        assert_eq!(v.text, "a and b draw for first");
    }

    #[test]
    fn one_player_gets_its_score() {
        let v = judge(&["robot"], &[&[Int(40)]]);
        assert_eq!((v.ending, &v.text[..], v.scores[0]), (Ending::Scored, "robot scores 40", Some(40)));
        assert!(v.winners.is_empty() && v.losers.is_empty());
    }

    #[test]
    fn ill_formed_endings_say_so() {
        let two = judge(&["x", "o"], &[&[Int(0), Int(100)], &[Int(50)]]);
        assert_eq!(two.ending, Ending::IllFormed);
        assert_eq!(two.text, "Ill-formed ending: x has 2 goal values (0 and 100)");
        assert!(two.winners.is_empty() && two.drawn.is_empty() && two.losers.is_empty());
        let none = judge(&["x", "o"], &[&[], &[Int(50)]]);
        assert_eq!(none.text, "Ill-formed ending: x has no goal value");
        let text = judge(&["x"], &[&[Text("high".into())]]);
        assert_eq!(text.text, "Ill-formed ending: the goal value of x is high, not a number");
    }

    #[test]
    fn cut_at_the_move_limit() {
        let v = verdict(&roles(&["x", "o"]), None);
        assert_eq!((v.ending, &v.text[..]), (Ending::Unfinished, "Cut at the move limit: no result"));
        assert_eq!(verdict_of_numbers(&roles(&["x", "o"]), &[false, false], Some(&[100, 0])).text, "x wins");
        let v = verdict_of_numbers(&roles(&["a", "b"]), &[false, true], Some(&[50, 100]));
        assert_eq!((v.ending, &v.text[..]), (Ending::Scored, "a scores 50"));
    }
}
