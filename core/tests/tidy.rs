//! The house rules of the repository, checked as tests (after rust-analyzer's `tidy.rs`):
//! ARCHITECTURE.md names only files that exist (with or without backticks) and stays a map, every module of `core/src`
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

/// The endings of the file names the map may mention.
const KINDS: [&str; 14] =
    [".rs", ".ts", ".mjs", ".js", ".py", ".md", ".toml", ".json", ".html", ".css", ".sh", ".kif", ".yml", ".yaml"];

/// The file names and paths a text mentions, with or without backticks: words (letters,
/// digits, `_`, `-`, `.`, `/`, `*`) ending in a known kind of file, without the punctuation
/// that ends a sentence.
fn file_names(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_alphanumeric() || "_-./*".contains(c)))
        .map(|w| w.trim_end_matches(['.', ',', ':']))
        .filter(|w| KINDS.iter().any(|k| w.len() > k.len() && w.ends_with(k)))
        .collect()
}

/// Every file of the repository (not what builds make: `target`, `node_modules`, `dist`,
/// `pkg`), as paths from the root with `/`.
fn repository_files(root: &Path) -> Vec<String> {
    let skip = ["target", "node_modules", "dist", "pkg", ".git", "out"];
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for p in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())).flatten().map(|e| e.path()) {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            if p.is_dir() && !skip.contains(&name.as_str()) {
                stack.push(p);
            } else if p.is_file() {
                out.push(p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out
}

#[test]
fn every_file_the_map_names_exists() {
    let root = root();
    let map = read(&root.join("ARCHITECTURE.md"));
    // The folders .gitignore anchors at the root (`/web/dist/`): what the build makes.
    let ignored: Vec<String> =
        read(&root.join(".gitignore")).lines().filter_map(|l| l.strip_prefix('/')).map(str::to_string).collect();
    let files = repository_files(&root);
    let names = file_names(&map);
    let mut missing = Vec::new();
    for &path in &names {
        if path.starts_with("../") {
            // Shared material next to the repository, not in it.
            continue;
        }
        if TOP.iter().any(|t| path.starts_with(t)) {
            // A glob names the folder before its first `*`; build outputs are ignored by git.
            let folder = &path[..path.find('*').unwrap_or(path.len())];
            let built = ignored.iter().any(|i| path.starts_with(i.as_str()));
            if !built && !root.join(folder).exists() {
                missing.push(path);
            }
        } else if !files.iter().any(|f| f == path || f.ends_with(&format!("/{path}"))) {
            // A name alone (`asked.rs`) or a path inside a folder named nearby: some file has it.
            missing.push(path);
        }
    }
    assert!(names.len() > 100, "ARCHITECTURE.md names only {} files", names.len());
    assert!(missing.is_empty(), "ARCHITECTURE.md names files that do not exist: {missing:?}");
}

#[test]
fn file_names_are_found_with_or_without_backticks() {
    let text = "`core/src/ast.rs` (terms), asked.rs: and `web/src/**/*.test.ts`, e.g. STATUS.md. Not: v1.2 or a.b";
    assert_eq!(file_names(text), ["core/src/ast.rs", "asked.rs", "web/src/**/*.test.ts", "STATUS.md"]);
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
    // A getter or a converted call per request of the page: the page's session, grounding,
    // referee, a student's player's match and tournaments.
    assert!(wasm <= 1100, "wasm/src has {wasm} lines: it only converts (at most 1,100)");
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
