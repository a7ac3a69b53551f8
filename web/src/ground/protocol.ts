// Messages between the page and the grounding worker, and the ground program as the page
// holds it (flat arrays from gdl-wasm's GroundProgram plus the indexes the page derives).

import type { EngineChoice, GroundSummary } from '../../pkg/gdl_wasm.js';

export type { EngineChoice, GroundStage, GroundSummary, NetworkStats } from '../../pkg/gdl_wasm.js';

export interface GroundProgramData {
  summary: GroundSummary;
  /** Atom texts by atom number. */
  atoms: string[];
  /** Canonical (prefix) texts, when `atoms` are printed in infix (null: the same as `atoms`). */
  keys: string[] | null;
  /** Rule texts by rule number, in the syntax of the atoms. */
  texts: string[];
  /** Per rule, its head atom. */
  heads: Uint32Array;
  /** Rule r's literals are literals[starts[r]..starts[r + 1]]: atom * 2 (+1 when negated). */
  starts: Uint32Array;
  literals: Uint32Array;
  /** Per rule, its head relation's index in summary.relations. */
  ruleRelations: Uint32Array;
  /** Milliseconds the worker took (grounding, engine choice). */
  ms: number;
}

export type GroundRequest =
  | { type: 'load'; module: WebAssembly.Module; text: string }
  /** `scale`: limits that many times the default (1, or more after a limit stopped it). */
  | { type: 'ground'; syntax: 'prefix' | 'infix'; scale: number }
  | { type: 'evaluate'; id: number; fluents: string[]; roles: string[]; moves: string[] }
  | { type: 'stage'; id: number; name: string }
  | { type: 'factors'; id: number };

export type GroundReply =
  | { type: 'phase'; phase: string }
  | { type: 'engine'; choice: EngineChoice }
  | { type: 'ready'; data: GroundProgramData }
  | { type: 'values'; id: number; values: Uint8Array }
  | { type: 'stage'; id: number; text: string }
  /** The game's factors: per atom its factor's number (-1: none), each number's name. */
  | { type: 'factors'; id: number; ofAtom: Int32Array; names: string[] }
  | { type: 'error'; id: number; message: string };
