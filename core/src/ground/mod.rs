//! The grounder: turns a description with variables into an equivalent one without.
//!
//! Following Vittaut & Méhat (2014): rules are normalised (no `or`), relations labelled
//! static or dynamic (dynamic = depends on `true`/`does`); the domains of `base` and `input`
//! come from the description or from ONE fixpoint of the *relaxed* program (negated dynamic
//! literals dropped, `true`→`base`, `does`→`input`, `base ⊇ init ∪ next`, `input ⊇ legal`).
//! In the same fixpoint every dynamic rule gets a *capture* relation whose facts are the
//! variable bindings under which its relaxed body holds: its ground instances. Static
//! literals then vanish (they hold by construction), dynamic ones stay, and instances
//! whose head nothing can use are dropped. A relation too big to compute in full is computed
//! on demand (magic sets): only the instances some rule can ask about. The whole runs as a
//! list of stages over one program (`stages`), each recorded in `Ground::stages`.
//!
//! Invariants: the ground program has no variables; every `true` atom in it names a
//! `base` fact and every `does` atom an `input` fact; static relations other than the GDL
//! keywords do not appear in it.

mod decompose;
mod estimate;
pub use estimate::GUESSED_PAST_ANY_GROUNDING;
mod invariant;
pub mod model;
mod outputs;
mod relax;
mod rules;
pub mod stages;

use crate::ast::{Description, Item, Literal, Rule, Term};
use crate::diagnostic::{Diagnostic, Span};
use crate::parse::Syntax;
use crate::program::{NRule, Program};
use crate::reasoner::{Limits, LoadFailure, Reasoner};
use crate::term::{SymId, TermId, TermStore};
use relax::{Capture, Relaxed};
use rules::Rules;
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;
use stages::{Prepared, Stage, Timeline};
use std::collections::BTreeMap;

/// How to ground.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Compute `base` and `input` even when the description declares them.
    pub recompute_domains: bool,
    /// Most ground rules; larger programs stop with an error. Rule instances before pruning
    /// (those no keyword needs, parts worth unfolding) may reach `INSTANCES_PER_RULE` times it.
    /// The default, 4M, keeps a grounding within about 10 s and 2 GB: ground programs take a
    /// median 146 bytes a rule (GROUND.md), and the biggest corpus game that grounds,
    /// amazonsTorus (2.19M rules), takes 3.3 s and 280 MB.
    pub max_rules: usize,
    /// Relaxed programs evaluated again, with more relations on demand, after one reached a
    /// limit (each costs about as much as the first).
    pub demand_attempts: usize,
    pub limits: Limits,
    /// Keep the rules each pass over the program leaves, printed, in `Ground::stages` (for
    /// the Grounded rules pane).
    pub record_rules: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            recompute_domains: false,
            max_rules: 4_000_000,
            demand_attempts: 2,
            limits: Limits::default(),
            record_rules: false,
        }
    }
}

/// Bytes a ground program takes per rule, in the median over the corpus (GROUND.md).
pub const BYTES_PER_RULE: f64 = 146.0;

impl Options {
    /// The same with every limit `k` times as large (rules, facts, join steps, terms).
    pub fn scaled(self, k: usize) -> Options {
        let l = self.limits;
        let limits = Limits {
            max_facts: l.max_facts.saturating_mul(k),
            max_join_steps: l.max_join_steps.saturating_mul(k as u64),
            max_terms: l.max_terms.saturating_mul(k),
            ..l
        };
        Options { max_rules: self.max_rules.saturating_mul(k), limits, ..self }
    }
}

/// How many rule instances the grounder may hold before pruning, per rule allowed in the end.
pub const INSTANCES_PER_RULE: usize = 2;

