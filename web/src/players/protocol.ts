// Messages between the page and the players' worker (match-worker.ts), the results'
// shapes, and the players a seat can have.

import type { MatchGame, Thought } from '../engine/engine';
import { startJob, type Job } from '../engine/jobs';

export type PlayersTask =
  | { kind: 'think'; player: string; role: number; seed: number }
  | { kind: 'games'; players: string; seed: number; games: number[]; maxSteps: number }
  /** Grounds the game in full; if the network is measured faster, the worker keeps it for
   * its next task on the same rules (a match's remaining games, see match.ts). */
  | { kind: 'upgrade' };
/** A match worker at work: `stop` ends it, `send` gives it its next task. */
export type Players = Job<PlayersRequest>;
export type PlayersRequest = { module: WebAssembly.Module; rules: string; moves: string[][]; task: PlayersTask };
export type PlayersReply =
  | { type: 'thought'; thought: Thought }
  | { type: 'game'; index: number; game: MatchGame }
  | { type: 'upgraded'; moved: boolean; note: string }
  | { type: 'done' }
  | { type: 'error'; message: string };

/** MCTS strengths: playouts per move. */
export const STRENGTHS = [100, 1_000, 5_000, 20_000, 100_000];

/** What sits at a seat: a person, or a computer player in the engine's notation. */
export type Seat = 'human' | 'random' | 'perfect' | { mcts: number };

/** The engine's name for a computer seat (`uct:5000`), null for a person. */
export function playerSpec(seat: Seat): string | null {
  if (seat === 'human') return null;
  if (typeof seat === 'string') return seat;
  return `uct:${STRENGTHS[Math.min(STRENGTHS.length - 1, Math.max(0, seat.mcts))]}`;
}

/** "MCTS (5 000 playouts a move)", "random", "perfect". */
export function seatLabel(seat: Seat): string {
  if (typeof seat === 'string') return seat;
  return `MCTS (${STRENGTHS[seat.mcts].toLocaleString('en')} playouts a move)`;
}

/** Starts a match worker on `request`; `reply` hears every message. The worker ends with
 * its answer, except after a game (more follow) and after an upgrade that moved (it waits
 * for its next task). */
export function startPlayers(request: PlayersRequest, reply: (m: PlayersReply) => void): Players {
  const worker = new Worker(new URL('./match-worker.ts', import.meta.url), { type: 'module', name: 'match' });
  const more = (m: PlayersReply) => m.type === 'game' || (m.type === 'upgraded' && m.moved);
  return startJob(worker, request, reply, (message): PlayersReply => ({ type: 'error', message }), more);
}

/** A random seed for the engine (below 2^32). */
export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 32);
}

/** The games of a match for worker `w` of `workers`: every `workers`-th from `w`. */
export function share(games: number, w: number, workers: number): number[] {
  const mine: number[] = [];
  for (let g = w; g < games; g += workers) mine.push(g);
  return mine;
}
