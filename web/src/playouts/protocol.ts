// Messages between the page and the playouts worker.

import { mergePlayouts, type Stats, type Summary } from '../engine/engine';

export interface RunRequest {
  type: 'run';
  module: WebAssembly.Module;
  rules: string;
  /** Engine name (see `capabilities()`). */
  engine: string;
  /** Stop after this many playouts, or after `seconds`. */
  count: number | null;
  seconds: number | null;
  maxSteps: number;
  seed: number;
  /** Ground the game in full first (`auto` only): when `auto` keeps the reasoner for its own
   * bounds and the network is measured faster, say so (`upgraded`) and wait for the rest
   * of the run (`handover`) to play it on the network; otherwise stop there. */
  upgrade: boolean;
}

/** What is left of a run for the worker that moved to the network. */
export interface Handover {
  count: number | null;
  seconds: number | null;
}

export type ToWorker = RunRequest | { type: 'cancel' } | ({ type: 'handover' } & Handover);

/** Totals so far: the statistics of every batch added up by the engine (`mergePlayouts`),
 * plus timing. */
export type Totals = Summary & {
  elapsedMs: number;
  /** 0..1 */
  progress: number;
};

export type FromWorker =
  | { type: 'engine'; note: string }
  | { type: 'upgraded'; moved: boolean; note: string }
  | { type: 'progress'; totals: Totals }
  | { type: 'done'; totals: Totals; cancelled: boolean }
  | { type: 'error'; message: string; totals: Totals | null };

/** No playouts yet of a game with `roles`. */
export function emptyTotals(roles: string[]): Totals {
  const none: Stats = { roles, playouts: 0, cut: 0, stuck: 0, stuckRole: null, totalLength: 0, minLength: 0, maxLength: 0, outcomes: [] };
  return { ...mergePlayouts(null, none), elapsedMs: 0, progress: 0 };
}
