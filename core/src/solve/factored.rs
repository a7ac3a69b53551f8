//! The factored solve (issue 41): where leaving out the moves of some factors gives the same
//! values as searching the whole game, and which moves those are.
//!
//! The class: a game of **one role** with **no bookkeeping** (no fluent that runs like a
//! clock) and factors that neither `terminal` nor any goal reads (`Factors::relevant`). Why
//! it is exact: a move of such a factor changes only that factor's fluents (a fluent whose
//! `next` read the move would be in its factor), and the other factors' `next` and `legal`
//! read only their own fluents and moves (and the bookkeeping, which is empty), so the move
//! leaves the rest of the state as it was: it is a pass. Terminal and goals read only the
//! rest, so a pass never changes the outcome, and the one player gains nothing by passing:
//! every terminal state a line with passes reaches, the same line without them reaches too.
//! A left-out move at the root is worth what the best kept move is worth. A state whose only
//! legal moves are passes is outside the argument: the search then gives up and the whole
//! game is searched instead (`solve`). With several roles a pass hands the turn on
//! (zugzwang), and a clock makes a pass change what comes later: neither is in the class, nor
//! double tic-tac-toe, whose two boards are both read by its goals.

use crate::machine::StateMachine;
use rustc_hash::FxHashSet;

/// The moves a solve leaves out, by text, with a cache of the engine's moves already seen.
pub(super) struct LeftOut<Mv> {
    texts: FxHashSet<String>,
    seen: Vec<(Mv, bool)>,
    /// In words, for the solution: what was left out and why.
    pub(super) why: String,
}

impl<Mv: Copy + Eq> LeftOut<Mv> {
    /// Whether the search leaves out `mv`.
    pub(super) fn leaves_out<M: StateMachine<Move = Mv>>(&mut self, m: &M, mv: Mv) -> bool {
        if let Some(&(_, out)) = self.seen.iter().find(|(seen, _)| *seen == mv) {
            return out;
        }
        let out = self.texts.contains(&m.move_text(mv));
        self.seen.push((mv, out));
        out
    }
}

/// The moves of `m`'s factors that neither terminal nor a goal reads, when the game is in
/// the class where leaving them out is exact (one role, no bookkeeping); `None` otherwise.
pub(super) fn left_out<M: StateMachine>(m: &M) -> Option<LeftOut<M::Move>> {
    let f = m.factors()?;
    if m.roles().len() != 1 || !f.bookkeeping.is_empty() {
        return None;
    }
    let unread: Vec<usize> = (0..f.factors.len()).filter(|k| !f.relevant.contains(k)).collect();
    if unread.is_empty() || f.relevant.is_empty() {
        return None;
    }
    let texts: FxHashSet<String> =
        unread.iter().flat_map(|&k| f.factors[k].moves.iter().map(|mv| mv.text.clone())).collect();
    let why = format!(
        "left out the {} moves of {} factor{} that neither the end nor a goal reads (passes, which a single player never needs)",
        texts.len(),
        unread.len(),
        if unread.len() == 1 { "" } else { "s" }
    );
    Some(LeftOut { texts, seen: Vec::new(), why })
}
