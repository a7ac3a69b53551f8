//! The player catalogue: every kind of player the faces offer (random, mc, uct, perfect,
//! honest, remote), with the budgets each is offered with, its label in words ("MCTS, 1 s a
//! move"), what it refuses and why, the one parser of a list of players (ours and remote
//! addresses: [`entrants`]) and the time left of a budget ([`Spec::after`]). `gdl match`, the
//! page's seats and its Match tab all read it; the page receives it through wasm
//! (`playerCatalogue`).
//!
//! A refusal is decided here, in words a student understands: `mc`, `uct` and `perfect` read
//! the true state, so they refuse a game whose roles see only part of it (it defines `sees`);
//! `perfect` also refuses, on its first move, a game the solver cannot finish within its
//! limit (`perfect::DEFAULT_MILLIS`, `perfect::DEFAULT_NODES`), giving the size of the game tree as
//! *Best moves* does (`solve::tree_size`).

use super::perfect;
use super::spec::{Budget, Spec, NOTATION};
use crate::solve::thousands;
use serde::Serialize;

/// How a remote player is written in a list of players.
const REMOTE: &str = "http://host:port for a player answering the GGP protocol";

/// Budgets offered to `mc` and `uct`: a time answers on any game within it; a number of
/// playouts plays the same moves for the same seed.
const SEARCH_BUDGETS: [Budget; 9] = [
    Budget::Millis(500.0),
    Budget::Millis(1000.0),
    Budget::Millis(3000.0),
    Budget::Millis(10000.0),
    Budget::Playouts(100),
    Budget::Playouts(1000),
    Budget::Playouts(5000),
    Budget::Playouts(20000),
    Budget::Playouts(100000),
];

/// Budgets offered to the honest player, which searches one game per state it thinks possible.
const HONEST_BUDGETS: [Budget; 3] = [Budget::Playouts(100), Budget::Playouts(1000), Budget::Millis(1000.0)];

/// A seat's budget unless chosen: a time, so that it answers on any game.
const SEAT_BUDGET: Budget = Budget::Millis(1000.0);

/// The players a new match offers: deterministic for its seed.
const MATCH_PLAYERS: [Spec; 2] = [Spec::Uct(Budget::Playouts(1000)), Spec::Random];

/// Every kind of player, and what a face needs to offer them for a game.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Catalogue {
    pub kinds: Vec<PlayerKind>,
    /// The players a new match offers, one per side (`uct:1000`, `random`).
    pub matched: Vec<String>,
}

/// A kind of player.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct PlayerKind {
    /// Its name in the notation: `random`, `mc`, `uct`, `perfect`, `honest`, `remote`.
    pub name: &'static str,
    /// How menus name it: "MCTS", "remote player".
    pub label: &'static str,
    /// What it is for, where it is not for every game ("small games"), said after it where
    /// every kind is listed.
    pub note: Option<&'static str>,
    /// The players of this kind on offer, its budgets (one for a kind without a budget; none
    /// for `remote`, whose address the person gives).
    pub choices: Vec<PlayerChoice>,
    /// The choice a seat takes unless another is chosen (an index into `choices`).
    pub default: usize,
    /// Why it cannot play the game asked about; the faces then do not offer it.
    pub refused: Option<String>,
    /// Whether the faces offer it for the game: not refused, and (`honest`) where it differs
    /// from MCTS, in a game whose roles see only part of the state.
    pub offered: bool,
}

/// A player on offer.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct PlayerChoice {
    /// The player in the notation: `uct:1s`.
    pub spec: String,
    /// Its budget in the notation (`1s`), empty for a kind without one.
    pub budget: String,
    /// Its budget in words ("1 s a move"), empty for a kind without one.
    pub budget_label: String,
    /// The player in words: "MCTS, 1 s a move".
    pub label: String,
    /// The longest it thinks per move, in milliseconds (a budget in playouts: none).
    pub millis: Option<f64>,
}

