//! The grounded game as the Grounded rules pane shows it: the engine `auto` picks
//! (`GroundGame`, quick, after every edit), then on request the grounding pipeline stage by
//! stage (`ground::stages`: the rules after each pass, the domains, the ground program,
//! then the network) with counts and times, and the ground program's truth values in any
//! position (`ground::model`).
//!
//! The page receives the program once as flat arrays (atom texts, rule heads, bodies) and
//! asks for the truth values of each position; the wasm crate only converts these.

use crate::ast::Description;
use crate::diagnostic::{Diagnostic, LineIndex};
use crate::engine::{build, Choice};
use crate::ground::model::{Model, Values};
use crate::ground::{ground, Ground, Options};
use crate::machine::StateMachine;
use crate::parse::Syntax;
use crate::propnet;
use crate::reasoner::Limits;
use serde::Serialize;

/// What went wrong, in a sentence for the page.
pub type Result<T> = std::result::Result<T, String>;

/// One stage of the pipeline as the page lists it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null, rename = "GroundStage"))]
pub struct Stage {
    /// A name of `ground::stages::STAGES`, or `network`.
    pub name: &'static str,
    /// What it does, in a sentence.
    pub explanation: &'static str,
    /// What it holds, in words with its counts ("180 rules", "29 base fluents (declared) ...").
    pub summary: String,
    pub ms: f64,
    /// Whether the stage's rules can be shown (`GroundProgram::stage_text`): the passes'
    /// rules are recorded, the ground program is kept; the rules between are not.
    pub text: bool,
}

/// The engine `auto` picks for a game, known before the full grounding (which may be long).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct EngineChoice {
    /// `propnet` or `reasoner`, the note saying why, and the time it took to decide and build it.
    pub engine: &'static str,
    pub engine_note: String,
    pub engine_ms: f64,
    /// The compiled network's figures, when the game grounds within `auto`'s limits.
    #[cfg_attr(feature = "tsify", tsify(type = "NetworkStats | null"))]
    pub network: Option<propnet::Stats>,
}

/// Everything about the grounded game except the program itself.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null, rename = "GroundSummary"))]
pub struct Summary {
    pub rules: usize,
    pub atoms: usize,
    /// `(relation name/arity, ground rules with that head)`, most first.
    pub relations: Vec<(String, usize)>,
    pub stages: Vec<Stage>,
    #[serde(flatten)]
    pub choice: EngineChoice,
    pub warnings: Vec<String>,
}

/// A valid game and the engine `auto` picks for it: the quick part, done after every edit.
/// The full grounding (`ground`) may take long; the page asks for it when it shows it.
pub struct GroundGame {
    text: String,
    description: Description,
    limits: Limits,
    pub choice: EngineChoice,
}

/// A ground program with its pipeline and its model.
pub struct GroundProgram {
    ground: Ground,
    model: Model,
    syntax: Syntax,
    /// `(pass, rules printed)` for the passes over the program before grounding.
    passes: Vec<(&'static str, Vec<String>)>,
    summary: Summary,
}

fn plural(n: usize, what: &str) -> String {
    format!("{} {what}{}", n, if n == 1 { "" } else { "s" })
}

impl GroundGame {
    /// Loads `text` and picks the engine `auto` would (grounding within its bounds).
    pub fn load(text: &str, limits: Limits, now: &dyn Fn() -> f64) -> Result<GroundGame> {
        let loaded = crate::load(text, limits).map_err(|diags| {
            let errors = diags.iter().filter(|d| d.is_error()).count();
            format!("the rules have {}: fix them to see the ground program", plural(errors, "error"))
        })?;
        let mut game = GroundGame {
            text: text.to_string(),
            description: loaded.description,
            limits,
            choice: EngineChoice { engine: "", engine_note: String::new(), engine_ms: 0.0, network: None },
        };
        let t0 = now();
        let auto = build(Choice::Auto, &game.description, limits, propnet::Options::default(), now)
            .map_err(|d| game.located(d))?;
        game.choice = EngineChoice {
            engine: auto.engine.engine_name(),
            engine_note: auto.note,
            engine_ms: now() - t0,
            network: auto.engine.propnet_stats().cloned(),
        };
        Ok(game)
    }

