//! Tests of tournaments: the schedule's balance, the leaderboard on hand-made results, the
//! rating's order, records read back or refused, and a resumed tournament ending as an
//! uninterrupted one.

use super::*;
use crate::engine::{build, Choice, Engine};
use crate::players::catalogue::entrants;
use crate::protocol::fault::NoReply;
use crate::protocol::referee::{self, Remote};
use std::collections::HashMap;

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn plan(games: &[(&str, &[&str])], entrants: &[&str], per_pairing: usize, seed: u64) -> Plan {
    Plan {
        games: games.iter().map(|(n, roles)| GameName { name: n.to_string(), roles: names(roles) }).collect(),
        entrants: names(entrants),
        games_per_pairing: per_pairing,
        seed,
        start_clock: 10.0,
        play_clock: 3.0,
        max_steps: 200,
    }
}

/// How often each entrant sits at each role of game `game`.
fn at_roles(fixtures: &[Fixture], game: usize) -> HashMap<(usize, usize), usize> {
    let mut count = HashMap::new();
    for f in fixtures.iter().filter(|f| f.game == game) {
        for (r, e) in f.seats.iter().enumerate() {
            if let Some(e) = e {
                *count.entry((*e, r)).or_insert(0) += 1;
            }
        }
    }
    count
}

#[test]
fn two_roles_every_pair_meets_in_both_seatings_equally() {
    let p = plan(&[("ttt", &["x", "o"])], &["a", "b", "c", "d"], 2, 7);
    let s = schedule(&p);
    assert_eq!(s.len(), 4 * 3 * 2);
    let mut pairs = HashMap::new();
    for f in &s {
        *pairs.entry((f.seats[0].unwrap(), f.seats[1].unwrap())).or_insert(0) += 1;
    }
    assert_eq!(pairs.len(), 12, "every ordered pair of different entrants: {pairs:?}");
    assert!(pairs.values().all(|&n| n == 2), "{pairs:?}");
    assert!(s.iter().enumerate().all(|(i, f)| f.number == i));
    // The same plan gives the same schedule.
    assert_eq!(s, schedule(&p));
}

#[test]
fn more_roles_every_group_meets_and_every_entrant_sits_everywhere_equally() {
    let five = &["a", "b", "c", "d", "e"];
    // Three roles: every group of three in every seating.
    let s = schedule(&plan(&[("three", &["r1", "r2", "r3"])], five, 1, 1));
    assert_eq!(s.len(), 10 * 6);
    let counts = at_roles(&s, 0);
    assert_eq!(counts.len(), 15);
    assert!(counts.values().all(|&n| n == counts[&(0, 0)]), "{counts:?}");
    // Four roles: every group of four, in the rotations of one seating.
    let s = schedule(&plan(&[("four", &["r1", "r2", "r3", "r4"])], five, 1, 1));
    assert_eq!(s.len(), 5 * 4);
    let counts = at_roles(&s, 0);
    assert_eq!(counts.len(), 20);
    assert!(counts.values().all(|&n| n == 4), "{counts:?}");
    // Fewer entrants than roles: the list rotates round the roles.
    let s = schedule(&plan(&[("three", &["r1", "r2", "r3"])], &["a", "b"], 1, 1));
    let counts = at_roles(&s, 0);
    assert_eq!(counts.len(), 6);
    assert!(counts.values().all(|&n| n == 1), "{counts:?}");
}

#[test]
fn nature_is_never_seated_and_one_player_games_seat_each_entrant() {
    let p = plan(&[("monty", &["candidate", "random"]), ("puzzle", &["robot"])], &["a", "b", "c"], 2, 3);
    let s = schedule(&p);
    let monty: Vec<&Fixture> = s.iter().filter(|f| f.game == 0).collect();
    assert_eq!(monty.len(), 3 * 2);
    assert!(monty.iter().all(|f| f.seats[1].is_none() && f.seats[0].is_some()));
    assert_eq!(at_roles(&s, 0), HashMap::from([((0, 0), 2), ((1, 0), 2), ((2, 0), 2)]));
    assert_eq!(at_roles(&s, 1), HashMap::from([((0, 0), 2), ((1, 0), 2), ((2, 0), 2)]));
}

