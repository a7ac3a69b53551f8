//! Explanations for teaching: why an atom holds in a position of a game — the rule instance
//! that derives it and the facts that satisfy its body — or why it does not: each rule that
//! could derive it and the first body literal that fails.
//!
//! The explainer replays a path of joint moves in its own first-order reasoner loaded with
//! the normalised rules as written (no specialisation, no magic sets), so every relation of
//! the description is there by its own name. A relation split into cases to stratify the
//! program (`crate::program::strata`) keeps its facts under its own name, so explanations use the
//! rules before the split. For a position it evaluates the whole model
//! (`Reasoner::evaluate_in`) and matches rule bodies against it (`search.rs`). Fluents link
//! positions: `(true f)` after move k holds because `(next f)` held in move k (or `(init f)`
//! at the start), so explanations can be followed back through the game, one level at a time.
//!
//! Invariants: a derivation of an atom that holds is well-founded — inside a recursive
//! relation it only uses atoms derived in an earlier round of the bottom-up evaluation
//! (their *rank*), so following derivations never loops. Steps: the model at step k is the
//! state after k joint moves; relations that depend on `does` use the move played there.

mod search;

use crate::ast::{Description, Term};
use crate::deps::DepGraph;
use crate::diagnostic::LineIndex;
use crate::machine::StateMachine;
use crate::program::strata::stratify;
use crate::program::{flatten, graph_of, NLit, NRule, Program};
use crate::reasoner::{Limits, Reasoner, State};
use crate::term::TermId;
use rustc_hash::FxHashMap;
use search::{ground, is_bound, key, matches, show, show_literal, Bindings, Search};
use serde::Serialize;

/// Why an atom holds or does not, at one step.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Explanation {
    pub atom: String,
    /// The position: the state after this many joint moves.
    pub step: usize,
    /// Whether the atom depends on the move played from that position (`next`, `does`, ...).
    pub in_move: bool,
    pub holds: bool,
    /// One sentence in plain words.
    pub summary: String,
    /// Holds: the one derivation shown. Does not hold: one per rule whose head matches.
    pub derivations: Vec<Derivation>,
}

/// One rule instance: all of its body holds, or (for an atom that does not hold) the
/// literals that held on the best attempt followed by the one that failed.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Derivation {
    /// The rule as written in prefix form (one alternative of an `or`).
    pub rule: String,
    /// 1-based line of the rule in the source; 0 when it is not a rule (a move, a fluent).
    pub line: usize,
    /// The rule with the variables bound by the match (unbound ones stay `?x`).
    pub instance: String,
    pub premises: Vec<Premise>,
    /// For a rule that does not derive the atom: the index of the failing premise.
    pub failed: Option<usize>,
    /// E.g. that the search stopped at its limit.
    pub note: Option<String>,
}

/// A body literal of a derivation, instantiated.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Premise {
    pub literal: String,
    pub holds: bool,
    /// The ground atom the literal is about, to be explained next (none for `distinct` or a
    /// literal with unbound variables).
    pub atom: Option<String>,
    /// The step at which `atom` is explained.
    pub step: usize,
    /// Whether `atom` holds (for `(not a)` that holds, `a` does not).
    pub atom_holds: bool,
    /// Filled by `Explainer::tree`: the explanation of `atom`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<Box<Explanation>>,
}

/// A ground atom: relation name and interned arguments.
type Atom = (String, Vec<TermId>);

/// Derivation ranks of the atoms of one recursive component at one step.
type Ranks = FxHashMap<Atom, u32>;

/// A game replayed along a path, ready to explain atoms at any of its positions.
pub struct Explainer {
    rules: Vec<NRule>,
    lines: Vec<usize>,
    m: Reasoner,
    states: Vec<State>,
    joints: Vec<Vec<TermId>>,
    roles: Vec<String>,
    graph: DepGraph,
    /// For each relation of the graph: its component and whether that is recursive.
    component: Vec<(usize, bool)>,
    /// Relations that depend on `does`.
    on_moves: Vec<bool>,
    ranks: FxHashMap<(usize, usize), Ranks>,
    /// Parseable names for the relations the rules' flattening made (`aux~1` shows as
    /// `aux_1`), so that every atom shown can be asked about in turn.
    aliases: FxHashMap<String, String>,
}

