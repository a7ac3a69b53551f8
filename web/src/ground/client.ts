// The page's side of the grounding worker: one worker per rules text, which says which engine
// `auto` picks, grounds the rules when asked (`ground`: when the pane or a preview needs
// them), and then evaluates positions on request. `Program` holds the
// ground program as flat arrays with two indexes (rules defining / using each atom).

import type { EngineChoice, GroundProgramData, GroundReply, GroundRequest } from './protocol';

/** Truth values of one position: per atom, per rule (1: holds / fires). */
export interface Values {
  atoms: Uint8Array;
  fires: Uint8Array;
}

/** The factors of a game's atoms (core's `GroundProgram::atom_factors`). */
export interface AtomFactors {
  ofAtom: Int32Array;
  names: string[];
}

/** Compressed rows: the items of key k are items[start[k]..start[k + 1]]. */
interface Index {
  start: Uint32Array;
  items: Uint32Array;
}

function invert(keys: number, pairs: (emit: (key: number, item: number) => void) => void): Index {
  const start = new Uint32Array(keys + 1);
  pairs((k) => start[k + 1]++);
  for (let k = 0; k < keys; k++) start[k + 1] += start[k];
  const items = new Uint32Array(start[keys]);
  const fill = start.slice(0, keys);
  pairs((k, i) => (items[fill[k]++] = i));
  return { start, items };
}

export class Program {
  readonly rules: number;
  #defining: Index;
  #using: Index;
  #byKey: Map<string, number> | null = null;

  constructor(readonly data: GroundProgramData, readonly syntax: 'prefix' | 'infix') {
    const { heads, starts, literals, atoms } = data;
    this.rules = heads.length;
    this.#defining = invert(atoms.length, (emit) => heads.forEach((a, r) => emit(a, r)));
    this.#using = invert(atoms.length, (emit) => {
      for (let r = 0; r < this.rules; r++) {
        let last = -1;
        for (let i = starts[r]; i < starts[r + 1]; i++) {
          const a = literals[i] >> 1;
          if (a !== last) emit(a, r);
          last = a;
        }
      }
    });
  }

  /** Rule r's body: [atom, negated] pairs. */
  body(r: number): [number, boolean][] {
    const { starts, literals } = this.data;
    const out: [number, boolean][] = [];
    for (let i = starts[r]; i < starts[r + 1]; i++) out.push([literals[i] >> 1, (literals[i] & 1) === 1]);
    return out;
  }

  head(r: number): number {
    return this.data.heads[r];
  }

  atom(a: number): string {
    return this.data.atoms[a];
  }

  relation(r: number): string {
    return this.data.summary.relations[this.data.ruleRelations[r]]?.[0] ?? '';
  }

  /** The rules with head `a`, and those reading `a`. */
  definedBy(a: number): Uint32Array {
    return this.#defining.items.subarray(this.#defining.start[a], this.#defining.start[a + 1]);
  }

  usedBy(a: number): Uint32Array {
    return this.#using.items.subarray(this.#using.start[a], this.#using.start[a + 1]);
  }

  /** Rule r as one line of the ground program, as the engine prints it. */
  text(r: number): string {
    return this.data.texts[r];
  }

  /** Atom a's canonical (prefix) text, as the engine names fluents and moves. */
  key(a: number): string {
    return (this.data.keys ?? this.data.atoms)[a];
  }

  /** The atom with canonical text `key`, or -1. */
  find(key: string): number {
    if (!this.#byKey) this.#byKey = new Map((this.data.keys ?? this.data.atoms).map((t, a) => [t, a]));
    return this.#byKey.get(key) ?? -1;
  }
}

export interface LoadEvents {
  /** A stage of the grounding starts (a name of core's list, `groundStageNames`). */
  phase(name: string): void;
  /** The engine `auto` picks, known before the full grounding. */
  engine(choice: EngineChoice): void;
  ready(p: Program): void;
  error(message: string): void;
}

