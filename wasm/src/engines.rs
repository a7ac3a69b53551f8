//! The engines the page can play with, in one place.
//!
//! This file is the single place that knows which engines the page offers: `auto` (the
//! propositional network when the game grounds within limits, else the reasoner), `propnet`,
//! `reasoner` and `ground`, all built by `gdl_core::engine::build`; the page's engine menus
//! follow `capabilities` without other changes. The grounded view is in `groundview.rs`.

use gdl_core::ast::Description;
use gdl_core::engine::{Choice, Chosen};
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

#[cfg(test)]
mod tests {
    use super::*;
    use gdl_core::machine::StateMachine;

    const TICTACTOE: &str = include_str!("../../games/tictactoe.kif");

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
