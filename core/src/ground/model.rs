//! Truth values of a ground program in one position: which atoms hold and which rules fire,
//! given the fluents of a state and the moves chosen so far. The page shows the ground program
//! beside the game with it (the propositional network's view of the position, rule by rule).
//!
//! Atoms are numbered in order of first appearance; `(true f)` holds when `f` is in the state,
//! `(does r m)` when the move is chosen, every other atom when one of its rules fires. Derived
//! atoms are evaluated component by component, dependencies first (a ground program of a
//! stratified game is stratified: negation only reads earlier components; positive recursion
//! is iterated to its least fixpoint). Invariant: `rules_of[a]` lists exactly the rules with
//! head `a`, `used_by[a]` exactly the rules with `a` in their body.

use super::Ground;
use crate::deps::sccs;
use crate::term::TermId;
use rustc_hash::FxHashMap;

/// What an atom of the ground program is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `(true f)`: read from the state.
    True,
    /// `(does r m)`: read from the moves chosen.
    Does,
    /// Everything else: holds when one of its rules fires.
    Derived,
}

/// A ground program indexed for evaluation.
pub struct Model {
    /// Atom terms, by atom number.
    pub atoms: Vec<TermId>,
    pub kinds: Vec<Kind>,
    /// Per rule, its head atom.
    pub heads: Vec<u32>,
    /// Rule `r`'s body: `body[starts[r]..starts[r + 1]]`, `(negated, atom)`.
    starts: Vec<u32>,
    body: Vec<(bool, u32)>,
    /// Per atom, the rules that define it and the rules that read it.
    pub rules_of: Vec<Vec<u32>>,
    pub used_by: Vec<Vec<u32>>,
    /// Derived atoms in components, dependencies first, with whether each is recursive.
    order: Vec<(Vec<u32>, bool)>,
    /// `(true f)` atoms by the canonical text of `f`; `(does r m)` atoms by `(r, m)` texts.
    fluent_atoms: FxHashMap<String, u32>,
    move_atoms: FxHashMap<(String, String), u32>,
}

/// The truth values of one position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Values {
    /// Per atom: 1 if it holds.
    pub atoms: Vec<u8>,
    /// Per rule: 1 if every body literal holds.
    pub fires: Vec<u8>,
}

impl Model {
    pub fn new(g: &Ground) -> Model {
        let store = g.store();
        let mut index: FxHashMap<TermId, u32> = FxHashMap::default();
        let mut m = Model {
            atoms: Vec::new(),
            kinds: Vec::new(),
            heads: Vec::with_capacity(g.rule_count()),
            starts: vec![0],
            body: Vec::new(),
            rules_of: Vec::new(),
            used_by: Vec::new(),
            order: Vec::new(),
            fluent_atoms: FxHashMap::default(),
            move_atoms: FxHashMap::default(),
        };
        let mut number = |m: &mut Model, t: TermId| -> u32 {
            *index.entry(t).or_insert_with(|| {
                let a = m.atoms.len() as u32;
                let args = store.args(t);
                let kind = match (store.symbol_name(store.sym(t)), args) {
                    ("true", [f]) => {
                        m.fluent_atoms.insert(store.text(*f).to_string(), a);
                        Kind::True
                    }
                    ("does", [r, mv]) => {
                        m.move_atoms.insert((store.text(*r).to_string(), store.text(*mv).to_string()), a);
                        Kind::Does
                    }
                    _ => Kind::Derived,
                };
                m.atoms.push(t);
                m.kinds.push(kind);
                m.rules_of.push(Vec::new());
                m.used_by.push(Vec::new());
                a
            })
        };
        for r in 0..g.rule_count() {
            let (head, body) = g.rule(r);
            let h = number(&mut m, head);
            m.heads.push(h);
            m.rules_of[h as usize].push(r as u32);
            for (neg, t) in body {
                let a = number(&mut m, t);
                m.body.push((neg, a));
                if m.used_by[a as usize].last() != Some(&(r as u32)) {
                    m.used_by[a as usize].push(r as u32);
                }
            }
            m.starts.push(m.body.len() as u32);
        }
        // Atom `a` depends on the body atoms of its rules: edges in rule order.
        let deps: Vec<Vec<u32>> = m
            .rules_of
            .iter()
            .map(|rs| rs.iter().flat_map(|&r| m.body_of(r).iter().map(|&(_, b)| b)).collect())
            .collect();
        for comp in sccs(m.atoms.len(), |v, i| deps[v].get(i).map(|&w| w as usize)) {
            let recursive = comp.len() > 1 || deps[comp[0]].contains(&(comp[0] as u32));
            let derived: Vec<u32> =
                comp.into_iter().filter(|&a| m.kinds[a] == Kind::Derived).map(|a| a as u32).collect();
            if !derived.is_empty() {
                m.order.push((derived, recursive));
            }
        }
        m
    }