type Result<T> = std::result::Result<T, String>;

/// The atom `t` with relation `name`.
fn with_name(t: &Term, name: &str) -> Term {
    match t {
        Term::Func(_, args, span) => Term::Func(name.to_string(), args.clone(), *span),
        Term::Const(_, span) => Term::Const(name.to_string(), *span),
        var => var.clone(),
    }
}

/// Parses a ground atom such as `(legal x (mark 1 1))` or `terminal`.
pub fn parse_atom(text: &str) -> Result<Term> {
    let parsed = crate::parse::parse(text);
    if let Some(d) = parsed.diagnostics.iter().find(|d| d.is_error()) {
        let (_, column) = LineIndex::new(text).line_col(d.span.start);
        return Err(format!("cannot read the query {text:?}: column {column}: {}", d.message));
    }
    let rules: Vec<_> = parsed.description.rules().collect();
    match rules.as_slice() {
        [r] if r.body.is_empty() && r.head.is_ground() => Ok(r.head.clone()),
        [r] if r.body.is_empty() => Err(format!("the query {} has variables: ask about a ground atom", r.head)),
        _ => Err(format!("the query {text:?} must be one atom such as (legal x (mark 1 1))")),
    }
}

impl Explainer {
    /// Loads the rules of a valid description (`text` gives line numbers) and plays `path`
    /// (joint moves as text, see `crate::path`).
    pub fn new(desc: &Description, text: &str, limits: Limits, path: &[Vec<String>]) -> Result<Explainer> {
        let rules = flatten(desc).map_err(|d| d.message)?;
        let index = LineIndex::new(text);
        let lines = rules.iter().map(|r| index.line_col(r.span.start).0).collect();
        let mut m = Reasoner::from_program(stratify(Program::new(rules.clone())), limits).map_err(|d| d.message)?;
        let mut graph = graph_of(&rules);
        let does = graph.id(("does".into(), 2));
        let sccs = graph.sccs();
        let mut component = vec![(0, false); graph.rels.len()];
        for (c, scc) in sccs.iter().enumerate() {
            let recursive = graph.is_recursive(scc);
            for &r in scc {
                component[r] = (c, recursive);
            }
        }
        let on_moves = (0..graph.rels.len()).map(|r| graph.reachable([r])[does]).collect();
        let (states, joints) = crate::path::play(&mut m, path).map_err(|e| e.message)?;
        let roles = m.roles().to_vec();
        let mut aliases = FxHashMap::default();
        for (name, _) in &graph.rels {
            if name.contains('~') {
                let mut alias = name.replace('~', "_");
                while graph.rels.iter().any(|(n, _)| *n == alias) || aliases.values().any(|a| *a == alias) {
                    alias.push('_');
                }
                aliases.insert(name.clone(), alias);
            }
        }
        Ok(Explainer {
            rules,
            lines,
            states,
            m,
            joints,
            roles,
            graph,
            component,
            on_moves,
            ranks: FxHashMap::default(),
            aliases,
        })
    }

    /// Joint moves played: the last position is step `moves()`.
    pub fn moves(&self) -> usize {
        self.joints.len()
    }

    fn rel(&self, name: &str, arity: usize) -> Option<usize> {
        self.graph.get(name, arity)
    }

    /// The step a query is asked at by default: the last position, or the last move for
    /// relations that depend on moves (`next`, ...).
    pub fn default_step(&self, atom: &Term) -> usize {
        let (name, arity) = key(atom);
        let moves = self.rel(name, arity).is_some_and(|r| self.on_moves[r]);
        if moves {
            self.moves().saturating_sub(1)
        } else {
            self.moves()
        }
    }

    /// Makes the reasoner hold the model of position `step` (with its move, if played).
    fn model(&mut self, step: usize) -> Result<()> {
        let state = self.states.get(step).ok_or_else(|| format!("step {step} is beyond the path"))?.clone();
        let joint = self.joints.get(step).cloned();
        self.m.evaluate_in(&state, joint.as_deref()).map_err(|e| e.message)
    }

