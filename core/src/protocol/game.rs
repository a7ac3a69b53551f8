//! One game of a refereed match, as `gdl match` and the page's Match tab play it: the
//! entrants (players of ours and remote addresses, read by `players::catalogue::entrants`), seated as `players::arena` seats them
//! (rotating with the game's number; GDL-II's nature drawing uniformly), refereed by
//! [`referee`], the record also given as the arena's `Game` for the tallies.

use super::referee::{referee, Local, Record, Seat, Setup};
use crate::ast::Description;
use crate::machine::{Result, StateMachine};
use crate::players::arena::{player_seed, seats, Game};
/// The entrants of a match and their one reader live in the player catalogue.
pub use crate::players::catalogue::{entrants, Entrant};
use crate::players::Spec;
use serde::{Deserialize, Serialize};
use std::hash::Hash;

/// What a refereed game reaches outside core: the seat of a remote entrant, made from its
/// address (`reach`); the clock, in milliseconds (`now`); and where each fault is said, as it
/// happens (`log`).
pub struct Outside<'a, M> {
    pub reach: &'a mut dyn FnMut(&str) -> Box<dyn Seat<M>>,
    pub now: &'a dyn Fn() -> f64,
    pub log: &'a mut dyn FnMut(&str),
}

/// A match's settings: its id (each game's is `id.N`), clocks in seconds, the move limit
/// and the seed.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct Terms {
    pub id: String,
    pub start_clock: f64,
    pub play_clock: f64,
    pub max_steps: usize,
    pub seed: u64,
}

/// The protocol's match id of game number `g` (from 0) of match `id`: `id.1`, `id.2`, …
pub fn game_id(id: &str, g: usize) -> String {
    format!("{id}.{}", g + 1)
}

/// Game number `g` (from 0) of a match between `entrants` on `m`, reaching `outside`.
pub fn referee_game<M: StateMachine + 'static>(
    m: &mut M,
    description: &Description,
    entrants: &[Entrant],
    g: usize,
    terms: &Terms,
    outside: &mut Outside<M>,
) -> Result<(Game, Record)>
where
    M::State: Hash,
{
    let at = seats(entrants.len(), m.roles(), g);
    referee_seated(m, description, entrants, at, g, terms, outside)
}

/// Game number `g` (from 0) of a match or tournament between `entrants` on `m`, entrant
/// `at[r]` at role `r` (`None`: nature, a random player of ours). Each seat's seed is the
/// arena's `player_seed` of `g`, so the game replays alone from the seed and its number.
pub fn referee_seated<M: StateMachine + 'static>(
    m: &mut M,
    description: &Description,
    entrants: &[Entrant],
    at: Vec<Option<usize>>,
    g: usize,
    terms: &Terms,
    outside: &mut Outside<M>,
) -> Result<(Game, Record)>
where
    M::State: Hash,
{
    let mut seated: Vec<Box<dyn Seat<M>>> = (at.iter().enumerate())
        .map(|(r, &p)| -> Box<dyn Seat<M>> {
            let seed = player_seed(terms.seed, g, r);
            match p.map(|p| &entrants[p]) {
                None => Box::new(Local { spec: Spec::Random, seed }),
                Some(Entrant::Local(spec)) => Box::new(Local { spec: *spec, seed }),
                Some(e) => (outside.reach)(&e.name()),
            }
        })
        .collect();
    let mut refs: Vec<&mut dyn Seat<M>> = seated.iter_mut().map(|s| &mut **s as &mut dyn Seat<M>).collect();
    let id = game_id(&terms.id, g);
    let setup = setup(description, &id, terms, &at, g);
    let record = referee(m, &mut refs, &setup, outside.now, outside.log)?;
    let moves = record.steps.iter().map(|s| s.moves.clone()).collect();
    let game = Game { seats: at, goals: record.goals.clone(), length: record.steps.len(), moves };
    Ok((game, record))
}

/// The setup of game number `g` of a match on `terms` (`id`: its `game_id`), entrant `at[r]`
/// at role `r` (`None`: nature): the referee seeded with the arena's `player_seed` of `g`.
pub fn setup<'a>(
    description: &'a Description,
    id: &'a str,
    terms: &Terms,
    at: &[Option<usize>],
    g: usize,
) -> Setup<'a> {
    Setup {
        id,
        description,
        start_clock: terms.start_clock,
        play_clock: terms.play_clock,
        max_steps: terms.max_steps,
        seed: player_seed(terms.seed, g, at.len()),
        players: at.iter().map(|p| p.map_or(0, |p| p + 1)).collect(),
    }
}