/// The catalogue for a game whose roles see only part of the state (`hidden`: it defines
/// `sees`), or, with `None`, for no game in particular (nothing refused, everything offered).
pub fn catalogue(hidden: Option<bool>) -> Catalogue {
    let kind = |name: &'static str, label, note, specs: Vec<Spec>, default: usize| {
        let spec = specs.first().copied();
        let refused = hidden.zip(spec).and_then(|(h, s)| refusal(s, h));
        let offered = refused.is_none() && (name != "honest" || hidden != Some(false));
        let choices = specs.into_iter().map(choice).collect();
        PlayerKind { name, label, note, choices, default, refused, offered }
    };
    // A searching kind, its budgets on offer, a seat's budget chosen unless another is.
    let search = |name, label, note, f: fn(Budget) -> Spec, budgets: &[Budget]| {
        let default = budgets.iter().position(|&b| b == SEAT_BUDGET).expect("a seat's budget on offer");
        kind(name, label, note, budgets.iter().map(|&b| f(b)).collect(), default)
    };
    Catalogue {
        kinds: vec![
            kind("random", "random", None, vec![Spec::Random], 0),
            search("mc", "flat Monte Carlo", None, Spec::Flat, &SEARCH_BUDGETS),
            search("uct", "MCTS", None, Spec::Uct, &SEARCH_BUDGETS),
            kind("perfect", "perfect", Some("small games"), vec![Spec::Perfect], 0),
            search("honest", "honest", Some("games with percepts"), Spec::Honest, &HONEST_BUDGETS),
            PlayerKind {
                name: "remote",
                label: "remote player",
                note: None,
                choices: Vec::new(),
                default: 0,
                refused: None,
                offered: true,
            },
        ],
        matched: MATCH_PLAYERS.iter().map(Spec::to_string).collect(),
    }
}

fn choice(spec: Spec) -> PlayerChoice {
    PlayerChoice {
        spec: spec.to_string(),
        budget: spec.budget().map_or(String::new(), |b| b.to_string()),
        budget_label: spec.budget().map_or(String::new(), budget_label),
        label: spec.label(),
        millis: spec.millis(),
    }
}

/// Why `spec` cannot play a game whose roles see only part of the state (`hidden`), if it
/// cannot: it would read what they do not see.
pub fn refusal(spec: Spec, hidden: bool) -> Option<String> {
    let name = match spec {
        Spec::Flat(_) => "mc",
        Spec::Uct(_) => "uct",
        Spec::FactoredUct(_) => "fuct",
        Spec::Perfect => "the perfect player",
        Spec::Random | Spec::Honest(_) => return None,
    };
    hidden.then(|| reads_the_true_state(name))
}

/// Why a player named `player` that reads the true state cannot play a game with `sees`.
pub fn reads_the_true_state(player: &str) -> String {
    format!(
        "{player} reads the true state, which the roles of this game do not see (it defines 'sees'); in a game with \
         hidden information use honest (for example honest:1000)"
    )
}

/// A budget in words: "1 s a move", "0.5 s a move", "5,000 playouts a move", "1,000
/// playouts a move, at most 3 s".
pub fn budget_label(budget: Budget) -> String {
    let seconds = |ms: f64| format!("{} s", ms / 1000.0);
    match budget {
        Budget::Playouts(n) => format!("{} playouts a move", thousands(n)),
        Budget::Millis(ms) => format!("{} a move", seconds(ms)),
        Budget::Within(n, ms) => format!("{} playouts a move, at most {}", thousands(n), seconds(ms)),
    }
}

/// A player of a match: one of ours, one reached over HTTP at an address, or a student's
/// player written in the page (`my:NAME`), which the page reaches in its sandbox.
#[derive(Clone, Debug, PartialEq)]
pub enum Entrant {
    Local(Spec),
    Remote(String),
    Student(String),
}

/// How a list names a student's player written in the page: `my:NAME`.
const STUDENT: &str = "my:";

impl Entrant {
    /// How tallies and records name it: `uct:1000`, `http://127.0.0.1:9147`.
    pub fn name(&self) -> String {
        match self {
            Entrant::Local(spec) => spec.to_string(),
            Entrant::Remote(url) => url.clone(),
            Entrant::Student(name) => format!("{STUDENT}{name}"),
        }
    }

    /// Whether the protocol reaches it through the face (an address, or the page's sandbox).
    pub fn is_reached(&self) -> bool {
        !matches!(self, Entrant::Local(_))
    }

    /// How the faces name it in words: "MCTS, 1 s a move", "remote player at http://…".
    pub fn label(&self) -> String {
        match self {
            Entrant::Local(spec) => spec.label(),
            Entrant::Remote(url) => format!("remote player at {url}"),
            Entrant::Student(name) => format!("my player: {name}"),
        }
    }
}

/// Refuses a student's player in a list played outside the page (the command line).
pub fn outside_the_page(list: &[Entrant]) -> Result<(), String> {
    match list.iter().find(|e| matches!(e, Entrant::Student(_))) {
        Some(e) => Err(format!(
            "{} is a player written in the page: it plays there, or here once downloaded as a GGP player and given \
             by its address",
            e.name()
        )),
        None => Ok(()),
    }
}

