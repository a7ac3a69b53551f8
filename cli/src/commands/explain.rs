//! `gdl explain`: why an atom holds in a position (the rule instance and the facts it uses)
//! or does not (the first failing condition of each rule), as a tree of premises.

use crate::args::ExplainArgs;
use crate::load::{self, invalid, print_json, usage, validated, Outcome};
use gdl_core::explain::{Explainer, Explanation};

pub fn run(args: &ExplainArgs) -> Outcome {
    let (text, description) = validated(&args.file, args.json)?;
    let path = load::path(&args.path)?;
    let mut explainer = Explainer::new(&description, &text, args.limits.limits(), &path).map_err(invalid)?;
    let tree = explainer.tree(&args.query, args.step, args.depth).map_err(usage)?;
    if args.json {
        print_json(&tree);
    } else {
        print!("{}", text_tree(&tree, 0));
    }
    Ok(())
}

/// The explanation indented by `indent` levels, its premises' explanations nested beneath.
fn text_tree(e: &Explanation, indent: usize) -> String {
    let pad = "  ".repeat(indent);
    let at = match (e.in_move, e.step) {
        (true, k) => format!("in move {}", k + 1),
        (false, 0) => "initially".to_string(),
        (false, k) => format!("after move {k}"),
    };
    let mut out = format!("{pad}{} [{at}]\n", e.summary);
    for d in &e.derivations {
        let source = if d.line > 0 { format!("rule on line {}", d.line) } else { "by definition".to_string() };
        out += &format!("{pad}  {source}: {}\n", d.rule);
        if d.line > 0 {
            out += &format!("{pad}    instance: {}\n", d.instance);
        }
        for (i, p) in d.premises.iter().enumerate() {
            let mark = if p.holds { "✓" } else { "✗" };
            let fails = if d.failed == Some(i) { "   <- fails" } else { "" };
            out += &format!("{pad}    {mark} {}{fails}\n", p.literal);
            if let Some(detail) = &p.detail {
                out += &text_tree(detail, indent + 3);
            }
        }
        if let Some(note) = &d.note {
            out += &format!("{pad}    ({note})\n");
        }
    }
    out
}