/// Figures about a grounding.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    pub base: usize,
    pub input: usize,
    /// Whether `base`/`input` came from the description (false: computed).
    pub declared_base: bool,
    pub declared_input: bool,
    pub rules: usize,
    /// Rule instances before pruning (those no keyword can read, parts that do not pay).
    pub instances: usize,
    pub rules_per_relation: BTreeMap<String, usize>,
    /// Milliseconds per stage, in the order of `stages::STAGES`.
    pub stage_ms: Vec<(&'static str, f64)>,
    /// Things about the description worth knowing (e.g. declared domains that were wrong).
    pub warnings: Vec<String>,
}

/// A ground program: rules without variables over interned atoms, in a fixed order
/// (keyword facts first, roles in declaration order, then rules by head relation and text).
#[derive(Debug)]
pub struct Ground {
    store: TermStore,
    rules: Rules,
    /// Printed names of the grounder's own relations (see `relation_name`).
    renamed: FxHashMap<SymId, String>,
    pub stats: Stats,
    /// The pipeline as it ran, stage by stage.
    pub stages: Vec<Stage>,
    /// Whether the game defines `sees` (GDL-II), even if no ground `sees` rule is left.
    defines_sees: bool,
    /// The rules as written when terminal and goal are left to the reasoner (`outputs`):
    /// the game did not ground with them.
    pub outputs: Option<Description>,
}

impl Ground {
    /// One rule per line, in prefix or infix syntax.
    pub fn print(&self, syntax: Syntax) -> String {
        let mut out = String::new();
        for r in 0..self.rules.len() {
            let start = out.len();
            self.write_atom(self.rules.head(r), syntax, &mut out);
            let mut empty = true;
            for (i, (neg, a)) in self.rules.body(r).enumerate() {
                empty = false;
                match syntax {
                    Syntax::Prefix => out.push_str(if neg { " (not " } else { " " }),
                    Syntax::Infix => out.push_str(match (i, neg) {
                        (0, false) => " :- ",
                        (0, true) => " :- ~",
                        (_, false) => " & ",
                        (_, true) => " & ~",
                    }),
                }
                self.write_atom(a, syntax, &mut out);
                if neg && syntax == Syntax::Prefix {
                    out.push(')');
                }
            }
            if syntax == Syntax::Prefix && !empty {
                out.insert_str(start, "(<= ");
                out.push(')');
            }
            out.push('\n');
        }
        out
    }

    /// The name a relation is printed with: the grounder's own relations (`next~part1`,
    /// `aux~2`: `~` cannot be parsed) get a parseable name no relation of the game has.
    pub fn relation_name(&self, sym: SymId) -> &str {
        self.renamed.get(&sym).map_or_else(|| self.store.symbol_name(sym), String::as_str)
    }

    /// Atom `t` as the ground program prints it in `syntax`.
    pub fn atom_text(&self, t: TermId, syntax: Syntax) -> String {
        let mut out = String::new();
        self.write_atom(t, syntax, &mut out);
        out
    }

