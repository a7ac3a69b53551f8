//! The games of `games/`: each has a header (its name, a one-line summary for the page's
//! menu), and passes `gdl analyze`; a `bug-` game instead fails in the way its
//! `; Intended error:` line names (a diagnostic code, or the analysis check that fails).

use assert_cmd::Command;
use serde_json::Value;
use std::path::PathBuf;

fn games() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../games");
    let mut all: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "kif"))
        .collect();
    all.sort();
    all
}

fn name(path: &std::path::Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

/// `gdl analyze --json`: the exit code and the report.
fn analyze(path: &std::path::Path) -> (i32, Value) {
    let out = Command::cargo_bin("gdl")
        .unwrap()
        .args(["analyze", "--json", "--max-states", "20000", "--playouts", "200"])
        .arg(path)
        .output()
        .unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{}: analyze printed no JSON ({e}): {}", path.display(), String::from_utf8_lossy(&out.stderr))
    });
    (out.status.code().unwrap(), json)
}

/// The required checks that failed, as "name" or "name (role)".
fn failed_checks(report: &Value) -> Vec<String> {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["required"] == true && c["outcome"] == "fails")
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn there_are_at_least_25_games_with_a_name_and_a_summary() {
    let all = games();
    assert!(all.len() >= 25, "{} games", all.len());
    for path in all {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines = text.lines();
        let title = lines.next().unwrap_or("");
        let summary = lines.next().unwrap_or("");
        assert!(title.starts_with("; ") && title.len() > 3, "{}: first line must name the game", path.display());
        assert!(
            summary.starts_with("; ") && summary.len() > 20,
            "{}: second line must be a one-line summary",
            path.display()
        );
    }
}

#[test]
fn every_working_game_passes_analyze() {
    for path in games().into_iter().filter(|p| !name(p).starts_with("bug-")) {
        let (code, report) = analyze(&path);
        assert_eq!(code, 0, "{}: {report}", path.display());
        assert_eq!(failed_checks(&report), Vec::<String>::new(), "{}", path.display());
    }
}

#[test]
fn every_bug_game_fails_as_intended() {
    let bugs: Vec<PathBuf> = games().into_iter().filter(|p| name(p).starts_with("bug-")).collect();
    assert!(bugs.len() >= 3, "{bugs:?}");
    for path in bugs {
        let text = std::fs::read_to_string(&path).unwrap();
        let intended = text
            .lines()
            .find_map(|l| l.strip_prefix("; Intended error: "))
            .unwrap_or_else(|| panic!("{}: no '; Intended error:' line", path.display()))
            .trim();
        let (code, report) = analyze(&path);
        assert_eq!(code, 1, "{}: {report}", path.display());
        let found: Vec<String> = match report["diagnostics"].as_array() {
            Some(diagnostics) => diagnostics
                .iter()
                .filter(|d| d["severity"] == "error")
                .map(|d| d["code"].as_str().unwrap().to_string())
                .collect(),
            None => failed_checks(&report),
        };
        assert_eq!(found, vec![intended.to_string()], "{}", path.display());
    }
}