export class GroundClient {
  #worker: Worker | null = null;
  #nextId = 1;
  #waiting = new Map<number, { ok: (r: GroundReply) => void; fail: (m: string) => void }>();
  program: Program | null = null;
  #syntax: 'prefix' | 'infix' = 'prefix';
  /** The full grounding was asked for (it runs once per worker). */
  #grounding = false;

  constructor(private module: WebAssembly.Module) {}

  /** Loads `text` in a fresh worker (the previous one is stopped): it tells the engine `auto`
   * picks, and grounds the rules when `ground` is called. */
  load(text: string, syntax: 'prefix' | 'infix', on: LoadEvents): void {
    this.stop();
    this.#syntax = syntax;
    const worker = new Worker(new URL('./ground-worker.ts', import.meta.url), { type: 'module', name: 'ground' });
    this.#worker = worker;
    worker.onmessage = (e: MessageEvent<GroundReply>) => {
      const m = e.data;
      if (m.type === 'phase') return on.phase(m.phase);
      if (m.type === 'engine') return on.engine(m.choice);
      if (m.type === 'ready') {
        this.program = new Program(m.data, syntax);
        return on.ready(this.program);
      }
      if (m.type === 'error' && m.id === 0) {
        this.stop();
        return on.error(m.message);
      }
      const w = this.#waiting.get(m.id);
      this.#waiting.delete(m.id);
      if (m.type === 'error') w?.fail(m.message);
      else w?.ok(m);
    };
    worker.onerror = (e) => {
      this.stop();
      on.error(e.message || 'the grounding worker stopped');
    };
    worker.postMessage({ type: 'load', module: this.module, text } satisfies GroundRequest);
  }

  /** Starts the full grounding with limits `scale` times the default, once; false when there is
   * nothing to ground (no rules loaded, they failed, or it was cancelled). */
  ground(scale = 1): boolean {
    if (!this.#worker) return false;
    if (!this.#grounding) this.#worker.postMessage({ type: 'ground', syntax: this.#syntax, scale } satisfies GroundRequest);
    this.#grounding = true;
    return true;
  }

  /** Stops the worker (Cancel, or new rules); pending requests fail. */
  stop(): void {
    this.#worker?.terminate();
    this.#worker = null;
    this.program = null;
    this.#grounding = false;
    for (const w of this.#waiting.values()) w.fail('cancelled');
    this.#waiting.clear();
  }

  #ask(req: { type: 'evaluate'; fluents: string[]; roles: string[]; moves: string[] } | { type: 'stage'; name: string } | { type: 'factors' }): Promise<GroundReply> {
    const worker = this.#worker;
    if (!worker || !this.program) return Promise.reject(new Error('the rules are not grounded'));
    const id = this.#nextId++;
    return new Promise((ok, fail) => {
      this.#waiting.set(id, { ok, fail: (m) => fail(new Error(m)) });
      worker.postMessage({ ...req, id } as GroundRequest);
    });
  }

  /** Truth values with the state `fluents` and `moves[i]` chosen by `roles[i]`. */
  async evaluate(fluents: string[], roles: string[], moves: string[]): Promise<Values> {
    const m = await this.#ask({ type: 'evaluate', fluents, roles, moves });
    if (m.type !== 'values' || !this.program) throw new Error('unexpected answer');
    const n = this.program.data.atoms.length;
    return { atoms: m.values.subarray(0, n), fires: m.values.subarray(n) };
  }

  /** The game's factors, as core finds them: per atom its factor's number (-1: none), and
   * each number's name in words. */
  async factors(): Promise<AtomFactors> {
    const m = await this.#ask({ type: 'factors' });
    if (m.type !== 'factors') throw new Error('unexpected answer');
    return { ofAtom: m.ofAtom, names: m.names };
  }

  async stage(name: string): Promise<string> {
    const m = await this.#ask({ type: 'stage', name });
    if (m.type !== 'stage') throw new Error('unexpected answer');
    return m.text;
  }
}