    fn write_atom(&self, t: TermId, syntax: Syntax, out: &mut String) {
        let store = &self.store;
        let args = store.args(t);
        match syntax {
            Syntax::Prefix if !self.renamed.contains_key(&store.sym(t)) => out.push_str(store.text(t)),
            Syntax::Prefix => {
                out.push_str(if args.is_empty() { "" } else { "(" });
                out.push_str(self.relation_name(store.sym(t)));
                for &a in args {
                    out.push(' ');
                    out.push_str(store.text(a));
                }
                out.push_str(if args.is_empty() { "" } else { ")" });
            }
            Syntax::Infix => {
                out.push_str(self.relation_name(store.sym(t)));
                if !args.is_empty() {
                    out.push('(');
                    for (i, &a) in args.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        self.write_atom(a, syntax, out);
                    }
                    out.push(')');
                }
            }
        }
    }

    /// The interned terms the ground program's atoms live in.
    pub fn store(&self) -> &TermStore {
        &self.store
    }

    /// Number of ground rules.
    /// Whether the game defines `sees` (GDL-II).
    pub fn defines_sees(&self) -> bool {
        self.defines_sees
    }

    pub fn rule_count(&self) -> usize {
        self.rules.len()
    }

    /// Rule `r` (`r < rule_count()`): its head atom and its body as `(negated, atom)` literals.
    pub fn rule(&self, r: usize) -> (TermId, impl Iterator<Item = (bool, TermId)> + '_) {
        (self.rules.head(r), self.rules.body(r))
    }

    /// The ground program loaded into the reasoner (engine `ground`). A ground program is
    /// already as specific as it gets: no specialisation, no demand transformation.
    /// With first-order rules for terminal and goal, the reasoner chooses how to evaluate
    /// them as for any game.
    pub fn reasoner(&self, limits: Limits) -> Result<Reasoner, Diagnostic> {
        let desc = self.description();
        let r = match self.outputs {
            Some(_) => Reasoner::new(&desc, limits)?,
            None => Reasoner::from_program(Program::normalised(&desc)?, limits)?,
        };
        Ok(r.named("ground").defining_sees(self.defines_sees))
    }

    /// The ground program as a syntax tree (to load it into an engine), with the first-order
    /// rules of terminal and goal when they are left to the reasoner.
    pub fn description(&self) -> Description {
        let items = (0..self.rules.len())
            .map(|r| {
                let body = self
                    .rules
                    .body(r)
                    .map(|(neg, a)| {
                        let lit = Literal::Atom(self.atom_term(a));
                        if neg {
                            Literal::Not(Box::new(lit), Span::default())
                        } else {
                            lit
                        }
                    })
                    .collect();
                Item::Rule(Rule { head: self.atom_term(self.rules.head(r)), body, span: Span::default() })
            })
            .chain(self.outputs.iter().flat_map(|d| outputs::first_order(d).items))
            .collect();
        Description { items }
    }
}

/// Grounds a description, stage by stage (`stages::STAGES`). `now` gives milliseconds (for
/// the stages' times); `progress` is told each stage's name as it starts. When it does not
/// ground, it is ground again without the rules only terminal and goal need, which are
/// then left to the reasoner (`outputs`); if that fails too, the first error is returned.
pub fn ground(
    desc: &Description,
    options: Options,
    now: &dyn Fn() -> f64,
    progress: &mut dyn FnMut(&str),
) -> Result<Ground, Diagnostic> {
    let failed = match ground_program(desc, options, now, progress) {
        Ok(g) => return Ok(g),
        Err(e) => e,
    };
    // Only a relation that terminal and goal alone need can be left out: a limit reached
    // elsewhere (chess's threats, which legal reads) would be reached again.
    let network = failed.relation.as_deref().and_then(|r| outputs::without_outputs(desc, r));
    let Some(network) = network else { return Err(failed.diagnostic) };
    let Ok(mut g) = ground_program(&network, options, now, progress) else { return Err(failed.diagnostic) };
    g.stats.warnings.push(format!(
        "terminal and goal are computed by the reasoner on each state: with them the game does not ground ({})",
        failed.diagnostic.message
    ));
    g.outputs = Some(desc.clone());
    Ok(g)
}

/// Why a grounding stopped, and the relation of the rules as written whose computation or
/// instances reached the limit, when one did.
struct Failed {
    diagnostic: Diagnostic,
    relation: Option<String>,
}

impl From<Diagnostic> for Failed {
    fn from(diagnostic: Diagnostic) -> Failed {
        Failed { diagnostic, relation: None }
    }
}

/// The relation of the rules as written that one of the grounder's own relations stands for
/// (`magic~next~part2~bbbb`: `next`; `threatened~rule189`: `threatened`; an adorned copy
/// `p~bf`: `p`): names as written hold no `~`.
fn source_relation(name: &str) -> String {
    let name = crate::program::magic::asked(&(name.to_string(), 0)).map_or_else(|| name.to_string(), |k| k.0);
    name.split('~').next().unwrap_or(&name).to_string()
}

