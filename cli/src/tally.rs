//! The tally of a match as `gdl match` prints it, whoever referees the games (the arena's
//! threads or the protocol's referee); `gdl tournament` prints its cells the same way.

use gdl_core::players::arena::Tally;

/// The tally as a table: mean score for one seated role; wins, draws, losses and points for
/// more (nature, the role `random`, has no seat).
pub fn table(roles: &[String], tallies: &[Tally]) -> String {
    let mut out = String::new();
    if roles.iter().any(|r| gdl_core::gdl2::is_nature(r)) {
        out += "role random: nature (no seat; its moves drawn uniformly among its legal ones)\n";
    }
    // Wide enough for the longest name (a remote player's address).
    let w = tallies.iter().map(|t| t.player.chars().count()).max().unwrap_or(0).max(16);
    if roles.iter().filter(|r| !gdl_core::gdl2::is_nature(r)).count() == 1 {
        out += &format!("{:<w$} {:>5}  mean score (95% CI)\n", "player", "games");
        for t in tallies {
            out += &format!("{:<w$} {:>5}  {:.1} ± {:.1}\n", t.player, t.games, t.score.mean, t.score.plus_minus);
        }
        return out;
    }
    out += &format!(
        "{:<w$} {:>5} {:>5} {:>5} {:>6}  {:<18} mean score (95% CI)\n",
        "player", "games", "wins", "draws", "losses", "points (95% CI)"
    );
    for t in tallies {
        let (points, score) = points_and_score(t);
        out += &format!(
            "{:<w$} {:>5} {:>5} {:>5} {:>6}  {points:<18} {score}\n",
            t.player, t.games, t.wins, t.draws, t.losses
        );
    }
    out
}

/// A tally's points and mean score with their 95% intervals, as the tables print them:
/// "62.5% ± 21.0" and "62.5 ± 21.0".
pub fn points_and_score(t: &Tally) -> (String, String) {
    (
        format!("{:.1}% ± {:.1}", 100.0 * t.points.mean, 100.0 * t.points.plus_minus),
        format!("{:.1} ± {:.1}", t.score.mean, t.score.plus_minus),
    )
}
