//! Flat Monte Carlo: the role's legal moves take turns; after each, the other roles answer
//! at random and a random playout finishes the game. The move with the best mean score wins.

use super::{legal, simulate, Budget, Decision, Player, Report, Reports, View};
use crate::machine::{Result, StateMachine};
use crate::rng::Rng;

pub struct Flat {
    rng: Rng,
    budget: Budget,
    reports: Reports,
}

impl Flat {
    pub fn new(seed: u64, budget: Budget) -> Flat {
        Flat { rng: Rng::new(seed), budget, reports: Reports::default() }
    }
}

impl<M: StateMachine> Player<M> for Flat {
    fn choose(&mut self, m: &mut M, view: View<'_, M>, now: &dyn Fn() -> f64) -> Result<Decision<M::Move>> {
        let (state, role) = (view.true_state("mc")?, view.role());
        let mine = legal(m, state, role)?;
        if mine.len() == 1 {
            return Ok(Decision { chosen: mine[0], playouts: 0, expects: None });
        }
        let others: Vec<Vec<M::Move>> = (0..m.roles().len())
            .map(|r| if r == role { Ok(Vec::new()) } else { legal(m, state, r) })
            .collect::<Result<_>>()?;
        let mut sums = vec![(0.0, 0u64); mine.len()];
        let mean = |sums: &[(f64, u64)], k: usize| if sums[k].1 == 0 { 0.0 } else { sums[k].0 / sums[k].1 as f64 };
        let best = |sums: &[(f64, u64)], done: u64| {
            let b = (0..sums.len()).fold(0, |b, k| if mean(sums, k) > mean(sums, b) { k } else { b });
            Decision { chosen: b, playouts: done, expects: (sums[b].1 > 0).then(|| 100.0 * mean(sums, b)) }
        };
        let mut stop = self.budget.stop(now);
        self.reports.start(now);
        let mut done = 0;
        while !stop.reached(done, now) {
            let k = done as usize % mine.len();
            let joint: Vec<M::Move> = others
                .iter()
                .enumerate()
                .map(|(r, ms)| if r == role { mine[k] } else { ms[self.rng.below(ms.len())] })
                .collect();
            let next = m.next_state(state, &joint)?;
            let score = simulate(m, &next, &mut self.rng)?[role];
            sums[k].0 += score;
            sums[k].1 += 1;
            done += 1;
            self.reports.tick(now, || best(&sums, done));
        }
        let d = best(&sums, done);
        Ok(d.of(&mine))
    }

    fn report_to(&mut self, report: Report) {
        self.reports = Reports::new(report);
    }
}
