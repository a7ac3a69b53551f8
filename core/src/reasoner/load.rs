//! Loading normal rules into a reasoner, step by step: the relations' dependency graph
//! (every keyword in it, stratified), its components in dependency order with when each is
//! recomputed (`Layout`), the components each query evaluates, then every component
//! compiled in order, the static ones evaluated at once so that later bodies are ordered
//! knowing their sizes, and last the roles and the initial state read off the facts.

use super::compile::{compile_rule, parts, Parts, RelId, Relations};
use super::domains::Domains;
use super::sizes::Sizes;
use super::store::RelStore;
use super::{sorted_state, Component, Deadline, Limits, LoadFailure, Phase, Reasoner, Scratch, State};
use crate::deps::DepGraph;
use crate::diagnostic::Diagnostic;
use crate::machine::RuntimeError;
use crate::program::{graph_of, NRule, Program};
use crate::term::TermStore;

/// The keyword relations every reasoner knows, defined by the game or not (the queries and
/// the state read them).
const KEYWORDS: [(&str, usize); 9] = [
    ("true", 1),
    ("does", 2),
    ("legal", 2),
    ("goal", 2),
    ("terminal", 0),
    ("next", 1),
    ("role", 1),
    ("init", 1),
    ("sees", 2),
];

/// The graph's components in dependency order, the component of each relation, and when
/// each component must be recomputed.
struct Layout {
    sccs: Vec<Vec<usize>>,
    comp_of: Vec<usize>,
    phase: Vec<Phase>,
}

impl Layout {
    fn new(graph: &DepGraph) -> Layout {
        let sccs = graph.sccs();
        let mut comp_of = vec![0usize; graph.rels.len()];
        for (c, scc) in sccs.iter().enumerate() {
            for &r in scc {
                comp_of[r] = c;
            }
        }
        let (r_true, r_does) = (graph.get("true", 1), graph.get("does", 2));
        let mut phase = vec![Phase::Static; sccs.len()];
        for (c, scc) in sccs.iter().enumerate() {
            let mut p = Phase::Static;
            for &r in scc {
                if Some(r) == r_true {
                    p = p.max(Phase::State);
                }
                if Some(r) == r_does {
                    p = Phase::Move;
                }
                for e in &graph.edges[r] {
                    p = p.max(phase[comp_of[e.to]]);
                }
            }
            phase[c] = p;
        }
        Layout { sccs, comp_of, phase }
    }

    /// The components `name/arity` depends on (itself included), in dependency order.
    fn plan(&self, graph: &DepGraph, name: &str, arity: usize) -> Vec<usize> {
        let root = graph.get(name, arity).expect("every keyword is in the graph");
        let reach = graph.reachable([root]);
        (0..self.sccs.len()).filter(|&c| self.sccs[c].iter().any(|&r| reach[r])).collect()
    }
}

/// The rules a reasoner loads (a rule for `true` or `does` defines nothing: the state and
/// the moves are given) and their dependency graph, the program's own when no rule is left
/// out, with every keyword in it; or the negation cycle that makes the rules unstratified.
fn stratified(program: Program) -> Result<(Vec<NRule>, DepGraph), LoadFailure> {
    let given = |r: &NRule| matches!(r.head.name(), Some("true" | "does"));
    let (rules, mut graph) = if program.rules().iter().any(given) {
        let rules: Vec<NRule> = program.into_rules().into_iter().filter(|r| !given(r)).collect();
        let graph = graph_of(&rules);
        (rules, graph)
    } else {
        program.into_parts()
    };
    for (name, arity) in KEYWORDS {
        graph.id((name.to_string(), arity));
    }
    if let Some((cycle, span)) = graph.negative_cycle() {
        let names: Vec<String> = cycle.iter().chain(cycle.first()).map(|&r| graph.name(r)).collect();
        return Err(LoadFailure::Invalid(Diagnostic::error(
            "unstratified",
            span,
            format!("negation cycle: {} (a relation may not depend on itself through 'not')", names.join(" → ")),
        )));
    }
    Ok((rules, graph))
}

impl Reasoner {
    /// Loads a program; every evaluation until `loaded` shares `load_deadline`.
    pub(super) fn build_within(
        program: Program,
        limits: Limits,
        load_deadline: Option<Deadline>,
    ) -> Result<Reasoner, LoadFailure> {
        Reasoner::build_within_while(program, limits, load_deadline, &mut |_| true)
    }

