// Checks a student's player by real matches (lessons on players, data.ts `MatchCheck`): the
// player runs in its sandbox (student/sandbox.ts) and core's referee (`RefereeMatch`) judges
// each answer as at a seat of the Play pane; the opponent is one of core's players; each
// game's end is worded by core (`matchVerdict`). Nothing here reads the student's code.

import { RefereeMatch, Session, matchVerdict, type MatchGame, type Verdict } from '../engine/engine';
import { randomSeed } from '../players/protocol';
import type { MatchCheck } from './data';

/** How a check went: whether it passed and why not, in words. */
export interface MatchResult {
  ok: boolean;
  why: string;
  /** One line per game: core's verdict, and the player's first fault if any. */
  games: string[];
}

/** Most joint moves of a lesson's game before the check calls it unfinished. */
const MAX_STEPS = 200;

/** Plays `check.games` games of `code` against the lesson's opponent; `progress(k)` before game k (from 1). */
export async function checkPlayer(check: MatchCheck, code: string, progress: (game: number) => void, stopped: () => boolean): Promise<MatchResult> {
  const session = new Session();
  const { Sandbox } = await import('../student/sandbox');
  const { sandbox, error } = await Sandbox.open(code, randomSeed());
  try {
    const loaded = session.load(check.game);
    if (!loaded.ok) return { ok: false, why: "the lesson's game does not load", games: [] };
    if (error) return { ok: false, why: `the player does not load: ${error}`, games: [] };
    const roles = session.view().roles;
    const games: string[] = [];
    const verdicts: Verdict[] = [];
    const firstMoves = new Set<string>();
    const seats: number[] = [];
    let fault: string | null = null;
    for (let g = 0; g < check.games; g++) {
      if (stopped()) return { ok: false, why: 'stopped', games };
      progress(g + 1);
      const me = check.seat ?? g % roles.length;
      const played = await playGame(session, sandbox, check, me, g);
      const verdict = matchVerdict(roles, played.game);
      verdicts.push(verdict);
      seats.push(me);
      if (played.first) firstMoves.add(played.first);
      fault ??= played.fault && `game ${g + 1}: ${played.fault}`;
      games.push(`game ${g + 1} (${roles[me]}): ${verdict.text}${played.fault ? `; ${played.fault}` : ''}`);
    }
    if (fault) return { ok: false, why: fault, games };
    const lost = verdicts.findIndex((v, g) => v.ending === 'unfinished' || v.losers.includes(seats[g]));
    const won = verdicts.filter((v, g) => v.winners.includes(seats[g])).length;
    switch (check.expect) {
      case 'no-fault':
        return { ok: true, why: '', games };
      case 'varied':
        return firstMoves.size >= check.varied ? { ok: true, why: '', games } : { ok: false, why: `it played only ${firstMoves.size} different first move${firstMoves.size === 1 ? '' : 's'} in ${check.games} games, not ${check.varied} or more`, games };
      case 'wins':
        return won >= check.wins ? { ok: true, why: '', games } : { ok: false, why: `it won ${won} of ${check.games} games, not ${check.wins} or more: ${games.find((_, g) => !verdicts[g].winners.includes(seats[g]))}`, games };
      case 'never-loses':
        return lost < 0 ? { ok: true, why: '', games } : { ok: false, why: games[lost], games };
    }
  } finally {
    sandbox.close();
    session.free();
  }
}

/** One game from the initial state, the player at role `me`, refereed by core. */
async function playGame(session: Session, sandbox: import('../student/sandbox').Sandbox, check: MatchCheck, me: number, g: number): Promise<{ game: MatchGame; fault: string | null; first: string | null }> {
  const seed = randomSeed();
  const referee = new RefereeMatch(check.game, `lesson.${Date.now()}.${g}`, check.startClock, check.playClock, seed);
  try {
    let view = session.goTo(0);
    let fault: string | null = null;
    let first: string | null = null;
    const moves: string[][] = [];
    const start = await sandbox.post(referee.startMessage(me), check.startClock * 1000);
    fault ??= referee.started(me, start.reply ?? undefined, start.failure, start.millis) ?? null;
    while (!view.terminal && view.step < MAX_STEPS) {
      const asked = await sandbox.post(referee.playMessage(me), check.playClock * 1000);
      const judged = referee.answered(me, asked.reply ?? undefined, asked.failure, asked.millis);
      fault ??= judged.fault;
      if (view.legal[me].length > 1) first ??= judged.move;
      const joint = view.roles.map((_, r) => (r === me ? judged.move : view.legal[r].length === 1 ? view.legal[r][0] : session.think(check.opponent, r, seed + view.step, () => {}, 0).move));
      referee.advance(joint);
      moves.push(joint);
      view = session.play(joint);
    }
    const stop = await sandbox.post(referee.stopMessage(me), check.playClock * 1000);
    fault ??= referee.stopped(me, stop.reply ?? undefined, stop.failure) ?? null;
    const seats = view.roles.map((_, r) => (r === me ? 0 : 1));
    const goals = view.terminal && view.goals ? view.goals.map((gs) => Number(gs[0])) : null;
    return { game: { seats, goals, length: view.step, moves }, fault, first };
  } finally {
    referee.free();
  }
}
