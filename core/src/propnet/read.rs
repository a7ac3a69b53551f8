//! Reads a ground program into what the network compiler needs: roles, fluents (the state
//! bits, sorted by canonical text), moves (the input bits, per role sorted by canonical text),
//! and the derived atoms with their rules, every body literal resolved to a fluent, a move,
//! a derived atom or "never holds".

use crate::ground::Ground;
use crate::machine::GoalValue;
use crate::term::{TermId, TermStore};
use rustc_hash::FxHashMap;

/// What a body atom stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Atom {
    /// `(true f)`: state bit `f`.
    Fluent(u32),
    /// `(does r m)`: move number `m`.
    Move(u32),
    /// Any other atom: derived atom number `a` (it may have no rules: then it never holds).
    Derived(u32),
    /// A `does` whose move no `legal` rule can produce: it never holds.
    Never,
}

/// A ground program in numbers.
pub struct Program<'g> {
    pub store: &'g TermStore,
    pub roles: Vec<TermId>,
    /// Fluent terms sorted by canonical text; a fluent's number is its state bit.
    pub fluents: Vec<TermId>,
    pub init: Vec<bool>,
    /// `(role number, move term)`; the moves of a role are contiguous and sorted by text.
    pub moves: Vec<(u32, TermId)>,
    /// Derived atom terms; rules of atom `a` are `rules_of[a]`.
    pub atoms: Vec<TermId>,
    pub rules_of: Vec<Vec<u32>>,
    /// Rule `r`'s body: `body[starts[r]..starts[r + 1]]`, `(negated, atom)`.
    pub starts: Vec<u32>,
    pub body: Vec<(bool, Atom)>,
    /// Derived atom numbers of the outputs (`None`: no rule derives it).
    pub terminal: Option<u32>,
    /// Per move number, its `legal` atom.
    pub legal: Vec<Option<u32>>,
    /// Per role, `(value, goal atom)` sorted by value.
    pub goals: Vec<Vec<(GoalValue, u32)>>,
    /// Per fluent, its `next` atom.
    pub next: Vec<Option<u32>>,
    /// Per role, `(percept, sees atom)` sorted by the percept's text (GDL-II); `None` when
    /// the game does not define `sees`.
    pub sees: Option<Vec<Vec<(TermId, u32)>>>,
}

impl<'g> Program<'g> {
    pub fn body_of(&self, rule: u32) -> &[(bool, Atom)] {
        &self.body[self.starts[rule as usize] as usize..self.starts[rule as usize + 1] as usize]
    }

    pub fn read(g: &'g Ground) -> Program<'g> {
        let store = g.store();
        let name = |t: TermId| (store.symbol_name(store.sym(t)), store.args(t));
        let sorted = |mut v: Vec<TermId>| {
            v.sort_unstable();
            v.dedup();
            crate::order::sort_by(&mut v, |&a, &b| store.text(a).cmp(store.text(b)));
            v
        };
        // First pass: roles, fluents, moves.
        let (mut roles, mut fluents, mut init, mut legal) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for r in 0..g.rule_count() {
            let (head, body) = g.rule(r);
            match name(head) {
                ("role", [x]) => roles.push(*x),
                ("init", [f]) => init.push(*f),
                ("base", [f]) | ("next", [f]) => fluents.push(*f),
                ("legal", [who, m]) => legal.push((*who, *m)),
                _ => {}
            }
            for (_, a) in body {
                if let ("true", [f]) = name(a) {
                    fluents.push(*f);
                }
            }
        }
        let mut seen = rustc_hash::FxHashSet::default();
        roles.retain(|r| seen.insert(*r));
        fluents.extend(&init);
        let fluents = sorted(fluents);
        let bit: FxHashMap<TermId, u32> = fluents.iter().enumerate().map(|(i, &f)| (f, i as u32)).collect();
        let mut init_bits = vec![false; fluents.len()];
        init.iter().for_each(|f| init_bits[bit[f] as usize] = true);
        let mut moves = Vec::new();
        for (ri, &role) in roles.iter().enumerate() {
            let mine = sorted(legal.iter().filter(|l| l.0 == role).map(|l| l.1).collect());
            moves.extend(mine.into_iter().map(|m| (ri as u32, m)));
        }
        let move_of: FxHashMap<(TermId, TermId), u32> =
            moves.iter().enumerate().map(|(i, &(r, m))| ((roles[r as usize], m), i as u32)).collect();

        // Second pass: derived atoms and rules.
        let mut p = Program {
            store,
            init: init_bits,
            atoms: Vec::new(),
            rules_of: Vec::new(),
            starts: vec![0],
            body: Vec::new(),
            terminal: None,
            legal: vec![None; moves.len()],
            goals: vec![Vec::new(); roles.len()],
            next: vec![None; fluents.len()],
            sees: g.defines_sees().then(|| vec![Vec::new(); roles.len()]),
            roles,
            fluents,
            moves,
        };
        let mut atom_of: FxHashMap<TermId, u32> = FxHashMap::default();
        let mut derived = |p: &mut Program, t: TermId| {
            *atom_of.entry(t).or_insert_with(|| {
                p.atoms.push(t);
                p.rules_of.push(Vec::new());
                p.atoms.len() as u32 - 1
            })
        };
        for r in 0..g.rule_count() {
            let (head, body) = g.rule(r);
            if matches!(name(head).0, "role" | "init" | "base" | "input") {
                continue;
            }
            let h = derived(&mut p, head);
            for (neg, a) in body {
                let atom = match name(a) {
                    ("true", [f]) => Atom::Fluent(bit[f]),
                    ("does", [who, m]) => move_of.get(&(*who, *m)).map_or(Atom::Never, |&i| Atom::Move(i)),
                    _ => Atom::Derived(derived(&mut p, a)),
                };
                p.body.push((neg, atom));
            }
            p.starts.push(p.body.len() as u32);
            p.rules_of[h as usize].push(p.starts.len() as u32 - 2);
        }
        for (a, &t) in p.atoms.iter().enumerate() {
            let a = a as u32;
            match name(t) {
                ("terminal", []) => p.terminal = Some(a),
                ("legal", [who, m]) => {
                    if let Some(&i) = move_of.get(&(*who, *m)) {
                        p.legal[i as usize] = Some(a);
                    }
                }
                ("goal", [who, v]) => {
                    if let Some(r) = p.roles.iter().position(|x| x == who) {
                        p.goals[r].push((goal_value(store, *v), a));
                    }
                }
                ("next", [f]) => p.next[bit[f] as usize] = Some(a),
                ("sees", [who, percept]) => {
                    let r = p.roles.iter().position(|x| x == who);
                    if let (Some(r), Some(sees)) = (r, &mut p.sees) {
                        sees[r].push((*percept, a));
                    }
                }
                _ => {}
            }
        }
        p.goals.iter_mut().for_each(|g| crate::order::sort_by(g, |x, y| x.0.cmp(&y.0)));
        p.sees.iter_mut().flatten().for_each(|s| crate::order::sort_by(s, |x, y| store.text(x.0).cmp(store.text(y.0))));
        p
    }
}

/// A goal value as the reasoner reports it: an integer, or the text of anything else.
fn goal_value(store: &TermStore, v: TermId) -> GoalValue {
    store.as_int(v).map_or_else(|| GoalValue::Text(store.text(v).to_string()), GoalValue::Int)
}
