//! The command line: every command and option `gdl` takes, as clap types. The options a run
//! of games shares (`playout`, `bench`, `match`) are one flattened set, `RunArgs`; those of
//! the engine (every command that plays) are `EngineArgs`.

use crate::measure::now_ms;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand, ValueEnum};
use gdl_core::analyze::Options as AnalyzeOptions;
use gdl_core::engine::Choice;
use gdl_core::ground::Options as GroundOptions;
use gdl_core::play::ENGINES;
use gdl_core::propnet::{Opt, Options as PropnetOptions, Strategy};
use gdl_core::reasoner::{Limits, TimeLimit};
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "gdl", version, about = "Parse, check, play and benchmark GDL games")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Check a game for errors and warnings.
    Check(CheckArgs),
    /// Roles, initial state and legal moves.
    Info(InfoArgs),
    /// Print a game in prefix or infix syntax.
    Fmt(FmtArgs),
    /// Random playouts, optionally written as a trace (JSON Lines).
    Playout(PlayoutArgs),
    /// Check a trace written by another reasoner against ours.
    Replay(ReplayArgs),
    /// Random playouts for a while: playouts per second, average length, outcomes.
    Bench(BenchArgs),
    /// Games between computer players of ours or GGP players at http://host:port (see
    /// --players): wins, draws, losses and mean score per player with 95% confidence intervals. Seats rotate between games; with more roles than players the list cycles.
    Match(MatchArgs),
    /// A tournament: every entrant against every other on each game, the seats rotated, each
    /// game refereed by the GGP protocol; the leaderboard per game and overall (points, wins,
    /// draws, losses with 95% intervals, a Bradley–Terry rating, faults). The record grows as
    /// games finish; --resume plays only the games it misses.
    Tournament(TournamentArgs),
    /// Serve GGP matches over HTTP (START, PLAY, STOP as GGP-Base and the Dresden
    /// GameController send them), one match at a time, with any player of `gdl match`.
    Player(PlayerArgs),
    /// Why an atom holds (the rule instance and the facts it uses) or does not (the first
    /// failing condition of each rule), in the position reached by a path of moves.
    Explain(ExplainArgs),
    /// The goal value each role can guarantee with each legal move (minimax), nodes per second.
    Solve(SolveArgs),
    /// Lines of play of each length up to --depth from the initial state, checked against the
    /// first-order reasoner when another engine computes them.
    Perft(PerftArgs),
    /// Game requirements: termination, playability, goals, weak and strong winnability, declared
    /// base/input; exact when the states fit --max-states, else random playouts ("not proven").
    Analyze(AnalyzeArgs),
    /// Instantiate the game's rules: print the ground program (or its statistics).
    Ground(GroundArgs),
}

