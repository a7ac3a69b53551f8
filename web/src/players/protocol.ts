// Messages between the page and the players' worker (match-worker.ts), the results'
// shapes, and the players a seat can have.

import type { Finished, MatchGame, MatchRecord, NoReply, Plan, PlayerChoice, PlayerKind, Terms, Thought } from '../engine/engine';
import { startJob, type Job } from '../engine/jobs';

export type PlayersTask =
  /** `requestedAt` (Date.now()): a budget in time counts from there (core's `Spec::after`), so
   * the worker's start and the game's loading come out of it and the move comes within it. */
  | { kind: 'think'; player: string; role: number; seed: number; requestedAt: number }
  | { kind: 'games'; players: string; seed: number; games: number[]; maxSteps: number }
  /** Grounds the game in full; if the network is measured faster, the worker keeps it for
   * its next task on the same rules (a match's remaining games, see match.ts). */
  | { kind: 'upgrade' }
  /** Loads the game and says so (`ready`): a seat's worker, kept for its moves. */
  | { kind: 'load' }
  /** POSTs a GGP message to a remote player (`url`: the player or the relay to it) and waits
   * `clock` ms at most for its reply (`posted`). */
  | { kind: 'post'; url: string; message: string; clock: number }
  /** Games of a match refereed by the protocol (core's referee) on `terms`: remote players
   * among `players` are reached at `targets[url]`; each exchange and fault is posted as it happens. */
  | { kind: 'referee'; players: string; targets: Record<string, string>; terms: Terms; games: number[] }
  /** Game number `game` of a tournament's schedule (core's `tournament`), on the rules of the
   * request (that game's); remote entrants reached at `targets[url]`. The worker then waits
   * for its next game (tournament.ts). */
  | { kind: 'tournament'; plan: Plan; game: number; targets: Record<string, string> };
/** A match worker at work: `stop` ends it, `send` gives it its next task. */
export type Players = Job<PlayersRequest>;
/** `engine`: the engine the page chose (`auto` when it has not yet). */
export type PlayersRequest = { module: WebAssembly.Module; rules: string; engine: string; moves: string[][]; task: PlayersTask };
export type PlayersReply =
  | { type: 'thought'; thought: Thought }
  /** A thinking computer's playouts and best move so far (every 100 ms of a search). */
  | { type: 'progress'; soFar: Thought }
  /** A game of a match; a refereed one (`referee` task) comes with its record. */
  | { type: 'game'; index: number; game: MatchGame; record?: MatchRecord }
  /** A tournament's game, finished, and its number. */
  | { type: 'finished'; game: number; finished: Finished }
  | { type: 'upgraded'; moved: boolean; note: string }
  | { type: 'ready' }
  | { type: 'posted'; exchange: Exchange }
  | { type: 'exchange'; exchange: Exchange }
  | { type: 'fault'; message: string }
  /** A refereed game's line, as core (and `gdl match`) says it. */
  | { type: 'result'; line: string }
  | { type: 'done' }
  | { type: 'error'; message: string };

/** One message to a remote player and what came back (`reply`, or `failure`: why none, which
 * core words), with the milliseconds it took, as the message logs show them. */
export interface Exchange {
  to: string;
  message: string;
  reply: string | null;
  failure: NoReply | null;
  millis: number;
  /** When it was sent (Date.now()). */
  at: number;
}

/** A remote player: its address, where the page reaches it (the address, or the local relay
 * to it; null until checked), what its INFO said, and the clocks in seconds. */
export interface Remote {
  url: string;
  target: string | null;
  status: string;
  startClock: number;
  playClock: number;
}

/** What sits at a seat: a person, a computer player of ours chosen from the player
 * catalogue (its kind, and the choice: the player in the engine's notation, in words, and the
 * longest it thinks), or a player called over the GGP protocol: a remote one, or the
 * student's player named `player`, answered in its sandbox (`web/src/student/`). */
export type Seat = 'human' | { kind: PlayerKind; choice: PlayerChoice } | { remote: Remote; player?: string };

/** Starts a match worker on `request`; `reply` hears every message. The worker ends with
 * its answer, except where `more` says it waits for its next task: by default after a game
 * (more follow) and after an upgrade that moved. */
export function startPlayers(request: PlayersRequest, reply: (m: PlayersReply) => void, more = (m: PlayersReply) => m.type === 'game' || (m.type === 'upgraded' && m.moved)): Players {
  const worker = new Worker(new URL('./match-worker.ts', import.meta.url), { type: 'module', name: 'match' });
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
