//! A time limit on the caller's clock (core reads none), for searches made of steps (a
//! playout, a position): the clock is read after every step while steps are slow (chess on
//! the reasoner: one may take 100 ms) and up to every `MAX_EVERY` steps while they are fast
//! (reading it costs as much as a tic-tac-toe playout on the network). A step that would end
//! past the limit, judging by the last ones, is not started.

/// Most steps between two readings of the clock; and the time between two readings below
/// which their interval doubles (above twice as much it halves).
const MAX_EVERY: u64 = 64;
const READ_MILLIS: f64 = 1.0;

pub struct Deadline {
    at: f64,
    /// Steps between two readings, and the last reading (steps done then, time).
    every: u64,
    last: (u64, f64),
}

impl Deadline {
    /// `millis` from now.
    pub fn new(millis: f64, now: &dyn Fn() -> f64) -> Deadline {
        let t = now();
        Deadline { at: t + millis, every: 1, last: (0, t) }
    }

    /// Whether a search that did `done` steps must stop: the next step, as long as the last
    /// ones, would end past the limit.
    pub fn reached(&mut self, done: u64, now: &dyn Fn() -> f64) -> bool {
        if done < self.last.0 + self.every {
            return false;
        }
        let t = now();
        let gap = t - self.last.1;
        let per_step = gap / (done - self.last.0) as f64;
        self.every = if gap < READ_MILLIS {
            (self.every * 2).min(MAX_EVERY)
        } else if gap > 2.0 * READ_MILLIS {
            (self.every / 2).max(1)
        } else {
            self.every
        };
        self.last = (done, t);
        t + per_step >= self.at
    }
}
