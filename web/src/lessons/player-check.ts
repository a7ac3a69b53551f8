// Checks a student's player by real matches (lessons on players, data.ts `MatchCheck`): the
// player runs in its sandbox (student/sandbox.ts), each game played by players/driven.ts
// (core's referee judges each answer); the opponent is one of core's players or the lesson's
// own; each game's end is worded by core (`matchVerdict`). Nothing here reads the student's code.

import { RefereeMatch, Session, matchVerdict, type Verdict } from '../engine/engine';
import { playDriven, type Seat } from '../players/driven';
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
  const rival = check.rival === undefined ? null : (await Sandbox.open(check.rival, randomSeed())).sandbox;
  try {
    const loaded = session.load(check.game);
    if (!loaded.ok) return { ok: false, why: "the lesson's game does not load", games: [] };
    if (error) return { ok: false, why: `the player does not load: ${error}`, games: [] };
    const roles = session.view().roles;
    const games: string[] = [];
    const verdicts: Verdict[] = [];
    const firstMoves = new Set<string>();
    const seats: number[] = [];
    const lengths: number[] = [];
    let fault: string | null = null;
    for (let g = 0; g < check.games; g++) {
      if (stopped()) return { ok: false, why: 'stopped', games };
      progress(g + 1);
      const me = check.seat ?? g % roles.length;
      const at: Seat[] = roles.map((_, r) => (r === me ? { player: sandbox, who: 'your player' } : rival ? { player: rival, who: "the lesson's player" } : { spec: check.opponent }));
      const terms = { startClock: check.startClock, playClock: check.playClock, seed: randomSeed(), maxSteps: MAX_STEPS };
      const referee = new RefereeMatch(check.game, `lesson.${Date.now()}.${g}`, terms.startClock, terms.playClock, terms.seed);
      const driven = await playDriven(session, referee, at, roles.map((_, r) => (r === me ? 0 : 1)), terms).finally(() => referee.free());
      const played = { game: driven.game, fault: driven.faults[me], first: driven.firsts[me], rivalFault: driven.faults.find((f, r) => r !== me && f) ?? null };
      const verdict = matchVerdict(roles, played.game);
      verdicts.push(verdict);
      seats.push(me);
      lengths.push(played.game.length);
      if (played.first) firstMoves.add(played.first);
      fault ??= played.fault && `game ${g + 1}: ${played.fault}`;
      games.push(`game ${g + 1} (${roles[me]}): ${verdict.text}${played.fault ? `; ${played.fault}` : ''}${played.rivalFault ? `; the rival's fault: ${played.rivalFault}` : ''}`);
      // A fault fails the check: the games after it are not played (a player too slow for
      // its clock would take the clock at every move of every game).
      if (fault) break;
    }
    if (fault) return { ok: false, why: fault, games };
    const lost = verdicts.findIndex((v, g) => v.ending === 'unfinished' || v.losers.includes(seats[g]));
    const wonGame = (g: number) => verdicts[g].winners.includes(seats[g]) && lengths[g] <= (check.within ?? Infinity);
    const won = verdicts.filter((_, g) => wonGame(g)).length;
    switch (check.expect) {
      case 'no-fault':
        return { ok: true, why: '', games };
      case 'varied':
        return firstMoves.size >= check.varied ? { ok: true, why: '', games } : { ok: false, why: `it played only ${firstMoves.size} different first move${firstMoves.size === 1 ? '' : 's'} in ${check.games} games, not ${check.varied} or more`, games };
      case 'wins':
        return won >= check.wins ? { ok: true, why: '', games } : { ok: false, why: `it won ${won} of ${check.games} games${check.within === undefined ? '' : ` within ${check.within} move${check.within === 1 ? '' : 's'}`}, not ${check.wins} or more: ${games.find((_, g) => !wonGame(g))}`, games };
      case 'never-loses':
      default:
        return lost < 0 ? { ok: true, why: '', games } : { ok: false, why: games[lost], games };
    }
  } finally {
    sandbox.close();
    rival?.close();
    session.free();
  }
}
