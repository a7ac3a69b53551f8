//! Grounder: any text that loads is played, grounded and the same moves replayed on the
//! ground program; no panic, no hang, and the two engines never disagree.
#![no_main]

use gdl_robust::{exercise, Budget, Outcome};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&seed, text)) = data.split_last() else { return };
    let Ok(text) = std::str::from_utf8(text) else { return };
    let budget = Budget { propnet: false, ..Budget::fuzz() };
    if let Outcome::Disagree(why) = exercise(text, seed.into(), &budget) {
        panic!("the ground engine disagrees with the reasoner: {why}");
    }
});
