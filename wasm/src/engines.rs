//! SLOT: the features that wait for `gdl-core` — the grounder (`gdl ground`) and the fast
//! propositional engine. This file is the single place that says "not available yet": when
//! core gains them, `ground` calls the grounder and `engines` lists the new engine, and the
//! page (grounded-rules pane, engine menus) shows them without other changes.

use serde::Serialize;

/// Shown by the page wherever a pending feature would be.
pub const NOT_YET: &str = "not available yet: the grounder and the propositional engine are coming to gdl-core";

/// A ground program as the grounded-rules pane shows it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Ground {
    /// One ground rule per line, in the syntax asked for.
    pub text: String,
    /// `(relation name/arity, ground rules with that head)`, largest first.
    pub relations: Vec<(String, usize)>,
    /// `(phase, milliseconds)`, in pipeline order.
    pub phases: Vec<(String, f64)>,
}

/// An engine the page can run playouts with.
#[derive(Debug, Serialize)]
pub struct Engine {
    pub name: &'static str,
    pub available: bool,
    pub note: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Capabilities {
    pub ground: bool,
    pub engines: Vec<Engine>,
    pub not_yet: &'static str,
}

pub fn capabilities() -> Capabilities {
    Capabilities {
        ground: false,
        engines: vec![
            Engine { name: "reasoner", available: true, note: "first-order, bottom-up" },
            Engine { name: "propositional", available: false, note: NOT_YET },
        ],
        not_yet: NOT_YET,
    }
}

/// The ground program of `text` in `syntax` (`prefix` or `infix`).
pub fn ground(_text: &str, _syntax: &str) -> Result<Ground, String> {
    Err(NOT_YET.to_string())
}