    /// Rule `r`'s body literals, `(negated, atom)`.
    pub fn body_of(&self, r: u32) -> &[(bool, u32)] {
        &self.body[self.starts[r as usize] as usize..self.starts[r as usize + 1] as usize]
    }

    /// The `(true f)` atom of fluent text `f`, if the program reads it.
    pub fn fluent_atom(&self, f: &str) -> Option<u32> {
        self.fluent_atoms.get(f).copied()
    }

    /// The `(does role m)` atom, if the program reads it.
    pub fn move_atom(&self, role: &str, m: &str) -> Option<u32> {
        self.move_atoms.get(&(role.to_string(), m.to_string())).copied()
    }

    /// The truth values when the state holds `fluents` (canonical texts) and each
    /// `(role, move)` of `moves` is chosen. Texts the program never reads change nothing.
    pub fn evaluate<'a>(
        &self,
        fluents: impl IntoIterator<Item = &'a str>,
        moves: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Values {
        let mut v = vec![0u8; self.atoms.len()];
        for a in fluents.into_iter().filter_map(|f| self.fluent_atom(f)) {
            v[a as usize] = 1;
        }
        for a in moves.into_iter().filter_map(|(r, m)| self.move_atom(r, m)) {
            v[a as usize] = 1;
        }
        let holds = |v: &[u8], r: u32| self.body_of(r).iter().all(|&(neg, b)| (v[b as usize] == 1) != neg);
        for (comp, recursive) in &self.order {
            loop {
                let mut changed = false;
                for &a in comp {
                    if v[a as usize] == 0 && self.rules_of[a as usize].iter().any(|&r| holds(&v, r)) {
                        v[a as usize] = 1;
                        changed = true;
                    }
                }
                if !recursive || !changed {
                    break;
                }
            }
        }
        let fires = (0..self.heads.len() as u32).map(|r| u8::from(holds(&v, r))).collect();
        Values { atoms: v, fires }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ground::{ground, Options};
    use crate::machine::StateMachine;
    use crate::parse::parse;
    use crate::reasoner::{Limits, Reasoner};
    use crate::rng::Rng;

    fn grounded(text: &str) -> Ground {
        ground(&parse(text).description, Options::default(), &|| 0.0, &mut |_| {}).unwrap()
    }

    fn holds(g: &Ground, m: &Model, v: &Values, atom: &str) -> bool {
        let a = m.atoms.iter().position(|&t| g.store().text(t) == atom).unwrap_or_else(|| panic!("no atom {atom}"));
        v.atoms[a] == 1
    }

    #[test]
    fn tictactoe_legal_next_and_rules_that_fire() {
        let g = grounded(include_str!("../../../games/tictactoe.kif"));
        let m = Model::new(&g);
        let init = ["(cell 1 1 b)", "(cell 1 2 b)", "(cell 1 3 b)", "(cell 2 1 b)", "(cell 2 2 b)"];
        let rest = ["(cell 2 3 b)", "(cell 3 1 b)", "(cell 3 2 b)", "(cell 3 3 b)", "(control x)"];
        let state: Vec<&str> = init.iter().chain(&rest).copied().collect();
        let v = m.evaluate(state.iter().copied(), [("x", "(mark 1 1)"), ("o", "noop")]);
        assert!(holds(&g, &m, &v, "(legal x (mark 2 2))"));
        assert!(holds(&g, &m, &v, "(legal o noop)"));
        assert!(!holds(&g, &m, &v, "(legal o (mark 2 2))"));
        assert!(holds(&g, &m, &v, "(next (cell 1 1 x))"));
        assert!(!holds(&g, &m, &v, "(next (cell 1 1 b))"));
        assert!(holds(&g, &m, &v, "(next (control o))"));
        assert!(!holds(&g, &m, &v, "terminal"));
        // A rule fires exactly when its body holds; facts always fire.
        for r in 0..m.heads.len() as u32 {
            let body = m.body_of(r).iter().all(|&(neg, a)| (v.atoms[a as usize] == 1) != neg);
            assert_eq!(v.fires[r as usize] == 1, body);
            if v.fires[r as usize] == 1 {
                assert_eq!(v.atoms[m.heads[r as usize] as usize], 1);
            }
        }
        // The index: the rules defining (legal x (mark 2 2)) read (true (cell 2 2 b)).
        let a = m.atoms.iter().position(|&t| g.store().text(t) == "(legal x (mark 2 2))").unwrap();
        let cell = m.fluent_atom("(cell 2 2 b)").unwrap();
        assert!(m.rules_of[a].iter().all(|&r| m.heads[r as usize] as usize == a));
        assert!(m.rules_of[a].iter().any(|&r| m.body_of(r).contains(&(false, cell))));
        assert!(m.used_by[cell as usize].iter().any(|r| m.rules_of[a].contains(r)));
    }

    /// Along random playouts of every game, the model agrees with the reasoner on every
    /// legal, goal, terminal and next atom (next under the joint move played).
    #[test]
    fn agrees_with_the_reasoner_on_our_games() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games");
        for name in ["tictactoe", "connectfour", "breakthrough", "nim", "rps", "eightpuzzle"] {
            let text = std::fs::read_to_string(dir.join(format!("{name}.kif"))).unwrap();
            let g = grounded(&text);
            let model = Model::new(&g);
            let mut r = Reasoner::new(&parse(&text).description, Limits::default()).unwrap();
            let mut rng = Rng::new(7);
            let mut state = r.initial_state();
            for _ in 0..30 {
                if r.is_terminal(&state).unwrap() {
                    break;
                }
                let roles = r.roles().to_vec();
                let mut joint = Vec::new();
                for i in 0..roles.len() {
                    let legal = r.legal_moves(&state, i).unwrap();
                    joint.push(legal[rng.below(legal.len())]);
                }
                let fluents = r.state_text(&state);
                let moves: Vec<(&str, String)> =
                    roles.iter().zip(&joint).map(|(role, &mv)| (role.as_str(), r.move_text(mv))).collect();
                let v = model.evaluate(fluents.iter().map(String::as_str), moves.iter().map(|(a, b)| (*a, b.as_str())));
                let next = r.next_state(&state, &joint).unwrap();
                let mut expected: Vec<String> = r.state_text(&next);
                expected.sort();
                let mut got: Vec<String> = (0..model.atoms.len())
                    .filter(|&a| v.atoms[a] == 1)
                    .filter_map(|a| {
                        g.store().text(model.atoms[a]).strip_prefix("(next ").map(|s| s[..s.len() - 1].to_string())
                    })
                    .collect();
                got.sort();
                got.dedup();
                assert_eq!(got, expected, "{name}: next state");
                for (i, role) in roles.iter().enumerate() {
                    for mv in r.legal_moves(&state, i).unwrap() {
                        let atom = format!("(legal {role} {})", r.move_text(mv));
                        assert!(holds(&g, &model, &v, &atom), "{name}: {atom}");
                    }
                }
                let legal_count = (0..model.atoms.len())
                    .filter(|&a| v.atoms[a] == 1 && g.store().text(model.atoms[a]).starts_with("(legal "))
                    .count();
                let total: usize = (0..roles.len()).map(|i| r.legal_moves(&state, i).unwrap().len()).sum();
                assert_eq!(legal_count, total, "{name}: legal moves");
                state = next;
            }
        }
    }
}
