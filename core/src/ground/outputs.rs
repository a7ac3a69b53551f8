//! Terminal and goal left to the reasoner. When a game does not ground for a relation only
//! `terminal` and `goal` need, it is ground again without their rules (`without_outputs`): sudoku's
//! `exactlyOne` (every ordering of nine marks) and laikLee_hex's `connection` (every path)
//! are read by nothing else. The network then computes the legal moves and the next state,
//! and the reasoner computes terminal and goal from each state on the rules as written
//! (`Ground::outputs`, read by `propnet::outputs`); the ground engine runs the ground rules
//! together with the first-order rules the outputs need (`first_order`).
//!
//! Invariant: every rule `without_outputs` drops is one no `legal`, `next`, `sees`, `init`,
//! `base`, `input` or `role` rule can reach, so the ground program still decides everything
//! but terminal and goal.

use crate::ast::{Description, Item};
use crate::deps::{rel_key, DepGraph};

/// The keywords the network computes, with the relations that set up the game.
const NETWORK: [&str; 7] = ["legal", "next", "sees", "init", "base", "input", "role"];
/// The keywords left to the reasoner.
const OUTPUTS: [&str; 2] = ["terminal", "goal"];

/// Per relation of `g`, whether a rule of one of `roots` reaches it (through bodies).
fn reached(g: &DepGraph, roots: &[&str]) -> Vec<bool> {
    g.reachable((0..g.rels.len()).filter(|&r| roots.contains(&g.rels[r].0.as_str())))
}

/// The rules of `desc` whose head relation `keep` accepts (rules with a variable head stay).
fn filtered(desc: &Description, g: &DepGraph, keep: &[bool]) -> Description {
    let kept = |i: &&Item| match i {
        Item::Rule(r) => rel_key(&r.head).is_none_or(|k| g.index.get(&k).is_none_or(|&i| keep[i])),
        Item::Comment(_) => false,
    };
    Description { items: desc.items.iter().filter(kept).cloned().collect() }
}

/// `desc` without the rules only terminal and goal need, when `failed` (the relation that
/// kept it from grounding) is one of them; else `None`: the network's part would fail too.
pub fn without_outputs(desc: &Description, failed: &str) -> Option<Description> {
    let g = DepGraph::build(desc);
    let network = reached(&g, &NETWORK);
    let outputs = reached(&g, &OUTPUTS);
    let only_outputs = |r: usize| outputs[r] && !network[r] && g.defined[r];
    let failed = (0..g.rels.len()).find(|&r| g.rels[r].0 == failed)?;
    only_outputs(failed).then(|| filtered(desc, &g, &network))
}

/// The first-order rules of `desc` that terminal and goal need (those of every relation
/// their rules reach, static ones included: the ground program has none).
pub fn first_order(desc: &Description) -> Description {
    let g = DepGraph::build(desc);
    let mut outputs = reached(&g, &OUTPUTS);
    for r in ["true", "does"].iter().filter_map(|n| g.rels.iter().position(|k| k.0 == *n)) {
        outputs[r] = false;
    }
    filtered(desc, &g, &outputs)
}
