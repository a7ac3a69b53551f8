//! Loading a game and reporting what goes wrong, for every command: reading the file,
//! validating the rules, building the chosen engine (as often as threads need one); and the
//! ways a command fails (exit 1: invalid game or failed check; exit 2: usage or unreadable
//! file), with diagnostics rendered as text on stderr or as JSON on stdout.

use crate::args::EngineArgs;
use crate::upgrade::Upgrader;
use anyhow::Context;
use gdl_core::ast::Description;
use gdl_core::diagnostic::{located, Diagnostic, LineIndex};
use gdl_core::engine::{Choice, Chosen, Engine};
use gdl_core::propnet::{Options as PropnetOptions, Propnet};
use gdl_core::reasoner::{Limits, Reasoner};
use serde::Serialize;
use serde_json::json;
use std::fmt::Display;
use std::path::Path;
use std::time::Instant;

/// Why a command failed: the game is invalid (exit 1) or the call is wrong (exit 2).
pub enum Failure {
    Invalid,
    Usage(anyhow::Error),
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure::Usage(e)
    }
}

/// What a command comes to.
pub type Outcome = Result<(), Failure>;

/// A wrong call: `message` is said on stderr, exit 2.
pub fn usage(message: impl Display) -> Failure {
    Failure::Usage(anyhow::anyhow!("{message}"))
}

/// The game failed at run time (a limit, an illegal move, a player that cannot play it):
/// said on stderr, exit 1.
pub fn invalid(why: impl Display) -> Failure {
    eprintln!("gdl: {why}");
    Failure::Invalid
}