/// `ground` with the rules as given.
fn ground_program(
    desc: &Description,
    options: Options,
    now: &dyn Fn() -> f64,
    progress: &mut dyn FnMut(&str),
) -> Result<Ground, Failed> {
    let mut stats = Stats::default();
    let mut timeline = Timeline::new(now, progress);
    let Prepared { program, parts } = stages::prepare(desc, options.record_rules, &mut timeline)?;

    timeline.start(stages::DOMAINS);
    let mut limits = options.limits;
    let max_instances = options.max_rules.saturating_mul(INSTANCES_PER_RULE);
    // A grounding guessed far past any that succeeds is not tried (laikLee_hex's paths).
    estimate::give_up_past(&program, GUESSED_PAST_ANY_GROUNDING, max_instances)?;
    // A relation may hold as many facts as the program may have rules (a capture: one per
    // instance); more would cost time and memory past the program's own bound.
    limits.max_facts = limits.max_facts.max(options.max_rules);
    let (relaxed, mut engine) =
        match domains(&program, options.recompute_domains, limits, max_instances, options.demand_attempts)? {
            // Declared domains that miss a fluent `init` or `next` can produce (or a move
            // `legal` allows) would lose rules: compute them instead, and say so.
            (_, _, Some(missing)) => {
                stats.warnings.push(format!("the declared base/input miss {missing}: computed them instead"));
                let (relaxed, engine, _) = domains(&program, true, limits, max_instances, options.demand_attempts)?;
                (relaxed, engine)
            }
            (relaxed, engine, None) => (relaxed, engine),
        };
    stats.declared_base = relaxed.declared_base;
    stats.declared_input = relaxed.declared_input;
    stats.base = engine.facts("base", 1).len();
    stats.input = engine.facts("input", 2).len();
    timeline.end(None, None);

    timeline.start(stages::INSTANTIATED);
    // Each capture fact is one rule instance: too many fail before any is built.
    let counts: Vec<(&str, usize)> = (relaxed.captures.iter())
        .flat_map(|c| c.relations.iter().map(|r| (c.name.as_str(), engine.fact_count(r, c.vars.len()))))
        .collect();
    stats.instances = counts.iter().map(|c| c.1).sum();
    if stats.instances > max_instances {
        return Err(too_many(counts, max_instances, "rule instances"));
    }
    let mut out = Rules::default();
    for capture in &relaxed.captures {
        instantiate(capture, &program.rules()[capture.rule], &mut engine, &relaxed.dynamic, &mut out);
    }
    for (name, arity) in relax::KEPT_FACTS {
        if !relaxed.dynamic.contains(&(name.to_string(), arity)) {
            let facts: Vec<Vec<TermId>> = engine.facts(name, arity).into_iter().map(<[TermId]>::to_vec).collect();
            let store = engine.store_mut();
            for args in facts {
                let head = atom(store, name, &args);
                out.push(head, []);
            }
        }
    }
    // Only the terms are needed from here on; each pass frees its input.
    let mut store = std::mem::take(engine.store_mut());
    drop(engine);
    timeline.end(Some(out.len()), None);

    timeline.start(stages::PRUNED);
    let rules = out.keep_used(&store);
    drop(out);
    timeline.end(Some(rules.len()), None);

    timeline.start(stages::UNFOLDED);
    let parts: FxHashMap<_, _> = parts.iter().enumerate().map(|(i, p)| (store.symbol(p), i)).collect();
    let unfolded = rules.unfold_parts(&store, &parts);
    drop(rules);
    timeline.end(Some(unfolded.len()), None);

    timeline.start(stages::GROUND);
    let rules = unfolded.in_order(&store);
    let renamed = parseable_names(&store);
    for r in 0..rules.len() {
        let (h, sym) = (rules.head(r), store.sym(rules.head(r)));
        let name = renamed.get(&sym).map_or_else(|| store.symbol_name(sym), String::as_str);
        let key = format!("{name}/{}", store.args(h).len());
        *stats.rules_per_relation.entry(key).or_default() += 1;
    }
    if rules.len() > options.max_rules {
        let counts = (0..rules.len()).map(|r| (store.symbol_name(store.sym(rules.head(r))), 1));
        return Err(too_many(counts, options.max_rules, "rules"));
    }
    stats.rules = rules.len();
    timeline.end(Some(rules.len()), None);
    let stages = timeline.stages;
    stats.stage_ms = stages.iter().map(|s| (s.name, s.ms)).collect();
    let defines_sees = desc.rules().any(crate::gdl2::is_sees);
    Ok(Ground { store, rules, stats, renamed, stages, defines_sees, outputs: None })
}

