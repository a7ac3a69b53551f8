//! Playout statistics: how many random playouts ended, were cut at the step limit or got
//! stuck (a role without a legal move in a state that is not terminal), their lengths, and
//! how often each outcome came. Counted once here for `gdl bench`, the page's Playouts pane
//! and its workers, whose totals are merged.

use crate::machine::playout::{Goals, Outcome};
use crate::machine::GoalValue;
use crate::trace::stuck_message;
use serde::{Deserialize, Serialize};

/// The totals of random playouts of one game.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Stats {
    pub roles: Vec<String>,
    pub playouts: u64,
    /// Playouts stopped at the step limit before reaching a terminal state.
    pub cut: u64,
    /// Playouts stopped where a role had no legal move in a state that is not terminal, and
    /// the first such role.
    pub stuck: u64,
    pub stuck_role: Option<String>,
    /// Sum of the playouts' lengths in joint moves.
    pub total_length: u64,
    /// Shortest and longest playout (0 when there is none).
    pub min_length: u64,
    pub max_length: u64,
    /// The goal values of every role at the end of a playout that reached a terminal state,
    /// and how many playouts ended so, in order of the values.
    #[cfg_attr(feature = "tsify", tsify(type = "[(number | string)[][], number][]"))]
    pub outcomes: Vec<(Vec<Vec<GoalValue>>, u64)>,
    /// The `Goals` met lately and where `outcomes` counts them: not part of the totals.
    #[serde(skip)]
    recent: Recent,
}

/// How many `Goals` `Stats` knows by their address (an engine hands out one per outcome it
/// met; most games have a few outcomes).
const RECENT: usize = 16;

/// `Goals` seen lately and the index of their values in `Stats::outcomes`, so that a
/// playout ending with the same shared `Goals` is counted without comparing values. It
/// only speeds counting up: two `Stats` with the same totals are equal whatever they saw.
#[derive(Clone, Debug, Default)]
struct Recent(Vec<(Goals, usize)>);