    fn atom(&mut self, t: &Term) -> Result<Atom> {
        let (name, _) = key(t);
        let store = self.m.store_mut();
        let mut args = Vec::new();
        for a in t.args() {
            args.push(intern(store, a)?);
        }
        Ok((name.to_string(), args))
    }

    fn text(&self, (name, args): &Atom) -> String {
        let name = self.shown(name);
        if args.is_empty() {
            return name.to_string();
        }
        let store = self.m.store();
        let inner: Vec<&str> = args.iter().map(|&a| store.text(a)).collect();
        format!("({name} {})", inner.join(" "))
    }

    /// The name relation `name` is shown with.
    fn shown<'a>(&'a self, name: &'a str) -> &'a str {
        self.aliases.get(name).map_or(name, String::as_str)
    }

    /// The atom `t` with a shown name read back as the relation it stands for.
    fn unalias(&self, t: Term) -> Term {
        match self.aliases.iter().find(|(_, a)| t.name() == Some(a.as_str())) {
            Some((internal, _)) => with_name(&t, internal),
            None => t,
        }
    }

    /// Explains the atom written `query` at `step` (default: see `default_step`).
    pub fn explain_text(&mut self, query: &str, step: Option<usize>) -> Result<Explanation> {
        let t = self.unalias(parse_atom(query)?);
        let step = step.unwrap_or_else(|| self.default_step(&t));
        let atom = self.atom(&t)?;
        self.explain(step, &atom)
    }

    /// The explanation of `query` with the premises' own explanations filled in, `depth`
    /// levels deep.
    pub fn tree(&mut self, query: &str, step: Option<usize>, depth: usize) -> Result<Explanation> {
        let mut e = self.explain_text(query, step)?;
        if depth > 0 {
            for d in &mut e.derivations {
                for p in &mut d.premises {
                    if let Some(a) = &p.atom {
                        p.detail = Some(Box::new(self.tree(a, Some(p.step), depth - 1)?));
                    }
                }
            }
        }
        Ok(e)
    }

    fn explain(&mut self, step: usize, atom: &Atom) -> Result<Explanation> {
        if step > self.moves() {
            return Err(format!("step {step} is beyond the path ({} moves)", self.moves()));
        }
        let (name, args) = atom;
        let text = self.text(atom);
        let rel = self.rel(name, args.len());
        if rel.is_some_and(|r| self.on_moves[r]) && step >= self.moves() {
            return Err(format!(
                "{text} depends on the moves played, and no move has been played from position {step} yet"
            ));
        }
        match (name.as_str(), args.as_slice()) {
            ("true", [f]) => return Ok(self.explain_fluent(step, *f, text)),
            ("does", [role, m]) => return Ok(self.explain_move(step, *role, *m, text)),
            _ => {}
        }
        self.model(step)?;
        let holds = search::holds(&self.m, name, args);
        let candidates: Vec<usize> =
            (0..self.rules.len()).filter(|&i| key(&self.rules[i].head) == (name.as_str(), args.len())).collect();
        if candidates.is_empty() {
            let summary = match rel {
                Some(_) => format!("{text} does not hold: no rule has {name} in its head"),
                None => format!("{text} does not hold: the rules never mention {name}/{}", args.len()),
            };
            return Ok(Explanation {
                atom: text,
                step,
                in_move: false,
                holds: false,
                summary,
                derivations: Vec::new(),
            });
        }
        let ranks = if holds { self.ranks_for(step, name, args.len())? } else { None };
        let limit = ranks.as_ref().map(|r| r.1.get(atom).copied().unwrap_or(u32::MAX));
        let mut derivations = Vec::new();
        for i in candidates {
            if let Some(d) = self.derive(step, i, args, holds, ranks.as_ref(), limit) {
                derivations.push(d);
                if holds {
                    break;
                }
            }
        }
        let summary = match (holds, derivations.first()) {
            (true, Some(d)) if d.premises.is_empty() => format!("{text} holds: it is a fact on line {}", d.line),
            (true, Some(d)) => format!("{text} holds by the rule on line {}", d.line),
            (true, None) => format!("{text} holds, but no derivation was found within the search limit"),
            (false, _) if derivations.is_empty() => format!("{text} does not hold: no rule's head matches it"),
            (false, _) => format!("{text} does not hold: each rule that could derive it fails"),
        };
        let in_move = rel.is_some_and(|r| self.on_moves[r]);
        Ok(Explanation { atom: text, step, in_move, holds, summary, derivations })
    }