    /// A diagnostic's message, with its line and column when it has a place in the text.
    fn located(&self, d: Diagnostic) -> String {
        if d.span.end == 0 {
            return d.message;
        }
        let (line, column) = LineIndex::new(&self.text).line_col(d.span.start);
        format!("line {line}, column {column}: {}", d.message)
    }
}

/// What a grounding stopped by a limit may try next: limits `scale` times the default, and
/// what that may take; or why the page cannot go further.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct LargerLimits {
    pub scale: Option<usize>,
    pub note: String,
}

/// Most memory a page's WebAssembly may use (bytes).
const PAGE_MEMORY: f64 = 4e9;
/// How much larger each try's limits are.
const LARGER: usize = 4;

/// After a grounding at limits `scale` times the default stopped on one: the next try.
pub fn larger_limits(scale: usize) -> LargerLimits {
    let next = scale.saturating_mul(LARGER);
    let rules = Options::default().scaled(next).max_rules;
    let bytes = rules as f64 * crate::ground::BYTES_PER_RULE;
    if bytes * 1.5 > PAGE_MEMORY {
        return LargerLimits {
            scale: None,
            note: format!(
                "Larger limits would need more than the 4 GB a browser page may use; the command line can go \
                 further: gdl ground FILE --max-rules {rules}"
            ),
        };
    }
    LargerLimits {
        scale: Some(next),
        note: format!(
            "limits {next} times the default: it may take {LARGER} times as long, and up to about {:.1} GB of memory",
            bytes / 1e9
        ),
    }
}