/// The ground program (or the instances before pruning: `what`) passed `max`; names the
/// relation with most of them (a part of a rule counts for the rule's relation), given how
/// many each relation (or capture) has.
fn too_many<'a>(counts: impl IntoIterator<Item = (&'a str, usize)>, max: usize, what: &str) -> Failed {
    let mut per: BTreeMap<String, usize> = BTreeMap::new();
    for (name, n) in counts {
        *per.entry(source_relation(name)).or_default() += n;
    }
    let (name, n) = per.into_iter().max_by_key(|&(_, n)| n).unwrap_or_default();
    let diagnostic = Diagnostic::error(
        "too-many-ground-rules",
        Span::default(),
        format!(
            "the ground program would have more than {max} {what} ({n} of them for {name}): raise the limit \
             max_rules, or keep playing with the first-order reasoner"
        ),
    );
    Failed { diagnostic, relation: Some(name) }
}

/// The relaxed program evaluated (stopped once it holds more than `max_instances` rule
/// instances), and a fact the declared domains miss, if any. When the computation of a
/// relation reaches a limit (or the atoms asked about it do), the next attempt computes on
/// demand every relation on a line of calls through it and the relations on demand already
/// (those that pass bindings down to it and those it passes them to), with the parts and
/// captures of their rules; when these cannot all be on demand together, just it.
/// The share of the join steps the first evaluation of the relaxed program may take that
/// each attempt on demand may take.
const RETRY_JOIN_SHARE: u64 = 5;

fn domains(
    program: &Program,
    recompute: bool,
    limits: Limits,
    max_instances: usize,
    attempts: usize,
) -> Result<(Relaxed, Reasoner, Option<String>), Failed> {
    let mut on_demand: Vec<(String, usize)> = Vec::new();
    let mut relaxed = Relaxed::build(program, recompute, &on_demand).expect("nothing on demand");
    // A relation sure to overflow is on demand from the start, as if a first attempt had
    // reached the limit there.
    if let Some(r) = relax::overflowing(program, max_instances).and_then(|k| widened(program, recompute, &on_demand, k))
    {
        (relaxed, on_demand) = r;
    }
    for attempt in 0..=attempts {
        // On demand the relaxed program is meant to be small: an attempt that joins a
        // fifth of what the first may is not finding it so (laikLee_hex's paths).
        let limits = if on_demand.is_empty() {
            limits
        } else {
            Limits { max_join_steps: limits.max_join_steps / RETRY_JOIN_SHARE, ..limits }
        };
        let mut e = match evaluate(&relaxed, limits, max_instances, attempt == attempts)? {
            Ok(engine) => return Ok(missing(relaxed, engine)),
            Err(e) => e,
        };
        if !on_demand.is_empty() {
            // Say whose limit it is: the user's max_join_steps is five times the number.
            let steps = format!("{} join steps", limits.max_join_steps);
            e.message = e
                .message
                .replace(&steps, &format!("{steps} (a fifth of max_join_steps: what each later attempt may take)"));
        }
        // A relation reached a limit: compute it on demand; when a limit is reached again,
        // every relation on a line of calls through the relations on demand too.
        let failed = e
            .relation
            .as_ref()
            .map(|k| relaxed.source(&crate::program::magic::asked(k).unwrap_or_else(|| k.clone()), program.rules()));
        let retry = failed.filter(|_| attempt < attempts).and_then(|k| widened(program, recompute, &on_demand, k));
        match retry {
            Some(r) => (relaxed, on_demand) = r,
            None => return Err(limit_reached(e, &relaxed.rules)),
        }
    }
    unreachable!("the last attempt returns")
}

