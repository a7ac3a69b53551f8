//! Long runs (`playout`, `bench`, `match`) move to the propositional network when it is
//! ready. A run that `auto` started on the reasoner while its grounding went on
//! (`gdl_core::engine::start`) moves as soon as that grounding gives a network. When `auto`
//! plays a game on the reasoner because the game grounds past `auto`'s own bounds, a run
//! that lasts longer than `--upgrade-after` seconds grounds it in the background with the
//! grounder's own limits (`gdl_core::engine::upgrade`). If that network is measured faster
//! than the reasoner, every thread of the run plays on with a copy of it, from its next
//! playout (or game). Every engine plays the same playouts from the same seeds, so only the
//! speed changes.

use gdl_core::ast::Description;
use gdl_core::engine::{upgrade, Chosen, Engine, Grounding, NoNetwork, Upgrade, GROUNDER_STACK};
use gdl_core::propnet::Options as PropnetOptions;
use gdl_core::reasoner::Limits;
use std::sync::{Arc, Once, OnceLock};
use std::time::Instant;

/// What the background grounding needs.
struct Job {
    description: Description,
    limits: Limits,
    options: PropnetOptions,
}

/// The network a run may move to, shared by the run's threads.
pub struct Upgrader {
    /// The network of `auto`'s grounding left running, once it ended (`None` when none was).
    quick: Option<Arc<OnceLock<Result<Upgrade, NoNetwork>>>>,
    /// `None`: the run plays on the engine it has.
    job: Option<Arc<Job>>,
    /// Seconds of play before the grounding starts.
    after: f64,
    /// Tell on stderr when the grounding ends.
    say: bool,
    started: Once,
    ready: Arc<OnceLock<Result<Upgrade, String>>>,
    /// Seconds of play when the first thread moved to the network.
    moved: OnceLock<f64>,
}

impl Upgrader {
    /// For a run on `chosen`'s engine (nothing to do unless `auto` may upgrade it), with
    /// `auto`'s grounding still running if it was left so: its network is awaited at once.
    pub fn new(
        chosen: &Chosen,
        grounding: Option<Grounding>,
        description: &Description,
        limits: Limits,
        options: PropnetOptions,
        after: f64,
        say: bool,
    ) -> Upgrader {
        let job = chosen.may_upgrade.then(|| Arc::new(Job { description: description.clone(), limits, options }));
        let quick = grounding.map(|g| awaited(g, say));
        Upgrader { quick, job, after, say, started: Once::new(), ready: Arc::default(), moved: OnceLock::new() }
    }

    /// A thread's own view of the upgrade.
    pub fn thread(&self) -> Switch<'_> {
        Switch { upgrader: self, done: self.job.is_none() && self.quick.is_none() }
    }

    /// Seconds of play when the run moved to the network, if it did.
    pub fn moved_at(&self) -> Option<f64> {
        self.moved.get().copied()
    }

    /// What came of the upgrade, for reports: `None` when there was nothing to try, else
    /// "moved", "not finished" (the run ended first), or why the run stayed on the reasoner.
    pub fn outcome(&self) -> Option<String> {
        if self.job.is_none() && self.quick.is_none() {
            return None;
        }
        let quick = self.quick.as_ref().and_then(|q| q.get());
        Some(match (quick, self.ready.get(), self.moved.get()) {
            (_, _, Some(_)) => "moved".into(),
            (_, Some(Err(why)), None) | (Some(Err(NoNetwork { why, may_upgrade: false })), _, None) => why.clone(),
            _ => "not finished".into(),
        })
    }

    /// Starts the grounding on a thread of its own, once. The thread is not joined: a run
    /// that ends first does not wait for it.
    fn start(&self, job: &Arc<Job>) {
        self.started.call_once(|| {
            let (ready, say, job) = (self.ready.clone(), self.say, job.clone());
            let spawned = std::thread::Builder::new().stack_size(GROUNDER_STACK).spawn(move || {
                let start = Instant::now();
                let now = || start.elapsed().as_secs_f64() * 1000.0;
                let result = upgrade(&job.description, job.limits, job.options, &now);
                if say {
                    match &result {
                        Ok(u) => eprintln!("engine: moves to {}, ground in the background", u.note),
                        Err(why) => eprintln!("engine: stays the reasoner, ground in the background: {why}"),
                    }
                }
                let _ = ready.set(result);
            });
            if let Err(e) = spawned {
                let _ = self.ready.set(Err(format!("no thread to ground in: {e}")));
            }
        });
    }
}

