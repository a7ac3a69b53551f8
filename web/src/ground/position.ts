// The position the Grounded rules pane shows and the moves chosen in it (there or in the Play
// pane's preview): the truth values the grounding worker computed without and with those
// moves, and what follows from them — the rules the moves switch on or off, the rules that
// make them legal, the fluents they add and remove, and the percepts they produce (GDL-II).

import type { View } from '../engine/engine';
import type { GroundClient, Program, Values } from './client';

export class Position {
  view: View | null = null;
  /** The role the position is viewed as, who may not see the true state (then `view` is null). */
  hiddenFor: string | null = null;
  /** Values of the position (no move chosen) and with the chosen moves. */
  now: Values | null = null;
  withMove: Values | null = null;
  chosen: (string | null)[] = [];
  /** The `legal` atoms of the chosen moves. */
  #legal = new Set<number>();

  /** The position shown changed: the moves chosen stay only if it is the same position. */
  setView(view: View | null): void {
    const same = this.view && view && this.view.step === view.step && this.view.state.join() === view.state.join();
    this.view = view;
    if (!same) this.chosen = view ? view.roles.map(() => null) : [];
  }

  /** Chooses move `m` for role `r`, or takes it back. */
  choose(r: number, m: string): void {
    this.chosen[r] = this.chosen[r] === m ? null : m;
  }

  /** The values to show: with the chosen moves, else the position's. */
  get values(): Values | null {
    return this.withMove ?? this.now;
  }

  /** The joint move chosen so far: roles with one legal move need no choice. */
  joint(): (string | null)[] {
    const view = this.view;
    if (!view || view.terminal) return [];
    if (!this.chosen.some((c) => c !== null)) return view.roles.map(() => null);
    return view.legal.map((ms, r) => this.chosen[r] ?? (ms.length === 1 ? ms[0] : null));
  }

  /** Asks the worker for the values of `view` without and with the joint move chosen. */
  async evaluate(client: GroundClient, view: View): Promise<{ now: Values; withMove: Values | null }> {
    const joint = this.joint();
    const roles = view.roles.filter((_, i) => joint[i] !== null);
    const moves = joint.filter((m): m is string => m !== null);
    const [now, withMove] = await Promise.all([client.evaluate(view.state, [], []), moves.length ? client.evaluate(view.state, roles, moves) : Promise.resolve(null)]);
    return { now, withMove };
  }

  /** Takes the values `evaluate` gave for program `p`. */
  update(p: Program, values: { now: Values; withMove: Values | null }): void {
    this.now = values.now;
    this.withMove = values.withMove;
    this.#legal = new Set<number>();
    this.chosen.forEach((m, r) => {
      if (m === null) return;
      const a = p.find(`(legal ${this.view!.roles[r]} ${m})`);
      if (a >= 0) this.#legal.add(a);
    });
  }

  /** The rules switched on (1) or off (-1) by the chosen moves, else 0. */
  switched(r: number): number {
    if (!this.now || !this.withMove) return 0;
    return this.withMove.fires[r] - this.now.fires[r];
  }

  /** A rule of `p` that makes a chosen move legal. */
  makesLegal(p: Program, r: number): boolean {
    return this.now !== null && this.now.fires[r] === 1 && this.#legal.has(p.head(r));
  }

  /** The percepts the chosen moves produce (GDL-II: the `sees` atoms that hold with them). */
  percepts(p: Program): string[] | null {
    const v = this.withMove;
    if (!v) return null;
    const out: string[] = [];
    (p.data.keys ?? p.data.atoms).forEach((t, a) => {
      if (v.atoms[a] && t.startsWith('(sees ')) out.push(p.atom(a));
    });
    return out;
  }

  /** Fluents the chosen moves would add and remove (`next` atoms against the state). */
  changes(p: Program): { gained: string[]; lost: string[] } | null {
    const v = this.withMove;
    const now = this.now;
    if (!v || !now) return null;
    const inner = (text: string, key: string) => (text.startsWith(`(${key} `) ? text.slice(key.length + 2, -1) : null);
    const next = new Set<string>();
    const held = new Set<string>();
    (p.data.keys ?? p.data.atoms).forEach((t, a) => {
      const n = inner(t, 'next');
      if (n !== null && v.atoms[a]) next.add(n);
      const f = inner(t, 'true');
      if (f !== null && now.atoms[a]) held.add(f);
    });
    return { gained: [...next].filter((f) => !held.has(f)), lost: [...held].filter((f) => !next.has(f)) };
  }
}