/// The relaxed program with more on demand than `on_demand` after `failed` reached a limit
/// (or is sure to): every relation on a line of calls through the relations on demand and
/// `failed`, else just these (when the first cannot all be computed on demand together);
/// `None` when neither adds a relation or can be built.
fn widened(
    program: &Program,
    recompute: bool,
    on_demand: &[(String, usize)],
    failed: (String, usize),
) -> Option<(Relaxed, Vec<(String, usize)>)> {
    let these: Vec<(String, usize)> = on_demand.iter().cloned().chain([failed]).collect();
    [crate::program::magic::related(program.graph(), &these), these].into_iter().find_map(|more| {
        let mut next = on_demand.to_vec();
        next.extend(more.into_iter().filter(|k| !on_demand.contains(k)));
        let grows = next.len() > on_demand.len();
        grows.then(|| Relaxed::build(program, recompute, &next)).flatten().map(|r| (r, next))
    })
}

/// The relaxed program evaluated, or the limit it reached. Each capture fact is one rule
/// instance: once there are more than `max_instances` the rest of the fixpoint is not
/// needed (the caller reports the counts). Each fact of a dynamic relation (but `base` and
/// `input`) is the head of at least one instance, so on the `last` attempt (no attempt on
/// demand follows, whatever limit is reached) the evaluation stops as soon as these facts
/// are more than `max_instances`, after any component or round of one, long before their
/// rules' captures are computed (chess: half-way through its fixpoint).
fn evaluate(
    relaxed: &Relaxed,
    limits: Limits,
    max_instances: usize,
    last: bool,
) -> Result<Result<Reasoner, crate::machine::RuntimeError>, Failed> {
    let instances = |e: &Reasoner| relaxed.captures.iter().map(|c| e.fact_count(&c.name, c.vars.len())).sum::<usize>();
    let derived: Vec<&(String, usize)> =
        relaxed.dynamic.iter().filter(|(name, _)| !matches!(name.as_str(), "base" | "input")).collect();
    let facts = |e: &Reasoner| derived.iter().map(|(name, arity)| e.fact_count(name, *arity)).sum::<usize>();
    // The counts (per relation, or per capture) that showed the program too big.
    let mut sure_too_many: Option<Vec<(&str, usize)>> = None;
    let mut go_on = |e: &Reasoner| {
        if instances(e) > max_instances {
            sure_too_many =
                Some(relaxed.captures.iter().map(|c| (c.name.as_str(), e.fact_count(&c.name, c.vars.len()))).collect());
        } else if last && facts(e) > max_instances {
            sure_too_many =
                Some(derived.iter().map(|(name, arity)| (name.as_str(), e.fact_count(name, *arity))).collect());
        }
        sure_too_many.is_none()
    };
    let built = Reasoner::build_while(Program::new(relaxed.rules.clone()), limits, &mut go_on);
    let finished = match built {
        Ok(mut engine) => engine.evaluate_all_while(&mut go_on).map(|_| engine),
        Err(LoadFailure::Invalid(d)) => return Err(d.into()),
        Err(LoadFailure::Limit(e)) => Err(e),
    };
    match sure_too_many {
        Some(counts) => Err(too_many(counts, max_instances, "rule instances")),
        None => Ok(finished),
    }
}

