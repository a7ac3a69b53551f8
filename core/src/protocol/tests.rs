//! Tests of the protocol without the network: messages read and printed back, replies read,
//! a player's match followed from the referee's moves, a referee facing silent, garbled and
//! illegal players.

use super::message::{reply_move, Last, Message};
use super::player::Match;
use super::referee::{referee, Local, Seat, Setup};
use crate::engine::{build, Choice, Engine};
use crate::machine::StateMachine;
use crate::players::{Budget, Spec};

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
struct Canned(Result<String, String>);

impl<M: StateMachine> Seat<M> for Canned {
    fn name(&self) -> String {
        "canned".into()
    }
    fn tell(&mut self, _: &Message, _: f64) -> Result<String, String> {
        self.0.clone().map(|_| "ready".into())
    }
    fn play(
        &mut self,
        _: &Message,
        _: f64,
        _: (&mut M, &M::State, usize),
        _: &dyn Fn() -> f64,
    ) -> Result<String, String> {
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
    let answers = [
        (Err("no reply in 3 s".to_string()), "no reply in 3 s; played"),
        (Ok("((((".to_string()), "the reply is not a move"),
        (Ok("(mark 9 9)".to_string()), "(mark 9 9) is not a legal move; played"),
    ];
    for (answer, says) in answers {
        let mut m = engine(&rules);
        let mut silent = Canned(answer);
        let mut ours = Local { spec: Spec::Random, seed: 3 };
        let setup = setup(&desc, 10.0, 3.0);
        let mut said = Vec::new();
        let record =
            referee(&mut m, &mut [&mut silent, &mut ours], &setup, &|| 0.0, &mut |s| said.push(s.to_string())).unwrap();
        assert!(record.goals.is_some(), "the match is played to the end");
        let step1 = &record.faults.iter().find(|f| f.step == 1).unwrap().message;
        assert!(step1.starts_with("player 1 (x) at step 1: ") && step1.contains(says), "{step1}");
        // Every step has its fault, noop included: the seat never answers a move.
        assert_eq!(
            record.faults.iter().filter(|f| (1..=record.steps.len()).contains(&f.step)).count(),
            record.steps.len()
        );
        assert_eq!(said.len(), record.faults.len());
        assert_eq!(record.players, ["canned", "random"]);
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
}