    /// One derivation by rule `i` of the atom with arguments `args`: an instance whose
    /// body holds, or the best failed attempt. None when the head does not match.
    fn derive(
        &self,
        step: usize,
        i: usize,
        args: &[TermId],
        holds: bool,
        ranks: Option<&(usize, Ranks)>,
        limit: Option<u32>,
    ) -> Option<Derivation> {
        let rule = &self.rules[i];
        let store = self.m.store();
        let mut head = Bindings::new();
        if !rule.head.args().iter().zip(args).all(|(p, &x)| matches(store, p, x, &mut head)) {
            return None;
        }
        let accept = |name: &str, tuple: &[TermId]| match (ranks, limit) {
            (Some((c, r)), Some(limit)) if self.rel(name, tuple.len()).map(|x| self.component[x].0) == Some(*c) => {
                r.get(&(name.to_string(), tuple.to_vec())).is_some_and(|&k| k < limit)
            }
            _ => true,
        };
        let mut s = Search::new(&self.m, rule, &accept);
        let mut b = head.clone();
        s.run(&mut b);
        let note = s.stopped().then(|| format!("the search stopped after {} facts", search::MAX_SEARCH_STEPS));
        let (bindings, failed) = match s.found.first() {
            Some(found) => (found.clone(), None),
            None if holds => return None,
            None => match &s.best {
                Some((depth, best)) => (best.clone(), Some(*depth)),
                None => (head, Some(0)),
            },
        };
        let shown = failed.map_or(s.order.len(), |d| d + 1);
        let premises = s.order[..shown.min(s.order.len())]
            .iter()
            .enumerate()
            .map(|(k, &j)| self.premise(step, &rule.body[j], &bindings, failed != Some(k)))
            .collect();
        let body: Vec<String> = rule.body.iter().map(|l| show_literal(store, l, &bindings)).collect();
        Some(Derivation {
            rule: rule_text(rule),
            line: self.lines[i],
            instance: with_body(show(store, &rule.head, &bindings), &body),
            premises,
            failed,
            note,
        })
    }

    fn premise(&self, step: usize, l: &NLit, b: &Bindings, holds: bool) -> Premise {
        let store = self.m.store();
        let literal = show_literal(store, l, b);
        let shown = |t: &Term| match self.aliases.get(key(t).0) {
            Some(alias) => show(store, &with_name(t, alias), b),
            None => show(store, t, b),
        };
        let (atom, atom_holds) = match l {
            NLit::Pos(t) if is_bound(t, b) => (Some(shown(t)), holds),
            NLit::Neg(t) if is_bound(t, b) => (Some(shown(t)), !holds),
            _ => (None, holds),
        };
        Premise { literal, holds, atom, step, atom_holds, detail: None }
    }

    /// A fluent holds after move k because `next` derived it in move k (or `init` at the start).
    fn explain_fluent(&mut self, step: usize, f: TermId, text: String) -> Explanation {
        let holds = self.states[step].contains(&f);
        let fluent = self.m.store().text(f).to_string();
        let (source, at, rule, when) = if step == 0 {
            (format!("(init {fluent})"), 0, "(init ?f) gives the initial state".to_string(), "initially".to_string())
        } else {
            (
                format!("(next {fluent})"),
                step - 1,
                "(next ?f) in one position gives the fluents of the next".to_string(),
                format!("after move {step}"),
            )
        };
        let summary = format!(
            "{fluent} {} in the state {when}, because {source} {}",
            if holds { "is" } else { "is not" },
            if holds { "held" } else { "did not hold" }
        );
        let premise =
            Premise { literal: source.clone(), holds, atom: Some(source), step: at, atom_holds: holds, detail: None };
        let derivation = Derivation {
            rule,
            line: 0,
            instance: format!("{text} :- {}", premise.literal),
            premises: vec![premise],
            failed: (!holds).then_some(0),
            note: None,
        };
        Explanation { atom: text, step, in_move: false, holds, summary, derivations: vec![derivation] }
    }