/// A fact `init` or `next` can produce that the declared `base` misses, or a move `legal`
/// allows that the declared `input` misses.
fn missing(relaxed: Relaxed, engine: Reasoner) -> (Relaxed, Reasoner, Option<String>) {
    let store = engine.store();
    let base: FxHashSet<&[TermId]> = engine.facts("base", 1).into_iter().collect();
    let input: FxHashSet<&[TermId]> = engine.facts("input", 2).into_iter().collect();
    let missing = ["init", "next"]
        .iter()
        .flat_map(|&n| engine.facts(n, 1))
        .find(|f| relaxed.declared_base && !base.contains(f))
        .map(|f| store.text(f[0]).to_string())
        .or_else(|| {
            let legal = engine.facts("legal", 2);
            let f = legal.into_iter().find(|f| relaxed.declared_input && !input.contains(f))?;
            Some(format!("({} {})", store.text(f[0]), store.text(f[1])))
        });
    (relaxed, engine, missing)
}

/// A limit reached in the relaxed program, with the relation as written that reached it.
fn limit_reached(e: crate::machine::RuntimeError, rules: &[NRule]) -> Failed {
    let relation = e.relation.as_ref().map(|(name, _)| source_relation(name));
    Failed { diagnostic: limit_diagnostic(e, rules), relation }
}

/// A limit reached in the relaxed program in words. When it was reached on one of the
/// grounder's own relations (a rule's instances), the error points at that rule.
fn limit_diagnostic(e: crate::machine::RuntimeError, rules: &[NRule]) -> Diagnostic {
    let own = e.relation.as_ref().filter(|(name, _)| name.contains('~'));
    let Some((name, arity)) = own else { return Diagnostic::error("grounding", Span::default(), e.message) };
    let what = e.message.splitn(3, ' ').nth(2).unwrap_or_default();
    let relation = |name: &str| name.split('~').next().unwrap_or(name).to_string();
    if let Some((asked, _)) = crate::program::magic::asked(&(name.clone(), *arity)) {
        let message = format!("the atoms of {} the rules ask about {what}", relation(&asked));
        return Diagnostic::error("grounding", Span::default(), message);
    }
    let span = rules
        .iter()
        .find(|r| r.head.name() == Some(name.as_str()) && r.head.args().len() == *arity)
        .map_or_else(Span::default, |r| r.span);
    let (written, how) = match crate::program::magic::adorned(&(name.clone(), *arity)) {
        Some(k) => (k.0, " on demand"),
        None => (name.clone(), ""),
    };
    if !written.contains('~') {
        return Diagnostic::error("grounding", span, format!("computing {written}/{arity}{how} {what}"));
    }
    Diagnostic::error("grounding", span, format!("grounding this rule for {}{how} {what}", relation(name)))
}

/// The atom `name(args)` as one term.
fn atom(store: &mut TermStore, name: &str, args: &[TermId]) -> TermId {
    let sym = store.symbol(name);
    store.intern_atom(sym, args)
}

/// A rule's atom with its variables replaced by capture positions, ready to instantiate.
enum GPat {
    Slot(usize),
    Ground(TermId),
    Func(crate::term::SymId, Vec<GPat>),
}

impl GPat {
    fn new(store: &mut TermStore, t: &Term, slot: &FxHashMap<&str, usize>) -> GPat {
        match t {
            Term::Var(v, _) => GPat::Slot(slot[v.as_str()]),
            Term::Const(c, _) => GPat::Ground(store.constant(c)),
            Term::Func(f, args, _) => {
                let sym = store.symbol(f);
                GPat::Func(sym, args.iter().map(|a| GPat::new(store, a, slot)).collect())
            }
        }
    }

    /// The atom `t` (a sentence: its name is a relation) as a pattern.
    fn atom(store: &mut TermStore, t: &Term, slot: &FxHashMap<&str, usize>) -> GPat {
        let sym = store.symbol(t.name().expect("named"));
        GPat::Func(sym, t.args().iter().map(|a| GPat::new(store, a, slot)).collect())
    }