#[derive(clap::Args)]
pub struct CheckArgs {
    pub file: PathBuf,
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct InfoArgs {
    pub file: PathBuf,
    #[arg(long)]
    pub json: bool,
    /// GDL-II: what this role knows after `--path`: its moves, its percepts, and its
    /// information set (the states it cannot tell from the true one).
    #[arg(long = "as", value_name = "ROLE")]
    pub as_role: Option<String>,
    /// The moves played, as `(mark 1 1), noop; noop, (mark 2 2)` (with `--as`).
    #[arg(long, default_value = "", requires = "as_role")]
    pub path: String,
    /// Most states of the information set computed exactly; beyond, a seeded sample of this
    /// many with an estimate of the size (with `--as`).
    #[arg(long, default_value_t = 1000, requires = "as_role")]
    pub limit: usize,
    /// Seed of the sample (with `--as`).
    #[arg(long, default_value_t = 1, requires = "as_role")]
    pub seed: u64,
    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(clap::Args)]
pub struct FmtArgs {
    pub file: PathBuf,
    #[arg(long, value_enum, default_value_t = Form::Prefix)]
    pub to: Form,
}

#[derive(clap::Args)]
pub struct PlayoutArgs {
    pub file: PathBuf,
    #[arg(long, default_value_t = 1)]
    pub count: usize,
    #[arg(long)]
    pub trace: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(clap::Args)]
pub struct ReplayArgs {
    pub file: PathBuf,
    pub trace: PathBuf,
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(clap::Args)]
pub struct BenchArgs {
    pub file: PathBuf,
    #[arg(long, default_value_t = 5.0)]
    pub seconds: f64,
    /// Threads running playouts, each on its own engine (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(clap::Args)]
pub struct MatchArgs {
    pub file: PathBuf,
    // The notation comes from the player catalogue, as the page's menus do.
    #[arg(long, help = format!("Players, comma-separated: {} (games then run one at a time, refereed on the clocks below)", gdl_core::players::catalogue::notation()))]
    pub players: String,
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Threads playing games at once (default: every core). With budgets in time, more
    /// threads than free cores give each player less thinking.
    #[arg(long)]
    pub threads: Option<usize>,
    #[arg(long)]
    pub json: bool,
    /// With a remote player (http://host:port in --players): seconds each player has to
    /// answer START.
    #[arg(long, default_value_t = 10.0)]
    pub start_clock: f64,
    /// With a remote player: seconds each player has per move; a late, missing or illegal
    /// move is replaced by a random legal one, and the record says why.
    #[arg(long, default_value_t = 3.0)]
    pub play_clock: f64,
    /// Write the record of every game (moves, time per move, percepts, faults, goals) as JSON to this
    /// file; the match is then refereed by the protocol, remote players or not.
    #[arg(long)]
    pub record: Option<PathBuf>,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(clap::Args)]
pub struct TournamentArgs {
    /// The games, one file or several.
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    // The notation is the player catalogue's, as for `gdl match --players`.
    #[arg(long, help = format!("Entrants, comma-separated: {}", gdl_core::players::catalogue::notation()))]
    pub entrants: String,
    /// How many times each seating of each pairing is played.
    #[arg(long, default_value_t = 1)]
    pub games_per_pairing: usize,
    /// Seeds the schedule and every game (game N replays alone from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (default: every core). With budgets in time, more threads than
    /// free cores give each player less thinking.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write the record (the schedule and every finished game: moves, goals, faults, seed) as
    /// JSON to this file, after every game.
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Write one line per finished game to this file, as CSV for a spreadsheet.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Resume the tournament of this record, playing only the games it misses; the record
    /// grows in this file unless --record names another.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Seconds each player has to answer START.
    #[arg(long, default_value_t = 10.0)]
    pub start_clock: f64,
    /// Seconds each player has per move; a late, missing or illegal move is replaced by a
    /// random legal one, and the record says why.
    #[arg(long, default_value_t = 3.0)]
    pub play_clock: f64,
    /// Most joint moves per game (a game cut there counts as a draw).
    #[arg(long, default_value_t = 1000)]
    pub max_steps: usize,
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(clap::Args)]
pub struct PlayerArgs {
    /// Port to listen on (0: any free port, said on stderr).
    #[arg(long, default_value_t = 9147)]
    pub port: u16,
    /// Address to listen on. The default answers this machine only; another address (such as
    /// 0.0.0.0) opens the player to the network.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    // The notation is the player catalogue's, as for `gdl match --players`.
    #[arg(long, default_value = "uct:2s", help = format!("The player: {}. It stops thinking before the play clock runs out, whatever its budget", gdl_core::players::spec::NOTATION))]
    pub player: String,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Milliseconds kept back from each clock for the reply to reach the referee (at most
    /// 40% of the play clock); raised when a move is measured to leave later than planned.
    #[arg(long, default_value_t = 1000.0)]
    pub margin: f64,
    /// Seconds a client may take to send a message; a slower one is answered 408.
    #[arg(long, default_value_t = 10.0)]
    pub read_timeout: f64,
    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(clap::Args)]
pub struct ExplainArgs {
    pub file: PathBuf,
    /// The atom to explain, e.g. '(legal x (mark 1 1))', 'terminal', '(next (cell 1 1 x))'.
    #[arg(long)]
    pub query: String,
    /// Joint moves from the initial state: ';' between joint moves, ',' between the moves of
    /// one (roles with a single legal move may be left out): '(mark 1 1); (mark 2 2)'.
    #[arg(long, default_value = "")]
    pub path: String,
    /// The position asked about (moves played); default: the end of the path, or its last
    /// move for relations that depend on moves (next).
    #[arg(long)]
    pub step: Option<usize>,
    /// How many levels of premises to explain.
    #[arg(long, default_value_t = 2)]
    pub depth: usize,
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
}

#[derive(clap::Args)]
pub struct SolveArgs {
    pub file: PathBuf,
    /// Joint moves to the position to solve (see `explain --path`).
    #[arg(long, default_value = "")]
    pub path: String,
    /// Most states expanded.
    #[arg(long, default_value_t = 10_000_000)]
    pub budget: u64,
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(clap::Args)]
pub struct PerftArgs {
    pub file: PathBuf,
    #[arg(long)]
    pub depth: usize,
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(clap::Args)]
pub struct AnalyzeArgs {
    pub file: PathBuf,
    #[arg(long, default_value_t = AnalyzeOptions::default().max_states)]
    pub max_states: usize,
    #[arg(long, default_value_t = AnalyzeOptions::default().playouts)]
    pub playouts: usize,
    #[arg(long, default_value_t = AnalyzeOptions::default().max_steps)]
    pub max_steps: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads sharing the random playouts of a game too big to search, each on its own
    /// engine (default: every core). The results depend on the seed and this number.
    #[arg(long)]
    pub threads: Option<usize>,
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub engine: EngineArgs,
}

impl AnalyzeArgs {
    pub fn options(&self) -> AnalyzeOptions {
        let AnalyzeArgs { max_states, playouts, max_steps, seed, .. } = *self;
        AnalyzeOptions { max_states, playouts, max_steps, seed }
    }
}

#[derive(clap::Args)]
pub struct GroundArgs {
    pub file: PathBuf,
    #[arg(long, value_enum, default_value_t = GroundFormat::Prefix)]
    pub format: GroundFormat,
    /// Print statistics (JSON) instead of the program.
    #[arg(long)]
    pub stats: bool,
    /// Compute base and input even when the game declares them.
    #[arg(long)]
    pub recompute_domains: bool,
    /// Most ground rules before giving up.
    #[arg(long, default_value_t = GroundOptions::default().max_rules)]
    pub max_rules: usize,
    #[command(flatten)]
    pub limits: LimitArgs,
}

impl GroundArgs {
    pub fn options(&self) -> GroundOptions {
        GroundOptions {
            recompute_domains: self.recompute_domains,
            max_rules: self.max_rules,
            limits: self.limits.limits(),
            ..GroundOptions::default()
        }
    }
}

/// What a run of games takes beside its length: `playout`, `bench` and `match` share it.
#[derive(clap::Args)]
pub struct RunArgs {
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Most joint moves per playout or game (a game of a match cut there counts as a draw).
    #[arg(long, default_value_t = 1000)]
    pub max_steps: usize,
    /// With auto on the reasoner because the game grounds past auto's bounds: seconds of
    /// play before the game is ground in the background with the grounder's own limits; the
    /// run's next playouts (or games) play on the network if it is measured faster, with the
    /// same results (players with budgets in playouts play the same games). `inf`: never.
    #[arg(long, default_value_t = 1.0)]
    pub upgrade_after: f64,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Which engine plays, and how.
#[derive(clap::Args)]
pub struct EngineArgs {
    /// Which engine plays the game (auto: propnet when the game grounds within limits,
    /// otherwise reasoner; the choice is printed on stderr).
    #[arg(long, default_value = ENGINES[0].name, value_parser = engine_parser())]
    pub engine: Choice,
    /// Propnet optimisations, comma-separated: frame (frame rules rewritten into what turns
    /// false), persist (permanent / persistent / ephemeral fluents), or none.
    #[arg(long, default_value = "frame,persist", value_parser = parse_opt)]
    pub opt: Opt,
    /// How the propnet evaluates: sweep, propagate, or measure (the faster on a short run).
    #[arg(long, value_enum, default_value_t = StrategyArg::Measure)]
    pub strategy: StrategyArg,
    #[command(flatten)]
    pub limits: LimitArgs,
}

impl EngineArgs {
    pub fn propnet_options(&self) -> PropnetOptions {
        let strategy = match self.strategy {
            StrategyArg::Sweep => Some(Strategy::Sweep),
            StrategyArg::Propagate => Some(Strategy::Propagate),
            StrategyArg::Measure => None,
        };
        PropnetOptions { opt: self.opt, strategy }
    }
}

/// `--engine`: a name from the catalogue of engines, each shown with its note.
fn engine_parser() -> impl TypedValueParser<Value = Choice> {
    let names = ENGINES.iter().map(|e| PossibleValue::new(e.name).help(e.note));
    PossibleValuesParser::new(names).map(|name| Choice::named(&name).expect("a name of the catalogue"))
}

fn parse_opt(text: &str) -> Result<Opt, String> {
    let mut opt = Opt::default();
    for word in text.split(',').map(str::trim) {
        match word {
            "frame" => opt.frame = true,
            "persist" => opt.persist = true,
            "none" | "" => {}
            _ => return Err(format!("unknown optimisation {word:?}: use frame, persist or none")),
        }
    }
    Ok(opt)
}

/// The reasoner's limits.
#[derive(clap::Args)]
pub struct LimitArgs {
    /// Deepest term a rule may build (stops ever-growing terms).
    #[arg(long, default_value_t = Limits::default().max_term_depth)]
    pub max_term_depth: u16,
    /// Most facts of one relation in one state.
    #[arg(long, default_value_t = Limits::default().max_facts)]
    pub max_facts: usize,
    /// Most facts the joins may look at to answer one query.
    #[arg(long, default_value_t = Limits::default().max_join_steps)]
    pub max_join_steps: u64,
    /// Most distinct terms the game may build (a limit on memory).
    #[arg(long, default_value_t = Limits::default().max_terms)]
    pub max_terms: usize,
    /// Most milliseconds one request (loading the game, one query) may take; no limit by default.
    #[arg(long)]
    pub max_millis: Option<f64>,
}

impl LimitArgs {
    pub fn limits(&self) -> Limits {
        Limits {
            max_term_depth: self.max_term_depth,
            max_facts: self.max_facts,
            max_join_steps: self.max_join_steps,
            max_terms: self.max_terms,
            time: self.max_millis.map(|millis| TimeLimit { millis, now: now_ms }),
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub enum StrategyArg {
    Sweep,
    Propagate,
    Measure,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Form {
    Prefix,
    Infix,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum GroundFormat {
    Prefix,
    Infix,
    Json,
}
