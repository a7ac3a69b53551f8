//! The catalogue of engines: each engine's name, as the CLI's `--engine` and the page's menus
//! take it, and a one-line note. The first is the default. `engine::build` builds them.

use crate::ast::Description;
use crate::engine::{build, Choice, Chosen};
use crate::reasoner::Limits;
use serde::Serialize;

/// An engine games can be played with.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct EngineInfo {
    #[serde(skip)]
    pub choice: Choice,
    pub name: &'static str,
    pub note: &'static str,
}

/// Every engine, the default first.
pub static ENGINES: [EngineInfo; 4] = [
    EngineInfo {
        choice: Choice::Auto,
        name: "auto",
        note: "the propositional network when the game grounds within limits, else the reasoner",
    },
    EngineInfo {
        choice: Choice::Propnet,
        name: "propnet",
        note: "propositional network compiled from the ground program",
    },
    EngineInfo {
        choice: Choice::Reasoner,
        name: "reasoner",
        note: "first-order reasoner: bottom-up, with relations computed on demand (top-down) where that is cheaper",
    },
    EngineInfo { choice: Choice::Ground, name: "ground", note: "the reasoner on the ground program" },
];

impl Choice {
    /// The engine's name in the catalogue.
    pub fn name(self) -> &'static str {
        Self::info(self).name
    }

    /// The engine's entry in the catalogue.
    pub fn info(self) -> &'static EngineInfo {
        ENGINES.iter().find(|e| e.choice == self).expect("every engine is in the catalogue")
    }

    /// The engine called `name`, or why there is none.
    pub fn named(name: &str) -> Result<Choice, String> {
        match ENGINES.iter().find(|e| e.name == name) {
            Some(e) => Ok(e.choice),
            None => {
                let names: Vec<&str> = ENGINES.iter().map(|e| e.name).collect();
                Err(format!("unknown engine {name:?}: use {}", names.join(", ")))
            }
        }
    }
}

/// The engine `name` for a valid description (default network options), with a note saying
/// which engine runs and why; `now` gives milliseconds.
pub fn build_named(name: &str, desc: &Description, limits: Limits, now: &dyn Fn() -> f64) -> Result<Chosen, String> {
    build(Choice::named(name)?, desc, limits, Default::default(), now).map_err(|d| d.message)
}
