//! UCT: Monte Carlo tree search choosing with UCB1, one new node and one random playout per
//! iteration. Decoupled for simultaneous moves: in each node every role keeps visits and
//! total score for each of its own legal moves and picks its move on those alone, so the
//! same search serves turn-taking games (the other roles have one move) and simultaneous
//! ones. The tree is built afresh for every move; the chosen move is the most visited.
//!
//! Factored (`Uct::factored`, after Cox et al. 2009): when the engine knows the game's
//! factors, each factor the role can move in (among those terminal and the goals read)
//! is searched apart, with a share of the budget: the tree holds only that factor's moves
//! and the moves in no factor (`noop`), for every role; playouts stay random over the whole
//! game. The move played is the best of the factor whose best move scores highest.

use super::{legal, scores, simulate, Budget, Decision, Player, Report, Reports, View};
use crate::machine::{Result, StateMachine};
use crate::rng::Rng;
use rustc_hash::{FxHashMap, FxHashSet};

/// The exploration constant of UCB1, on scores between 0 and 1.
pub const EXPLORATION: f64 = 0.7;
/// Most nodes one search keeps; past it, iterations still run playouts, without growing the tree.
pub const MAX_NODES: usize = 1_000_000;

pub struct Uct {
    rng: Rng,
    budget: Budget,
    reports: Reports,
    /// Search each factor apart when the engine knows the factors.
    factored: bool,
}

impl Uct {
    pub fn new(seed: u64, budget: Budget) -> Uct {
        Uct { rng: Rng::new(seed), budget, reports: Reports::default(), factored: false }
    }

    /// The factored search (see the module's doc).
    pub fn factored(seed: u64, budget: Budget) -> Uct {
        Uct { factored: true, ..Uct::new(seed, budget) }
    }
}

/// The moves a search keeps: `(role, move text)`; a role with none of its legal moves kept
/// keeps them all.
type Focus = FxHashSet<(usize, String)>;

/// Visits and total score of one move of one role in one node.
#[derive(Clone, Copy, Default)]
struct Stat {
    visits: u32,
    total: f64,
}

impl Stat {
    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / self.visits as f64
        }
    }
}

struct Node<M: StateMachine> {
    state: M::State,
    /// Scores when the state is terminal.
    end: Option<Vec<f64>>,
    /// Legal moves per role (empty when terminal).
    moves: Vec<Vec<M::Move>>,
    /// Per role, per legal move.
    stats: Vec<Vec<Stat>>,
    visits: u32,
    /// Child by the index of each role's move.
    children: FxHashMap<Vec<u32>, usize>,
}

struct Tree<'a, M: StateMachine> {
    m: &'a mut M,
    rng: &'a mut Rng,
    nodes: Vec<Node<M>>,
    focus: Option<&'a Focus>,
}

impl<M: StateMachine> Tree<'_, M> {
    fn node(&mut self, state: M::State) -> Result<Node<M>> {
        let roles = self.m.roles().len();
        let (end, moves) = if self.m.is_terminal(&state)? {
            (Some(scores(&self.m.goals(&state)?)), vec![Vec::new(); roles])
        } else {
            let mut moves: Vec<Vec<M::Move>> = (0..roles).map(|r| legal(self.m, &state, r)).collect::<Result<_>>()?;
            if let Some(focus) = self.focus {
                for (r, all) in moves.iter_mut().enumerate() {
                    let kept: Vec<M::Move> =
                        all.iter().copied().filter(|&mv| focus.contains(&(r, self.m.move_text(mv)))).collect();
                    if !kept.is_empty() {
                        *all = kept;
                    }
                }
            }
            (None, moves)
        };
        let stats = moves.iter().map(|ms: &Vec<M::Move>| vec![Stat::default(); ms.len()]).collect();
        Ok(Node { state, end, moves, stats, visits: 0, children: FxHashMap::default() })
    }

    /// Each role's move in node `n` by UCB1 on its own statistics (an untried move first,
    /// drawn at random among the untried).
    fn select(&mut self, n: usize) -> Vec<u32> {
        let node = &self.nodes[n];
        let log_n = (node.visits.max(1) as f64).ln();
        let mut pick = Vec::with_capacity(node.stats.len());
        for stats in &node.stats {
            let untried: Vec<usize> = (0..stats.len()).filter(|&i| stats[i].visits == 0).collect();
            let chosen = if !untried.is_empty() {
                untried[self.rng.below(untried.len())]
            } else {
                let ucb = |s: &Stat| s.mean() + EXPLORATION * (log_n / s.visits as f64).sqrt();
                (0..stats.len()).fold(0, |b, i| if ucb(&stats[i]) > ucb(&stats[b]) { i } else { b })
            };
            pick.push(chosen as u32);
        }
        pick
    }

    /// One iteration: down the tree, one new node, a playout, scores back up.
    fn iterate(&mut self) -> Result<()> {
        let mut path: Vec<(usize, Vec<u32>)> = Vec::new();
        let mut n = 0;
        let values = loop {
            if let Some(end) = &self.nodes[n].end {
                break end.clone();
            }
            let pick = self.select(n);
            if let Some(&child) = self.nodes[n].children.get(&pick) {
                path.push((n, pick));
                n = child;
                continue;
            }
            let node = &self.nodes[n];
            let joint: Vec<M::Move> = pick.iter().enumerate().map(|(r, &i)| node.moves[r][i as usize]).collect();
            let next = self.m.next_state(&node.state, &joint)?;
            path.push((n, pick.clone()));
            if self.nodes.len() >= MAX_NODES {
                break simulate(self.m, &next, self.rng)?;
            }
            let child = self.node(next)?;
            let values = match &child.end {
                Some(end) => end.clone(),
                None => simulate(self.m, &child.state, self.rng)?,
            };
            self.nodes.push(child);
            let id = self.nodes.len() - 1;
            self.nodes[n].children.insert(pick, id);
            n = id;
            break values;
        };
        self.nodes[n].visits += 1;
        for (n, pick) in path {
            let node = &mut self.nodes[n];
            node.visits += 1;
            for (r, &i) in pick.iter().enumerate() {
                let s = &mut node.stats[r][i as usize];
                s.visits += 1;
                s.total += values[r];
            }
        }
        Ok(())
    }
}

