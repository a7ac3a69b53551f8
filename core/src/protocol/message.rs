//! The messages of the GGP protocol as GGP-Base and the Dresden GameController send them
//! (`(START id role (rules) startclock playclock)`, `(PLAY id NIL)`, `(PLAY id (moves))`,
//! `(STOP id (moves))`, `(ABORT id)`, `(INFO)`, `(PING)`), read with the KIF reader of
//! `parse` and printed back; and a player's reply, of which the first term is the move.
//! GDL-II: the Dresden GameController sends a role its percepts where GDL has the joint move
//! (`(PLAY id (percepts))`, so only the game tells the two apart); the other form, which our
//! referee sends, adds the turn and the role's own last move: `(PLAY id turn move (percepts))`.

use crate::ast::Description;
use crate::parse::{read_sexp, Sexp, Syntax};
use crate::print::print_rule_line;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What the referee tells a player about the last step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub enum Last {
    /// `NIL`: the match has just started.
    Nothing,
    /// The joint move, in the order of the roles, each move in canonical text; in a GDL-II
    /// game as the Dresden GameController speaks, the role's percepts.
    Moves(Vec<String>),
    /// GDL-II: after joint move number `turn` (from 1), the role's own move in it (`None`:
    /// NIL, not said) and its percepts.
    Percepts { turn: usize, own: Option<String>, percepts: Vec<String> },
}

/// One message from a referee to a player.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    /// `(INFO)` or `(PING)`: is the player there, and free?
    Info,
    /// The rules as prefix GDL text (the inside of the rules' list); clocks in seconds.
    Start {
        id: String,
        role: String,
        rules: String,
        start_clock: f64,
        play_clock: f64,
    },
    Play {
        id: String,
        last: Last,
    },
    Stop {
        id: String,
        last: Last,
    },
    Abort {
        id: String,
    },
}

/// Longest message or reply read, in bytes: a START carries the rules, and the corpus's
/// largest game is far below this.
pub const MAX_MESSAGE_BYTES: usize = 4 << 20;

impl Message {
    /// Reads a message; the error says what is wrong with it.
    pub fn parse(text: &str) -> Result<Message, String> {
        let (sexp, end) = read_sexp(text).map_err(|d| format!("the message is not an s-expression: {}", d.message))?;
        if !text[end..].trim().is_empty() {
            return Err("the message has more after its closing parenthesis".into());
        }
        let Some(items) = sexp.items() else {
            return match sexp.symbol() {
                Some("info" | "ping") => Ok(Message::Info),
                _ => Err(format!("'{}' is not a message: write (INFO), (START …), (PLAY …), (STOP …)", &text[..end])),
            };
        };
        let kind = items.first().and_then(Sexp::symbol).unwrap_or("");
        let id = || symbol(items, 1, "match id");
        let args = items.len() - 1;
        let wants = |n: usize, shape: &str| {
            if args == n {
                Ok(())
            } else {
                Err(format!("{} takes {n} arguments {shape}, here it has {args}", kind.to_uppercase()))
            }
        };
        match kind {
            "info" | "ping" => Ok(Message::Info),
            "start" => {
                wants(5, "(id role (rules) startclock playclock)")?;
                if items[3].items().is_none() {
                    return Err("START: the rules must be a list: (START id role (rules) 10 3)".into());
                }
                let span = items[3].span();
                Ok(Message::Start {
                    id: id()?,
                    role: symbol(items, 2, "role")?,
                    rules: text[span.start as usize + 1..span.end as usize - 1].to_string(),
                    start_clock: seconds(&items[4], "start clock")?,
                    play_clock: seconds(&items[5], "play clock")?,
                })
            }
            "play" | "stop" => {
                let last = match args {
                    // Some referees send `(STOP id)` without the last moves.
                    1 if kind == "stop" => Last::Nothing,
                    4 => percepts(&items[2..])?,
                    _ => {
                        wants(2, "(id NIL), (id (moves)) or (id turn move (percepts))")?;
                        last(&items[2])?
                    }
                };
                let id = id()?;
                Ok(if kind == "play" { Message::Play { id, last } } else { Message::Stop { id, last } })
            }
            "abort" => {
                wants(1, "(id)")?;
                Ok(Message::Abort { id: id()? })
            }
            "" => Err("the message does not start with its kind: write (INFO), (START …), (PLAY …), (STOP …)".into()),
            k => Err(format!("'{k}' is not a message this player knows: INFO, PING, START, PLAY, STOP, ABORT")),
        }
    }

