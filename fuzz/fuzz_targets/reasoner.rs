//! First-order reasoner: any text is loaded under small limits and, if it loads, played for
//! a few random joint moves (the seed comes from the input); no panic, no hang.
#![no_main]

use gdl_core::rng::Rng;
use gdl_core::trace::record_playout;
use gdl_robust::Budget;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&seed, text)) = data.split_last() else { return };
    let Ok(text) = std::str::from_utf8(text) else { return };
    let budget = Budget::fuzz();
    if let Ok(mut loaded) = gdl_core::load(text, budget.limits) {
        let _ = record_playout(&mut loaded.reasoner, &mut Rng::new(seed.into()), budget.steps);
    }
});
