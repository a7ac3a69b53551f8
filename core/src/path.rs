//! Paths of moves as people write them: joint moves separated by `;`, the moves of one joint
//! move by `,`, e.g. `(mark 1 1), noop; noop, (mark 2 2)`. A joint move may name only the
//! roles that have a choice: roles with a single legal move (`noop`) are filled in, so
//! `(mark 1 1); (mark 2 2)` is the same path.

use crate::machine::{Result, RuntimeError, StateMachine};

/// The joint moves of `text`, each move in canonical text (lower case, single spaces).
pub fn parse_path(text: &str) -> std::result::Result<Vec<Vec<String>>, String> {
    let mut path = Vec::new();
    for (k, joint) in text.split(';').map(str::trim).enumerate() {
        if joint.is_empty() {
            if text.trim().is_empty() {
                break;
            }
            return Err(format!("move {} of the path is empty", k + 1));
        }
        let moves = joint.split(',').map(|m| canonical(m.trim()).map_err(|e| format!("move {}: {e}", k + 1)));
        path.push(moves.collect::<std::result::Result<Vec<_>, _>>()?);
    }
    Ok(path)
}

/// A path in the form `parse_path` reads.
pub fn format_path(path: &[Vec<String>]) -> String {
    path.iter().map(|joint| joint.join(", ")).collect::<Vec<_>>().join("; ")
}

/// Canonical text of one move written as a GDL term.
fn canonical(text: &str) -> std::result::Result<String, String> {
    let parsed = crate::parse::parse(text);
    let rules: Vec<_> = parsed.description.rules().collect();
    match rules.as_slice() {
        [r] if parsed.diagnostics.iter().all(|d| !d.is_error()) && r.body.is_empty() && r.head.is_ground() => {
            Ok(r.head.to_string())
        }
        _ => Err(format!("{text:?} is not a move (a ground term such as (mark 1 1))")),
    }
}

/// The legal move of `legal` whose text is `text`, if there is one.
pub fn move_named<M: StateMachine>(m: &M, legal: &[M::Move], text: &str) -> Option<M::Move> {
    legal.iter().copied().find(|&x| m.move_text(x) == text)
}

/// The moves of joint move number `k` (0-based) in `state`, given as text. With one text
/// per role, each names that role's move; with fewer, the texts go in order to the roles
/// with more than one legal move, and the others play their only move.
pub fn joint_moves<M: StateMachine>(m: &mut M, state: &M::State, k: usize, given: &[String]) -> Result<Vec<M::Move>> {
    let roles = m.roles().to_vec();
    let mut legal = Vec::new();
    for r in 0..roles.len() {
        legal.push(m.legal_moves(state, r)?);
    }
    let choosers: Vec<usize> = if given.len() == roles.len() {
        (0..roles.len()).collect()
    } else {
        (0..roles.len()).filter(|&r| legal[r].len() != 1).collect()
    };
    if choosers.len() != given.len() {
        return Err(RuntimeError::new(format!(
            "move {}: {} move(s) given, but {} role(s) choose here ({})",
            k + 1,
            given.len(),
            choosers.len(),
            choosers.iter().map(|&r| roles[r].as_str()).collect::<Vec<_>>().join(", ")
        )));
    }
    let mut joint: Vec<Option<M::Move>> = legal.iter().map(|l| l.first().copied().filter(|_| l.len() == 1)).collect();
    for (&r, text) in choosers.iter().zip(given) {
        match move_named(m, &legal[r], text) {
            Some(x) => joint[r] = Some(x),
            None => return Err(RuntimeError::new(format!("move {}: {text} is not legal for {}", k + 1, roles[r]))),
        }
    }
    Ok(joint.into_iter().map(|x| x.expect("every role has a move")).collect())
}

/// A path played: the states visited (the initial one first) and the joint moves.
pub type Played<M> = (Vec<<M as StateMachine>::State>, Vec<Vec<<M as StateMachine>::Move>>);

/// Plays `path` from the initial state.
pub fn play<M: StateMachine>(m: &mut M, path: &[Vec<String>]) -> Result<Played<M>> {
    let mut states = vec![m.initial_state()];
    let mut joints = Vec::new();
    for (k, given) in path.iter().enumerate() {
        let s = states[k].clone();
        if m.is_terminal(&s)? {
            return Err(RuntimeError::new(format!("move {}: the game is already over", k + 1)));
        }
        let joint = joint_moves(m, &s, k, given)?;
        states.push(m.next_state(&s, &joint)?);
        joints.push(joint);
    }
    Ok((states, joints))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_read_and_completed() {
        assert_eq!(parse_path("").unwrap(), Vec::<Vec<String>>::new());
        assert_eq!(
            parse_path("(MARK 1  1), noop; (mark 2 2)").unwrap(),
            [vec!["(mark 1 1)", "noop"], vec!["(mark 2 2)"]]
        );
        assert!(parse_path("(mark 1 1);;").unwrap_err().contains("move 2 of the path is empty"));
        let p = parse_path("(mark 1 1), noop; noop, (mark 2 2)").unwrap();
        assert_eq!(parse_path(&format_path(&p)).unwrap(), p);
        assert!(parse_path("(mark 1").unwrap_err().contains("is not a move"));
        let text = include_str!("../../games/tictactoe.kif");
        let mut m = crate::load(text, Default::default()).unwrap().reasoner;
        let (states, joints) = play(&mut m, &parse_path("(mark 1 1); (mark 2 2); (mark 1 2), noop").unwrap()).unwrap();
        assert_eq!(states.len(), 4);
        assert_eq!(m.move_text(joints[1][1]), "(mark 2 2)");
        assert_eq!(m.move_text(joints[1][0]), "noop");
        let e = play(&mut m, &parse_path("(mark 1 1); (mark 1 1)").unwrap()).unwrap_err();
        assert_eq!(e.message, "move 2: (mark 1 1) is not legal for o");
        let e = play(&mut m, &parse_path("noop, noop, noop").unwrap()).unwrap_err();
        assert!(e.message.contains("3 move(s) given, but 1 role(s) choose here (x)"), "{}", e.message);
    }
}
