//! An honest player for GDL-II: it chooses from its history alone (its own moves and its
//! percepts, `crate::infoset::History`), never from the true state. It guesses states the game
//! may be in by replaying its history with random moves for the others (particles that
//! perceive what it perceived survive, so a state reached more likely is drawn more often —
//! in Monty Hall the car is twice as likely behind the other door), then runs flat Monte Carlo
//! from them (determinised search, as HyperPlay does). Deterministic per seed.
//!
//! Invariant: `choose` takes no state: two true games that give the role the same history
//! give the same move.

use super::{simulate, Budget, Decision, Player, View};
use crate::infoset::{information_set, observe, History};
use crate::machine::{Result, RuntimeError, StateMachine};
use crate::rng::Rng;
use std::hash::Hash;

/// States guessed per decision.
pub const PARTICLES: usize = 40;
/// Attempts per particle wanted before giving up on rejection and using the information set.
const TRIES_PER_PARTICLE: usize = 50;
/// The least limit of the information set asked for when every particle died.
const FALLBACK_LIMIT: usize = 256;

pub struct Honest<M: StateMachine> {
    rng: Rng,
    budget: Budget,
    guesses: Guesses<M>,
}

impl<M: StateMachine> Honest<M> {
    pub fn new(seed: u64, budget: Budget) -> Honest<M> {
        Honest { rng: Rng::new(seed), budget, guesses: Guesses::new(PARTICLES) }
    }
}

impl<M: StateMachine> Player<M> for Honest<M>
where
    M::State: Hash,
{
    /// From a history, states guessed from it alone; from a true state (a game without
    /// `sees`, where the history pins the state), that state. Then flat Monte Carlo over the
    /// moves legal in every guess, the playouts of each move spread over the guesses.
    fn choose(&mut self, m: &mut M, view: View<'_, M>, now: &dyn Fn() -> f64) -> Result<Decision<M::Move>> {
        let mut stop = self.budget.stop(now);
        let role = view.role();
        let guesses = match view {
            View::State(state, _) => vec![state.clone()],
            View::History(h) => self.guesses.after(m, h, &mut self.rng)?.to_vec(),
        };
        // Moves legal in every guess (the role knows its own moves in the true state).
        let mut moves = super::legal(m, &guesses[0], role)?;
        for s in &guesses[1..] {
            let here = m.legal_moves(s, role)?;
            moves.retain(|x| here.contains(x));
        }
        if moves.len() == 1 {
            return Ok(Decision { chosen: moves[0], playouts: 0, expects: None });
        }
        if moves.is_empty() {
            return Err(RuntimeError::new(format!(
                "{} has no move legal in every state it thinks possible",
                m.roles()[role]
            )));
        }
        let mut sums = vec![(0.0, 0u64); moves.len()];
        let mut done = 0;
        while !stop.reached(done, now) {
            let k = done as usize % moves.len();
            let s = &guesses[(done as usize / moves.len()) % guesses.len()];
            let joint = joint_with(m, s, role, moves[k], &mut self.rng)?;
            let next = m.next_state(s, &joint)?;
            sums[k].0 += simulate(m, &next, &mut self.rng)?[role];
            sums[k].1 += 1;
            done += 1;
        }
        let mean = |k: usize| if sums[k].1 == 0 { 0.0 } else { sums[k].0 / sums[k].1 as f64 };
        let best = (0..moves.len()).fold(0, |b, k| if mean(k) > mean(b) { k } else { b });
        Ok(Decision { chosen: moves[best], playouts: done, expects: (sums[best].1 > 0).then(|| 100.0 * mean(best)) })
    }
}

/// States a role's game may be in, guessed from its history and kept from one decision to the
/// next: a history that goes on from the last one only moves them on by its new steps, so a
/// whole game costs guesses in proportion to its length.
pub struct Guesses<M: StateMachine> {
    /// How many states are kept.
    n: usize,
    /// The history the states were guessed from (`None`: none yet, or the last failed).
    history: Option<History<M::Move>>,
    states: Vec<M::State>,
}

