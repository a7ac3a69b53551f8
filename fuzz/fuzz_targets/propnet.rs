//! Network compiler: any text that grounds is compiled into a propositional network (both
//! evaluation strategies, by seed) and the reasoner's random moves replayed on it; no
//! panic, no hang, and the network never disagrees with the reasoner.
#![no_main]

use gdl_robust::{exercise, Budget, Outcome};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&seed, text)) = data.split_last() else { return };
    let Ok(text) = std::str::from_utf8(text) else { return };
    if let Outcome::Disagree(why) = exercise(text, seed.into(), &Budget::fuzz()) {
        panic!("an engine disagrees with the reasoner: {why}");
    }
});