    /// A START with the rules of `description`, printed in prefix syntax on one line each.
    pub fn start(id: &str, role: &str, description: &Description, start_clock: f64, play_clock: f64) -> Message {
        let rules: Vec<String> = description.rules().map(|r| print_rule_line(r, Syntax::Prefix)).collect();
        Message::Start { id: id.into(), role: role.into(), rules: rules.join("\n"), start_clock, play_clock }
    }

    /// The match the message is about (none for INFO).
    pub fn id(&self) -> Option<&str> {
        match self {
            Message::Info => None,
            Message::Start { id, .. } | Message::Play { id, .. } | Message::Stop { id, .. } | Message::Abort { id } => {
                Some(id)
            }
        }
    }
}

/// The symbol at `items[k]`.
fn symbol(items: &[Sexp], k: usize, what: &str) -> Result<String, String> {
    match items.get(k).and_then(Sexp::symbol) {
        Some(s) => Ok(s.to_string()),
        None => Err(format!("the {what} must be a name")),
    }
}

/// A clock in whole or decimal seconds, positive.
fn seconds(s: &Sexp, what: &str) -> Result<f64, String> {
    s.symbol()
        .and_then(|t| t.parse::<f64>().ok())
        .filter(|x| x.is_finite() && *x > 0.0)
        .ok_or_else(|| format!("the {what} must be a number of seconds"))
}

/// `NIL` or the list of the last moves.
fn last(s: &Sexp) -> Result<Last, String> {
    if s.symbol() == Some("nil") {
        return Ok(Last::Nothing);
    }
    let items = s.items().ok_or("the last moves must be NIL or a list of moves, one per role")?;
    let moves = items.iter().map(|m| term_text(m).map_err(|e| format!("the last moves: {e}")));
    Ok(Last::Moves(moves.collect::<Result<_, _>>()?))
}

/// GDL-II's `turn move (percepts)`; the move and the percepts may be NIL.
fn percepts(items: &[Sexp]) -> Result<Last, String> {
    let turn =
        items[0].symbol().and_then(|t| t.parse::<usize>().ok()).ok_or("GDL-II: the turn must be a whole number")?;
    let own = match items[1].symbol() {
        Some("nil") => None,
        _ => Some(term_text(&items[1]).map_err(|e| format!("the last move: {e}"))?),
    };
    let percepts = match (items[2].symbol(), items[2].items()) {
        (Some("nil"), _) => Vec::new(),
        (_, Some(list)) => {
            list.iter().map(|p| term_text(p).map_err(|e| format!("the percepts: {e}"))).collect::<Result<_, _>>()?
        }
        _ => return Err("GDL-II: the percepts must be a list or NIL".into()),
    };
    Ok(Last::Percepts { turn, own, percepts })
}

/// The canonical text of a ground term.
fn term_text(s: &Sexp) -> Result<String, String> {
    let term = s.clone().term().map_err(|d| d.message)?;
    if !term.is_ground() {
        return Err(format!("{term} has a variable: a move is a ground term"));
    }
    Ok(term.to_string())
}

/// The move of a player's reply: its first term in canonical text (Jocular follows it with
/// `(explanation "…")` and `(taunt "…")`, which are left unread).
pub fn reply_move(text: &str) -> Result<String, String> {
    let (sexp, _) = read_sexp(text).map_err(|d| format!("the reply is not a move: {}", d.message))?;
    term_text(&sexp)
}

impl fmt::Display for Last {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Last::Nothing => f.write_str("NIL"),
            Last::Moves(moves) => write!(f, "({})", moves.join(" ")),
            Last::Percepts { turn, own, percepts } => {
                write!(f, "{turn} {} ({})", own.as_deref().unwrap_or("NIL"), percepts.join(" "))
            }
        }
    }
}

/// The message as a referee sends it.
impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::Info => f.write_str("(INFO)"),
            Message::Start { id, role, rules, start_clock, play_clock } => {
                write!(f, "(START {id} {role} ({rules}) {start_clock} {play_clock})")
            }
            Message::Play { id, last } => write!(f, "(PLAY {id} {last})"),
            Message::Stop { id, last } => write!(f, "(STOP {id} {last})"),
            Message::Abort { id } => write!(f, "(ABORT {id})"),
        }
    }
}