    fn build(&self, store: &mut TermStore, b: &[TermId]) -> TermId {
        match self {
            GPat::Slot(i) => b[*i],
            GPat::Ground(t) => *t,
            GPat::Func(sym, args) => {
                let ids: Vec<TermId> = args.iter().map(|a| a.build(store, b)).collect();
                store.intern_atom(*sym, &ids)
            }
        }
    }
}

/// Emits one ground rule per capture fact of a rule: its head and dynamic body literals
/// (an instance that several copies on demand hold, once).
fn instantiate(
    capture: &Capture,
    rule: &NRule,
    engine: &mut Reasoner,
    dynamic: &FxHashSet<(String, usize)>,
    out: &mut Rules,
) {
    let width = capture.vars.len();
    let (mut count, mut bindings) = (0, Vec::new());
    for relation in &capture.relations {
        let (n, facts) = engine.take_facts(relation, width);
        count += n;
        bindings.extend(facts);
    }
    if width == 0 {
        count = count.min(1);
    } else if capture.relations.len() > 1 {
        let mut seen = FxHashSet::default();
        bindings = bindings.chunks(width).filter(|b| seen.insert(*b)).flatten().copied().collect();
        count = bindings.len() / width;
    }
    let slot: FxHashMap<&str, usize> = capture.vars.iter().enumerate().map(|(i, v)| (v.as_str(), i)).collect();
    let store = engine.store_mut();
    let is_dynamic = |t: &Term| dynamic.contains(&(t.name().expect("named").to_string(), t.args().len()));
    let head = GPat::atom(store, &rule.head, &slot);
    let body: Vec<(bool, GPat)> = rule
        .body
        .iter()
        .filter_map(|lit| match lit {
            crate::program::NLit::Pos(t) if is_dynamic(t) => Some((false, GPat::atom(store, t, &slot))),
            crate::program::NLit::Neg(t) if is_dynamic(t) => Some((true, GPat::atom(store, t, &slot))),
            _ => None,
        })
        .collect();
    let mut lits = Vec::with_capacity(body.len());
    for k in 0..count {
        let b = &bindings[k * width..(k + 1) * width];
        let h = head.build(store, b);
        lits.clear();
        lits.extend(body.iter().map(|(neg, p)| (*neg, p.build(store, b))));
        out.push(h, lits.iter().copied());
    }
}

impl Ground {
    /// An atom as a syntax tree, its relation named as `print` names it.
    fn atom_term(&self, t: TermId) -> Term {
        let name = self.relation_name(self.store.sym(t)).to_string();
        match self.store.args(t) {
            [] => Term::Const(name, Span::default()),
            args => Term::Func(name, args.iter().map(|&a| to_term(&self.store, a)).collect(), Span::default()),
        }
    }
}

/// Parseable names for the symbols containing `~`: `~` becomes `_`, and `_` is added until
/// no symbol of the store has the name.
fn parseable_names(store: &TermStore) -> FxHashMap<SymId, String> {
    let mut names = FxHashMap::default();
    for sym in 0..store.symbol_count() as SymId {
        let name = store.symbol_name(sym);
        if name.contains('~') {
            let mut new = name.replace('~', "_");
            while store.find_symbol(&new).is_some() || names.values().any(|n| *n == new) {
                new.push('_');
            }
            names.insert(sym, new);
        }
    }
    names
}

fn to_term(store: &TermStore, t: TermId) -> Term {
    let name = store.symbol_name(store.sym(t)).to_string();
    let args = store.args(t);
    if args.is_empty() {
        Term::Const(name, Span::default())
    } else {
        Term::Func(name, args.iter().map(|&a| to_term(store, a)).collect(), Span::default())
    }
}

#[cfg(test)]
mod tests;
