//! The engines the page can play with and the grounded view, in one place.
//!
//! This file is the single place that knows which engines the page offers: `auto` (the
//! propositional network when the game grounds within limits, else the reasoner), `propnet`,
//! `reasoner` and `ground`, all built by `gdl_core::engine::build`; the page's engine menus
//! follow `capabilities` without other changes.

use gdl_core::ast::Description;
use gdl_core::diagnostic::LineIndex;
use gdl_core::engine::{Choice, Chosen};
use gdl_core::ground::{ground, Options, PHASES};
use gdl_core::parse::Syntax;
use gdl_core::reasoner::Limits;
use serde::Serialize;

/// An engine the page can run games with.
#[derive(Debug, Serialize)]
pub struct Engine {
    pub name: &'static str,
    pub note: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Capabilities {
    pub ground: bool,
    /// The first is the default.
    pub engines: Vec<Engine>,
}

pub fn capabilities() -> Capabilities {
    Capabilities {
        ground: true,
        engines: vec![
            Engine {
                name: "auto",
                note: "the propositional network when the game grounds within limits, else the reasoner",
            },
            Engine { name: "propnet", note: "propositional network compiled from the ground program" },
            Engine {
                name: "reasoner",
                note: "first-order reasoner: bottom-up, with relations computed on demand (top-down) where that is cheaper",
            },
            Engine { name: "ground", note: "the reasoner on the ground program" },
        ],
    }
}

/// The engine `name` for a valid description, with a note saying which engine runs and why;
/// `now` gives milliseconds.
pub fn build(name: &str, desc: &Description, limits: Limits, now: &dyn Fn() -> f64) -> Result<Chosen, String> {
    let choice =
        Choice::from_name(name).ok_or_else(|| format!("unknown engine {name:?}: use {}", Choice::NAMES.join(", ")))?;
    gdl_core::engine::build(choice, desc, limits, Default::default(), now).map_err(|d| d.message)
}

/// A ground program as the grounded-rules pane shows it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GroundView {
    /// One ground rule per line, in the syntax asked for.
    pub text: String,
    pub rules: usize,
    /// `(relation name/arity, ground rules with that head)`, most first.
    pub relations: Vec<(String, usize)>,
    /// `(phase, milliseconds)`, in pipeline order.
    pub phases: Vec<(String, f64)>,
    /// Sizes of `base` and `input`, and whether the game declares them (or they were computed).
    pub base: usize,
    pub input: usize,
    pub declared_base: bool,
    pub declared_input: bool,
}

/// Grounds `text`; `now` gives milliseconds, `progress` is told each phase as it starts.
pub fn ground_view(
    text: &str,
    syntax: Syntax,
    limits: Limits,
    now: &dyn Fn() -> f64,
    progress: &mut dyn FnMut(&str),
) -> Result<GroundView, String> {
    let loaded = gdl_core::load(text, limits).map_err(|diags| {
        let errors = diags.iter().filter(|d| d.is_error()).count();
        format!(
            "the rules have {errors} error{}: fix them to see the ground program",
            if errors == 1 { "" } else { "s" }
        )
    })?;
    let options = Options { limits, ..Options::default() };
    let g = ground(&loaded.description, options, now, progress).map_err(|d| {
        if d.span.end == 0 {
            return d.message;
        }
        let (line, column) = LineIndex::new(text).line_col(d.span.start);
        format!("line {line}, column {column}: {}", d.message)
    })?;
    let text = g.print(syntax);
    let mut relations: Vec<(String, usize)> = g.stats.rules_per_relation.into_iter().collect();
    relations.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let phases = PHASES.iter().map(|&p| (p.to_string(), g.stats.phase_ms.get(p).copied().unwrap_or(0.0))).collect();
    Ok(GroundView {
        text,
        rules: g.stats.rules,
        relations,
        phases,
        base: g.stats.base,
        input: g.stats.input,
        declared_base: g.stats.declared_base,
        declared_input: g.stats.declared_input,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use gdl_core::machine::StateMachine;

    const TICTACTOE: &str = include_str!("../../games/tictactoe.kif");

    #[test]
    fn ground_view_gives_lines_counts_and_phases() {
        let mut seen = Vec::new();
        let clock = std::cell::Cell::new(0.0);
        let now = || {
            clock.set(clock.get() + 1.0);
            clock.get()
        };
        let g =
            ground_view(TICTACTOE, Syntax::Infix, Limits::default(), &now, &mut |p| seen.push(p.to_string())).unwrap();
        assert_eq!(seen, PHASES);
        assert_eq!(g.text.lines().count(), g.rules);
        assert!(g.text.contains("legal(x, mark(1, 1)) :- true(control(x)) & true(cell(1, 1, b))"), "{}", g.text);
        assert_eq!(g.relations.iter().map(|r| r.1).sum::<usize>(), g.rules);
        assert!(g.relations.windows(2).all(|w| w[0].1 >= w[1].1));
        assert_eq!(g.phases.len(), 4);
        assert!(g.phases.iter().all(|p| p.1 > 0.0));
        assert_eq!((g.base, g.input, g.declared_base), (29, 20, true));
        let e = ground_view("(role x", Syntax::Prefix, Limits::default(), &|| 0.0, &mut |_| {}).unwrap_err();
        assert!(e.contains("1 error: fix them"), "{e}");
    }

    #[test]
    fn engines_are_built_by_name() {
        let desc = gdl_core::parse::parse(TICTACTOE).description;
        let limits = Limits::default();
        let name = |n| build(n, &desc, limits, &|| 0.0).unwrap().engine.engine_name();
        assert_eq!(
            [name("auto"), name("propnet"), name("reasoner"), name("ground")],
            ["propnet", "propnet", "reasoner", "ground"]
        );
        assert!(build("auto", &desc, limits, &|| 0.0).unwrap().note.starts_with("propnet ("));
        assert!(build("magic", &desc, limits, &|| 0.0).err().unwrap().contains("unknown engine"));
        let names: Vec<&str> = capabilities().engines.iter().map(|e| e.name).collect();
        assert_eq!(names, Choice::NAMES);
    }
}