/// The move a search would choose now, as an index among the role's moves: the most visited
/// at the root (then the best mean).
fn best(stats: &[Stat], playouts: u64) -> Decision<usize> {
    let better = |a: &Stat, b: &Stat| (a.visits, a.mean()) > (b.visits, b.mean());
    let b = (0..stats.len()).fold(0, |b, i| if better(&stats[i], &stats[b]) { i } else { b });
    Decision { chosen: b, playouts, expects: (stats[b].visits > 0).then(|| 100.0 * stats[b].mean()) }
}

impl Uct {
    /// One search from `state` within `budget`, kept to `focus`: the root's moves of the
    /// role, their statistics, and the playouts run.
    fn search<M: StateMachine>(
        &mut self,
        m: &mut M,
        state: &M::State,
        role: usize,
        budget: Budget,
        focus: Option<&Focus>,
        now: &dyn Fn() -> f64,
    ) -> Result<(Vec<M::Move>, Vec<Stat>, u64)> {
        let mut tree = Tree { m, rng: &mut self.rng, nodes: Vec::new(), focus };
        let root = tree.node(state.clone())?;
        tree.nodes.push(root);
        let mut stop = budget.stop(now);
        let mut done = 0;
        while !stop.reached(done, now) {
            tree.iterate()?;
            done += 1;
            self.reports.tick(now, || best(&tree.nodes[0].stats[role], done));
        }
        let root = tree.nodes.swap_remove(0);
        Ok((
            root.moves.into_iter().nth(role).unwrap_or_default(),
            root.stats.into_iter().nth(role).unwrap_or_default(),
            done,
        ))
    }

    /// The focus of each factor the role can move in, among those terminal and the goals
    /// read when it can move in one of these (empty: search the whole game).
    fn factor_focuses<M: StateMachine>(m: &M, mine: &[M::Move], role: usize) -> Vec<Focus> {
        let Some(f) = m.factors().filter(|f| f.factors.len() > 1) else { return Vec::new() };
        let roles = m.roles();
        let mut own: Vec<usize> =
            mine.iter().filter_map(|&mv| f.factor_of_move(&roles[role], &m.move_text(mv))).collect();
        own.sort_unstable();
        own.dedup();
        let relevant = &f.relevant;
        if own.iter().any(|k| relevant.contains(k)) {
            own.retain(|k| relevant.contains(k));
        }
        let index = |name: &str| roles.iter().position(|r| r == name).expect("a role of the game");
        own.iter()
            .map(|&k| {
                let moves = f.factors[k].moves.iter().chain(&f.free_moves).filter(|mv| mv.role == roles[role]);
                moves.map(|mv| (index(&mv.role), mv.text.clone())).collect()
            })
            .collect()
    }
}

impl<M: StateMachine> Player<M> for Uct {
    fn choose(&mut self, m: &mut M, view: View<'_, M>, now: &dyn Fn() -> f64) -> Result<Decision<M::Move>> {
        let (state, role) = (view.true_state("uct")?, view.role());
        let mine = legal(m, state, role)?;
        if mine.len() == 1 {
            return Ok(Decision { chosen: mine[0], playouts: 0, expects: None });
        }
        self.reports.start(now);
        let focuses = if self.factored { Uct::factor_focuses(m, &mine, role) } else { Vec::new() };
        if focuses.len() <= 1 {
            let (moves, stats, done) = self.search(m, state, role, self.budget, focuses.first(), now)?;
            return Ok(best(&stats, done).of(&moves));
        }
        // Each factor apart, with an equal share of the budget; the best factor's best move.
        let share = self.budget.share(focuses.len() as u64);
        let mut chosen: Option<(Decision<M::Move>, f64)> = None;
        let mut playouts = 0;
        for focus in &focuses {
            let (moves, stats, done) = self.search(m, state, role, share, Some(focus), now)?;
            playouts += done;
            let d = best(&stats, done);
            let mean = stats[d.chosen].mean();
            if chosen.as_ref().is_none_or(|(_, b)| mean > *b) {
                chosen = Some((d.of(&moves), mean));
            }
        }
        let (d, _) = chosen.expect("at least two factors searched");
        Ok(Decision { playouts, ..d })
    }

    fn report_to(&mut self, report: Report) {
        self.reports = Reports::new(report);
    }
}