/// A file's text. Invalid UTF-8 is replaced, not refused: the parser then points at the odd
/// characters.
pub fn read(file: &Path) -> anyhow::Result<String> {
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// `--path`: joint moves from the initial state.
pub fn path(text: &str) -> Result<Vec<Vec<String>>, Failure> {
    gdl_core::path::parse_path(text).map_err(|e| usage(format!("--path: {e}")))
}

/// One line of JSON on stdout.
pub fn print_json(value: &impl Serialize) {
    println!("{}", serde_json::to_string(value).expect("serialisable"));
}

/// Diagnostics as text on stderr, one a line: `file:line:column: severity[code]: message`.
pub fn print_diagnostics(file: &Path, text: &str, diags: &[Diagnostic]) {
    let idx = LineIndex::new(text);
    for d in diags {
        eprintln!("{}", idx.render(&file.display().to_string(), d));
    }
}

/// Diagnostics as JSON, with their places (`gdl_core::diagnostic::located`).
pub fn diagnostics_json(text: &str, diags: &[Diagnostic]) -> serde_json::Value {
    json!(located(text, diags))
}

/// Errors that make the game invalid: as JSON on stdout, or as text on stderr.
pub fn report(file: &Path, text: &str, diags: &[Diagnostic], json: bool) {
    if json {
        println!("{}", json!({"ok": false, "diagnostics": diagnostics_json(text, diags)}));
    } else {
        print_diagnostics(file, text, diags);
    }
}

/// Parses and validates a game; on errors prints them (text or JSON) and fails with `Invalid`.
/// Warnings are said on stderr (unless `json`).
pub fn validated(file: &Path, json: bool) -> Result<(String, Description), Failure> {
    let text = read(file)?;
    match gdl_core::validated(&text) {
        Ok(v) => {
            if !json {
                print_diagnostics(file, &text, &v.warnings);
            }
            Ok((text, v.description))
        }
        Err(diags) => {
            report(file, &text, &diags, json);
            Err(Failure::Invalid)
        }
    }
}

/// The engine of `--engine` on a valid game; which engine runs is said on stderr (unless
/// `json`).
pub fn engine(file: &Path, args: &EngineArgs, json: bool) -> Result<Engine, Failure> {
    Loader::new(file, args, json)?.engine(file, json)
}

/// A valid game and what it takes to build the chosen engine, as often as needed (one per
/// thread).
pub struct Loader {
    text: String,
    pub description: Description,
    choice: Choice,
    pub limits: Limits,
    options: PropnetOptions,
}

impl Loader {
    pub fn new(file: &Path, args: &EngineArgs, json: bool) -> Result<Loader, Failure> {
        let (text, description) = validated(file, json)?;
        let options = args.propnet_options();
        Ok(Loader { text, description, choice: args.engine, limits: args.limits.limits(), options })
    }

    /// One more engine, or the game's diagnostic.
    pub fn build(&self) -> Result<Chosen, Diagnostic> {
        let start = Instant::now();
        let now = || start.elapsed().as_secs_f64() * 1000.0;
        gdl_core::engine::build(self.choice, &self.description, self.limits, self.options, &now)
    }

    /// One more engine for another thread; the game's diagnostic as its message.
    pub fn build_engine(&self) -> Result<Engine, String> {
        self.build().map(|c| c.engine).map_err(|d| d.message)
    }

    /// The engine, its choice said on stderr (unless `json`), or the game's diagnostic.
    pub fn engine(&self, file: &Path, json: bool) -> Result<Engine, Failure> {
        self.chosen(file, json).map(|c| c.engine)
    }

    /// The engine with its note (said on stderr unless `json`), or the game's diagnostic.
    pub fn chosen(&self, file: &Path, json: bool) -> Result<Chosen, Failure> {
        match self.build() {
            Ok(chosen) => {
                if !json {
                    eprintln!("engine: {}", chosen.note);
                }
                Ok(chosen)
            }
            Err(d) => {
                report(file, &self.text, &[d], json);
                Err(Failure::Invalid)
            }
        }
    }

    /// The engine of a long run (`playout`, `bench`, `match`), its choice said on stderr (unless
    /// `json`), and what the run may move to (see `upgrade`): `auto` starts such a run on the
    /// reasoner when its grounding is still going once the reasoner has loaded
    /// (`gdl_core::engine::start`), and the run moves to the network when it is ready.
    pub fn long_run(&self, file: &Path, json: bool, after: f64) -> Result<(Engine, Upgrader), Failure> {
        let started = match self.choice {
            Choice::Auto => {
                let start = Instant::now();
                let now = || start.elapsed().as_secs_f64() * 1000.0;
                gdl_core::engine::start(&self.description, self.limits, self.options, &now)
            }
            _ => self.build().map(|chosen| (chosen, None)),
        };
        match started {
            Ok((chosen, grounding)) => {
                if !json {
                    eprintln!("engine: {}", chosen.note);
                }
                let upgrader =
                    Upgrader::new(&chosen, grounding, &self.description, self.limits, self.options, after, !json);
                Ok((chosen.engine, upgrader))
            }
            Err(d) => {
                report(file, &self.text, &[d], json);
                Err(Failure::Invalid)
            }
        }
    }

    /// What the other threads of a run whose first thread plays `first` build.
    pub fn others(&self, first: &Engine) -> Others<'_> {
        let network = match first {
            Engine::Propnet(p) if self.choice == Choice::Auto => Some((**p).clone()),
            _ => None,
        };
        Others { loader: self, network }
    }
}

/// The engines of a run's other threads: for `auto`, the engine it picked for the first (a
/// copy of the network, else the reasoner), not the choice made again; for the others, the
/// engine asked for.
pub struct Others<'a> {
    loader: &'a Loader,
    network: Option<Propnet>,
}

impl Others<'_> {
    pub fn build(&self) -> Result<Engine, String> {
        match (self.loader.choice, &self.network) {
            (Choice::Auto, Some(p)) => Ok(Engine::Propnet(Box::new(p.clone()))),
            (Choice::Auto, None) => Reasoner::new(&self.loader.description, self.loader.limits)
                .map(|r| Engine::Reasoner(Box::new(r)))
                .map_err(|d| d.message),
            _ => self.loader.build_engine(),
        }
    }
}
