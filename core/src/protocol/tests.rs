//! Tests of the protocol without the network: messages read and printed back, replies read,
//! a player's match followed from the referee's moves, a referee facing silent, garbled and
//! illegal players.

use super::fault::{Answer, NoReply};
use super::message::{reply_move, Last, Message};
use super::player::Match;
use super::referee::{referee, Local, Seat, Setup};
use crate::engine::{build, Choice, Engine};
use crate::machine::StateMachine;
use crate::players::{Budget, Spec, View};

fn text(name: &str) -> String {
    std::fs::read_to_string(format!("{}/../games/{name}.kif", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn engine(rules: &str) -> Engine {
    let desc = crate::parse::parse(rules).description;
    build(Choice::Auto, &desc, Default::default(), Default::default(), &|| 0.0).unwrap().engine
}

#[test]
fn a_start_carries_rules_with_nested_rules_and_reads_back() {
    let desc = crate::parse::parse(&text("tictactoe")).description;
    let start = Message::start("m1", "x", &desc, 10.0, 3.0);
    let sent = start.to_string();
    assert!(sent.starts_with("(START m1 x ((role x)"), "{sent}");
    let read = Message::parse(&sent).unwrap();
    assert_eq!(read, start);
    let Message::Start { rules, start_clock, play_clock, .. } = read else { unreachable!() };
    assert_eq!((start_clock, play_clock), (10.0, 3.0));
    // The rules inside the message load as the game.
    let back = crate::parse::parse(&rules).description;
    assert_eq!(back.rules().collect::<Vec<_>>(), desc.rules().collect::<Vec<_>>());
}

#[test]
fn messages_read_as_referees_write_them() {
    let play = Message::parse("(PLAY m1 ((MARK 1 1) noop))").unwrap();
    assert_eq!(play, Message::Play { id: "m1".into(), last: Last::Moves(vec!["(mark 1 1)".into(), "noop".into()]) });
    assert_eq!(play.to_string(), "(PLAY m1 ((mark 1 1) noop))");
    assert_eq!(Message::parse(" ( play  m1 nil ) \n").unwrap(), Message::Play { id: "m1".into(), last: Last::Nothing });
    assert_eq!(Message::parse("(STOP m1)").unwrap(), Message::Stop { id: "m1".into(), last: Last::Nothing });
    assert_eq!(Message::parse("(abort m1)").unwrap(), Message::Abort { id: "m1".into() });
    for info in ["(INFO)", "(ping)", "info"] {
        assert_eq!(Message::parse(info).unwrap(), Message::Info);
    }
}

#[test]
fn bad_messages_say_what_is_wrong() {
    let cases = [
        ("", "empty"),
        ("(PLAY m1 ((mark 1 1) noop)", "never closed"),
        ("(PLAY m1 nil) (PLAY m1 nil)", "more after"),
        ("(HELLO m1)", "'hello' is not a message"),
        ("(PLAY m1)", "PLAY takes 2 arguments"),
        ("(START m1 x (role x) 10)", "START takes 5 arguments"),
        ("(START m1 x (role x) ten 3)", "start clock must be a number"),
        ("(START m1 x role 10 3)", "rules must be a list"),
        ("(PLAY m1 ((mark ?x 1) noop))", "has a variable"),
        ("(PLAY (m1) nil)", "match id must be a name"),
        ("\"(PLAY m1 nil)\"", "unexpected character"),
        (&format!("{}{}", "(".repeat(500), ")".repeat(500)), "nested more than"),
    ];
    for (message, says) in cases {
        let e = Message::parse(message).unwrap_err();
        assert!(e.contains(says), "{message:?}: {e}");
    }
}

#[test]
fn a_reply_is_its_first_term() {
    assert_eq!(reply_move("(MARK 1 1) (explanation \"best\") (taunt \"ha\")").unwrap(), "(mark 1 1)");
    assert_eq!(reply_move("  noop\n").unwrap(), "noop");
    assert!(reply_move("\"oops\"").unwrap_err().contains("not a move"));
    assert!(reply_move("").unwrap_err().contains("not a move"));
}

#[test]
fn a_player_follows_the_referee_and_plays_legal_moves() {
    let rules = text("tictactoe");
    let mut game = Match::new("m1", "o", engine(&rules), Spec::Uct(Budget::Playouts(50)), 7).unwrap();
    assert_eq!(game.role, 1);
    game.advance(&Last::Nothing).unwrap();
    assert_eq!(game.choose(1000.0, &|| 0.0).unwrap().text, "noop");
    game.advance(&Last::Moves(vec!["(mark 2 2)".into(), "noop".into()])).unwrap();
    let choice = game.choose(1000.0, &|| 0.0).unwrap();
    assert!(choice.text.starts_with("(mark ") && choice.text != "(mark 2 2)", "{}", choice.text);
    assert!(choice.trouble.is_none());
    let e = game.advance(&Last::Moves(vec!["(mark 2 2)".into(), "noop".into()])).unwrap_err();
    assert!(e.contains("(mark 2 2) is not a legal move of x at step 2"), "{e}");
    assert!(game.advance(&Last::Nothing).unwrap_err().contains("1 moves have been played"));
    assert!(game.advance(&Last::Moves(vec!["noop".into()])).unwrap_err().contains("1 moves for 2 roles"));
    let e = Match::new("m1", "z", engine(&rules), Spec::Random, 1).err().unwrap();
    assert!(e.contains("its roles are x, o"), "{e}");
}

/// A seat that always answers the same text, or nothing.
struct Canned(Answer);

impl<M: StateMachine> Seat<M> for Canned {
    fn name(&self) -> String {
        "canned".into()
    }
    fn tell(&mut self, _: &Message, _: f64) -> Answer {
        self.0.clone().map(|_| "ready".into())
    }
    fn play(&mut self, _: &Message, _: f64, _: &mut M, _: View<'_, M>, _: &dyn Fn() -> f64) -> Answer {
        self.0.clone()
    }
}

/// Match m1 of a two-role game, players 1 and 2, on these clocks.
fn setup(description: &crate::ast::Description, start_clock: f64, play_clock: f64) -> Setup<'_> {
    Setup { id: "m1", description, start_clock, play_clock, max_steps: 100, seed: 1, players: vec![1, 2] }
}

#[test]
fn the_referee_finishes_a_match_whatever_a_player_answers() {
    let rules = text("tictactoe");
    let desc = crate::parse::parse(&rules).description;
    use super::fault::FaultKind::{Illegal, Late, Unreachable};
    let answers = [
        (Err(NoReply::Timeout { millis: 3000.0 }), "no reply in 3 s; played", Late),
        (Ok("((((".to_string()), "the reply is not a move", Illegal),
        (Ok("(mark 9 9)".to_string()), "(mark 9 9) is not a legal move; played", Illegal),
        (
            Err(NoReply::Unreachable { detail: "connection refused".into() }),
            "no reply: connection refused",
            Unreachable,
        ),
    ];
    for (answer, says, kind) in answers {
        let mut m = engine(&rules);
        let mut silent = Canned(answer);
        let mut ours = Local { spec: Spec::Random, seed: 3 };
        let setup = setup(&desc, 10.0, 3.0);
        let mut said = Vec::new();
        let record =
            referee(&mut m, &mut [&mut silent, &mut ours], &setup, &|| 0.0, &mut |s| said.push(s.to_string())).unwrap();
        assert!(record.goals.is_some(), "the match is played to the end");
        let step1 = record.faults.iter().find(|f| f.step == 1).unwrap();
        let text = &step1.message;
        assert!(text.starts_with("player 1 (x) at step 1: ") && text.contains(says), "{text}");
        assert_eq!(step1.kind, kind, "{text}");
        // Every step has its fault, noop included: the seat never answers a move.
        assert_eq!(
            record.faults.iter().filter(|f| (1..=record.steps.len()).contains(&f.step)).count(),
            record.steps.len()
        );
        assert_eq!(said.len(), record.faults.len());
        assert_eq!(record.players, ["canned", "random"]);
        assert!(record.steps.iter().all(|s| s.percepts.is_none()), "no percepts in a game without sees");
    }
}

#[test]
fn a_late_answer_is_replaced() {
    let rules = text("tictactoe");
    let desc = crate::parse::parse(&rules).description;
    let mut m = engine(&rules);
    let mut a = Local { spec: Spec::Random, seed: 1 };
    let mut b = Local { spec: Spec::Random, seed: 2 };
    let setup = setup(&desc, 1.0, 1.0);
    // A clock that jumps 2 s at every reading: every answer is late.
    let t = std::cell::Cell::new(0.0);
    let now = || {
        t.set(t.get() + 2000.0);
        t.get()
    };
    let record = referee(&mut m, &mut [&mut a, &mut b], &setup, &now, &mut |_| {}).unwrap();
    let first = &record.faults[0].message;
    assert!(first.contains("answered after 2.0 s, past the 1 s start clock"), "{first}");
    assert!(record.faults.iter().any(|f| f.message.contains("past the 1 s play clock; played")));
    assert!(record.faults.iter().all(|f| f.kind == super::fault::FaultKind::Late), "every fault is a late one");
}

#[test]
fn gdl2_messages_read_in_both_forms() {
    // The Dresden GameController's: the percepts where GDL has the joint move (an empty list too).
    let dresden = Message::parse("(PLAY m1 ((DOES CANDIDATE (CHOOSE 1)) (OPEN_DOOR 2)))").unwrap();
    assert_eq!(
        dresden,
        Message::Play {
            id: "m1".into(),
            last: Last::Moves(vec!["(does candidate (choose 1))".into(), "(open_door 2)".into()])
        }
    );
    assert_eq!(Message::parse("(PLAY m1 ())").unwrap(), Message::Play { id: "m1".into(), last: Last::Moves(vec![]) });
    // Ours: the turn, the role's own move, its percepts.
    let ours = Message::Play {
        id: "m1".into(),
        last: Last::Percepts { turn: 2, own: Some("(choose 1)".into()), percepts: vec!["(open_door 2)".into()] },
    };
    assert_eq!(ours.to_string(), "(PLAY m1 2 (choose 1) ((open_door 2)))");
    assert_eq!(Message::parse(&ours.to_string()).unwrap(), ours);
    let stop = Message::parse("(STOP m1 3 NIL NIL)").unwrap();
    assert_eq!(stop, Message::Stop { id: "m1".into(), last: Last::Percepts { turn: 3, own: None, percepts: vec![] } });
    for (message, says) in [
        ("(PLAY m1 two noop ())", "the turn must be a whole number"),
        ("(PLAY m1 2 noop seen)", "the percepts must be a list or NIL"),
        ("(PLAY m1 2 ?x ())", "the last move: ?x has a variable"),
        ("(PLAY m1 2 noop)", "PLAY takes 2 arguments"),
    ] {
        let e = Message::parse(message).unwrap_err();
        assert!(e.contains(says), "{message}: {e}");
    }
}

#[test]
fn a_gdl2_player_follows_its_percepts_in_both_forms_and_plays_honestly() {
    let rules = crate::shared::gdl2_game("montyhall");
    let mut game = Match::new("m1", "candidate", engine(&rules), Spec::Uct(Budget::Playouts(50)), 7).unwrap();
    assert!(game.is_hidden());
    assert_eq!(game.spec().to_string(), "honest:50", "uct cannot play from a history: honest with its budget");
    game.advance(&Last::Nothing).unwrap();
    // Step 1: the candidate chooses a door while nature hides the car.
    let chosen = game.choose(1000.0, &|| 0.0).unwrap();
    assert!(chosen.text.starts_with("(choose ") && chosen.trouble.is_none(), "{}", chosen.text);
    // The Dresden form: percepts only (its own move is the one it sent).
    game.advance(&Last::Moves(vec![format!("(does candidate {})", chosen.text)])).unwrap();
    assert_eq!(game.choose(1000.0, &|| 0.0).unwrap().text, "noop");
    // Our form: the turn, its own move, its percepts (a door nature opened, not the chosen one).
    let door = (1..=3).map(|d| format!("(choose {d})")).position(|c| c != chosen.text).unwrap() + 1;
    let seen = vec!["(does candidate noop)".to_string(), format!("(open_door {door})")];
    game.advance(&Last::Percepts { turn: 2, own: Some("noop".into()), percepts: seen }).unwrap();
    let last = game.choose(1000.0, &|| 0.0).unwrap();
    assert!(["switch", "noop"].contains(&last.text.as_str()), "{}", last.text);
    assert_eq!(game.step, 2);
    let e = game.advance(&Last::Percepts { turn: 3, own: Some("(fly away)".into()), percepts: vec![] }).unwrap_err();
    assert!(e.contains("(fly away) is not a legal move of candidate at step 3"), "{e}");
    // A game without sees takes joint moves only.
    let mut ttt = Match::new("m2", "x", engine(&text("tictactoe")), Spec::Random, 1).unwrap();
    assert!(ttt
        .advance(&Last::Percepts { turn: 1, own: None, percepts: vec![] })
        .unwrap_err()
        .contains("this game has no sees"));
}

/// A seat of ours that also keeps every PLAY and STOP it is sent.
struct Recording(Local, Vec<Message>);

impl<M: StateMachine + 'static> Seat<M> for Recording
where
    M::State: std::hash::Hash,
{
    fn name(&self) -> String {
        Seat::<M>::name(&self.0)
    }
    fn tell(&mut self, message: &Message, clock: f64) -> Answer {
        self.1.push(message.clone());
        Seat::<M>::tell(&mut self.0, message, clock)
    }
    fn play(&mut self, message: &Message, clock: f64, m: &mut M, view: View<'_, M>, now: &dyn Fn() -> f64) -> Answer {
        self.1.push(message.clone());
        assert!(matches!(view, View::History(_)), "a player of a GDL-II game is given its history, never the state");
        self.0.play(message, clock, m, view, now)
    }
}

#[test]
fn in_gdl2_the_referee_tells_each_role_only_its_own_move_and_percepts() {
    let rules = crate::shared::gdl2_game("kriegTTT_4x4");
    let desc = crate::parse::parse(&rules).description;
    let mut m = engine(&rules);
    let mut a = Recording(Local { spec: Spec::Uct(Budget::Playouts(20)), seed: 1 }, Vec::new());
    let mut b = Recording(Local { spec: Spec::Random, seed: 2 }, Vec::new());
    let setup = setup(&desc, 10.0, 3.0);
    let record = referee(&mut m, &mut [&mut a, &mut b], &setup, &|| 0.0, &mut |_| {}).unwrap();
    assert!(record.goals.is_some(), "played to the end: {:?}", record.faults);
    assert!(record.faults.is_empty(), "{:?}", record.faults);
    for (r, seat) in [(0, &a), (1, &b)] {
        let told: Vec<&Message> =
            seat.1.iter().filter(|m| matches!(m, Message::Play { .. } | Message::Stop { .. })).collect();
        assert_eq!(told.len(), record.steps.len() + 1, "one PLAY per step and a STOP");
        assert!(matches!(told[0], Message::Play { last: Last::Nothing, .. }));
        for (k, message) in told[1..].iter().enumerate() {
            let (Message::Play { last, .. } | Message::Stop { last, .. }) = message else { unreachable!() };
            let Last::Percepts { turn, own, percepts } = last else { panic!("{message}") };
            assert_eq!((*turn, own.as_deref()), (k + 1, Some(record.steps[k].moves[r].as_str())), "{message}");
            // Its own percepts only: whether its own mark went in, never the other's.
            let own = own.clone().unwrap();
            assert!(percepts.iter().all(|p| p.replace("yougotit", "mark") == own), "{message}");
            // The record keeps what each role perceived.
            assert_eq!(record.steps[k].percepts.as_ref().unwrap()[r], *percepts, "{message}");
        }
    }
}

#[test]
fn in_gdl2_the_referee_plays_nature() {
    let rules = crate::shared::gdl2_game("montyhall");
    let desc = crate::parse::parse(&rules).description;
    let mut m = engine(&rules);
    let mut candidate = Recording(Local { spec: Spec::Uct(Budget::Playouts(20)), seed: 1 }, Vec::new());
    let mut nature = Local { spec: Spec::Random, seed: 3 };
    let setup = Setup { players: vec![1, 0], ..setup(&desc, 10.0, 3.0) };
    let record = referee(&mut m, &mut [&mut candidate, &mut nature], &setup, &|| 0.0, &mut |_| {}).unwrap();
    assert_eq!(record.steps.len(), 3);
    assert!(record.goals.is_some() && record.faults.is_empty(), "{:?}", record.faults);
    // The candidate is never told where the car was hidden.
    let hidden = &record.steps[0].moves[1];
    assert!(hidden.starts_with("(hide_car "), "{hidden}");
    let told = candidate.1.iter().filter(|m| !matches!(m, Message::Start { .. }));
    assert!(told.map(|m| m.to_string()).all(|m| !m.contains("hide_car")), "{:?}", candidate.1);
}

#[test]
fn core_words_every_missing_reply() {
    let cases = [
        (NoReply::Timeout { millis: 3000.0 }, "no reply in 3 s"),
        (NoReply::Timeout { millis: 500.0 }, "no reply in 0.5 s"),
        (NoReply::Unreachable { detail: "connection refused".into() }, "no reply: connection refused"),
        (NoReply::Status { code: 503, body: "busy\n  now".into() }, "answered HTTP 503 'busy now'"),
        (NoReply::Unreadable { detail: "reset".into() }, "the reply could not be read: reset"),
        (NoReply::TooLong, "the reply is longer than 4 MB"),
        (NoReply::Failed { why: "out of memory".into() }, "out of memory"),
    ];
    for (failure, says) in &cases {
        assert_eq!(failure.to_string(), *says);
    }
    // The faces send it as JSON tagged by its kind.
    let json = serde_json::to_string(&NoReply::Status { code: 404, body: String::new() }).unwrap();
    assert_eq!(json, r#"{"kind":"status","code":404,"body":""}"#);
    assert_eq!(
        serde_json::from_str::<NoReply>(r#"{"kind":"timeout","millis":2000}"#).unwrap().to_string(),
        "no reply in 2 s"
    );
    // Every kind reads back as it was written; a wrong kind or a missing field says which.
    for (failure, _) in cases {
        let json = serde_json::to_string(&failure).unwrap();
        assert_eq!(serde_json::from_str::<NoReply>(&json).unwrap(), failure, "{json}");
    }
    let wrong = serde_json::from_str::<NoReply>(r#"{"kind":"lost"}"#).unwrap_err().to_string();
    assert!(wrong.contains("unknown variant `lost`"), "{wrong}");
    let missing = serde_json::from_str::<NoReply>(r#"{"kind":"status"}"#).unwrap_err().to_string();
    assert!(missing.contains("missing field `code`"), "{missing}");
}

#[test]
fn a_game_of_a_match_is_named_by_core() {
    assert_eq!(super::game::game_id("gdl.17", 0), "gdl.17.1");
    assert_eq!(super::game::game_id("playground.5", 2), "playground.5.3");
}

/// A match driven one answer at a time (as the Play pane drives it) is the match
/// `referee` plays with the same seats: the same moves, the same replacement moves drawn from
/// the seed, the same faults.
#[test]
fn a_match_step_by_step_is_the_refereed_match() {
    use super::referee::Match as Refereed;
    let rules = text("tictactoe");
    let desc = crate::parse::parse(&rules).description;
    let setup = Setup { seed: 42, ..setup(&desc, 10.0, 3.0) };
    let mut m = engine(&rules);
    let mut silent = Canned(Err(NoReply::Timeout { millis: 3000.0 }));
    let mut ours = Local { spec: Spec::Random, seed: 3 };
    let whole = referee(&mut m, &mut [&mut silent, &mut ours], &setup, &|| 0.0, &mut |_| {}).unwrap();

    let mut game = Refereed::new(&mut m, &setup, vec!["canned".into(), "random".into()]).unwrap();
    let mut ours = Local { spec: Spec::Random, seed: 3 };
    assert!(game.start_message(0, &desc).to_string().starts_with("(START m1 x "));
    let silence = || Err(NoReply::Timeout { millis: 3000.0 });
    assert_eq!(game.started(0, silence(), 1.0).unwrap(), "player 1 (x) at the start: no reply in 3 s");
    assert_eq!(game.started(1, Ok("READY".into()), 1.0), None);
    while !game.is_over() {
        let mut joint = Vec::new();
        joint.push(game.answered(&mut m, 0, silence(), 0.0).unwrap().chosen);
        let message = game.play_message(1);
        let view = match game.view(1) {
            View::State(s, r) => (s.clone(), r),
            View::History(_) => unreachable!("tic-tac-toe has no sees"),
        };
        let answer = Seat::<Engine>::play(&mut ours, &message, 3000.0, &mut m, View::State(&view.0, view.1), &|| 0.0);
        let judged = game.answered(&mut m, 1, answer, 0.0).unwrap();
        assert!(judged.fault.is_none());
        joint.push(judged.chosen);
        game.advance(&mut m, &joint, vec![0.0, 0.0]).unwrap();
    }
    assert!(game.stopped(0, silence()).is_some());
    assert_eq!(game.stopped(1, Ok("done".into())), None);
    let record = game.into_record();
    let moves = |r: &super::referee::Record| r.steps.iter().map(|s| s.moves.clone()).collect::<Vec<_>>();
    assert_eq!(moves(&record), moves(&whole));
    assert_eq!(record.goals, whole.goals);
    let faults = |r: &super::referee::Record| r.faults.iter().map(|f| f.message.clone()).collect::<Vec<_>>();
    assert_eq!(faults(&record), faults(&whole));
    // Another seed draws other replacement moves.
    let setup = Setup { seed: 7, ..setup };
    let mut ours = Local { spec: Spec::Random, seed: 3 };
    let other = referee(&mut m, &mut [&mut silent, &mut ours], &setup, &|| 0.0, &mut |_| {}).unwrap();
    assert_ne!(faults(&other), faults(&whole));
}

#[test]
fn an_aborted_match_ends_where_it_is() {
    use super::referee::Match as Refereed;
    let rules = text("tictactoe");
    let desc = crate::parse::parse(&rules).description;
    let setup = setup(&desc, 10.0, 3.0);
    let mut m = engine(&rules);
    let mut a = Local { spec: Spec::Random, seed: 1 };
    let mut sent = Vec::new();
    let post = |message: &Message, _: f64| -> Answer {
        sent.push(message.clone());
        Err(NoReply::Unreachable { detail: "gone".into() })
    };
    let mut b = super::referee::Remote { url: "http://gone".into(), post };
    let mut game = Refereed::new(&mut m, &setup, vec!["random".into(), "canned".into()]).unwrap();
    let mut said = Vec::new();
    let mut log = |s: &str| said.push(s.to_string());
    game.start(&mut [&mut a, &mut b], &desc, &|| 0.0, &mut log);
    game.step(&mut m, &mut [&mut a, &mut b], &|| 0.0, &mut log).unwrap();
    game.abort(&mut [&mut a, &mut b], &mut log);
    drop(b);
    assert_eq!(sent.len(), 3, "START, PLAY, ABORT: {sent:?}");
    assert_eq!(sent[2], Message::Abort { id: "m1".into() });
    let record = game.into_record();
    assert_eq!((record.steps.len(), record.goals), (1, None));
    assert_eq!(said[0], "player 2 (o) at the start: no reply: gone");
    assert!(said[1].starts_with("player 2 (o) at step 1: no reply: gone; played noop"), "{}", said[1]);
    assert_eq!(said[2], "player 2 (o) at the stop: no reply: gone");
}

/// What the referee tells a role after each step: in tic-tac-toe the joint move; in Monty
/// Hall the candidate hears only its own move and percepts — where the car is only at the
/// end, when it sees it — and nature its own.
#[test]
fn the_referee_tells_the_joint_move_or_a_roles_own_move_and_percepts() {
    use super::referee::Match as Refereed;
    let play = |game: &mut Refereed<Engine>, m: &mut Engine, joint: &[&str]| {
        let moves: Vec<_> = (joint.iter().enumerate()).map(|(r, t)| game.legal_move(m, r, t).unwrap()).collect();
        game.advance(m, &moves, vec![0.0; moves.len()]).unwrap();
    };
    let desc = crate::parse::parse(&text("tictactoe")).description;
    let mut m = engine(&text("tictactoe"));
    let mut game = Refereed::new(&mut m, &setup(&desc, 10.0, 3.0), vec![String::new(); 2]).unwrap();
    assert_eq!(game.play_message(1).to_string(), "(PLAY m1 NIL)");
    play(&mut game, &mut m, &["(mark 1 1)", "noop"]);
    assert_eq!(game.play_message(1).to_string(), "(PLAY m1 ((mark 1 1) noop))");
    let e = game.legal_move(&mut m, 0, "(mark 1 1)").err().unwrap().message;
    assert_eq!(e, "(mark 1 1) is not a legal move of x at step 2");

    let rules = text("montyhall");
    let desc = crate::parse::parse(&rules).description;
    let mut m = engine(&rules);
    let mut game = Refereed::new(&mut m, &setup(&desc, 10.0, 3.0), vec![String::new(); 2]).unwrap();
    play(&mut game, &mut m, &["(choose 1)", "(hide 2)"]);
    assert_eq!(game.play_message(0).to_string(), "(PLAY m1 1 (choose 1) ())");
    assert_eq!(game.play_message(1).to_string(), "(PLAY m1 1 (hide 2) ())");
    play(&mut game, &mut m, &["noop", "(open 3)"]);
    assert_eq!(game.play_message(0).to_string(), "(PLAY m1 2 noop ((opened 3)))");
    play(&mut game, &mut m, &["switch", "noop"]);
    assert!(game.is_over());
    assert_eq!(game.stop_message(0).to_string(), "(STOP m1 3 switch ((car 2)))");
    assert_eq!(game.record().goals.as_ref().map(|g| g[0]), Some(100), "the switch wins the car");
}

/// A student's player's match: states as numbers (the same state, the same number), calls
/// that say what is wrong, and in a GDL-II game no position, only the role's history.
#[test]
fn a_students_match_numbers_states_and_hides_a_gdl2_position() {
    use super::student::{StudentGame, HIDDEN};
    let desc = crate::parse::parse(&text("tictactoe")).description;
    let start = Message::start("m1", "o", &desc, 10.0, 3.0).to_string();
    let mut g = StudentGame::start(&start, 1, |r| Ok(engine(r))).unwrap();
    let info = g.info();
    assert_eq!((info.role, info.roles, info.hidden), (1, vec!["x".to_string(), "o".to_string()], false));
    assert_eq!((info.id.as_str(), info.start_clock, info.play_clock, info.step), ("m1", 10.0, 3.0, 0));
    let s0 = g.initial();
    assert_eq!(g.current().unwrap(), s0);
    assert_eq!(g.legal(s0, 0).unwrap().len(), 9);
    let joint = ["(mark 2 2)".to_string(), "noop".to_string()];
    let s1 = g.next(s0, &joint).unwrap();
    assert_eq!(g.next(s0, &joint).unwrap(), s1, "one state, one number");
    assert!(g.fluents(s1).unwrap().contains(&"(cell 2 2 x)".to_string()));
    assert_eq!(
        g.next(s0, &["(mark 9 9)".into(), "noop".into()]).unwrap_err(),
        "(mark 9 9) is not a legal move of x in state 0"
    );
    assert_eq!(
        g.legal(77, 0).unwrap_err(),
        "77 is not a state of this match: use a state the game gave (initial, next, …)"
    );
    let means = g.playouts(s1, 50).unwrap();
    assert_eq!(means.iter().sum::<f64>().round(), 100.0);
    let draws: Vec<u32> = (0..40).map(|_| g.random(9).unwrap()).collect();
    assert!(draws.iter().all(|&d| d < 9) && draws.iter().any(|&d| d != draws[0]), "{draws:?}");
    let mut again = StudentGame::start(&start, 1, |r| Ok(engine(r))).unwrap();
    let a0 = again.initial();
    let a1 = again.next(a0, &joint).unwrap();
    let _ = again.playouts(a1, 50).unwrap();
    assert_eq!((0..40).map(|_| again.random(9).unwrap()).collect::<Vec<_>>(), draws, "the same seed, the same draws");
    assert!(g.random(0).unwrap_err().starts_with("random(0) has nothing to draw"));
    assert_eq!(g.follow("(PLAY m1 ((mark 2 2) noop))").unwrap(), "play");
    assert_eq!(g.current().unwrap(), s1, "the position follows the referee");
    assert_eq!(g.follow("(PLAY m2 NIL)").unwrap_err(), "no match 'm2' here: this player is playing 'm1'");

    let desc = crate::parse::parse(&text("montyhall")).description;
    let start = Message::start("m1", "candidate", &desc, 10.0, 3.0).to_string();
    let mut g = StudentGame::start(&start, 1, |r| Ok(engine(r))).unwrap();
    assert!(g.info().hidden);
    assert_eq!(g.current().unwrap_err(), HIDDEN);
    g.follow("(PLAY m1 NIL)").unwrap();
    g.follow("(PLAY m1 1 (choose 1) ())").unwrap();
    let info = g.info();
    assert_eq!((info.moves, info.percepts, info.step), (vec!["(choose 1)".to_string()], vec![Vec::<String>::new()], 1));
    // The car may be behind any door: the guesses, from the history alone, say so.
    let mut cars: Vec<String> = Vec::new();
    for s in g.guesses(30).unwrap() {
        cars.extend(g.fluents(s).unwrap().into_iter().filter(|f| f.starts_with("(car")));
    }
    cars.sort();
    cars.dedup();
    assert_eq!(cars, ["(car 1)", "(car 2)", "(car 3)"]);
}

/// A student's player is given the factors of its game's rules (the same as `propnet::factors`
/// finds), and in a GDL-II game the same, since they come from the rules alone.
#[test]
fn a_students_match_gives_the_factors_of_the_rules() {
    use super::student::StudentGame;
    let desc = crate::parse::parse(&text("doubletictactoe")).description;
    let start = Message::start("m1", "x", &desc, 10.0, 3.0).to_string();
    let mut g = StudentGame::start(&start, 1, |r| Ok(engine(r))).unwrap();
    let f = g.factors().unwrap();
    assert_eq!(f.factors.len(), 2);
    assert!(f.factors.iter().all(|k| k.fluents.len() == 27 && k.moves.len() == 18), "{f:?}");
    assert!(f.factors[0].moves.iter().any(|m| m.role == "x" && m.text == "(mark 1 1 1)"));
    let desc = crate::parse::parse(&text("montyhall")).description;
    let start = Message::start("m1", "candidate", &desc, 10.0, 3.0).to_string();
    let mut g = StudentGame::start(&start, 1, |r| Ok(engine(r))).unwrap();
    let whole = crate::propnet::factors::of_text(&text("montyhall")).unwrap();
    assert_eq!(format!("{:?}", g.factors().unwrap()), format!("{whole:?}"));
}

/// The Dresden GameController's form of a GDL-II PLAY gives only the percepts: a student's
/// player that said which move it sent follows it; one that did not is told what is missing.
#[test]
fn a_students_gdl2_match_follows_percepts_alone_after_its_move() {
    use super::student::StudentGame;
    let desc = crate::parse::parse(&text("montyhall")).description;
    let start = Message::start("m1", "candidate", &desc, 10.0, 3.0).to_string();
    let mut g = StudentGame::start(&start, 1, |r| Ok(engine(r))).unwrap();
    g.follow("(PLAY m1 NIL)").unwrap();
    g.follow("(PLAY m1 1 (choose 2) ())").unwrap();
    g.sent("noop").unwrap();
    g.follow("(PLAY m1 ((opened 3)))").unwrap();
    assert_eq!(
        g.history(),
        (vec!["(choose 2)".to_string(), "noop".into()], vec![vec![], vec!["(opened 3)".to_string()]])
    );
    // A move that is not a legal one is not taken for the player's own.
    g.sent("(choose 9)").unwrap();
    assert_eq!(
        g.follow("(PLAY m1 ((car 1)))").unwrap_err(),
        "percepts before this player made any move: send its move too"
    );
}

/// What a player says is kept at the step of the message it answers, and the record's log
/// puts it in the order of the steps, a step's lines before its fault, each at the position
/// the player was in.
#[test]
fn a_record_logs_what_was_said_and_the_faults_by_step() {
    use super::referee::Match as Refereed;
    let rules = text("tictactoe");
    let desc = crate::parse::parse(&rules).description;
    let mut m = engine(&rules);
    let setup = Setup {
        id: "m1",
        description: &desc,
        start_clock: 10.0,
        play_clock: 3.0,
        max_steps: 9,
        seed: 1,
        players: vec![1, 2],
    };
    let mut game = Refereed::new(&mut m, &setup, vec!["a".into(), "b".into()]).unwrap();
    game.said(0, "hello".into());
    for r in 0..2 {
        game.started(r, Ok("ready".into()), 0.0);
    }
    game.said(0, "thinking".into());
    let judged = game.answered(&mut m, 0, Ok("(mark 9 9)".into()), 0.0).unwrap();
    let other = game.answered(&mut m, 1, Ok("noop".into()), 0.0).unwrap();
    game.advance(&mut m, &[judged.chosen, other.chosen], vec![0.0; 2]).unwrap();
    // The match ends here (an ABORT): what is said now is said at the stop.
    game.said(1, "bye".into());
    let log = game.record().log();
    let seen: Vec<_> = log.iter().map(|l| (l.step, l.position, l.role.as_str(), l.fault)).collect();
    assert_eq!(seen, [(0, 0, "x", false), (1, 0, "x", false), (1, 0, "x", true), (2, 1, "o", false)]);
    assert!(log[2].text.starts_with("player 1 (x) at step 1: "), "{}", log[2].text);
    let when: Vec<_> = log.iter().map(|l| l.when.as_str()).collect();
    assert_eq!(when, ["at the start", "at step 1", "at step 1", "at the stop"]);
}
