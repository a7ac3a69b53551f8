// One game played on the page's main thread, for matches where a student's player sits (its
// sandbox lives in the page, out of a worker's reach): core's step-by-step referee
// (`RefereeMatch`) sends every message and judges every answer of each role that answers
// messages, a sandbox or a remote player (late, illegal, missing: core's faults); the other
// roles are played by core's players (`Session.think`). The game comes back as core's `MatchGame`, so core tallies and
// words it as any other, and the referee keeps its record (a tournament's `finished`), with
// the players' log lines (`said`). Used by the lessons' checks, the Match tab and the
// tournament.

import type { MatchGame, RefereeMatch, Session } from '../engine/engine';
import { logLine } from '../student/seat';
import type { Ran } from '../student/sandbox';

/** Answers the protocol's messages within a clock (ms): a student's sandbox, or a remote
 * player reached over HTTP (remote.ts); `close` frees what it holds once its games are over. */
export interface Answerer {
  post(message: string, clock: number): Promise<Ran>;
  close(): void;
}

/** Who plays a role: a player answering the protocol, named `who` in the logs, or one of
 * core's players by its spec (`random`, `uct:1000`). */
export type Seat = { player: Answerer; who: string } | { spec: string };

export interface Driven {
  game: MatchGame;
  /** Per role, its first fault in core's words, if any. */
  faults: (string | null)[];
  /** Per role, the first move it chose among several, if it had a choice. */
  firsts: (string | null)[];
  /** The answering players' log lines (`note`) and every fault, in order, as the message log shows them. */
  log: { kind: 'note' | 'fault'; text: string }[];
}

/** The clocks (seconds), seed and move limit of one game the page referees itself (the
 * referee's own terms are core's, in `referee`). */
export interface GameTerms {
  startClock: number;
  playClock: number;
  /** Seeds core's players' moves. */
  seed: number;
  maxSteps: number;
}

/** Plays one game from the initial state in `session` (loaded with the rules of `referee`'s
 * match, which the caller makes and frees), role r played by `seats[r]`; `entrants[r]` is the
 * match's number of the player at role r (null: nature), as core's `MatchGame` has it. */
export async function playDriven(session: Session, referee: RefereeMatch, seats: Seat[], entrants: (number | null)[], terms: GameTerms): Promise<Driven> {
  let view = session.goTo(0);
  const asked = seats.flatMap((s, r) => ('player' in s ? [{ r, player: s.player, who: s.who }] : []));
  const faults: (string | null)[] = seats.map(() => null);
  const firsts: (string | null)[] = seats.map(() => null);
  const log: Driven['log'] = [];
  const fault = (r: number, f: string | null | undefined) => {
    if (!f) return;
    faults[r] ??= f;
    log.push({ kind: 'fault', text: f });
  };
  const moves: string[][] = [];
  // Each message goes to every answering role at once, as a referee does.
  const each = async (message: (r: number) => string, clock: number) => {
    const answers = await Promise.all(asked.map(({ r, player, who }) => player.post(message(r), clock * 1000).then((ran) => ({ r, ran, who }))));
    for (const { r, ran, who } of answers) {
      for (const e of ran.logs) {
        const text = logLine(who, e);
        log.push({ kind: 'note', text });
        // Kept with the game's record, as its faults are.
        referee.said(r, text);
      }
    }
    return answers;
  };
  for (const { r, ran } of await each((r) => referee.startMessage(r), terms.startClock)) fault(r, referee.started(r, ran.reply ?? undefined, ran.failure, ran.millis));
  while (!view.terminal && view.step < terms.maxSteps) {
    const chosen = new Map<number, string>();
    for (const { r, ran } of await each((r) => referee.playMessage(r), terms.playClock)) {
      const judged = referee.answered(r, ran.reply ?? undefined, ran.failure, ran.millis);
      chosen.set(r, judged.move);
      fault(r, judged.fault);
    }
    const joint = view.roles.map((_, r) => {
      const seat = seats[r];
      const move = chosen.get(r) ?? (view.legal[r].length === 1 || 'player' in seat ? view.legal[r][0] : session.think(seat.spec, r, terms.seed + view.step, () => {}, 0).move);
      if (view.legal[r].length > 1) firsts[r] ??= move;
      return move;
    });
    referee.advance(joint);
    moves.push(joint);
    view = session.play(joint);
  }
  for (const { r, ran } of await each((r) => referee.stopMessage(r), terms.playClock)) fault(r, referee.stopped(r, ran.reply ?? undefined, ran.failure));
  const goals = view.terminal && view.goals ? view.goals.map((gs) => Number(gs[0])) : null;
  return { game: { seats: entrants, goals, length: view.step, moves }, faults, firsts, log };
}
