//! Players by name, as the command line and the page write them: `random`, `mc:500`,
//! `uct:1000`, `uct:1s`, `uct:250ms`, `perfect`, `honest:1000` (GDL-II). A budget is a number
//! of playouts per move (deterministic for a seed) or a time per move.

use super::{flat::Flat, honest::Honest, perfect::Perfect, random::Random, uct::Uct, Player};
use crate::deadline::Deadline;
use crate::machine::StateMachine;
use std::fmt;
use std::hash::Hash;

/// How long a player thinks per move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    Playouts(u64),
    Millis(f64),
    /// Whichever comes first: so many playouts, or so many milliseconds (a player on a
    /// match's clock).
    Within(u64, f64),
}

/// What stops a search: its budget in playouts, a deadline, or the first of the two.
pub enum Stop {
    Playouts(u64),
    Time(Deadline),
    Within(u64, Deadline),
}

impl Budget {
    /// Starts counting now.
    pub fn stop(self, now: &dyn Fn() -> f64) -> Stop {
        match self {
            Budget::Playouts(n) => Stop::Playouts(n),
            Budget::Millis(ms) => Stop::Time(Deadline::new(ms, now)),
            Budget::Within(n, ms) => Stop::Within(n, Deadline::new(ms, now)),
        }
    }
}

impl Stop {
    /// Whether a search that ran `done` playouts must stop (a budget in time: when the next
    /// playout would end past it). Every search runs at least one.
    pub fn reached(&mut self, done: u64, now: &dyn Fn() -> f64) -> bool {
        match self {
            Stop::Playouts(n) => done >= (*n).max(1),
            Stop::Time(d) => done > 0 && d.reached(done, now),
            Stop::Within(n, d) => done >= (*n).max(1) || (done > 0 && d.reached(done, now)),
        }
    }
}

impl Budget {
    /// One of `k` equal shares of this budget (at least one playout).
    pub fn share(self, k: u64) -> Budget {
        let k = k.max(1);
        match self {
            Budget::Playouts(n) => Budget::Playouts((n / k).max(1)),
            Budget::Millis(ms) => Budget::Millis(ms / k as f64),
            Budget::Within(n, ms) => Budget::Within((n / k).max(1), ms / k as f64),
        }
    }

    /// This budget, stopped after `millis` milliseconds at the latest.
    pub fn within(self, millis: f64) -> Budget {
        match self {
            Budget::Millis(ms) => Budget::Millis(ms.min(millis)),
            Budget::Playouts(n) => Budget::Within(n, millis),
            Budget::Within(n, ms) => Budget::Within(n, ms.min(millis)),
        }
    }
}

/// A kind of player with its settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Spec {
    Random,
    Flat(Budget),
    Uct(Budget),
    /// UCT searching each factor of the game apart (`uct.rs`), plain UCT on a game that
    /// does not split.
    FactoredUct(Budget),
    Perfect,
    /// GDL-II's honest player (`honest.rs`): it plays from what its role sees, never the true
    /// state.
    Honest(Budget),
}

/// How our players are written (`catalogue::notation` adds remote players).
pub const NOTATION: &str =
    "random, mc:PLAYOUTS, uct:PLAYOUTS, uct:2s, uct:500ms, fuct:PLAYOUTS (factored uct), perfect or honest:PLAYOUTS";

impl Spec {
    /// Reads `random`, `mc:N`, `uct:N`, `uct:Ns`, `uct:Nms`, `perfect`, `honest:N` (and its
    /// budgets in time).
    pub fn parse(text: &str) -> Result<Spec, String> {
        let text = text.trim();
        let (kind, budget) = match text.split_once(':') {
            Some((k, b)) => (k, Some(b)),
            None => (text, None),
        };
        let budget = budget.map(|b| parse_budget(b).map_err(|e| format!("player '{text}': {e}"))).transpose()?;
        match (kind, budget) {
            ("random", None) => Ok(Spec::Random),
            ("perfect", None) => Ok(Spec::Perfect),
            ("mc", b) => Ok(Spec::Flat(b.unwrap_or(Budget::Playouts(1000)))),
            ("uct" | "mcts", b) => Ok(Spec::Uct(b.unwrap_or(Budget::Playouts(1000)))),
            ("fuct", b) => Ok(Spec::FactoredUct(b.unwrap_or(Budget::Playouts(1000)))),
            ("honest", b) => Ok(Spec::Honest(b.unwrap_or(Budget::Playouts(1000)))),
            ("random" | "perfect", Some(_)) => {
                Err(format!("player '{text}': {kind} takes no budget; write {NOTATION}"))
            }
            _ => Err(format!("unknown player '{text}': write {NOTATION}")),
        }
    }

    /// The player thinking `millis` milliseconds at most (`random` has no budget; `perfect`
    /// keeps its own limit, `perfect::DEFAULT_MILLIS`, beyond which it refuses the game).
    pub fn within(self, millis: f64) -> Spec {
        match self {
            Spec::Flat(b) => Spec::Flat(b.within(millis)),
            Spec::Uct(b) => Spec::Uct(b.within(millis)),
            Spec::FactoredUct(b) => Spec::FactoredUct(b.within(millis)),
            Spec::Honest(b) => Spec::Honest(b.within(millis)),
            Spec::Random | Spec::Perfect => self,
        }
    }

    /// The player, seeded.
    pub fn player<M: StateMachine + 'static>(self, seed: u64) -> Box<dyn Player<M>>
    where
        M::State: Hash,
    {
        match self {
            Spec::Random => Box::new(Random::new(seed)),
            Spec::Flat(b) => Box::new(Flat::new(seed, b)),
            Spec::Uct(b) => Box::new(Uct::new(seed, b)),
            Spec::FactoredUct(b) => Box::new(Uct::factored(seed, b)),
            Spec::Perfect => {
                Box::new(Perfect::new(seed, super::perfect::DEFAULT_NODES, super::perfect::DEFAULT_MILLIS))
            }
            Spec::Honest(b) => Box::new(Honest::new(seed, b)),
        }
    }
}

fn parse_budget(b: &str) -> Result<Budget, String> {
    let number = |s: &str| s.trim().parse::<f64>().ok().filter(|x| x.is_finite() && *x > 0.0);
    let bad = || format!("'{b}' is not a budget: write a number of playouts (1000) or a time (2s, 500ms)");
    if let Some(ms) = b.strip_suffix("ms") {
        number(ms).map(Budget::Millis).ok_or_else(bad)
    } else if let Some(s) = b.strip_suffix('s') {
        number(s).map(|s| Budget::Millis(s * 1000.0)).ok_or_else(bad)
    } else {
        b.trim().parse::<u64>().ok().filter(|&n| n > 0).map(Budget::Playouts).ok_or_else(bad)
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Playouts(n) => write!(f, "{n}"),
            Budget::Millis(ms) if ms % 1000.0 == 0.0 => write!(f, "{}s", ms / 1000.0),
            Budget::Millis(ms) => write!(f, "{ms}ms"),
            Budget::Within(n, ms) => write!(f, "{n} within {}", Budget::Millis(*ms)),
        }
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spec::Random => write!(f, "random"),
            Spec::Flat(b) => write!(f, "mc:{b}"),
            Spec::Uct(b) => write!(f, "uct:{b}"),
            Spec::FactoredUct(b) => write!(f, "fuct:{b}"),
            Spec::Perfect => write!(f, "perfect"),
            Spec::Honest(b) => write!(f, "honest:{b}"),
        }
    }
}
