// The engine (gdl-wasm) as the page uses it: typed results, one compiled module shared with
// the playouts worker.

import init, { Session, capabilities, formatText, initSync, matchTally, mergePlayouts, ruleGraph } from '../../pkg/gdl_wasm.js';
import wasmUrl from '../../pkg/gdl_wasm_bg.wasm?url';

export { Session, capabilities, formatText, matchTally, mergePlayouts };

export type { Capabilities, EditorDiagnostic, LoadResult, MatchGame, Outcome, Report as AnalysisReport, Stats, Summary, Tally, Thought, View } from '../../pkg/gdl_wasm.js';

/** A goal value as the engine prints it (the generated `Position` names this type). */
export type GoalValue = number | string;

export interface RuleGraph {
  nodes: { id: string; name: string; arity: number; stratum: number; kind: 'static' | 'state' | 'move'; recursive: boolean; defined: boolean }[];
  edges: { from: string; to: string; negative: boolean }[];
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

/** Typed views of the wasm functions whose results have no generated type (wasm-bindgen
 * returns `any` for them); the others are typed in the package. */
export const api = {
  explain: (s: Session, atom: string, step?: number) => s.explain(atom, step) as Explanation,
  solve: (s: Session, budget: number) => s.solve(budget) as Solution,
  ruleGraph: (text: string) => ruleGraph(text) as RuleGraph,
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
