//! Faults of a refereed match, judged and worded once: why a remote player gave no reply
//! ([`NoReply`], which the HTTP faces fill: the CLI's, the page's), whether a reply to START
//! or PLAY stands ([`judge_ready`], [`judge`]), what kind of fault it is ([`FaultKind`]: late,
//! illegal, unreachable, failed), and how the record and the logs say a fault ([`fault_line`],
//! [`replaced`]).

use super::message::{reply_move, MAX_MESSAGE_BYTES};
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

/// Why a seat gave no reply to a message. The HTTP faces say what happened; core words it.
/// Read as a flat object (`{"kind": "timeout", "millis": 3000}`, as the page throws it) through
/// [`Fields`]: a derived reader of an internally tagged enum buffers its input and weighs
/// tens of kilobytes in the page's wasm.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub enum NoReply {
    /// Nothing came within the clock (`millis`).
    Timeout { millis: f64 },
    /// The player could not be reached (`detail`: what the face knows of why).
    Unreachable { detail: String },
    /// It answered with an HTTP status other than 200.
    Status { code: u16, body: String },
    /// The reply came but could not be read.
    Unreadable { detail: String },
    /// The reply is longer than a message may be.
    TooLong,
    /// A player of our own could not choose a move (the engine's words).
    Failed { why: String },
}

/// What kind of fault a player made, as tallies count them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub enum FaultKind {
    /// No reply within the clock, or a reply after it.
    Late,
    /// A reply that is not a legal move (nor `ready` to START), or cannot be read.
    Illegal,
    /// The player could not be reached, or answered with an HTTP error.
    Unreachable,
    /// A player of our own that could not choose (and faults of records without a kind).
    #[default]
    Failed,
}

impl NoReply {
    /// The kind of fault that no reply is.
    pub fn kind(&self) -> FaultKind {
        match self {
            NoReply::Timeout { .. } => FaultKind::Late,
            NoReply::Unreachable { .. } | NoReply::Status { .. } => FaultKind::Unreachable,
            NoReply::Unreadable { .. } | NoReply::TooLong => FaultKind::Illegal,
            NoReply::Failed { .. } => FaultKind::Failed,
        }
    }
}

/// Why a reply does not stand: the kind of fault and its words.
pub type Refused = (FaultKind, String);

impl fmt::Display for NoReply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoReply::Timeout { millis } => write!(f, "no reply in {} s", millis / 1000.0),
            NoReply::Unreachable { detail } => write!(f, "no reply: {detail}"),
            NoReply::Status { code, body } => write!(f, "answered HTTP {code} {}", quoted(body)),
            NoReply::Unreadable { detail } => write!(f, "the reply could not be read: {detail}"),
            NoReply::TooLong => write!(f, "the reply is longer than {} MB", MAX_MESSAGE_BYTES >> 20),
            NoReply::Failed { why } => f.write_str(why),
        }
    }
}

/// A [`NoReply`] as its fields arrive, each present or not.
#[derive(Deserialize)]
struct Fields {
    kind: String,
    millis: Option<f64>,
    detail: Option<String>,
    code: Option<u16>,
    body: Option<String>,
    why: Option<String>,
}

impl<'de> Deserialize<'de> for NoReply {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let f = Fields::deserialize(d)?;
        fn need<T, E: serde::de::Error>(field: Option<T>, name: &'static str) -> Result<T, E> {
            field.ok_or_else(|| E::missing_field(name))
        }
        Ok(match f.kind.as_str() {
            "timeout" => NoReply::Timeout { millis: need(f.millis, "millis")? },
            "unreachable" => NoReply::Unreachable { detail: need(f.detail, "detail")? },
            "status" => NoReply::Status { code: need(f.code, "code")?, body: f.body.unwrap_or_default() },
            "unreadable" => NoReply::Unreadable { detail: need(f.detail, "detail")? },
            "tooLong" => NoReply::TooLong,
            "failed" => NoReply::Failed { why: need(f.why, "why")? },
            k => {
                let kinds = &["timeout", "unreachable", "status", "unreadable", "tooLong", "failed"];
                return Err(D::Error::unknown_variant(k, kinds));
            }
        })
    }
}

/// A seat's answer to a message: its reply's text, or why none came.
pub type Answer = Result<String, NoReply>;

/// The legal move (its index in `legal`, canonical texts) that `answer` names, given `took`
/// milliseconds against a play clock of `play_clock` seconds; or why it does not stand.
pub fn judge(answer: Answer, took: f64, play_clock: f64, legal: &[String]) -> Result<usize, Refused> {
    let reply = answer.map_err(|e| (e.kind(), e.to_string()))?;
    let text = reply_move(&reply).map_err(|e| (FaultKind::Illegal, e))?;
    if took > play_clock * 1000.0 {
        return Err((FaultKind::Late, late(took, "play", play_clock)));
    }
    legal.iter().position(|l| *l == text).ok_or_else(|| (FaultKind::Illegal, format!("{text} is not a legal move")))
}

/// Whether `answer` to a START, after `took` milliseconds against a start clock of
/// `start_clock` seconds, is a player ready on time; or what is wrong.
pub fn judge_ready(answer: Answer, took: f64, start_clock: f64) -> Result<(), Refused> {
    match answer {
        Err(why) => Err((why.kind(), why.to_string())),
        Ok(_) if took > start_clock * 1000.0 => Err((FaultKind::Late, late(took, "start", start_clock))),
        Ok(reply) if !reply.trim().eq_ignore_ascii_case("ready") => {
            Err((FaultKind::Illegal, format!("answered {} instead of ready", quoted(&reply))))
        }
        Ok(_) => Ok(()),
    }
}

/// What a fault says when a random legal move stands in: "no reply in 3 s; played (mark 1 1) for it".
pub fn replaced(why: &str, played: &str) -> String {
    format!("{why}; played {played} for it")
}

/// When a fault happened: at the start, at a step (from 1), at the stop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum When {
    Start,
    Step(usize),
    Stop,
}

impl When {
    /// When a record's step `step` was, in a match of `steps` joint moves.
    pub fn of_step(step: usize, steps: usize) -> When {
        match step {
            0 => When::Start,
            s if s > steps => When::Stop,
            s => When::Step(s),
        }
    }
}

impl std::fmt::Display for When {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            When::Start => write!(f, "at the start"),
            When::Step(s) => write!(f, "at step {s}"),
            When::Stop => write!(f, "at the stop"),
        }
    }
}

/// A fault as the record and the log say it: "player 1 (x) at step 3: …".
pub fn fault_line(player: usize, role: &str, when: When, what: &str) -> String {
    format!("player {player} ({role}) {when}: {what}")
}

/// "answered after 3.2 s, past the 3 s play clock".
fn late(millis: f64, clock: &str, seconds: f64) -> String {
    format!("answered after {:.1} s, past the {seconds} s {clock} clock", millis / 1000.0)
}

/// A reply quoted for a message, cut at 60 characters.
fn quoted(reply: &str) -> String {
    let one_line = reply.split_whitespace().collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(60) {
        Some((i, _)) => format!("'{}…'", &one_line[..i]),
        None => format!("'{one_line}'"),
    }
}
