//! Every input that once broke the engine (found by fuzzing or the mutated-corpus sweep),
//! kept in `regressions/`, goes through every fuzz target's checks again.

use gdl_robust::{assert_round_trip, assert_validates, exercise, Budget, Outcome};
use std::path::Path;

#[test]
fn regressions_stay_fixed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(!files.is_empty(), "no regression inputs in {}", dir.display());
    for file in files {
        let bytes = std::fs::read(&file).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert_round_trip(&text);
        assert_validates(&text);
        for seed in 0..3 {
            let outcome = exercise(&text, seed, &Budget::fuzz());
            assert!(!matches!(outcome, Outcome::Disagree(_)), "{}: {outcome:?}", file.display());
        }
    }
}