    /// Loads like `build_within` while `go_on` says so after each static component it
    /// evaluates (and each round of a recursive one); a load it stops fails with a limit
    /// that names no relation (the caller that stopped it knows why).
    pub(super) fn build_within_while(
        program: Program,
        limits: Limits,
        load_deadline: Option<Deadline>,
        go_on: &mut dyn FnMut(&Reasoner) -> bool,
    ) -> Result<Reasoner, LoadFailure> {
        let (rules, graph) = stratified(program)?;
        let layout = Layout::new(&graph);
        let mut rels = Relations::default();
        // Relation ids follow the graph's ids, so components translate directly.
        for (name, arity) in &graph.rels {
            rels.id(name, *arity);
        }
        let comps: Vec<Component> = (layout.sccs.iter().zip(&layout.phase))
            .map(|(scc, &phase)| Component {
                rels: scc.iter().map(|&r| r as RelId).collect(),
                rules: Vec::new(),
                recursive: graph.is_recursive(scc),
                phase,
            })
            .collect();
        let plans = ["legal", "terminal", "goal", "next", "sees"].map(|name| {
            let arity = KEYWORDS.iter().find(|k| k.0 == name).expect("a keyword").1;
            layout.plan(&graph, name, arity)
        });
        let mut needed_static = vec![false; comps.len()];
        let (roles, init) = (layout.plan(&graph, "role", 1), layout.plan(&graph, "init", 1));
        for &c in plans.iter().flatten().chain(&roles).chain(&init) {
            needed_static[c] = comps[c].phase == Phase::Static;
        }
        let mut rules_of: Vec<Vec<&NRule>> = vec![Vec::new(); comps.len()];
        for r in &rules {
            let h = graph.get(r.head.name().expect("named"), r.head.args().len()).expect("in graph");
            rules_of[layout.comp_of[h]].push(r);
        }
        let defines_sees = rules.iter().any(|r| r.head.name() == Some("sees") && r.head.args().len() == 2);
        let mut r = Reasoner::empty(rels, comps, plans, limits, load_deadline, defines_sees);
        r.sizes = r.compile_in_order(&rules_of, &layout.comp_of, &needed_static, go_on)?;
        r.read_roles_and_init();
        Ok(r)
    }

    /// A reasoner over these relations and components, nothing compiled nor derived yet.
    fn empty(
        mut rels: Relations,
        comps: Vec<Component>,
        plans: [Vec<usize>; 5],
        limits: Limits,
        load_deadline: Option<Deadline>,
        defines_sees: bool,
    ) -> Reasoner {
        let n = comps.len();
        Reasoner {
            delta: vec![(0, 0); rels.keys.len()],
            facts: rels.keys.iter().map(|k| RelStore::new(k.1)).collect(),
            r_true: rels.id("true", 1),
            r_does: rels.id("does", 2),
            r_legal: rels.id("legal", 2),
            r_goal: rels.id("goal", 2),
            r_terminal: rels.id("terminal", 0),
            r_next: rels.id("next", 1),
            r_sees: rels.id("sees", 2),
            defines_sees,
            name: "reasoner",
            store: TermStore::with_max_depth(limits.max_term_depth),
            rels,
            comps,
            plans,
            done: vec![false; n],
            current_state: None,
            trues: State::from(vec![]),
            trues_in_order: true,
            current_moves: None,
            role_names: Vec::new(),
            role_terms: Vec::new(),
            init: State::from(vec![]),
            limits,
            scratch: Scratch::default(),
            budget: 0,
            deadline: load_deadline,
            load_deadline,
            work: 0,
            work_cap: u64::MAX,
            sizes: Sizes::default(),
            tabled: None,
            domains: None,
            sorted_moves: Vec::new(),
            loads: 1,
        }
    }