/// The one reader of a list of players: specs of ours and `http://host:port` addresses,
/// separated by commas (`uct:1000,http://127.0.0.1:9147`).
pub fn entrants(text: &str) -> Result<Vec<Entrant>, String> {
    text.split(',').map(str::trim).enumerate().map(|(i, t)| entrant(i, t)).collect()
}

/// How a list of players is written (`gdl match --help`).
pub fn notation() -> String {
    format!("{NOTATION}, or {REMOTE}")
}

/// The players of a list that must all be ours (a match played without the protocol).
pub fn ours(text: &str) -> Result<Vec<Spec>, String> {
    entrants(text)?
        .into_iter()
        .map(|e| match e {
            Entrant::Local(spec) => Ok(spec),
            Entrant::Remote(url) => {
                Err(format!("{url} is a remote player: it plays only in a match refereed by the protocol (gdl match)"))
            }
            Entrant::Student(name) => {
                Err(format!("my:{name} is a student's player: it plays only in a match refereed by the protocol"))
            }
        })
        .collect()
}

/// Player number `i` (from 0) of a list, written `t`.
fn entrant(i: usize, t: &str) -> Result<Entrant, String> {
    match t.strip_prefix("http://") {
        Some(rest) if !rest.trim_end_matches('/').is_empty() => {
            Ok(Entrant::Remote(t.trim_end_matches('/').to_string()))
        }
        Some(_) => Err("'http://' needs a host and port, such as http://127.0.0.1:9147".to_string()),
        None if t.starts_with(STUDENT) => match &t[STUDENT.len()..] {
            "" => Err(format!("player number {}: 'my:' needs the name of a player written in the page", i + 1)),
            name => Ok(Entrant::Student(name.to_string())),
        },
        None if t.is_empty() => Err(format!(
            "player number {} is empty: separate players by single commas, each one of {}",
            i + 1,
            notation()
        )),
        None => Spec::parse(t).map(Entrant::Local).map_err(|e| match e.starts_with("unknown player") {
            true => format!("{e}, or {REMOTE}"),
            false => e,
        }),
    }
}

impl Spec {
    /// The player in words: "random", "perfect", "MCTS, 1 s a move", "flat Monte Carlo,
    /// 500 playouts a move", "honest, 1,000 playouts a move".
    pub fn label(self) -> String {
        match (self, self.budget()) {
            (Spec::Flat(_), Some(b)) => format!("flat Monte Carlo, {}", budget_label(b)),
            (Spec::Uct(_), Some(b)) => format!("MCTS, {}", budget_label(b)),
            (Spec::FactoredUct(_), Some(b)) => format!("factored MCTS, {}", budget_label(b)),
            (Spec::Honest(_), Some(b)) => format!("honest, {}", budget_label(b)),
            _ => self.to_string(),
        }
    }

    /// Its budget per move, for a kind that has one.
    pub fn budget(self) -> Option<Budget> {
        match self {
            Spec::Flat(b) | Spec::Uct(b) | Spec::FactoredUct(b) | Spec::Honest(b) => Some(b),
            Spec::Random | Spec::Perfect => None,
        }
    }

    /// The longest it thinks per move, in milliseconds (none for a budget in playouts, and
    /// for `random`, which chooses at once).
    pub fn millis(self) -> Option<f64> {
        match (self, self.budget()) {
            (Spec::Perfect, _) => Some(perfect::DEFAULT_MILLIS),
            (_, Some(Budget::Millis(ms) | Budget::Within(_, ms))) => Some(ms),
            _ => None,
        }
    }

    /// The player with what is left of its budget in time once `spent` milliseconds are gone
    /// (at least 1 ms: it still chooses a move); a budget in playouts is left as it is.
    pub fn after(self, spent: f64) -> Spec {
        let left = |ms: f64| (ms - spent.max(0.0)).round().max(1.0);
        let cut = |b: Budget| match b {
            Budget::Millis(ms) => Budget::Millis(left(ms)),
            Budget::Within(n, ms) => Budget::Within(n, left(ms)),
            b => b,
        };
        match self {
            Spec::Flat(b) => Spec::Flat(cut(b)),
            Spec::Uct(b) => Spec::Uct(cut(b)),
            Spec::FactoredUct(b) => Spec::FactoredUct(cut(b)),
            Spec::Honest(b) => Spec::Honest(cut(b)),
            Spec::Random | Spec::Perfect => self,
        }
    }
}