impl PartialEq for Recent {
    fn eq(&self, _: &Recent) -> bool {
        true
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

impl Stats {
    /// No playouts yet of a game with these roles.
    pub fn new(roles: &[String]) -> Stats {
        Stats { roles: roles.to_vec(), ..Stats::default() }
    }

    /// Counts one playout.
    pub fn add(&mut self, o: &Outcome) {
        let length = o.length as u64;
        self.min_length = if self.playouts == 0 { length } else { self.min_length.min(length) };
        self.max_length = self.max_length.max(length);
        self.playouts += 1;
        self.total_length += length;
        match (&o.goals, o.stuck) {
            (Some(goals), _) => self.add_goals(goals),
            (None, None) => self.cut += 1,
            (None, Some(r)) => {
                self.stuck += 1;
                self.stuck_role.get_or_insert_with(|| self.roles[r].clone());
            }
        }
    }

    /// Counts one playout that ended with `goals`: by their address when seen lately.
    fn add_goals(&mut self, goals: &Goals) {
        if let Some(&(_, i)) = self.recent.0.iter().rev().find(|(g, _)| g.same(goals)) {
            self.outcomes[i].1 += 1;
            return;
        }
        let i = self.add_outcome(goals, 1);
        if self.recent.0.len() == RECENT {
            self.recent.0.remove(0);
        }
        self.recent.0.push((goals.clone(), i));
    }

    /// Counts `n` playouts that ended with these goal values; where `outcomes` counts them.
    fn add_outcome(&mut self, goals: &[Vec<GoalValue>], n: u64) -> usize {
        // Few outcomes, met again and again: equality finds one faster than ordering does.
        if let Some(i) = self.outcomes.iter().position(|(g, _)| g.as_slice() == goals) {
            self.outcomes[i].1 += n;
            return i;
        }
        let at = self.outcomes.partition_point(|(g, _)| g.as_slice() < goals);
        self.outcomes.insert(at, (goals.to_vec(), n));
        self.recent.0.iter_mut().filter(|(_, i)| *i >= at).for_each(|(_, i)| *i += 1);
        at
    }

    /// Adds the playouts of `other`, of the same game (the first stuck role stays first).
    /// `Stats::default()` (no playouts of any game yet) takes the other's roles.
    pub fn merge(&mut self, other: &Stats) -> Result<(), String> {
        if self.roles.is_empty() && self.playouts == 0 {
            self.roles.clone_from(&other.roles);
        }
        if other.roles != self.roles {
            return Err(format!(
                "cannot merge the playouts of a game with roles {:?} into those of a game with roles {:?}",
                other.roles, self.roles
            ));
        }
        if other.playouts == 0 {
            return Ok(());
        }
        self.min_length = if self.playouts == 0 { other.min_length } else { self.min_length.min(other.min_length) };
        self.max_length = self.max_length.max(other.max_length);
        self.playouts += other.playouts;
        self.total_length += other.total_length;
        self.cut += other.cut;
        self.stuck += other.stuck;
        if self.stuck_role.is_none() {
            self.stuck_role.clone_from(&other.stuck_role);
        }
        for (goals, n) in &other.outcomes {
            self.add_outcome(goals, *n);
        }
        Ok(())
    }

    /// Per role, each of its goal values (as `goal_label` prints them) and how many playouts
    /// ended with it, in order of the values.
    pub fn goals(&self) -> Vec<Vec<(String, u64)>> {
        (0..self.roles.len())
            .map(|r| {
                let mut hist: Vec<(&[GoalValue], u64)> = Vec::new();
                for (goals, n) in &self.outcomes {
                    match hist.iter_mut().find(|(v, _)| *v == goals[r].as_slice()) {
                        Some((_, k)) => *k += n,
                        None => hist.push((&goals[r], *n)),
                    }
                }
                crate::order::sort(&mut hist);
                hist.into_iter().map(|(v, n)| (goal_label(v), n)).collect()
            })
            .collect()
    }

    /// What to say when playouts got stuck: how many, and where the first one's role had no
    /// legal move.
    pub fn stuck_note(&self) -> Option<String> {
        let role = self.stuck_role.as_ref()?;
        let what = if self.stuck == 1 { "1 playout".to_string() } else { format!("{} playouts", self.stuck) };
        Some(stuck_message(&what, role))
    }

    /// The playouts' average length in joint moves (0 when there is none).
    pub fn average_length(&self) -> f64 {
        if self.playouts == 0 {
            0.0
        } else {
            self.total_length as f64 / self.playouts as f64
        }
    }

    /// The totals as the page reads them: with the average length, each role's goal
    /// histogram (highest value first) and the stuck note.
    pub fn summary(&self) -> Summary {
        let ended = self.playouts - self.cut - self.stuck;
        let share = |n: u64| if ended == 0 { 0.0 } else { n as f64 / ended as f64 };
        let goals = self
            .goals()
            .into_iter()
            .map(|hist| {
                hist.into_iter().rev().map(|(label, n)| GoalBar { label, playouts: n, share: share(n) }).collect()
            })
            .collect();
        Summary { stats: self.clone(), average_length: self.average_length(), goals, stuck_note: self.stuck_note() }
    }
}

/// One bar of a role's goal histogram: a goal value (as `goal_label` prints it), how many
/// playouts ended with it, and their share of the playouts that ended (0 to 1).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct GoalBar {
    pub label: String,
    pub playouts: u64,
    pub share: f64,
}

/// `Stats` with what the page shows of them: the average length, per role the goal
/// histogram, and the note on stuck playouts.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Summary {
    #[serde(flatten)]
    pub stats: Stats,
    pub average_length: f64,
    pub goals: Vec<Vec<GoalBar>>,
    pub stuck_note: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Playouts ending with shared `Goals` (counted by their address, while outcomes
    /// sorted before them arrive and move them) are counted as with fresh values each time.
    #[test]
    fn shared_goals_count_as_their_values() {
        let roles = ["x".to_string(), "o".to_string()];
        let values = |x: i64, o: i64| vec![vec![GoalValue::Int(x)], vec![GoalValue::Int(o)]];
        let tables: Vec<Goals> = (0..3).map(|k| Goals::new(values(100 - 50 * k, 50 * k))).collect();
        let order = [0, 0, 2, 1, 0, 2, 2, 1, 0, 1, 1, 2, 0];
        let (mut shared, mut fresh) = (Stats::new(&roles), Stats::new(&roles));
        for (i, &k) in order.iter().enumerate() {
            shared.add(&Outcome::ended(i, tables[k].clone()));
            fresh.add(&Outcome::ended(i, Goals::new(tables[k].to_vec())));
        }
        // Past `RECENT` distinct shared tables, the oldest are counted by their values.
        for i in 0..2 * RECENT {
            shared.add(&Outcome::ended(i, Goals::new(values(i as i64, 7))));
            fresh.add(&Outcome::ended(i, Goals::new(values(i as i64, 7))));
            shared.add(&Outcome::ended(i, tables[i % 3].clone()));
            fresh.add(&Outcome::ended(i, Goals::new(tables[i % 3].to_vec())));
        }
        assert_eq!(shared.outcomes, fresh.outcomes);
        assert_eq!(shared.outcomes.iter().map(|(_, n)| n).sum::<u64>(), (order.len() + 4 * RECENT) as u64);
        assert!(shared.outcomes.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(shared, fresh);
    }
}