impl<M: StateMachine> Guesses<M> {
    pub fn new(n: usize) -> Guesses<M> {
        Guesses { n: n.max(1), history: None, states: Vec::new() }
    }

    /// Up to `n` states the game may be in after history `h`, drawn as likely as random play by
    /// the others makes them; never empty (an inconsistent history is an error).
    pub fn after(&mut self, m: &mut M, h: &History<M::Move>, rng: &mut Rng) -> Result<&[M::State]>
    where
        M::State: Hash,
    {
        let from = match self.history.take() {
            Some(old)
                if old.role == h.role && h.moves.starts_with(&old.moves) && h.percepts.starts_with(&old.percepts) =>
            {
                old.moves.len()
            }
            _ => {
                self.states = vec![m.initial_state()];
                0
            }
        };
        self.states = advance(m, h, from, std::mem::take(&mut self.states), self.n, rng)?;
        self.history = Some(h.clone());
        Ok(&self.states)
    }
}

/// The particles `particles`, guessed from the first `from` steps of `h`, moved on to its end.
fn advance<M: StateMachine>(
    m: &mut M,
    h: &History<M::Move>,
    from: usize,
    mut particles: Vec<M::State>,
    n: usize,
    rng: &mut Rng,
) -> Result<Vec<M::State>>
where
    M::State: Hash,
{
    for (&own, seen) in h.moves.iter().zip(&h.percepts).skip(from) {
        let mut next = Vec::new();
        for t in 0..n * TRIES_PER_PARTICLE {
            if next.len() == n {
                break;
            }
            let s = &particles[t % particles.len()];
            if m.is_terminal(s)? || !m.legal_moves(s, h.role)?.contains(&own) {
                continue;
            }
            let joint = joint_with(m, s, h.role, own, rng)?;
            if observe(m, s, &joint, h.role)? == *seen {
                next.push(m.next_state(s, &joint)?);
            }
        }
        if next.is_empty() {
            // Percepts too rare for random guesses: the information set (a seeded sample).
            let mut set = information_set(m, h, n.max(FALLBACK_LIMIT), rng.next_u64())?.states;
            if set.is_empty() {
                return Err(RuntimeError::new("no state of the game is consistent with this history"));
            }
            set.truncate(n);
            return Ok(set);
        }
        particles = next;
    }
    Ok(particles)
}

