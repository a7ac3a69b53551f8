//! Terminal and goal asked of the reasoner, when the grounder left them to it
//! (`Ground::outputs`): the network's state bits are read as the reasoner's fluents, and
//! the answers for the last state are kept (a playout asks terminal, then goals, of one state).

use crate::ast::Description;
use crate::diagnostic::Diagnostic;
use crate::machine::{GoalValue, Result, StateMachine};
use crate::reasoner::{Limits, Reasoner};
use crate::term::{TermId, TermStore};

pub struct Outputs {
    desc: Description,
    reasoner: Reasoner,
    /// Per state bit, the fluent as a term of the reasoner's store.
    fluents: Vec<TermId>,
    /// The state last asked about, with its terminal and goals once known.
    last: Vec<u64>,
    terminal: Option<bool>,
    goals: Option<Vec<Vec<GoalValue>>>,
}

// SAFETY: the reasoner is not `Send`/`Sync` for its `Rc` states and its term store's
// lazily built texts. `Outputs` owns the reasoner and every state it holds (the states built
// in `is_terminal` and `goals` are dropped before they return, and nothing of the reasoner
// is lent out), and only methods taking `&mut self` touch it (`clone` builds a new one from
// `desc`): moving an `Outputs` moves all of it, and a shared `&Outputs` cannot reach it.
unsafe impl Send for Outputs {}
unsafe impl Sync for Outputs {}

impl Clone for Outputs {
    /// A reasoner of its own (the reasoner is not shared between machines).
    fn clone(&self) -> Outputs {
        let reasoner = Reasoner::new(&self.desc, Limits::default()).expect("it loaded once");
        Outputs {
            reasoner,
            desc: self.desc.clone(),
            fluents: self.fluents.clone(),
            last: Vec::new(),
            terminal: None,
            goals: None,
        }
    }
}

/// Term `t` of `from` interned in `to`.
fn copy(from: &TermStore, t: TermId, to: &mut TermStore) -> TermId {
    let args: Vec<TermId> = from.args(t).iter().map(|&a| copy(from, a, to)).collect();
    let sym = to.symbol(from.symbol_name(from.sym(t)));
    to.intern_atom(sym, &args)
}

impl Outputs {
    /// The reasoner on the rules as written; `fluents` are the network's state bits, terms of `store`.
    pub fn new(desc: &Description, store: &TermStore, fluents: &[TermId]) -> std::result::Result<Outputs, Diagnostic> {
        let mut reasoner = Reasoner::new(desc, Limits::default())?;
        let fluents = fluents.iter().map(|&f| copy(store, f, reasoner.store_mut())).collect();
        Ok(Outputs { desc: desc.clone(), reasoner, fluents, last: Vec::new(), terminal: None, goals: None })
    }

    /// Forgets the answers when `state` is not the one last asked about.
    fn on(&mut self, state: &[u64]) {
        if self.last != state {
            self.last = state.to_vec();
            self.terminal = None;
            self.goals = None;
        }
    }

    /// The reasoner's state for the network's state last asked about.
    fn state(&self) -> crate::reasoner::State {
        let held = |&f: &usize| self.last[f >> 6] >> (f & 63) & 1 != 0;
        let mut fluents: Vec<TermId> = (0..self.fluents.len()).filter(held).map(|f| self.fluents[f]).collect();
        fluents.sort_unstable();
        fluents.into()
    }

    pub fn is_terminal(&mut self, state: &[u64]) -> Result<bool> {
        self.on(state);
        if self.terminal.is_none() {
            let s = self.state();
            self.terminal = Some(self.reasoner.is_terminal(&s)?);
        }
        Ok(self.terminal.expect("set above"))
    }

    pub fn goals(&mut self, state: &[u64]) -> Result<Vec<Vec<GoalValue>>> {
        self.on(state);
        if self.goals.is_none() {
            let s = self.state();
            self.goals = Some(self.reasoner.goals(&s)?);
        }
        Ok(self.goals.clone().expect("set above"))
    }
}