/// A finished game of fixture `number` with `goals`, and `faults` (role, message).
fn finished(record: &Record, number: usize, goals: Option<Vec<i64>>, faults: &[(usize, &str)]) -> Finished {
    let fixture = &record.schedule[number];
    let roles = record.plan.games[fixture.game].roles.clone();
    let faults = (faults.iter())
        .map(|&(r, m)| referee::Fault {
            step: 1,
            role: roles[r].clone(),
            player: fixture.seats[r].map_or(0, |e| e + 1),
            message: m.to_string(),
            kind: crate::protocol::fault::FaultKind::Late,
        })
        .collect();
    let players =
        fixture.seats.iter().map(|e| e.map_or("random".into(), |e| record.plan.entrants[e].clone())).collect();
    let record = referee::Record {
        id: format!("t.{}", number + 1),
        roles,
        players,
        start_clock: 10.0,
        play_clock: 3.0,
        steps: Vec::new(),
        faults,
        goals,
        said: Vec::new(),
    };
    Finished { fixture: number, seed: 3, record }
}

fn standing<'a>(board: &'a [leaderboard::Standing], name: &str) -> &'a leaderboard::Standing {
    board.iter().find(|s| s.tally.player == name).unwrap()
}

#[test]
fn the_leaderboard_counts_points_wins_draws_losses_and_never_nature() {
    let p = plan(&[("ttt", &["x", "o"]), ("monty", &["candidate", "random"])], &["a", "b"], 1, 3);
    let mut record = Record::new(p).unwrap();
    // ttt: 0 is a (x) vs b (o), 1 is b (x) vs a (o); monty: 2 is a, 3 is b.
    assert_eq!(record.schedule[0].seats, [Some(0), Some(1)]);
    assert_eq!(record.schedule[2].seats, [Some(0), None]);
    let games = [
        finished(&record, 0, Some(vec![100, 0]), &[(1, "player 2 (o) at step 1: no reply in 3 s; played x for it")]),
        finished(&record, 1, Some(vec![50, 50]), &[]),
        // Nature's 100 beside the candidate's is no part of the result.
        finished(&record, 2, Some(vec![100, 100]), &[]),
        finished(&record, 3, Some(vec![0, 100]), &[]),
    ];
    for g in games {
        record.finish(g);
    }
    let board = leaderboard(&record);
    assert_eq!((board.played, board.scheduled), (4, 4));
    let ttt = &board.per_game[0].standings;
    let (a, b) = (standing(ttt, "a"), standing(ttt, "b"));
    assert_eq!((a.tally.games, a.tally.wins, a.tally.draws, a.tally.losses), (2, 1, 1, 0));
    assert_eq!((b.tally.games, b.tally.wins, b.tally.draws, b.tally.losses), (2, 0, 1, 1));
    assert_eq!((a.tally.points.mean, b.tally.points.mean), (0.75, 0.25));
    assert_eq!((a.rank, b.rank), (1, 2));
    assert_eq!(b.faults, ["game 1: player 2 (o) at step 1: no reply in 3 s; played x for it"]);
    assert!(a.faults.is_empty());
    assert_eq!((b.fault_counts.late, b.fault_counts.text.as_str()), (1, "1 late"));
    assert_eq!(a.fault_counts.text, "none");
    let monty = &board.per_game[1].standings;
    let (a, b) = (standing(monty, "a"), standing(monty, "b"));
    // One seat each: their scores; nature neither wins nor loses, and no one is rated.
    assert_eq!((a.tally.games, a.tally.points.mean, b.tally.points.mean), (1, 1.0, 0.0));
    assert_eq!((a.tally.wins, a.tally.losses, b.tally.wins, b.tally.losses), (0, 0, 0, 0));
    assert!(a.rating.is_none() && b.rating.is_none());
    let all = &board.overall;
    assert_eq!(standing(all, "a").tally.games, 3);
    assert_eq!(standing(all, "a").tally.points.mean, (1.0 + 0.5 + 1.0) / 3.0);
    assert_eq!(all[0].tally.player, "a");
    // The rating is the two-player games': a above b, the same on both boards.
    let (ra, rb) = (standing(all, "a").rating.unwrap(), standing(all, "b").rating.unwrap());
    assert!(ra.elo > 0.0 && rb.elo < 0.0 && ra.plus_minus > 0.0, "{ra:?} {rb:?}");
}

