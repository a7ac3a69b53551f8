//! `gdl`: the command line of GDL Playground. A thin layer over `gdl-core`: reads files,
//! prints results (text or `--json`), sets exit codes: 0 ok, 1 invalid game or failed
//! check, 2 usage or unreadable file.

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};
use gdl_core::analyze::{self, Declared, Options as AnalyzeOptions, Outcome as AnalyzeOutcome};
use gdl_core::ast::Description;
use gdl_core::diagnostic::{Diagnostic, LineIndex};
use gdl_core::engine::{Choice, Engine as EngineMachine};
use gdl_core::explain::{Explainer, Explanation};
use gdl_core::ground::Options as GroundOptions;
use gdl_core::machine::playout::playout_rng;
use gdl_core::machine::{GoalValue, RuntimeError, StateMachine};
use gdl_core::parse::{parse, Syntax};
use gdl_core::propnet::{Opt, Options as PropnetOptions, Strategy};
use gdl_core::reasoner::{Limits, TimeLimit};
use gdl_core::rng::Rng;
use gdl_core::trace::{record_playout, replay, Playout};
use serde_json::json;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

mod matches;
mod parallel;
mod upgrade;

#[derive(Parser)]
#[command(name = "gdl", version, about = "Parse, check, play and benchmark GDL games")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args)]
struct LimitArgs {
    /// Deepest term a rule may build (stops ever-growing terms).
    #[arg(long, default_value_t = Limits::default().max_term_depth)]
    max_term_depth: u16,
    /// Most facts of one relation in one state.
    #[arg(long, default_value_t = Limits::default().max_facts)]
    max_facts: usize,
    /// Most facts the joins may look at to answer one query.
    #[arg(long, default_value_t = Limits::default().max_join_steps)]
    max_join_steps: u64,
    /// Most distinct terms the game may build (a limit on memory).
    #[arg(long, default_value_t = Limits::default().max_terms)]
    max_terms: usize,
    /// Most milliseconds one request (loading the game, one query) may take; no limit by default.
    #[arg(long)]
    max_millis: Option<f64>,
}

/// Milliseconds since the first call: the clock of `--max-millis`.
fn now_ms() -> f64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e3
}

impl LimitArgs {
    fn limits(&self) -> Limits {
        Limits {
            max_term_depth: self.max_term_depth,
            max_facts: self.max_facts,
            max_join_steps: self.max_join_steps,
            max_terms: self.max_terms,
            time: self.max_millis.map(|millis| TimeLimit { millis, now: now_ms }),
        }
    }
}

#[derive(clap::Args)]
struct UpgradeArgs {
    /// With auto on the reasoner because the game grounds past auto's bounds: seconds of
    /// play before the game is ground in the background with the grounder's own limits; the
    /// run's next playouts (or games) play on the network if it is measured faster, with the
    /// same results (players with budgets in playouts play the same games). `inf`: never.
    #[arg(long, default_value_t = 1.0)]
    upgrade_after: f64,
}

