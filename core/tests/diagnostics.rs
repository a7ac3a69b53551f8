//! Snapshot tests of the diagnostics for broken or doubtful games in tests/diagnostics/:
//! each input file has a `.expected` file beside it (update with `UPDATE_EXPECT=1 cargo
//! test`) and at least one error or warning.

use gdl_core::diagnostic::LineIndex;
use std::path::Path;

#[test]
fn diagnostics_match_snapshots() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/diagnostics");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "kif" || e == "gdl"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 5);
    for input in inputs {
        let text = std::fs::read_to_string(&input).unwrap();
        let diags = gdl_core::check(&text);
        assert!(!diags.is_empty(), "{} has no error nor warning", input.display());
        let idx = LineIndex::new(&text);
        let name = input.file_name().unwrap().to_string_lossy();
        let rendered: String = diags.iter().map(|d| idx.render(&name, d) + "\n").collect();
        expect_test::expect_file![input.with_extension("expected")].assert_eq(&rendered);
    }
}
