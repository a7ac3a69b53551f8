//! No import circles: the modules of each crate use one another one way only. Every
//! `crate::a::b` path (and `super::b`) outside comments and tests is an edge from the module
//! whose file holds it to the module it names, both cut to the crate's depth: the top-level
//! modules of `core/src` and `wasm/src`; those of `cli/src` and each command of
//! `cli/src/commands`. The test fails on a cycle and names it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

#[test]
fn core_modules_import_one_another_one_way() {
    assert_one_way("core/src", 1);
}

#[test]
fn cli_modules_and_commands_import_one_another_one_way() {
    assert_one_way("cli/src", 2);
}

#[test]
fn wasm_modules_import_one_another_one_way() {
    assert_one_way("wasm/src", 1);
}

fn assert_one_way(src: &str, depth: usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join(src);
    let graph = module_graph(&root, depth);
    assert!(graph.len() > 2, "{src} has only the modules {:?}", graph.keys());
    if let Some(cycle) = find_cycle(&graph) {
        panic!("modules of {src} import each other: {}", cycle.join(" -> "));
    }
}

#[test]
fn a_circle_is_found() {
    let graph: Graph =
        [("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")].iter().fold(Graph::new(), |mut g, (from, to)| {
            g.entry(from.to_string()).or_default().insert(to.to_string());
            g
        });
    assert_eq!(find_cycle(&graph).unwrap(), ["a", "b", "c", "a"]);
    let text = "use crate::{\n    ast::{Term, Rule},\n    deps,\n};\n// crate::trace\nx(crate::rng::Rng::new(1)); use super::referee;";
    let used: Vec<String> = used_paths(text).iter().map(|p| p.join("::")).collect();
    assert_eq!(used, ["crate::ast", "crate::deps", "crate::rng::Rng::new", "super::referee"]);
    // In `commands/matches.rs`, `super::referee` is the command next to it.
    let from = ["commands".to_string(), "matches".to_string()];
    let nodes: BTreeSet<String> = ["commands", "commands::referee", "load"].map(String::from).into();
    assert_eq!(
        target(&from, &["super".into(), "referee".into(), "run".into()], 2, &nodes).unwrap(),
        "commands::referee"
    );
    assert_eq!(target(&from, &["crate".into(), "load".into(), "Loader".into()], 2, &nodes).unwrap(), "load");
}

/// The module graph of the crate under `src`, modules cut to `depth` path segments.
fn module_graph(src: &Path, depth: usize) -> Graph {
    let files: Vec<(Vec<String>, String)> = rust_files(src)
        .into_iter()
        .filter_map(|p| {
            let module = module_path(src, &p);
            (!module.is_empty()).then(|| (module, code(&p)))
        })
        .collect();
    let nodes: BTreeSet<String> = files.iter().map(|(m, _)| cut(m, depth)).collect();
    let mut graph = Graph::new();
    for (module, text) in &files {
        let from = cut(module, depth);
        let uses = graph.entry(from.clone()).or_default();
        for path in used_paths(text) {
            uses.extend(target(module, &path, depth, &nodes).filter(|t| *t != from));
        }
    }
    graph
}

fn cut(module: &[String], depth: usize) -> String {
    module[..module.len().min(depth)].join("::")
}

/// The module that `path` (starting `crate` or `super`), used in `module`, names: the longest
/// of its prefixes, cut to `depth`, that is a module.
fn target(module: &[String], path: &[String], depth: usize, nodes: &BTreeSet<String>) -> Option<String> {
    let mut full: Vec<String> = module.to_vec();
    let mut rest = path;
    if rest.first().is_some_and(|s| s == "crate") {
        full.clear();
        rest = &rest[1..];
    }
    while rest.first().is_some_and(|s| s == "super") {
        full.pop();
        rest = &rest[1..];
    }
    full.extend(rest.iter().cloned());
    (1..=full.len().min(depth)).rev().map(|n| full[..n].join("::")).find(|m| nodes.contains(m))
}

/// Every `.rs` file under `dir` but unit-test files (`tests.rs`).
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for path in std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()) {
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") && path.file_name().is_some_and(|n| n != "tests.rs") {
            out.push(path);
        }
    }
    out
}

/// The module a file holds, as path segments (`commands/mod.rs`: `commands`); the crate's
/// root (`lib.rs`, `main.rs`) is empty.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let mut segments: Vec<String> =
        file.strip_prefix(src).unwrap().with_extension("").iter().map(|s| s.to_string_lossy().to_string()).collect();
    if segments.last().is_some_and(|s| s == "mod") {
        segments.pop();
    }
    if segments.len() == 1 && (segments[0] == "lib" || segments[0] == "main") {
        segments.clear();
    }
    segments
}

/// A file's code without its unit tests.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.split("#[cfg(test)]\nmod tests").next().unwrap_or_default().to_string()
}

/// The `crate::…` and `super::…` paths outside comments, as segments, also inside
/// `use crate::{a, b::{c, d}}` groups (over several lines: each item's leading path).
fn used_paths(text: &str) -> BTreeSet<Vec<String>> {
    let code: String = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    let mut out = BTreeSet::new();
    for root in ["crate::", "super::"] {
        for (i, _) in code.match_indices(root) {
            // `super::super::x` is read once, from its first `super`.
            let before = code[..i].trim_end_matches(|c: char| c.is_alphanumeric() || c == '_');
            if root == "super::"
                && (before.ends_with("::") || code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
            {
                continue;
            }
            let head = vec![root.trim_end_matches(':').to_string()];
            let rest = &code[i + root.len()..];
            let Some(group) = rest.strip_prefix('{') else {
                out.insert([head, segments(rest)].concat());
                continue;
            };
            // The group's items at its own depth: each starts after `{` or a `,` at depth 0.
            let (mut depth, mut start) = (0, true);
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && !c.is_whitespace() => {
                        out.insert([head.clone(), segments(&group[k..])].concat());
                        start = false;
                    }
                    _ => {}
                }
            }
        }
    }
    out.retain(|p| p.len() > 1);
    out
}

/// The identifiers of a path, `a::b::c`, up to what is not one (`::{`, `(`, a space).
fn segments(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        let ident: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if ident.is_empty() {
            break;
        }
        rest = &rest[ident.len()..];
        out.push(ident);
        match rest.strip_prefix("::") {
            Some(r) => rest = r,
            None => break,
        }
    }
    out
}

/// A path of imports that comes back to where it starts, if any.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(graph: &Graph, node: &str, path: &mut Vec<String>, done: &mut BTreeSet<String>) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|n| n == node) {
            let mut cycle = path[start..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if !done.insert(node.to_string()) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(graph, next, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|node| visit(graph, node, &mut Vec::new(), &mut done))
}