impl GroundProgram {
    /// Grounds the game with limits `scale` times the default (see `larger_limits`); `now`
    /// gives milliseconds, `progress` is told each phase as it starts.
    pub fn new(
        game: &GroundGame,
        syntax: Syntax,
        scale: usize,
        now: &dyn Fn() -> f64,
        progress: &mut dyn FnMut(&str),
    ) -> Result<GroundProgram> {
        let (desc, limits, choice) = (&game.description, game.limits, game.choice.clone());
        let options = Options { limits, record_rules: true, ..Options::default() }.scaled(scale.max(1));
        let mut g = ground(desc, options, now, progress).map_err(|d| game.located(d))?;
        let model = Model::new(&g);
        let recorded = std::mem::take(&mut g.stages);
        let s = &g.stats;
        let domain = |n: usize, declared: bool, what: &str| {
            format!("{} ({})", plural(n, what), if declared { "declared" } else { "computed" })
        };
        let mut passes = Vec::new();
        let mut stages: Vec<Stage> = Vec::new();
        for stage in recorded {
            let rules = |what| plural(stage.count.unwrap_or_default(), what);
            let summary = match stage.name {
                "domains" => format!(
                    "{}, {}",
                    domain(s.base, s.declared_base, "base fluent"),
                    domain(s.input, s.declared_input, "input")
                ),
                "instantiated" => rules("rule instance"),
                "ground" => format!("{}, {}", rules("ground rule"), plural(model.atoms.len(), "atom")),
                _ => rules("rule"),
            };
            let text = stage.rules.is_some() || matches!(stage.name, "domains" | "ground");
            stages.push(Stage { name: stage.name, explanation: stage.explanation, summary, ms: stage.ms, text });
            if let Some(rules) = stage.rules {
                passes.push((stage.name, rules));
            }
        }
        let network = &choice.network;
        stages.push(Stage {
            name: "network",
            explanation: "The rules without variables are wired into a circuit of AND, OR and NOT gates (a \
                          propositional network), which plays fast when the engine 'auto' chooses it.",
            summary: match &network {
                Some(n) => format!(
                    "{}, {} inputs, {}, {}",
                    plural(n.gates, "gate"),
                    n.inputs,
                    plural(n.fluents, "fluent"),
                    plural(n.moves, "move")
                ),
                None => "not built: the game plays on the reasoner".into(),
            },
            ms: network.as_ref().map_or(0.0, |n| n.build_ms),
            text: false,
        });
        let mut relations: Vec<(String, usize)> = s.rules_per_relation.clone().into_iter().collect();
        crate::order::sort_by(&mut relations, |a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let summary = Summary {
            rules: s.rules,
            atoms: model.atoms.len(),
            relations,
            stages,
            choice,
            warnings: s.warnings.clone(),
        };
        Ok(GroundProgram { ground: g, model, syntax, passes, summary })
    }

    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    /// Every atom's text, by atom number, in the syntax asked for.
    pub fn atoms(&self) -> Vec<String> {
        self.model.atoms.iter().map(|&t| self.ground.atom_text(t, self.syntax)).collect()
    }

    /// Every atom's canonical (prefix) text, by atom number: how the engine names fluents and moves.
    pub fn keys(&self) -> Vec<String> {
        self.model.atoms.iter().map(|&t| self.ground.store().text(t).to_string()).collect()
    }

    /// The game's factors (`propnet::factors`) as the network picture colours them: per atom,
    /// the number of the factor its fluent or move is in (`true`/`next` of a fluent,
    /// `does`/`legal` of a move; the bookkeeping is the last number when there is some), or -1;
    /// and each number's name in words ("factor 1: 9 fluents, 18 moves", "bookkeeping: 1 fluent").
    pub fn atom_factors(&self) -> (Vec<i32>, Vec<String>) {
        let f = propnet::factors::factors(&self.ground);
        let mut of_fluent: rustc_hash::FxHashMap<&str, i32> = rustc_hash::FxHashMap::default();
        let mut of_move: rustc_hash::FxHashMap<(&str, &str), i32> = rustc_hash::FxHashMap::default();
        let mut names = Vec::new();
        for (k, factor) in f.factors.iter().enumerate() {
            factor.fluents.iter().for_each(|x| _ = of_fluent.insert(x, k as i32));
            factor.moves.iter().for_each(|m| _ = of_move.insert((&m.role, &m.text), k as i32));
            let what = format!("{}, {}", plural(factor.fluents.len(), "fluent"), plural(factor.moves.len(), "move"));
            names.push(format!("factor {}: {what}", k + 1));
        }
        if !f.bookkeeping.is_empty() {
            f.bookkeeping.iter().for_each(|x| _ = of_fluent.insert(x, names.len() as i32));
            names.push(format!("bookkeeping: {}", plural(f.bookkeeping.len(), "fluent")));
        }
        let store = self.ground.store();
        let of_atom = (self.model.atoms.iter())
            .map(|&t| {
                let args = store.args(t);
                match (store.symbol_name(store.sym(t)), args) {
                    ("true" | "next", [x]) => of_fluent.get(store.text(*x)).copied(),
                    ("does" | "legal", [r, m]) => of_move.get(&(store.text(*r), store.text(*m))).copied(),
                    _ => None,
                }
                .unwrap_or(-1)
            })
            .collect();
        (of_atom, names)
    }

    /// Every rule's text, by rule number, in the syntax asked for: the lines of the ground
    /// program as `stage_text("ground")` prints it.
    pub fn rule_texts(&self) -> Vec<String> {
        self.ground.print(self.syntax).lines().map(str::to_owned).collect()
    }

    /// Per rule, its head atom.
    pub fn heads(&self) -> Vec<u32> {
        self.model.heads.clone()
    }

    /// Per rule, where its body starts in `literals()` (one more entry: the end).
    pub fn starts(&self) -> Vec<u32> {
        let mut starts = Vec::with_capacity(self.model.heads.len() + 1);
        starts.push(0);
        for r in 0..self.model.heads.len() as u32 {
            starts.push(starts[r as usize] + self.model.body_of(r).len() as u32);
        }
        starts
    }

    /// Every rule's body literals in order: `atom * 2 + 1` when negated, `atom * 2` when not.
    pub fn literals(&self) -> Vec<u32> {
        (0..self.model.heads.len() as u32)
            .flat_map(|r| self.model.body_of(r).iter().map(|&(neg, a)| a * 2 + u32::from(neg)))
            .collect()
    }

    /// Per rule, the number of its head's relation in `relations()` of the summary.
    pub fn rule_relations(&self) -> Vec<u32> {
        let names: Vec<&str> = self.summary.relations.iter().map(|(n, _)| n.as_str()).collect();
        let store = self.ground.store();
        self.model
            .heads
            .iter()
            .map(|&h| {
                let t = self.model.atoms[h as usize];
                let key = format!("{}/{}", self.ground.relation_name(store.sym(t)), store.args(t).len());
                names.iter().position(|&n| n == key).unwrap_or(0) as u32
            })
            .collect()
    }

    /// Truth values when the state holds `fluents` and role `roles[i]` chose `moves[i]`.
    pub fn evaluate(&self, fluents: &[String], roles: &[String], moves: &[String]) -> Values {
        let chosen = roles.iter().zip(moves).map(|(r, m)| (r.as_str(), m.as_str()));
        self.model.evaluate(fluents.iter().map(String::as_str), chosen)
    }

    /// The text of a stage: the rules after a pass, the domains, or the ground program.
    pub fn stage_text(&self, name: &str) -> Result<String> {
        if let Some((_, rules)) = self.passes.iter().find(|(n, _)| *n == name) {
            return Ok(rules.join("\n"));
        }
        match name {
            "ground" => Ok(self.ground.print(self.syntax)),
            "domains" => {
                let store = self.ground.store();
                let lines: Vec<String> = (0..self.ground.rule_count())
                    .map(|r| self.ground.rule(r).0)
                    .filter(|&h| matches!(store.symbol_name(store.sym(h)), "base" | "input"))
                    .map(|h| self.ground.atom_text(h, self.syntax))
                    .collect();
                Ok(lines.join("\n"))
            }
            _ => Err(format!("no stage {name:?} has a text")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TICTACTOE: &str = include_str!("../../games/tictactoe.kif");

    fn program(text: &str) -> GroundProgram {
        let clock = std::cell::Cell::new(0.0);
        let now = || {
            clock.set(clock.get() + 1.0);
            clock.get()
        };
        let game = GroundGame::load(text, Limits::default(), &now).unwrap();
        let p = GroundProgram::new(&game, Syntax::Prefix, 1, &now, &mut |_| {}).unwrap();
        assert_eq!(game.choice.engine, p.summary().choice.engine);
        p
    }

    #[test]
    fn a_grounding_stopped_by_a_limit_may_try_limits_four_times_as_large_once() {
        let o = Options::default().scaled(4);
        assert_eq!((o.max_rules, o.limits.max_facts), (16_000_000, 8_000_000));
        let next = larger_limits(1);
        assert_eq!(next.scale, Some(4));
        assert_eq!(
            next.note,
            "limits 4 times the default: it may take 4 times as long, and up to about 2.3 GB of memory"
        );
        let beyond = larger_limits(4);
        assert_eq!(beyond.scale, None);
        assert!(beyond.note.ends_with("gdl ground FILE --max-rules 64000000"), "{}", beyond.note);
    }

    #[test]
    fn stages_counts_and_engine() {
        let p = program(TICTACTOE);
        let s = p.summary();
        let names: Vec<&str> = s.stages.iter().map(|st| st.name).collect();
        let all = ["normalised", "fixed", "specialised", "decomposed", "domains", "instantiated", "pruned", "unfolded"];
        assert_eq!(names, [&all[..], &["ground", "network"]].concat());
        assert!(s.stages.iter().all(|st| st.ms > 0.0), "{:?}", s.stages);
        assert_eq!(s.stages[4].summary, "29 base fluents (declared), 20 inputs (declared)");
        // Each pass over the ground rules leaves at most what it was given.
        let counts: Vec<usize> =
            s.stages[5..9].iter().map(|st| st.summary.split(' ').next().unwrap().parse().unwrap()).collect();
        assert!(counts.windows(2).all(|w| w[0] >= w[1]) && counts[3] == 180, "{counts:?}");
        assert!(s.stages[8].summary.starts_with("180 ground rules"), "{}", s.stages[8].summary);
        let shown: Vec<&str> = s.stages.iter().filter(|st| st.text).map(|st| st.name).collect();
        assert_eq!(shown, ["normalised", "fixed", "specialised", "decomposed", "domains", "ground"]);
        assert_eq!((s.choice.engine, s.rules), ("propnet", 180));
        assert!(s.choice.engine_note.starts_with("propnet (180 ground rules"), "{}", s.choice.engine_note);
        assert!(s.choice.network.as_ref().is_some_and(|n| n.gates > 0));
        assert_eq!(p.stage_text("ground").unwrap().lines().count(), 180);
        assert_eq!(p.stage_text("domains").unwrap().lines().count(), 49);
        assert!(p.stage_text("normalised").unwrap().contains("(legal ?p (mark ?c ?r)) :-"));
        assert!(p.stage_text("nothing").unwrap_err().contains("no stage"));
    }

    #[test]
    fn the_network_picture_colours_each_atom_by_its_factor() {
        let p = program(include_str!("../../games/doubletictactoe.kif"));
        let (of_atom, names) = p.atom_factors();
        assert_eq!(names.len(), 3, "{names:?}");
        assert!(names[0].starts_with("factor 1: ") && names[2].starts_with("bookkeeping: "), "{names:?}");
        let atoms = p.keys();
        let factor = |prefix: &str| -> Vec<i32> {
            let mut v: Vec<i32> =
                (atoms.iter().zip(&of_atom)).filter(|(a, _)| a.starts_with(prefix)).map(|(_, &k)| k).collect();
            v.dedup();
            v
        };
        let (one, two) = (factor("(true (cell 1 "), factor("(true (cell 2 "));
        assert!(one.len() == 1 && two.len() == 1 && one != two && one[0] < 2 && two[0] < 2, "{one:?} {two:?}");
        assert_eq!(factor("(legal x (mark 1 "), one, "a board's moves are in its factor");
        assert_eq!(factor("(true (control "), [2], "the turn is bookkeeping");
        assert_eq!(factor("(legal x noop)"), [-1], "noop is in no factor");
        // A game that does not split: one factor.
        let (_, names) = program(TICTACTOE).atom_factors();
        assert_eq!(names.iter().filter(|n| n.starts_with("factor")).count(), 1, "{names:?}");
    }

    #[test]
    fn flat_arrays_describe_the_program_and_values_follow_the_position() {
        let p = program(TICTACTOE);
        let (atoms, heads, starts, lits, rels) = (p.atoms(), p.heads(), p.starts(), p.literals(), p.rule_relations());
        assert_eq!((heads.len(), starts.len(), rels.len()), (180, 181, 180));
        assert_eq!(*starts.last().unwrap() as usize, lits.len());
        // Rule texts rebuilt from the arrays are the printed program.
        let printed: Vec<String> = (0..heads.len())
            .map(|r| {
                let body: Vec<String> = lits[starts[r] as usize..starts[r + 1] as usize]
                    .iter()
                    .map(|&l| {
                        let a = &atoms[(l / 2) as usize];
                        if l % 2 == 1 {
                            format!("(not {a})")
                        } else {
                            a.clone()
                        }
                    })
                    .collect();
                let head = &atoms[heads[r] as usize];
                if body.is_empty() {
                    head.clone()
                } else {
                    format!("(<= {head} {})", body.join(" "))
                }
            })
            .collect();
        assert_eq!(printed.join("\n") + "\n", p.stage_text("ground").unwrap());
        assert_eq!(p.rule_texts(), printed);
        assert_eq!(p.keys(), atoms, "prefix atoms are their canonical text");
        let legal = p.summary().relations.iter().position(|(n, _)| n == "legal/2").unwrap() as u32;
        assert_eq!(rels.iter().filter(|&&r| r == legal).count(), 20);
        let empty: Vec<String> = ["1 1", "1 2", "1 3", "2 1", "2 2", "2 3", "3 1", "3 2", "3 3"]
            .iter()
            .map(|c| format!("(cell {c} b)"))
            .chain(["(control x)".to_string()])
            .collect();
        let roles = ["x".to_string(), "o".to_string()];
        let v = p.evaluate(&empty, &roles, &["(mark 2 2)".into(), "noop".into()]);
        let at = |t: &str| atoms.iter().position(|a| a == t).unwrap();
        assert_eq!(v.atoms[at("(legal x (mark 2 2))")], 1);
        assert_eq!(v.atoms[at("(next (cell 2 2 x))")], 1);
        assert_eq!(v.atoms[at("(next (cell 2 2 b))")], 0);
        let fired = (0..heads.len()).filter(|&r| v.fires[r] == 1 && heads[r] as usize == at("(next (cell 2 2 x))"));
        assert_eq!(fired.count(), 1);
    }
}