/// A joint move in `s` where `role` plays `own` and the others a random legal move.
fn joint_with<M: StateMachine>(
    m: &mut M,
    s: &M::State,
    role: usize,
    own: M::Move,
    rng: &mut Rng,
) -> Result<Vec<M::Move>> {
    let mut joint = Vec::new();
    for r in 0..m.roles().len() {
        if r == role {
            joint.push(own);
        } else {
            let moves = super::legal(m, s, r)?;
            joint.push(moves[rng.below(moves.len())]);
        }
    }
    Ok(joint)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::infoset::history;
    use crate::path::{parse_path, play};
    use crate::play::Session;
    use crate::players::Spec;

    /// The move the player `spec` makes for role `role` after the joint moves `path` of the
    /// GDL-II game `game`, asked as the page asks (the session holds the true game), and the
    /// true state it was made in.
    fn think(game: &str, path: &str, role: usize, spec: &str) -> (String, Vec<String>) {
        let mut s = Session::new(Default::default());
        assert!(s.load(&crate::shared::gdl2_game(game)).ok);
        for joint in parse_path(path).unwrap() {
            s.game().unwrap().play(&joint).unwrap();
        }
        let truth = s.view().unwrap().position.state;
        (s.think(spec, role, 5, 0.0, &|| 0.0, None).unwrap().chosen, truth)
    }

    /// Honesty: the car behind door 1 or behind door 2, the candidate sees the same (it chose
    /// door 1, door 3 was opened): the same history, so the same move whichever is true. And it
    /// has learnt to switch.
    #[test]
    fn monty_hall_same_history_same_move_and_it_switches() {
        let (a, truth_a) = think("montyhall", "(choose 1), (hide_car 1); noop, (open_door 3)", 0, "honest:600");
        let (b, truth_b) = think("montyhall", "(choose 1), (hide_car 2); noop, (open_door 3)", 0, "honest:600");
        assert_ne!(truth_a, truth_b);
        assert_eq!([a, b], ["switch", "switch"]);
    }

    /// Honesty in Kriegspiel tic-tac-toe: xplayer got (1 1) and does not see where oplayer
    /// marked, so (2 2) or (3 3) makes no difference to its move, for any seed of the budget.
    #[test]
    fn kriegspiel_same_history_same_move() {
        for spec in ["honest:200", "random"] {
            let (a, truth_a) = think("kriegTTT_4x4", "(mark 1 1), (mark 2 2); (mark 1 2), (mark 4 4)", 0, spec);
            let (b, truth_b) = think("kriegTTT_4x4", "(mark 1 1), (mark 3 3); (mark 1 2), (mark 4 3)", 0, spec);
            assert_ne!(truth_a, truth_b);
            assert_eq!(a, b, "{spec}");
        }
    }

    /// Deterministic per seed; a history that no line of play gives is an error in words.
    #[test]
    fn same_seed_same_decision() {
        let mut m = crate::shared::gdl2_reasoner("kriegTTT_4x4");
        let (states, joints) = play(&mut m, &parse_path("(mark 1 1), (mark 2 2)").unwrap()).unwrap();
        let mut h = history(&mut m, 1, &states, &joints).unwrap();
        let mut choose =
            |h: &History<_>| Honest::new(3, Budget::Playouts(100)).choose(&mut m, View::History(h), &|| 0.0);
        let (a, b) = (choose(&h).unwrap(), choose(&h).unwrap());
        assert_eq!((a.chosen, a.expects), (b.chosen, b.expects));
        h.percepts[0] = vec!["(yougotit 9 9)".into()];
        assert!(choose(&h).unwrap_err().message.contains("no state of the game is consistent with this history"));
    }

    /// Guesses kept from one decision move on with the history that extends theirs, and start
    /// again for one that does not; either way each is a state the history allows.
    #[test]
    fn kept_guesses_follow_the_history() {
        let mut m = crate::shared::gdl2_reasoner("kriegTTT_4x4");
        let line = |m: &mut crate::reasoner::Reasoner, path: &str| {
            let (states, joints) = play(m, &parse_path(path).unwrap()).unwrap();
            history(m, 0, &states, &joints).unwrap()
        };
        let short = line(&mut m, "(mark 1 1), (mark 2 2)");
        let long = line(&mut m, "(mark 1 1), (mark 2 2); (mark 2 2), (mark 3 3); (mark 1 2), (mark 4 4)");
        let other = line(&mut m, "(mark 3 1), (mark 2 2); (mark 3 2), (mark 1 1)");
        let (mut guesses, mut rng) = (Guesses::new(10), Rng::new(1));
        for h in [&short, &long, &other] {
            let exact = information_set(&mut m, h, 100_000, 1).unwrap();
            assert_eq!(exact.estimate, None);
            let states = guesses.after(&mut m, h, &mut rng).unwrap();
            assert!(!states.is_empty() && states.iter().all(|s| exact.states.contains(s)), "{h:?}");
        }
    }

    /// `mc`, `uct` and `perfect` refuse a history, each in words.
    #[test]
    fn players_that_read_the_state_refuse_a_history() {
        let mut m = crate::shared::gdl2_reasoner("montyhall");
        let h = History::new(0);
        for (spec, says) in [
            ("uct:10", "uct reads the true state"),
            ("mc:10", "mc reads the true state"),
            ("perfect", "the perfect player reads the true state"),
        ] {
            let e = Spec::parse(spec).unwrap().player(1).choose(&mut m, View::History(&h), &|| 0.0).err().unwrap();
            assert!(e.message.contains(says) && e.message.contains("honest"), "{spec}: {}", e.message);
        }
    }
}
