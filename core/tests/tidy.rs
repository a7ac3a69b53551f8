//! The house rules of the repository, checked as tests (after rust-analyzer's `tidy.rs`):
//! ARCHITECTURE.md names only paths that exist and stays a map, every module of `core/src`
//! says its job in a doc comment, and the faces stay thin (the sizes issue 31 set). Import
//! circles are `imports.rs`'s.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every file under `dir` whose name ends with `ext`, sorted.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())).flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The top-level folders a path in the map may start with.
const TOP: [&str; 9] = ["core/", "cli/", "wasm/", "web/", "games/", "tests/", "scripts/", "fuzz/", ".ci/"];

#[test]
fn every_path_the_map_names_exists() {
    let root = root();
    let map = read(&root.join("ARCHITECTURE.md"));
    // The folders .gitignore anchors at the root (`/web/dist/`): what the build makes.
    let ignored: Vec<String> =
        read(&root.join(".gitignore")).lines().filter_map(|l| l.strip_prefix('/')).map(str::to_string).collect();
    let mut named = 0;
    let mut missing = Vec::new();
    for (i, chunk) in map.split('`').enumerate() {
        // Odd chunks are inside backticks.
        if i % 2 == 0 || chunk.contains(char::is_whitespace) || !TOP.iter().any(|t| chunk.starts_with(t)) {
            continue;
        }
        named += 1;
        let path = chunk.trim_end_matches(['.', ',', ':']);
        // A glob names the folder before its first `*`; build outputs are ignored by git.
        let folder = &path[..path.find('*').unwrap_or(path.len())];
        let built = ignored.iter().any(|i| path.starts_with(i.as_str()));
        if !built && !root.join(folder).exists() {
            missing.push(path.to_string());
        }
    }
    assert!(named > 40, "ARCHITECTURE.md names only {named} paths in backticks");
    assert!(missing.is_empty(), "ARCHITECTURE.md names paths that do not exist: {missing:?}");
}

#[test]
fn the_map_is_read_in_one_sitting() {
    let lines = read(&root().join("ARCHITECTURE.md")).lines().count();
    assert!(lines <= 350, "ARCHITECTURE.md has {lines} lines: a map, not a notebook (at most 350)");
}

#[test]
fn every_core_module_says_its_job() {
    let src = root().join("core/src");
    let silent: Vec<String> = files(&src, ".rs")
        .into_iter()
        .filter(|p| !read(p).trim_start().starts_with("//!"))
        .map(|p| p.strip_prefix(&src).unwrap().display().to_string())
        .collect();
    assert!(silent.is_empty(), "core/src modules without a `//!` doc comment: {silent:?}");
}

#[test]
fn the_faces_stay_thin() {
    let root = root();
    let main = read(&root.join("cli/src/main.rs")).lines().count();
    assert!(main <= 200, "cli/src/main.rs has {main} lines: it only dispatches (at most 200)");
    let wasm: usize = files(&root.join("wasm/src"), ".rs").iter().map(|p| read(p).lines().count()).sum();
    assert!(wasm <= 1000, "wasm/src has {wasm} lines: it only converts (at most 1,000)");
    let top: Vec<PathBuf> = std::fs::read_dir(root.join("web/src"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.is_file() && p.extension().is_some_and(|e| e == "ts") && !p.to_string_lossy().ends_with(".test.ts")
        })
        .collect();
    assert!(top.len() <= 10, "web/src has {} modules at its top level (at most 10): {top:?}", top.len());
}