#[derive(clap::Args)]
struct EngineArgs {
    /// Which engine plays the game (auto: propnet when the game grounds within limits,
    /// otherwise reasoner; the choice is printed on stderr).
    #[arg(long, value_enum, default_value_t = Engine::Auto)]
    engine: Engine,
    /// Propnet optimisations, comma-separated: frame (frame rules rewritten into what turns
    /// false), persist (permanent / persistent / ephemeral fluents), or none.
    #[arg(long, default_value = "frame,persist", value_parser = parse_opt)]
    opt: Opt,
    /// How the propnet evaluates: sweep, propagate, or measure (the faster on a short run).
    #[arg(long, value_enum, default_value_t = StrategyArg::Measure)]
    strategy: StrategyArg,
    #[command(flatten)]
    limits: LimitArgs,
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

#[derive(Clone, Copy, ValueEnum)]
enum StrategyArg {
    Sweep,
    Propagate,
    Measure,
}

#[derive(Subcommand)]
enum Command {
    /// Check a game for errors and warnings.
    Check {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Roles, initial state and legal moves.
    Info {
        file: PathBuf,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Print a game in prefix or infix syntax.
    Fmt {
        file: PathBuf,
        #[arg(long, value_enum, default_value_t = Form::Prefix)]
        to: Form,
    },
    /// Random playouts, optionally written as a trace (JSON Lines).
    Playout {
        file: PathBuf,
        #[arg(long, default_value_t = 1)]
        count: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 1000)]
        max_steps: usize,
        #[arg(long)]
        trace: Option<PathBuf>,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        engine: EngineArgs,
        #[command(flatten)]
        upgrade: UpgradeArgs,
    },
    /// Check a trace written by another reasoner against ours.
    Replay {
        file: PathBuf,
        trace: PathBuf,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Random playouts for a while: playouts per second, average length, outcomes.
    Bench {
        file: PathBuf,
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 1000)]
        max_steps: usize,
        /// Threads running playouts, each on its own engine (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        engine: EngineArgs,
        #[command(flatten)]
        upgrade: UpgradeArgs,
    },
    /// Games between computer players (random, mc:N, uct:N, uct:1s, perfect): wins, draws,
    /// losses and mean score per player with 95% confidence intervals. Seats rotate between
    /// games; with more roles than players the list cycles.
    Match {
        file: PathBuf,
        /// Players, comma-separated: random, mc:PLAYOUTS, uct:PLAYOUTS, uct:2s, uct:500ms, perfect.
        #[arg(long)]
        players: String,
        #[arg(long, default_value_t = 10)]
        games: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Most joint moves per game; a game cut there counts as a draw.
        #[arg(long, default_value_t = 1000)]
        max_steps: usize,
        /// Threads playing games at once (default: every core). With budgets in time, more
        /// threads than free cores give each player less thinking.
        #[arg(long)]
        threads: Option<usize>,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        engine: EngineArgs,
        #[command(flatten)]
        upgrade: UpgradeArgs,
    },
    /// Why an atom holds (the rule instance and the facts it uses) or does not (the first
    /// failing condition of each rule), in the position reached by a path of moves.
    Explain {
        file: PathBuf,
        /// The atom to explain, e.g. '(legal x (mark 1 1))', 'terminal', '(next (cell 1 1 x))'.
        #[arg(long)]
        query: String,
        /// Joint moves from the initial state: ';' between joint moves, ',' between the moves of
        /// one (roles with a single legal move may be left out): '(mark 1 1); (mark 2 2)'.
        #[arg(long, default_value = "")]
        path: String,
        /// The position asked about (moves played); default: the end of the path, or its last
        /// move for relations that depend on moves (next).
        #[arg(long)]
        step: Option<usize>,
        /// How many levels of premises to explain.
        #[arg(long, default_value_t = 2)]
        depth: usize,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// The goal value each role can guarantee with each legal move (minimax), nodes per second.
    Solve {
        file: PathBuf,
        /// Joint moves to the position to solve (see `explain --path`).
        #[arg(long, default_value = "")]
        path: String,
        /// Most states expanded.
        #[arg(long, default_value_t = 10_000_000)]
        budget: u64,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Lines of play of each length up to --depth from the initial state, checked against the
    /// first-order reasoner when another engine computes them.
    Perft {
        file: PathBuf,
        #[arg(long)]
        depth: usize,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Game requirements: termination, playability, goals, weak and strong winnability, declared
    /// base/input; exact when the states fit --max-states, else random playouts ("not proven").
    Analyze {
        file: PathBuf,
        #[arg(long, default_value_t = AnalyzeOptions::default().max_states)]
        max_states: usize,
        #[arg(long, default_value_t = AnalyzeOptions::default().playouts)]
        playouts: usize,
        #[arg(long, default_value_t = AnalyzeOptions::default().max_steps)]
        max_steps: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads sharing the random playouts of a game too big to search, each on its own
        /// engine (default: every core). The results depend on the seed and this number.
        #[arg(long)]
        threads: Option<usize>,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Instantiate the game's rules: print the ground program (or its statistics).
    Ground {
        file: PathBuf,
        #[arg(long, value_enum, default_value_t = GroundFormat::Prefix)]
        format: GroundFormat,
        /// Print statistics (JSON) instead of the program.
        #[arg(long)]
        stats: bool,
        /// Compute base and input even when the game declares them.
        #[arg(long)]
        recompute_domains: bool,
        /// Most ground rules before giving up.
        #[arg(long, default_value_t = GroundOptions::default().max_rules)]
        max_rules: usize,
        #[command(flatten)]
        limits: LimitArgs,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum GroundFormat {
    Prefix,
    Infix,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum Form {
    Prefix,
    Infix,
}

#[derive(Clone, Copy, ValueEnum)]
enum Engine {
    /// The propositional network when the game grounds within limits, else the reasoner.
    Auto,
    /// The first-order reasoner on the rules as written.
    Reasoner,
    /// The same reasoner on the ground program (see `gdl ground`).
    Ground,
    /// The propositional network compiled from the ground program.
    Propnet,
}

/// Why a command failed: the game is invalid (exit 1) or the call is wrong (exit 2).
enum Failure {
    Invalid,
    Usage(anyhow::Error),
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure::Usage(e)
    }
}

type Outcome = Result<(), Failure>;

fn main() -> ExitCode {
    // Behave like other command-line tools when the output pipe closes (`gdl ... | head`).
    #[cfg(unix)]
    // SAFETY: called first thing, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { file, json } => check(&file, json),
        Command::Info { file, json, engine } => info(&file, json, &engine),
        Command::Fmt { file, to } => fmt(&file, to),
        Command::Playout { file, count, seed, max_steps, trace, json, engine, upgrade } => {
            playout(&file, count, seed, max_steps, trace.as_deref(), json, &engine, upgrade.upgrade_after)
        }
        Command::Replay { file, trace, json, engine } => replay_cmd(&file, &trace, json, &engine),
        Command::Bench { file, seconds, seed, max_steps, threads, json, engine, upgrade } => {
            bench(&file, seconds, seed, max_steps, threads, json, &engine, upgrade.upgrade_after)
        }
        Command::Match { file, players, games, seed, max_steps, threads, json, engine, upgrade } => {
            match_cmd(&file, &players, games, seed, max_steps, threads, json, &engine, upgrade.upgrade_after)
        }
        Command::Solve { file, path, budget, json, engine } => solve_cmd(&file, &path, budget, json, &engine),
        Command::Perft { file, depth, json, engine } => perft_cmd(&file, depth, json, &engine),
        Command::Analyze { file, max_states, playouts, max_steps, seed, threads, json, engine } => {
            let options = AnalyzeOptions { max_states, playouts, max_steps, seed };
            analyze_cmd(&file, options, threads, json, &engine)
        }
        Command::Explain { file, query, path, step, depth, json, limits } => {
            explain(&file, &query, &path, step, depth, json, limits.limits())
        }
        Command::Ground { file, format, stats, recompute_domains, max_rules, limits } => {
            let options =
                GroundOptions { recompute_domains, max_rules, limits: limits.limits(), ..GroundOptions::default() };
            ground_cmd(&file, format, stats, options)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Invalid) => ExitCode::from(1),
        Err(Failure::Usage(e)) => {
            eprintln!("gdl: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn read(file: &Path) -> anyhow::Result<String> {
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    // Invalid UTF-8 is replaced, not refused: the parser then points at the odd characters.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn print_diagnostics(file: &Path, text: &str, diags: &[Diagnostic]) {
    let idx = LineIndex::new(text);
    for d in diags {
        eprintln!("{}", idx.render(&file.display().to_string(), d));
    }
}

fn diagnostics_json(text: &str, diags: &[Diagnostic]) -> serde_json::Value {
    let idx = LineIndex::new(text);
    diags
        .iter()
        .map(|d| {
            let (line, column) = idx.line_col(d.span.start);
            let (end_line, end_column) = idx.line_col(d.span.end);
            json!({"severity": d.severity, "code": d.code, "message": d.message,
                   "line": line, "column": column, "end_line": end_line, "end_column": end_column,
                   "start": d.span.start, "end": d.span.end})
        })
        .collect()
}

/// Parses and validates a game; on errors prints them (text or JSON) and fails with `Invalid`.
fn validated(file: &Path, json: bool) -> Result<(String, Description), Failure> {
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

fn report(file: &Path, text: &str, diags: &[Diagnostic], json: bool) {
    if json {
        println!("{}", json!({"ok": false, "diagnostics": diagnostics_json(text, diags)}));
    } else {
        print_diagnostics(file, text, diags);
    }
}

/// Loads a game into the chosen engine; says on stderr which engine runs (unless `json`).
/// What it takes to build the chosen engine, as often as needed (one per thread).
struct Loader {
    text: String,
    description: Description,
    choice: Choice,
    limits: Limits,
    options: PropnetOptions,
}

impl Loader {
    fn new(file: &Path, args: &EngineArgs, json: bool) -> Result<Loader, Failure> {
        let (text, description) = validated(file, json)?;
        let choice = match args.engine {
            Engine::Auto => Choice::Auto,
            Engine::Reasoner => Choice::Reasoner,
            Engine::Ground => Choice::Ground,
            Engine::Propnet => Choice::Propnet,
        };
        let strategy = match args.strategy {
            StrategyArg::Sweep => Some(Strategy::Sweep),
            StrategyArg::Propagate => Some(Strategy::Propagate),
            StrategyArg::Measure => None,
        };
        let options = PropnetOptions { opt: args.opt, strategy };
        Ok(Loader { text, description, choice, limits: args.limits.limits(), options })
    }

    fn build(&self) -> Result<gdl_core::engine::Chosen, Diagnostic> {
        let start = Instant::now();
        let now = || start.elapsed().as_secs_f64() * 1000.0;
        gdl_core::engine::build(self.choice, &self.description, self.limits, self.options, &now)
    }

    /// The engine, its choice said on stderr (unless `json`), or the game's diagnostic.
    fn engine(&self, file: &Path, json: bool) -> Result<EngineMachine, Failure> {
        self.chosen(file, json).map(|c| c.engine)
    }

    /// The engine with its note (said on stderr unless `json`), or the game's diagnostic.
    fn chosen(&self, file: &Path, json: bool) -> Result<gdl_core::engine::Chosen, Failure> {
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

    /// What a run on `chosen` may move to (see `upgrade`), said on stderr unless `json`.
    fn upgrader(&self, chosen: &gdl_core::engine::Chosen, after: f64, json: bool) -> upgrade::Upgrader {
        upgrade::Upgrader::new(chosen, &self.description, self.limits, self.options, after, !json)
    }
}

fn load_engine(file: &Path, args: &EngineArgs, json: bool) -> Result<EngineMachine, Failure> {
    Loader::new(file, args, json)?.engine(file, json)
}

fn runtime(e: gdl_core::machine::RuntimeError) -> Failure {
    eprintln!("gdl: {e}");
    Failure::Invalid
}

fn check(file: &Path, json: bool) -> Outcome {
    let text = read(file)?;
    let diags = gdl_core::check(&text);
    let errors = diags.iter().filter(|d| d.is_error()).count();
    if json {
        println!("{}", json!({"ok": errors == 0, "diagnostics": diagnostics_json(&text, &diags)}));
    } else {
        print_diagnostics(file, &text, &diags);
        let warnings = diags.len() - errors;
        eprintln!("{}: {errors} error(s), {warnings} warning(s)", file.display());
    }
    if errors == 0 {
        Ok(())
    } else {
        Err(Failure::Invalid)
    }
}

fn info(file: &Path, json: bool, engine: &EngineArgs) -> Outcome {
    let mut m = load_engine(file, engine, json)?;
    let s = m.initial_state();
    let terminal = m.is_terminal(&s).map_err(runtime)?;
    let roles = m.roles().to_vec();
    let mut legal = serde_json::Map::new();
    let mut goals = serde_json::Map::new();
    for (r, role) in roles.iter().enumerate() {
        if terminal {
            goals.insert(role.clone(), json!(m.goals(&s).map_err(runtime)?[r]));
        } else {
            let moves: Vec<String> = m.legal_moves(&s, r).map_err(runtime)?.iter().map(|&x| m.move_text(x)).collect();
            legal.insert(role.clone(), json!(moves));
        }
    }
    let init = m.state_text(&s);
    if json {
        let mut out = json!({"roles": roles, "init": init, "terminal": terminal});
        out[if terminal { "goals" } else { "legal" }] = json!(if terminal { goals } else { legal });
        println!("{out}");
    } else {
        println!("roles: {}", roles.join(" "));
        println!("initial state ({} fluents):", init.len());
        for f in &init {
            println!("  {f}");
        }
        if terminal {
            println!("the initial state is terminal; goals: {}", serde_json::Value::Object(goals));
        }
        for (role, moves) in &legal {
            let moves: Vec<&str> = moves.as_array().into_iter().flatten().filter_map(|m| m.as_str()).collect();
            println!("legal for {role} ({}): {}", moves.len(), moves.join(" "));
        }
    }
    Ok(())
}

fn fmt(file: &Path, to: Form) -> Outcome {
    let text = read(file)?;
    let parsed = parse(&text);
    if parsed.diagnostics.iter().any(Diagnostic::is_error) {
        print_diagnostics(file, &text, &parsed.diagnostics);
        return Err(Failure::Invalid);
    }
    let syntax = match to {
        Form::Prefix => Syntax::Prefix,
        Form::Infix => Syntax::Infix,
    };
    print!("{}", gdl_core::print::print(&parsed.description, syntax));
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn playout(
    file: &Path,
    count: usize,
    seed: u64,
    max_steps: usize,
    trace: Option<&Path>,
    json: bool,
    engine: &EngineArgs,
    upgrade_after: f64,
) -> Outcome {
    let loader = Loader::new(file, engine, json)?;
    let chosen = loader.chosen(file, json)?;
    let upgrader = loader.upgrader(&chosen, upgrade_after, json);
    let (mut m, mut switch, start) = (chosen.engine, upgrader.thread(), Instant::now());
    let mut out = match trace {
        Some(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?,
        )),
        None => None,
    };
    let mut rng = Rng::new(seed);
    let mut summary = Vec::new();
    for _ in 0..count {
        switch.poll(&mut m, start.elapsed().as_secs_f64());
        let p = record_playout(&mut m, &mut playout_rng(&mut rng), max_steps).map_err(runtime)?;
        if let Some(w) = out.as_mut() {
            serde_json::to_writer(&mut *w, &p).context("writing the trace")?;
            writeln!(w).context("writing the trace")?;
        }
        let last = p.steps.last().expect("a playout has a step");
        let mut line = json!({"length": p.steps.len() - 1, "terminal": last.terminal, "goals": last.goals});
        if let Some(role) = p.stuck() {
            let what = format!("playout {}", summary.len() + 1);
            eprintln!("warning: {}", gdl_core::trace::stuck_message(&what, role));
            line["stuck"] = json!(role);
        }
        summary.push(line);
    }
    if let Some(mut w) = out {
        w.flush().context("writing the trace")?;
    }
    if json {
        println!("{}", json!({"playouts": summary}));
    } else {
        for (i, s) in summary.iter().enumerate() {
            println!("playout {}: {s}", i + 1);
        }
    }
    Ok(())
}

fn replay_cmd(file: &Path, trace: &Path, json: bool, engine: &EngineArgs) -> Outcome {
    let mut m = load_engine(file, engine, json)?;
    let f = std::fs::File::open(trace).with_context(|| format!("cannot read {}", trace.display()))?;
    let (mut passed, mut failed) = (0, 0);
    let mut results = Vec::new();
    for (i, line) in std::io::BufReader::new(f).lines().enumerate() {
        let line = line.context("reading the trace")?;
        if line.trim().is_empty() {
            continue;
        }
        let p: Playout =
            serde_json::from_str(&line).with_context(|| format!("line {} of the trace is not a playout", i + 1))?;
        let verdict = match replay(&mut m, &p) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(mismatch)) => Err(format!("FAIL {mismatch}")),
            // Not a disagreement: our engine stopped (a limit), so nothing was compared.
            Err(e) => Err(format!("ERROR the engine stopped: {e}")),
        };
        match &verdict {
            Ok(()) => passed += 1,
            Err(_) => failed += 1,
        }
        if !json {
            match &verdict {
                Ok(()) => println!("playout {}: ok", i + 1),
                Err(e) => println!("playout {}: {e}", i + 1),
            }
        }
        results.push(json!({"playout": i + 1, "ok": verdict.is_ok(), "detail": verdict.err()}));
    }
    if json {
        println!("{}", json!({"passed": passed, "failed": failed, "playouts": results}));
    } else {
        println!("{passed} passed, {failed} failed");
    }
    if failed == 0 {
        Ok(())
    } else {
        Err(Failure::Invalid)
    }
}

/// What one thread's random playouts came to.
#[derive(Default)]
struct Counts {
    playouts: u64,
    moves: u64,
    /// Playouts cut at the step limit.
    cut: u64,
    /// Playouts stopped where a role had no legal move, and the first such role.
    stuck: u64,
    stuck_role: Option<usize>,
    /// Goal values of every role, and how many playouts ended with them (few: a list).
    outcomes: Vec<(Vec<Vec<GoalValue>>, u64)>,
}

impl Counts {
    fn add(&mut self, goals: &[Vec<GoalValue>], n: u64) {
        match self.outcomes.iter_mut().find(|(x, _)| x == goals) {
            Some((_, k)) => *k += n,
            None => self.outcomes.push((goals.to_vec(), n)),
        }
    }
}

/// Random playouts on `m` for `seconds` (at least one), moving to a network when `switch`
/// has one.
fn bench_playouts(
    m: &mut EngineMachine,
    seed: u64,
    seconds: f64,
    max_steps: usize,
    switch: &mut upgrade::Switch,
) -> Result<Counts, String> {
    let mut rng = Rng::new(seed);
    let mut c = Counts::default();
    let start = Instant::now();
    // Batches grow while they take under a tenth of the time (engines may run a batch's
    // playouts several at a time).
    let mut batch = 1;
    while c.playouts == 0 || start.elapsed().as_secs_f64() < seconds {
        switch.poll(m, start.elapsed().as_secs_f64());
        let begun = Instant::now();
        m.playouts(&mut rng, batch, max_steps, &mut |_, o| {
            c.playouts += 1;
            c.moves += o.length as u64;
            match (&o.goals, o.stuck) {
                (Some(g), _) => c.add(g, 1),
                (None, None) => c.cut += 1,
                (None, Some(r)) => {
                    c.stuck += 1;
                    c.stuck_role.get_or_insert(r);
                }
            }
        })
        .map_err(|e| e.message)?;
        if begun.elapsed().as_secs_f64() < seconds / 10.0 {
            batch = (batch * 2).min(1 << 16);
        }
    }
    Ok(c)
}

/// Random playouts for `seconds` on `threads` threads: thread `t` runs the series seeded
/// `seed + t` on its own engine.
#[allow(clippy::too_many_arguments)]
fn bench(
    file: &Path,
    seconds: f64,
    seed: u64,
    max_steps: usize,
    threads: Option<usize>,
    json: bool,
    engine: &EngineArgs,
    upgrade_after: f64,
) -> Outcome {
    let threads = threads_arg(threads)?;
    let loader = Loader::new(file, engine, json)?;
    let loading = Instant::now();
    let chosen = loader.chosen(file, json)?;
    let load_ms = loading.elapsed().as_secs_f64() * 1000.0;
    let upgrader = loader.upgrader(&chosen, upgrade_after, json);
    let mut m = chosen.engine;
    let roles = m.roles().to_vec();
    let build = || loader.build().map(|c| c.engine).map_err(|d| d.message);
    // The clocks start when every thread has its engine: the first thread to start reads them.
    let started = std::sync::OnceLock::new();
    let work = |t: usize, m: &mut EngineMachine| {
        started.get_or_init(|| (Instant::now(), cpu_seconds()));
        bench_playouts(m, seed.wrapping_add(t as u64), seconds, max_steps, &mut upgrader.thread())
    };
    let per_thread =
        parallel::each_thread(threads, &mut m, &build, &work).map_err(|e| runtime(RuntimeError::new(e)))?;
    let (start, cpu_start) = *started.get().expect("thread 0 always works");
    let mut total = Counts::default();
    for c in per_thread {
        (total.playouts, total.moves, total.cut, total.stuck) =
            (total.playouts + c.playouts, total.moves + c.moves, total.cut + c.cut, total.stuck + c.stuck);
        total.stuck_role = total.stuck_role.or(c.stuck_role);
        for (goals, n) in &c.outcomes {
            total.add(goals, *n);
        }
    }
    let Counts { playouts, moves, cut, stuck, stuck_role, mut outcomes } = total;
    let stuck_note = stuck_role.map(|r| {
        let what = if stuck == 1 { "1 playout".to_string() } else { format!("{stuck} playouts") };
        gdl_core::trace::stuck_message(&what, &roles[r])
    });
    let elapsed = start.elapsed().as_secs_f64();
    outcomes.sort();
    let cpu = cpu_seconds().map(|c| c - cpu_start.unwrap_or(0.0));
    let rate = playouts as f64 / elapsed;
    let avg = moves as f64 / playouts as f64;
    if json {
        let outcomes: serde_json::Map<String, serde_json::Value> =
            outcomes.iter().map(|(k, v)| (json!(k).to_string(), json!(v))).collect();
        println!(
            "{}",
            json!({"game": file.display().to_string(), "engine": m.engine_name(), "threads": threads, "playouts": playouts,
                   "seconds": elapsed, "cpu_seconds": cpu, "playouts_per_sec": rate,
                   "playouts_per_cpu_sec": cpu.map(|c| playouts as f64 / c), "avg_length": avg, "cut": cut,
                   "stuck": stuck, "stuck_note": stuck_note, "roles": roles, "outcomes": outcomes, "load_ms": load_ms, "upgraded_after_seconds": upgrader.moved_at(), "upgrade": upgrader.outcome(), "network": m.propnet_stats(),
                   "programs_loaded": m.programs_loaded()})
        );
    } else {
        let moved = upgrader.moved_at().map_or(String::new(), |t| format!(" (reasoner until {t:.2} s)"));
        println!(
            "{}: engine {}{moved}, {threads} threads, {playouts} playouts in {elapsed:.2} s",
            file.display(),
            m.engine_name()
        );
        println!("  {rate:.1} playouts/s, average length {avg:.1} joint moves, {cut} cut at {max_steps}");
        if let Some(note) = &stuck_note {
            println!("  warning: {note}");
        }
        println!("  outcomes (goals per role {}):", roles.join(", "));
        for (k, v) in outcomes {
            println!("    {}: {v}", json!(k));
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn match_cmd(
    file: &Path,
    players: &str,
    games: usize,
    seed: u64,
    max_steps: usize,
    threads: Option<usize>,
    json: bool,
    engine: &EngineArgs,
    upgrade_after: f64,
) -> Outcome {
    let specs = matches::parse_players(players).map_err(|e| Failure::Usage(anyhow::anyhow!("--players: {e}")))?;
    let threads = threads_arg(threads)?.min(games.max(1));
    let loader = Loader::new(file, engine, json)?;
    let chosen = loader.chosen(file, json)?;
    let upgrader = loader.upgrader(&chosen, upgrade_after, json);
    let mut m = chosen.engine;
    let roles = m.roles().to_vec();
    let setup = matches::Setup { specs, games, seed, max_steps, threads };
    let start = Instant::now();
    let build = || loader.build().map(|c| c.engine).map_err(|d| d.message);
    let progress = |done: usize| {
        if !json && std::io::stderr().is_terminal() {
            eprint!("\rgame {done}/{games}");
        }
    };
    let played =
        matches::play(&setup, &mut m, &build, &upgrader, &progress).map_err(|e| runtime(RuntimeError::new(e)))?;
    let seconds = start.elapsed().as_secs_f64();
    let tallies = gdl_core::players::arena::tally(&setup.specs, &played);
    if json {
        println!(
            "{}",
            json!({"game": file.display().to_string(), "engine": m.engine_name(), "roles": roles,
                   "threads": threads, "seconds": seconds, "players": tallies, "games": played})
        );
    } else {
        if std::io::stderr().is_terminal() {
            eprintln!();
        }
        let names: Vec<String> = setup.specs.iter().map(|s| s.to_string()).collect();
        println!(
            "{}: {games} games, {}, engine {}, {threads} threads, {seconds:.1} s",
            file.display(),
            names.join(" vs "),
            m.engine_name()
        );
        matches::print(&roles, &tallies);
    }
    Ok(())
}

/// `--threads`: at least one; every core when not given.
fn threads_arg(threads: Option<usize>) -> Result<usize, Failure> {
    match threads {
        Some(0) => Err(Failure::Usage(anyhow::anyhow!("--threads must be at least 1"))),
        Some(t) => Ok(t),
        None => Ok(parallel::all_cores()),
    }
}

fn explain(
    file: &Path,
    query: &str,
    path: &str,
    step: Option<usize>,
    depth: usize,
    json: bool,
    limits: Limits,
) -> Outcome {
    let (text, description) = validated(file, json)?;
    let path = gdl_core::path::parse_path(path).map_err(|e| Failure::Usage(anyhow::anyhow!("--path: {e}")))?;
    let mut explainer = Explainer::new(&description, &text, limits, &path).map_err(|e| {
        eprintln!("gdl: {e}");
        Failure::Invalid
    })?;
    let tree = explainer.tree(query, step, depth).map_err(|e| Failure::Usage(anyhow::anyhow!(e)))?;
    if json {
        println!("{}", serde_json::to_string(&tree).expect("serialisable"));
    } else {
        print_explanation(&tree, 0);
    }
    Ok(())
}

fn print_explanation(e: &Explanation, indent: usize) {
    let pad = "  ".repeat(indent);
    let at = match (e.in_move, e.step) {
        (true, k) => format!("in move {}", k + 1),
        (false, 0) => "initially".to_string(),
        (false, k) => format!("after move {k}"),
    };
    println!("{pad}{} [{at}]", e.summary);
    for d in &e.derivations {
        let source = if d.line > 0 { format!("rule on line {}", d.line) } else { "by definition".to_string() };
        println!("{pad}  {source}: {}", d.rule);
        if d.line > 0 {
            println!("{pad}    instance: {}", d.instance);
        }
        for (i, p) in d.premises.iter().enumerate() {
            let mark = if p.holds { "✓" } else { "✗" };
            let fails = if d.failed == Some(i) { "   <- fails" } else { "" };
            println!("{pad}    {mark} {}{fails}", p.literal);
            if let Some(detail) = &p.detail {
                print_explanation(detail, indent + 3);
            }
        }
        if let Some(note) = &d.note {
            println!("{pad}    ({note})");
        }
    }
}

fn read_path(path: &str) -> Result<Vec<Vec<String>>, Failure> {
    gdl_core::path::parse_path(path).map_err(|e| Failure::Usage(anyhow::anyhow!("--path: {e}")))
}

fn solve_cmd(file: &Path, path: &str, budget: u64, json: bool, engine: &EngineArgs) -> Outcome {
    let path = read_path(path)?;
    let mut m = load_engine(file, engine, json)?;
    let (states, _) = gdl_core::path::play(&mut m, &path).map_err(runtime)?;
    let start = Instant::now();
    let solution = gdl_core::solve::solve(&mut m, states.last().expect("initial state"), budget).map_err(runtime)?;
    let seconds = start.elapsed().as_secs_f64();
    let rate = solution.nodes as f64 / seconds.max(1e-9);
    if json {
        let mut v = serde_json::to_value(&solution).expect("serialisable");
        v["seconds"] = json!(seconds);
        v["nodes_per_sec"] = json!(rate);
        v["engine"] = json!(m.engine_name());
        println!("{v}");
        return Ok(());
    }
    for r in &solution.roles {
        println!("{}", r.summary);
        for mv in &r.moves {
            let value = mv.value.map_or("?".to_string(), |v| v.to_string());
            println!("  {value:>3}  {}", mv.text);
        }
    }
    if let Some(why) = &solution.stopped {
        println!("stopped: {why}");
    }
    println!("{} states expanded in {seconds:.3} s ({rate:.0} nodes/s, engine {})", solution.nodes, m.engine_name());
    Ok(())
}

fn perft_cmd(file: &Path, depth: usize, json: bool, engine: &EngineArgs) -> Outcome {
    let mut m = load_engine(file, engine, json)?;
    let start = Instant::now();
    let counts = gdl_core::solve::perft(&mut m, depth).map_err(runtime)?;
    let seconds = start.elapsed().as_secs_f64();
    // The first-order reasoner is the reference: other engines are checked against it.
    let reference = match engine.engine {
        Engine::Reasoner => None,
        _ => {
            let (text, description) = validated(file, true)?;
            let mut r = gdl_core::reasoner::Reasoner::new(&description, engine.limits.limits()).map_err(|d| {
                report(file, &text, &[d], json);
                Failure::Invalid
            })?;
            Some(gdl_core::solve::perft(&mut r, depth).map_err(runtime)?)
        }
    };
    let agrees = reference.as_ref().is_none_or(|r| *r == counts);
    let total: u64 = counts.nodes.iter().sum();
    if json {
        println!(
            "{}",
            json!({"engine": m.engine_name(), "depth": depth, "nodes": counts.nodes, "terminal": counts.terminal,
                   "seconds": seconds, "nodes_per_sec": total as f64 / seconds.max(1e-9),
                   "checked_against_reasoner": reference.is_some(), "agrees": agrees})
        );
    } else {
        println!("depth  positions  terminal");
        for (k, (n, t)) in counts.nodes.iter().zip(&counts.terminal).enumerate() {
            println!("{k:>5}  {n:>9}  {t:>8}");
        }
        println!("{total} positions in {seconds:.3} s, engine {}", m.engine_name());
        match &reference {
            Some(_) if agrees => println!("the first-order reasoner counts the same"),
            Some(r) => println!("DIFFERENT from the first-order reasoner: {:?} / {:?}", r.nodes, r.terminal),
            None => {}
        }
    }
    if agrees {
        Ok(())
    } else {
        Err(Failure::Invalid)
    }
}

fn analyze_cmd(
    file: &Path,
    options: AnalyzeOptions,
    threads: Option<usize>,
    json: bool,
    engine: &EngineArgs,
) -> Outcome {
    let threads = threads_arg(threads)?;
    let loader = Loader::new(file, engine, json)?;
    let mut m = loader.engine(file, json)?;
    let declared = Declared::of(&loader.description, engine.limits.limits());
    let report = match analyze::exhaustive(&mut m, &declared, options).map_err(runtime)? {
        Some(report) => report,
        None => {
            // Too many states: the random playouts, shared between the threads.
            let build = || loader.build().map(|c| c.engine).map_err(|d| d.message);
            let work = |t: usize, m: &mut EngineMachine| {
                analyze::sample(m, &declared, options, t, threads).map_err(|e| e.message)
            };
            let parts =
                parallel::each_thread(threads, &mut m, &build, &work).map_err(|e| runtime(RuntimeError::new(e)))?;
            let sample = analyze::Sample::merge(parts).expect("at least one thread");
            analyze::sampled(m.roles(), &declared, options, sample)
        }
    };
    if json {
        println!("{}", serde_json::to_string(&report).expect("serialisable"));
    } else {
        let how = match report.method {
            "exhaustive" => format!("exhaustive search of all {} reachable states", report.states),
            _ => format!(
                "NOT PROVEN: more than {} states, so {} random playouts ({} states visited)",
                options.max_states, report.playouts, report.states
            ),
        };
        println!("{}: {how}", file.display());
        for c in &report.checks {
            let who = c.role.as_ref().map_or(String::new(), |r| format!(" ({r})"));
            let optional = if c.required { "" } else { " [information]" };
            println!("{:<11} {}{who}{optional}: {}", outcome_label(c.outcome), c.name, c.detail);
            if let Some(w) = &c.witness {
                println!("            path: {}", gdl_core::path::format_path(w));
            }
        }
        println!("well-formed: {}", outcome_label(report.well_formed));
    }
    if report.checks.iter().any(|c| c.required && c.outcome == AnalyzeOutcome::Fails) {
        Err(Failure::Invalid)
    } else {
        Ok(())
    }
}

fn outcome_label(o: AnalyzeOutcome) -> &'static str {
    match o {
        AnalyzeOutcome::Holds => "HOLDS",
        AnalyzeOutcome::Fails => "FAILS",
        AnalyzeOutcome::NotProven => "NOT PROVEN",
    }
}

fn ground_cmd(file: &Path, format: GroundFormat, stats_only: bool, options: GroundOptions) -> Outcome {
    let (text, description) = validated(file, stats_only || matches!(format, GroundFormat::Json))?;
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let now = || start.elapsed().as_secs_f64() * 1000.0;
    let ground = match gdl_core::ground::ground(&description, options, &now, &mut |_| {}) {
        Ok(g) => g,
        Err(d) => {
            report(file, &text, &[d], stats_only || matches!(format, GroundFormat::Json));
            return Err(Failure::Invalid);
        }
    };
    let mut stats = serde_json::to_value(&ground.stats).context("statistics")?;
    stats["total_ms"] = json!(now());
    stats["cpu_ms"] = json!(cpu_seconds().zip(cpu_start).map(|(end, start)| (end - start) * 1000.0));
    stats["peak_memory_kb"] = json!(peak_memory_kb());
    let program = |syntax| ground.print(syntax);
    if stats_only {
        println!("{stats}");
        return Ok(());
    }
    match format {
        GroundFormat::Prefix => print!("{}", program(Syntax::Prefix)),
        GroundFormat::Infix => print!("{}", program(Syntax::Infix)),
        GroundFormat::Json => {
            let lines: Vec<String> = program(Syntax::Prefix).lines().map(str::to_owned).collect();
            println!("{}", json!({"rules": lines, "stats": stats}));
        }
    }
    Ok(())
}

/// The process's peak resident memory (Linux), if known.
fn peak_memory_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// CPU time used by this process so far (user + system), where the platform tells.
fn cpu_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        // SAFETY: getrusage only writes into the struct we pass.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } == 0 {
            let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
            return Some(t(usage.ru_utime) + t(usage.ru_stime));
        }
    }
    None
}