#[test]
fn the_rating_orders_a_clearly_stronger_entrant_first() {
    let mut results = rating::Results::new(3);
    for _ in 0..20 {
        results.add(0, 1, 1.0);
        results.add(1, 2, 1.0);
        results.add(0, 2, 1.0);
    }
    results.add(0, 1, 0.5);
    results.add(1, 2, 0.0);
    let r: Vec<rating::Rating> = results.ratings().into_iter().map(Option::unwrap).collect();
    assert!(r[0].elo > r[1].elo + r[0].plus_minus && r[1].elo > r[2].elo + r[1].plus_minus, "{r:?}");
    // More games, a narrower interval; no game, no rating.
    let mut few = rating::Results::new(3);
    few.add(0, 1, 1.0);
    let few = few.ratings();
    assert!(few[0].unwrap().plus_minus > r[0].plus_minus && few[2].is_none());
}

fn engine(name: &str) -> (Engine, crate::ast::Description) {
    let text = std::fs::read_to_string(format!("{}/../games/{name}.kif", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let desc = crate::parse::parse(&text).description;
    (build(Choice::Auto, &desc, Default::default(), Default::default(), &|| 0.0).unwrap().engine, desc)
}

/// Plays every missing game of `record` on tic-tac-toe; a remote entrant never answers.
fn run(record: &mut Record) {
    let (mut m, desc) = engine("tictactoe");
    let list = entrants(&record.plan.entrants.join(",")).unwrap();
    let mut reach = |url: &str| -> Box<dyn referee::Seat<Engine>> {
        let post = |_: &crate::protocol::message::Message, _: f64| {
            Err(NoReply::Unreachable { detail: "connection refused".into() })
        };
        Box::new(Remote { url: url.to_string(), post })
    };
    for fixture in record.missing() {
        let outside = &mut Outside { reach: &mut reach, now: &|| 0.0, log: &mut |_| {} };
        let f = play(&mut m, &desc, &record.plan, &list, &fixture, outside).unwrap();
        record.finish(f);
    }
}

fn ttt_plan(entrants: &[&str]) -> Plan {
    plan(&[("tictactoe", &["x", "o"])], entrants, 1, 11)
}

#[test]
fn a_resumed_tournament_ends_as_an_uninterrupted_one() {
    let mut whole = Record::new(ttt_plan(&["random", "mc:20", "uct:50"])).unwrap();
    run(&mut whole);
    assert!(whole.missing().is_empty());
    let mut cut = Record::read(&whole.json()).unwrap();
    assert_eq!(cut, whole, "a record reads back as written");
    let kept: Vec<Finished> = cut.finished.iter().filter(|f| f.fixture % 2 == 0).cloned().collect();
    cut.finished = kept;
    let missing: Vec<usize> = cut.missing().iter().map(|f| f.number).collect();
    assert_eq!(missing, [1, 3, 5]);
    run(&mut cut);
    let json = |r: &Record| serde_json::to_value(leaderboard(r)).unwrap();
    assert_eq!(json(&cut), json(&whole));
    let moves = |r: &Record, n: usize| r.finished.iter().find(|f| f.fixture == n).unwrap().record.steps.clone();
    for n in 0..whole.schedule.len() {
        assert_eq!(
            moves(&cut, n).iter().map(|s| &s.moves).collect::<Vec<_>>(),
            moves(&whole, n).iter().map(|s| &s.moves).collect::<Vec<_>>()
        );
    }
    let csv = whole.csv();
    assert_eq!(csv.lines().count(), 1 + 6);
    assert!(csv.lines().nth(1).unwrap().starts_with("1,tictactoe,11,x=random o=mc:20,"), "{csv}");
}

#[test]
fn an_entrant_that_never_answers_is_reported_and_the_tournament_goes_on() {
    let mut record = Record::new(ttt_plan(&["random", "http://127.0.0.1:1"])).unwrap();
    run(&mut record);
    assert_eq!(record.finished.len(), 2);
    let board = leaderboard(&record);
    let silent = standing(&board.overall, "http://127.0.0.1:1");
    assert!(!silent.faults.is_empty());
    assert!(
        silent.faults[0].starts_with("game 1: player 2 (o) at the start: no reply: connection refused"),
        "{:?}",
        silent.faults
    );
    assert!(standing(&board.overall, "random").faults.is_empty());
    // Never reached: every fault of the silent entrant is counted as unreachable.
    let counts = &silent.fault_counts;
    assert_eq!(
        (counts.unreachable, counts.late + counts.illegal + counts.failed),
        (silent.faults.len(), 0),
        "{counts:?}"
    );
}

#[test]
fn records_that_are_not_a_tournaments_are_refused_in_words() {
    let record = Record::new(ttt_plan(&["random", "mc:20"])).unwrap();
    let err = |text: &str| Record::read(text).unwrap_err();
    assert!(err("{ nope").starts_with("this is not a tournament record: it is not JSON"));
    assert_eq!(
        err(r#"{"game": "ttt.kif", "matches": []}"#),
        "this is not a tournament record, but a match's (gdl match --record): it has no \"format\": \"gdl tournament record\""
    );
    let mut v: serde_json::Value = serde_json::from_str(&record.json()).unwrap();
    v["schedule"][0]["seats"] = serde_json::json!([1, 1]);
    assert_eq!(err(&v.to_string()), "the tournament record is damaged: its schedule is not the one its plan gives");
    v["schedule"] = serde_json::json!("none");
    assert!(
        err(&v.to_string()).starts_with("the tournament record is damaged: invalid type"),
        "{}",
        err(&v.to_string())
    );
    let mut other = ttt_plan(&["random", "uct:20"]);
    assert_eq!(
        record.is_of(&other).unwrap_err(),
        "the record is of another tournament: its entrants are random, mc:20, not random, uct:20"
    );
    other.entrants = record.plan.entrants.clone();
    other.games_per_pairing = 3;
    assert!(record.is_of(&other).unwrap_err().contains("settings are 1 games per pairing"));
    assert!(Record::new(ttt_plan(&["random"])).unwrap_err().contains("two entrants at least"));
    assert_eq!(
        Record::new(ttt_plan(&["random", "mc:20", "random"])).unwrap_err(),
        "entrant 3 is random again: list each entrant once"
    );
}

/// A game refereed one message at a time by a face (the page's students' players) is set up
/// as `play` sets it up: the same match id and clocks, each seat named by its entrant, and the
/// same goals once its moves are the same.
#[test]
fn a_game_refereed_step_by_step_is_set_up_as_play_sets_it_up() {
    let mut record = Record::new(ttt_plan(&["random", "my:minimax"])).unwrap();
    run_ours_only(&mut record);
    let played = record.finished[0].record.clone();
    let (mut m, desc) = engine("tictactoe");
    let fixture = record.schedule[0].clone();
    let mut game = step_by_step(&mut m, &desc, &record.plan, &fixture).unwrap();
    assert_eq!(game.record().id, played.id);
    // Each seat named by its entrant, as a remote seat is by its address.
    let named: Vec<String> = fixture.seats.iter().map(|p| record.plan.entrants[p.unwrap()].clone()).collect();
    assert_eq!(game.record().players, named);
    for r in 0..2 {
        game.started(r, Ok("ready".into()), 0.0);
    }
    for step in &played.steps {
        let joint: Vec<_> = (0..2).map(|r| game.legal_move(&mut m, r, &step.moves[r]).unwrap()).collect();
        game.advance(&mut m, &joint, vec![0.0; 2]).unwrap();
    }
    assert!(game.is_over());
    assert_eq!(game.record().goals, played.goals);
    // What a player says is kept with the record, at the step of the message it answers (the
    // stop's, after the last joint move), and read back.
    game.said(1, "minimax: value 50".into());
    let said = &game.record().said;
    assert_eq!((said[0].step, said[0].role.as_str()), (played.steps.len() + 1, "o"));
    let json = serde_json::to_string(game.record()).unwrap();
    assert_eq!(serde_json::from_str::<referee::Record>(&json).unwrap(), *game.record());
}

/// Plays every game of `record` with the student's player stood in for by a random player.
fn run_ours_only(record: &mut Record) {
    let (mut m, desc) = engine("tictactoe");
    let list = entrants(&record.plan.entrants.join(",")).unwrap();
    let mut reach = |_: &str| -> Box<dyn referee::Seat<Engine>> {
        Box::new(referee::Local { spec: crate::players::Spec::Random, seed: 1 })
    };
    for fixture in record.missing() {
        let outside = &mut Outside { reach: &mut reach, now: &|| 0.0, log: &mut |_| {} };
        let f = play(&mut m, &desc, &record.plan, &list, &fixture, outside).unwrap();
        record.finish(f);
    }
}