    /// Compiles every component's rules: static components first, in dependency order, each
    /// evaluated right after being compiled (when a query needs it), so that later rules are
    /// ordered knowing the static relations' sizes; then the others, knowing also what the
    /// initial state looks like. Returns the sizes that ordered the bodies.
    fn compile_in_order(
        &mut self,
        rules_of: &[Vec<&NRule>],
        comp_of: &[usize],
        needed_static: &[bool],
        go_on: &mut dyn FnMut(&Reasoner) -> bool,
    ) -> Result<Sizes, LoadFailure> {
        let mut sizes = Sizes::new(self.facts.len(), self.r_does);
        let r_init = self.rels.id("init", 1);
        let n = self.comps.len();
        let (fixed, moving): (Vec<usize>, Vec<usize>) = (0..n).partition(|&c| self.comps[c].phase == Phase::Static);
        let first_moving = moving.first().copied();
        // The state and move components' rules, once their domains dropped implied tests.
        let mut moving_parts = Vec::new().into_iter();
        for c in fixed.into_iter().chain(moving.iter().copied()) {
            if Some(c) == first_moving {
                // Every static relation is known: so is the initial state, and what the
                // dynamic rules can derive from them.
                let init = &self.facts[r_init as usize];
                let tuples = (0..init.len()).map(|i| init.tuple(i));
                sizes.measure_tuples(self.r_true, init.len(), tuples, false, &self.store);
                let mut groups = Vec::new();
                for &m in &moving {
                    let group = rules_of[m].iter().map(|rule| parts(rule, &mut self.store, &mut self.rels));
                    groups.push(group.collect::<Result<Vec<_>, _>>()?);
                }
                let domains = self.infer_domains(&groups, comp_of, needed_static);
                groups.iter_mut().flatten().for_each(|p| domains.drop_implied_tests(&mut p.body));
                moving_parts = groups.into_iter();
                self.domains = Some(domains);
            }
            let group = match self.comps[c].phase {
                Phase::Static => rules_of[c].iter().map(|rule| parts(rule, &mut self.store, &mut self.rels)).collect(),
                _ => Ok(moving_parts.next().expect("one group per moving component")),
            };
            let mut crules = Vec::new();
            for (rule, parts) in rules_of[c].iter().zip(&group?) {
                let same = |rel: RelId| comp_of[rel as usize] == c;
                let estimate =
                    |rel: RelId, args: &[super::compile::Pat], bound: &[bool]| sizes.estimate(rel, args, bound);
                crules.push(compile_rule(
                    rule,
                    parts,
                    &mut self.store,
                    &mut self.rels,
                    &mut self.facts,
                    &same,
                    &estimate,
                )?);
            }
            self.comps[c].rules = crules;
            if needed_static[c] {
                if !self.evaluate_while(&[c], go_on).map_err(LoadFailure::Limit)? {
                    return Err(LoadFailure::Limit(RuntimeError::new("the load was stopped")));
                }
                for &rel in &self.comps[c].rels {
                    sizes.measure(rel, &self.facts[rel as usize], &self.store);
                }
            }
        }
        Ok(sizes)
    }

    /// The argument domains once the static relations are evaluated: those evaluated hold
    /// their facts exactly, the rules of the others (`groups`: the state and move ones, by
    /// component in order) widen theirs.
    fn infer_domains(&mut self, groups: &[Vec<Parts>], comp_of: &[usize], evaluated: &[bool]) -> Domains {
        self.grow_stores();
        let exact = (0..self.facts.len()).map(|r| comp_of.get(r).is_some_and(|&c| evaluated[c])).collect();
        Domains::infer(&self.facts, exact, groups)
    }

    /// Gives every relation named since the stores were made an empty store (and delta).
    pub(super) fn grow_stores(&mut self) {
        while self.facts.len() < self.rels.keys.len() {
            self.facts.push(RelStore::new(self.rels.keys[self.facts.len()].1));
            self.delta.push((0, 0));
        }
    }

    /// The roles (in the order their facts were derived) and the initial state, read off
    /// the static facts.
    fn read_roles_and_init(&mut self) {
        let roles = &self.facts[self.rels.id("role", 1) as usize];
        self.role_terms = (0..roles.len()).map(|i| roles.tuple(i)[0]).collect();
        self.role_names = self.role_terms.iter().map(|&t| self.store.text(t).to_string()).collect();
        let init = &self.facts[self.rels.id("init", 1) as usize];
        self.init = sorted_state((0..init.len()).map(|i| init.tuple(i)[0]).collect());
    }
}