/// Awaits the network of `auto`'s grounding on a thread of its own (not joined: a run that
/// ends first does not wait for it).
fn awaited(grounding: Grounding, say: bool) -> Arc<OnceLock<Result<Upgrade, NoNetwork>>> {
    let ready: Arc<OnceLock<Result<Upgrade, NoNetwork>>> = Arc::default();
    let set = ready.clone();
    let spawned = std::thread::Builder::new().spawn(move || {
        let start = Instant::now();
        let now = || start.elapsed().as_secs_f64() * 1000.0;
        let result = grounding.network(&now);
        if say {
            match &result {
                Ok(u) => eprintln!("engine: moves to {}, ground in the background", u.note),
                Err(no) => eprintln!("engine: stays the reasoner: {}", no.why),
            }
        }
        let _ = set.set(result);
    });
    if let Err(e) = spawned {
        let _ = ready
            .set(Err(NoNetwork { why: format!("no thread to wait for the grounding in: {e}"), may_upgrade: true }));
    }
    ready
}

/// One thread's side of an upgrade: replaces its engine once.
pub struct Switch<'a> {
    upgrader: &'a Upgrader,
    /// Moved, or nothing to move to.
    done: bool,
}

impl Switch<'_> {
    /// Between playouts (or games), after `played` seconds of play: `engine` becomes a copy
    /// of the network once the upgrade is ready.
    pub fn poll(&mut self, engine: &mut Engine, played: f64) {
        let u = self.upgrader;
        if self.done {
            return;
        }
        match u.quick.as_ref().map(|q| q.get()) {
            Some(None) => return,
            Some(Some(Ok(ready))) => return self.take(engine, ready, played),
            Some(Some(Err(NoNetwork { may_upgrade: false, .. }))) => return self.done = true,
            // No grounding left running, or it stopped at `auto`'s bounds: the full one may follow.
            None | Some(Some(Err(_))) => {}
        }
        let Some(job) = u.job.as_ref().filter(|_| played >= u.after) else { return };
        u.start(job);
        match u.ready.get() {
            None => {}
            Some(Err(_)) => self.done = true,
            Some(Ok(ready)) => self.take(engine, ready, played),
        }
    }

    fn take(&mut self, engine: &mut Engine, ready: &Upgrade, played: f64) {
        *engine = ready.engine();
        self.done = true;
        self.upgrader.moved.get_or_init(|| played);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gdl_core::machine::StateMachine;
    use gdl_core::reasoner::Reasoner;

    /// A run on the reasoner, with `auto`'s grounding left running beside it, moves to that
    /// grounding's network once it is ready, with no full grounding (`after` is never
    /// reached).
    #[test]
    fn a_run_moves_to_the_network_of_autos_grounding_left_running() {
        let desc = gdl_core::validated(include_str!("../../games/tictactoe.kif")).ok().unwrap().description;
        let (limits, options) = (Limits::default(), PropnetOptions::default());
        let reasoner = Engine::Reasoner(Box::new(Reasoner::new(&desc, limits).unwrap()));
        let chosen = Chosen { engine: reasoner, note: String::new(), may_upgrade: true };
        let grounding = Grounding::spawn(&desc, limits, options).unwrap();
        let upgrader = Upgrader::new(&chosen, Some(grounding), &desc, limits, options, f64::INFINITY, false);
        let mut engine = chosen.engine;
        let (mut switch, waiting) = (upgrader.thread(), Instant::now());
        while engine.engine_name() == "reasoner" && waiting.elapsed().as_secs() < 60 {
            switch.poll(&mut engine, 0.5);
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert_eq!(engine.engine_name(), "propnet");
        assert_eq!((upgrader.outcome().as_deref(), upgrader.moved_at()), (Some("moved"), Some(0.5)));
    }
}
