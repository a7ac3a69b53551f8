// The engine (gdl-wasm) as the page uses it: typed results, one compiled module shared with
// the playouts worker.

import init, { Session, capabilities, formatText, initSync, matchTally, ruleGraph } from '../../pkg/gdl_wasm.js';
import wasmUrl from '../../pkg/gdl_wasm_bg.wasm?url';
import type { EngineDiagnostic } from '../editor/editor';

export { Session, formatText, matchTally };

export interface LoadResult {
  ok: boolean;
  syntax: 'prefix' | 'infix';
  errors: number;
  warnings: number;
  diagnostics: (EngineDiagnostic & { endLine: number; endColumn: number })[];
  roles: string[];
}

export type GoalValue = number | string;

export interface View {
  roles: string[];
  step: number;
  state: string[];
  terminal: boolean;
  goals: GoalValue[][] | null;
  legal: string[][];
  history: string[][];
  engine: string;
  /** Which engine runs and why. */
  engineNote: string;
}

export interface Batch {
  playouts: number;
  cut: number;
  /** Playouts stopped where a role had no legal move (the first such role). */
  stuck: number;
  stuckRole: string | null;
  totalLength: number;
  minLength: number;
  maxLength: number;
  goals: [string, number][][];
}

export interface RuleGraph {
  nodes: { id: string; name: string; arity: number; stratum: number; kind: 'static' | 'state' | 'move'; recursive: boolean; defined: boolean }[];
  edges: { from: string; to: string; negative: boolean }[];
}

export interface Capabilities {
  ground: boolean;
  /** The first is the default. */
  engines: { name: string; note: string }[];
}

/** Why an atom holds or not (gdl-core `explain`). */
export interface Explanation {
  atom: string;
  step: number;
  in_move: boolean;
  holds: boolean;
  summary: string;
  derivations: { rule: string; line: number; instance: string; premises: Premise[]; failed: number | null; note: string | null }[];
}

export interface Premise {
  literal: string;
  holds: boolean;
  atom: string | null;
  step: number;
  atom_holds: boolean;
}

/** What each move guarantees (gdl-core `solve`). */
export interface Solution {
  roles: { role: string; moves: { move: string; value: number | null }[]; value: number | null; summary: string }[];
  nodes: number;
  complete: boolean;
  stopped: string | null;
}

export type Outcome = 'holds' | 'fails' | 'not-proven';

/** The game's requirements (gdl-core `analyze`). */
export interface AnalysisReport {
  method: 'exhaustive' | 'simulation';
  states: number;
  playouts: number;
  checks: { name: string; role: string | null; outcome: Outcome; required: boolean; detail: string; witness: string[][] | null }[];
  well_formed: Outcome;
}

/** Typed views of the wasm functions (wasm-bindgen returns `any` for serialized values). */
export const api = {
  load: (s: Session, text: string) => s.load(text) as LoadResult,
  view: (s: Session) => s.view() as View,
  play: (s: Session, joint: string[]) => s.play(joint) as View,
  undo: (s: Session) => s.undo() as View,
  redo: (s: Session) => s.redo() as View,
  goTo: (s: Session, step: number) => s.goTo(step) as View,
  playouts: (s: Session, count: number, maxSteps: number) => s.playouts(count, maxSteps) as Batch,
  upgrade: (s: Session) => s.upgrade() as { moved: boolean; note: string },
  explain: (s: Session, atom: string, step?: number) => s.explain(atom, step) as Explanation,
  solve: (s: Session, budget: number) => s.solve(budget) as Solution,
  analyze: (s: Session, maxStates: number, playouts: number, maxSteps: number, seed: number) => s.analyze(maxStates, playouts, maxSteps, seed) as AnalysisReport,
  ruleGraph: (text: string) => ruleGraph(text) as RuleGraph,
  capabilities: () => capabilities() as Capabilities,
};

/** Fetches, compiles and starts the engine; the module can be sent to a worker. */
export async function startEngine(): Promise<WebAssembly.Module> {
  let module: WebAssembly.Module;
  try {
    module = await WebAssembly.compileStreaming(fetch(wasmUrl));
  } catch {
    // A server that does not send application/wasm: compile from bytes instead.
    const bytes = await (await fetch(wasmUrl)).arrayBuffer();
    module = await WebAssembly.compile(bytes);
  }
  await init({ module_or_path: module });
  return module;
}

/** Starts the engine from a module compiled elsewhere (in the worker). */
export function startEngineSync(module: WebAssembly.Module): void {
  initSync({ module });
}

/** The message of anything thrown by the engine. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
