// What `auto` picked for the loaded rules, as the page uses it: the engine the workers run,
// whether the page's own session moves to the network, and the engine line's "why".

import type { EngineChoice } from '../ground/protocol';
import type { View } from './engine';

/** Longest the propositional network may take to build (in the grounding worker) for the
 * page's own session to build it too; slower games play on the reasoner here, and on the
 * network in the workers (Best moves, Analysis). */
const MAIN_ENGINE_MS = 500;

/** What `auto` picks (from the grounding worker), why it could not tell, or null while it
 * decides. */
export type AutoPick = EngineChoice | string | null;

/** What `auto` picked, once it has (null while it decides or when it could not tell). */
export function autoChoice(pick: AutoPick): EngineChoice | null {
  return typeof pick === 'object' ? pick : null;
}

/** The engine workers should use: what `auto` picked, once known. */
export function workerEngine(pick: AutoPick): string {
  return autoChoice(pick)?.engine ?? 'auto';
}

/** The engine for a task that must answer within seconds (a seat's move, Best moves): what
 * `auto` picked, or the reasoner while it decides (grounding a big game takes longer than
 * the task may). */
export function quickEngine(pick: AutoPick): string {
  return autoChoice(pick)?.engine ?? 'reasoner';
}

/** `auto` picked the network and it builds quickly enough for the page's own session. */
export function networkHere(pick: AutoPick): boolean {
  const choice = autoChoice(pick);
  return choice?.engine === 'propnet' && choice.engineMs <= MAIN_ENGINE_MS;
}

/** Why the engine of `view` plays, for the engine line (after the engine's name). */
export function engineNote(pick: AutoPick, view: View): string {
  const why = (note: string) => (note.startsWith(`${view.engine} `) ? note.slice(view.engine.length + 1) : note);
  if (view.engine !== 'reasoner') return `${why(view.engineNote)}; chosen by auto: the game grounds`;
  if (pick === null) return 'for now: auto is grounding the game in a worker to see whether the propositional network can play it';
  if (typeof pick === 'string') return `(${pick})`;
  if (pick.engine === 'propnet') return `on this page: the propositional network takes ${pick.engineMs.toFixed(0)} ms to build, so the workers (Playouts, Best moves, Analysis, Match) use it`;
  return why(pick.engineNote);
}
