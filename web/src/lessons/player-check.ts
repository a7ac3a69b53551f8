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
      const played = await playGame(session, (r) => (r === me ? sandbox : rival), check, me, g);
      const verdict = matchVerdict(roles, played.game);
      verdicts.push(verdict);
      seats.push(me);
      lengths.push(played.game.length);
      if (played.first) firstMoves.add(played.first);
      fault ??= played.fault && `game ${g + 1}: ${played.fault}`;
      games.push(`game ${g + 1} (${roles[me]}): ${verdict.text}${played.fault ? `; ${played.fault}` : ''}${played.rivalFault ? `; the rival's fault: ${played.rivalFault}` : ''}`);
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

type Sandbox = import('../student/sandbox').Sandbox;

/** One game from the initial state, the player at role `me`, refereed by core; a role with a
 * sandbox (`at`: the player's, or the lesson's rival) is asked by the protocol, any other is
 * played by core's `check.opponent`. `fault`: the player's first; `rivalFault`: the rival's. */
async function playGame(session: Session, at: (role: number) => Sandbox | null, check: MatchCheck, me: number, g: number): Promise<{ game: MatchGame; fault: string | null; first: string | null; rivalFault: string | null }> {
  const seed = randomSeed();
  const referee = new RefereeMatch(check.game, `lesson.${Date.now()}.${g}`, check.startClock, check.playClock, seed);
  try {
    let view = session.goTo(0);
    const asked = view.roles.flatMap((_, r) => {
      const sandbox = at(r);
      return sandbox ? [{ r, sandbox }] : [];
    });
    let fault: string | null = null;
    let first: string | null = null;
    let rivalFault: string | null = null;
    const moves: string[][] = [];
    // Each message goes to every sandboxed role at once, as a referee does.
    const each = (message: (r: number) => string, clock: number) => Promise.all(asked.map(({ r, sandbox }) => sandbox.post(message(r), clock * 1000).then((ran) => ({ r, ran }))));
    for (const { r, ran } of await each((r) => referee.startMessage(r), check.startClock)) {
      const f = referee.started(r, ran.reply ?? undefined, ran.failure, ran.millis) ?? null;
      if (r === me) fault ??= f;
      else rivalFault ??= f;
    }
    while (!view.terminal && view.step < MAX_STEPS) {
      const chosen = new Map<number, string>();
      for (const { r, ran } of await each((r) => referee.playMessage(r), check.playClock)) {
        const judged = referee.answered(r, ran.reply ?? undefined, ran.failure, ran.millis);
        chosen.set(r, judged.move);
        if (r !== me) {
          rivalFault ??= judged.fault;
          continue;
        }
        fault ??= judged.fault;
        if (view.legal[me].length > 1) first ??= judged.move;
      }
      const joint = view.roles.map((_, r) => chosen.get(r) ?? (view.legal[r].length === 1 ? view.legal[r][0] : session.think(check.opponent, r, seed + view.step, () => {}, 0).move));
      referee.advance(joint);
      moves.push(joint);
      view = session.play(joint);
    }
    for (const { r, ran } of await each((r) => referee.stopMessage(r), check.playClock)) {
      const f = referee.stopped(r, ran.reply ?? undefined, ran.failure) ?? null;
      if (r === me) fault ??= f;
    }
    const seats = view.roles.map((_, r) => (r === me ? 0 : 1));
    const goals = view.terminal && view.goals ? view.goals.map((gs) => Number(gs[0])) : null;
    return { game: { seats, goals, length: view.step, moves }, fault, first, rivalFault };
  } finally {
    referee.free();
  }
}
