//! Work on several threads, one engine per thread (engines share nothing, so each thread
//! builds its own; the caller's engine serves the calling thread).

use crate::load::{usage, Failure};
use gdl_core::engine::Engine;

/// `--threads`: at least one; every core when not given.
pub fn threads(arg: Option<usize>) -> Result<usize, Failure> {
    match arg {
        Some(0) => Err(usage("--threads must be at least 1")),
        Some(t) => Ok(t),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// `work(t, engine)` for every thread `t` in `0..threads`, in parallel: thread 0 is the
/// caller's, with `first`; the others build their engine with `build`. Every thread starts
/// its work once all engines are built (so timings leave the building out). Results in
/// thread order; the first error (building or working) wins.
pub fn each_thread<T: Send>(
    threads: usize,
    first: &mut Engine,
    build: &(dyn Fn() -> Result<Engine, String> + Sync),
    work: &(dyn Fn(usize, &mut Engine) -> Result<T, String> + Sync),
) -> Result<Vec<T>, String> {
    let threads = threads.max(1);
    let built = std::sync::Barrier::new(threads);
    std::thread::scope(|scope| {
        let others: Vec<_> = (1..threads)
            .map(|t| {
                let built = &built;
                scope.spawn(move || {
                    let engine = build();
                    built.wait();
                    work(t, &mut engine?)
                })
            })
            .collect();
        built.wait();
        let mut results = vec![work(0, first)];
        results.extend(others.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("a thread failed".into()))));
        results.into_iter().collect()
    })
}
