// Messages between the page and the playouts worker.

import type { Batch } from '../engine/engine';

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

/** Totals so far: a `Batch` merged over every batch, plus timing. */
export interface Totals extends Batch {
  elapsedMs: number;
  /** 0..1 */
  progress: number;
}

export type FromWorker =
  | { type: 'engine'; note: string }
  | { type: 'upgraded'; moved: boolean; note: string }
  | { type: 'progress'; totals: Totals }
  | { type: 'done'; totals: Totals; cancelled: boolean }
  | { type: 'error'; message: string; totals: Totals | null };

export function emptyTotals(roles: number): Totals {
  return { playouts: 0, cut: 0, stuck: 0, stuckRole: null, totalLength: 0, minLength: 0, maxLength: 0, goals: Array.from({ length: roles }, () => []), elapsedMs: 0, progress: 0 };
}

/** Adds one batch to the totals. */
export function merge(t: Totals, b: Batch): void {
  t.minLength = t.playouts === 0 ? b.minLength : Math.min(t.minLength, b.minLength);
  t.maxLength = Math.max(t.maxLength, b.maxLength);
  t.playouts += b.playouts;
  t.cut += b.cut;
  t.stuck += b.stuck;
  t.stuckRole ??= b.stuckRole;
  t.totalLength += b.totalLength;
  b.goals.forEach((hist, r) => {
    const into = (t.goals[r] ??= []);
    for (const [label, n] of hist) {
      const e = into.find((x) => x[0] === label);
      if (e) e[1] += n;
      else into.push([label, n]);
    }
  });
}
