//! No import circles: the top-level modules of `core/src` use one another one way only. Every
//! `crate::module` path outside comments and tests is an edge from the module whose file
//! holds it; the test fails on a cycle and names it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Graph = BTreeMap<String, BTreeSet<String>>;

#[test]
fn core_modules_import_one_another_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph = Graph::new();
    for entry in std::fs::read_dir(&src).unwrap().flatten() {
        let path = entry.path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if name != "lib" {
            let uses = graph.entry(name.clone()).or_default();
            for text in sources(&path) {
                uses.extend(used_modules(&text).into_iter().filter(|m| *m != name));
            }
        }
    }
    if let Some(cycle) = find_cycle(&graph) {
        panic!("core modules import each other: {}", cycle.join(" -> "));
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
    let text = "use crate::{\n    ast::{Term, Rule},\n    deps,\n};\n// crate::trace\nx(crate::rng::Rng::new(1))";
    assert_eq!(used_modules(text).into_iter().collect::<Vec<_>>(), ["ast", "deps", "rng"]);
}

/// The text of a module's files (`name.rs`, or every file under `name/`), without unit tests.
fn sources(path: &Path) -> Vec<String> {
    if path.is_dir() {
        let files = std::fs::read_dir(path).unwrap().flatten().map(|e| e.path());
        return files.flat_map(|p| sources(&p)).collect();
    }
    let is_tests = path.file_name().is_some_and(|n| n == "tests.rs");
    if path.extension().is_none_or(|e| e != "rs") || is_tests {
        return Vec::new();
    }
    let text = std::fs::read_to_string(path).unwrap();
    let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or_default();
    vec![code.to_string()]
}

/// The modules named by `crate::module` paths outside comments, also inside
/// `use crate::{a, b::{c, d}}` groups (over several lines).
fn used_modules(text: &str) -> BTreeSet<String> {
    let code: String = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    let mut out = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        let Some(group) = rest.strip_prefix('{') else {
            out.insert(ident(rest));
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
                    out.insert(ident(&group[k..]));
                    start = false;
                }
                _ => {}
            }
        }
    }
    out.retain(|m| !m.is_empty());
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