    fn explain_move(&self, step: usize, role: TermId, m: TermId, text: String) -> Explanation {
        let store = self.m.store();
        let who = store.text(role);
        let (holds, summary) = match self.roles.iter().position(|r| r == who) {
            None => (false, format!("{text} does not hold: {who} is not a role")),
            Some(r) => {
                let played = self.joints[step][r];
                let verb = if played == m { "holds" } else { "does not hold" };
                (played == m, format!("{text} {verb}: {who} played {} in move {}", store.text(played), step + 1))
            }
        };
        Explanation { atom: text, step, in_move: true, holds, summary, derivations: Vec::new() }
    }

    /// The derivation ranks of the component of `name/arity` at `step`, if it is recursive:
    /// round k of a naive bottom-up evaluation of the component derives the atoms of rank k.
    fn ranks_for(&mut self, step: usize, name: &str, arity: usize) -> Result<Option<(usize, Ranks)>> {
        let Some(rel) = self.rel(name, arity) else { return Ok(None) };
        let (c, recursive) = self.component[rel];
        if !recursive {
            return Ok(None);
        }
        if let Some(r) = self.ranks.get(&(step, c)) {
            return Ok(Some((c, r.clone())));
        }
        let in_component = |e: &Explainer, t: &Term| {
            let (n, a) = key(t);
            e.rel(n, a).is_some_and(|x| e.component[x].0 == c)
        };
        let rules: Vec<usize> = (0..self.rules.len()).filter(|&i| in_component(self, &self.rules[i].head)).collect();
        let mut ranks = Ranks::default();
        for round in 1.. {
            let mut new = Vec::new();
            for &i in &rules {
                let rule = &self.rules[i];
                let accept = |n: &str, tuple: &[TermId]| {
                    self.rel(n, tuple.len()).is_none_or(|x| self.component[x].0 != c)
                        || ranks.get(&(n.to_string(), tuple.to_vec())).is_some_and(|&k| k < round)
                };
                let mut s = Search::new(&self.m, rule, &accept);
                s.first_only = false;
                s.run(&mut Bindings::new());
                if s.stopped() {
                    return Err(format!("explaining {name} needs more than {} search steps", search::MAX_SEARCH_STEPS));
                }
                let store = self.m.store();
                for b in &s.found {
                    let args: Option<Vec<TermId>> = rule.head.args().iter().map(|a| ground(store, a, b)).collect();
                    if let Some(args) = args {
                        let atom = (key(&rule.head).0.to_string(), args);
                        if !ranks.contains_key(&atom) {
                            new.push(atom);
                        }
                    }
                }
            }
            if new.is_empty() {
                break;
            }
            for a in new {
                ranks.entry(a).or_insert(round);
            }
        }
        self.ranks.insert((step, c), ranks.clone());
        Ok(Some((c, ranks)))
    }
}

fn intern(store: &mut crate::term::TermStore, t: &Term) -> Result<TermId> {
    let (name, args) = (t.name().unwrap_or(""), t.args());
    let mut ids = Vec::new();
    for a in args {
        ids.push(intern(store, a)?);
    }
    let sym = store.symbol(name);
    store.intern(sym, &ids).map_err(|_| format!("the query {t} is nested too deeply"))
}

fn with_body(head: String, body: &[String]) -> String {
    if body.is_empty() {
        head
    } else {
        format!("(<= {head} {})", body.join(" "))
    }
}

fn rule_text(rule: &NRule) -> String {
    let body: Vec<String> = rule.body.iter().map(ToString::to_string).collect();
    with_body(rule.head.to_string(), &body)
}

#[cfg(test)]
mod tests;
