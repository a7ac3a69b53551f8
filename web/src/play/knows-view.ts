// What a role knows, beside the belief board (GDL-II, "View as" a role): its moves and what it
// perceived after each step, how many states it cannot tell apart (in the engine's words: an
// estimate says so, with its method and bounds), and those states in a virtualised list, each
// showing the fluents it is unsure of. The engine computes it all (`Session.knows`); this only
// draws.

import { h } from '../dom';
import type { Knowledge } from '../engine/engine';
import { VirtualList } from '../ground/vlist';

/** The role's steps: its move, then what it perceived. `played` gives its own moves while the
 * knowledge is still being worked out. */
export function stepsView(role: string, steps: { move: string; percepts: string[] | null }[]): HTMLElement {
  if (steps.length === 0) return h('p', { class: 'muted', id: 'percepts' }, `${role} has not moved yet.`);
  return h(
    'ol',
    { class: 'percepts', id: 'percepts' },
    ...steps.map((s, i) =>
      h(
        'li',
        { 'data-step': String(i + 1) },
        h('span', {}, 'played ', h('code', {}, s.move)),
        h('span', { class: 'saw' }, ' · saw ', ...(s.percepts === null ? ['…'] : s.percepts.length === 0 ? [h('em', {}, 'nothing')] : s.percepts.map((p) => h('code', { class: 'percept' }, p)))),
      ),
    ),
  );
}

export class KnowsView {
  #states: string[][] = [];
  #unsure: Set<string> = new Set();
  #list = new VirtualList((i) => this.#row(i), { id: 'knows-states', 'aria-label': 'Possible states' });

  constructor(private el: HTMLElement) {}

  /** Shows what `role` knows (null: being worked out, with its own moves so far; a string:
   * why it could not be). */
  show(role: string, k: Knowledge | string | null, ownMoves: string[], revealed: boolean): void {
    this.el.hidden = false;
    const title = h('h2', {}, `What ${role} knows`);
    if (typeof k === 'string') {
      this.el.replaceChildren(title, h('p', { class: 'warn', role: 'alert' }, k));
      return;
    }
    const steps = k ? k.steps.map((s) => ({ move: s.move, percepts: s.percepts })) : ownMoves.map((move) => ({ move, percepts: null }));
    const note = revealed ? h('p', { class: 'muted' }, 'The game is over: the true state and every move are shown.') : '';
    if (k === null) {
      this.el.replaceChildren(title, note, h('p', { class: 'muted', id: 'knows-count', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), `Working out what ${role} knows…`), stepsView(role, steps));
      return;
    }
    this.#states = k.states;
    this.#unsure = new Set(k.beliefs.filter((b) => b.share < 1).map((b) => b.fluent));
    const count = h('p', { id: 'knows-count', class: k.sampled ? 'sampled' : '', 'data-count': String(Math.round(k.count)), 'data-sampled': String(k.sampled), 'data-seen': String(k.seen), 'data-base': k.base === null ? '' : String(k.base) }, k.count_text);
    const list = h('details', { class: 'knows-states', open: k.states.length > 1 }, h('summary', {}, k.sampled ? `The sample (${k.states.length.toLocaleString('en')} states)` : `The possible states (${k.states.length.toLocaleString('en')})`), this.#list.el);
    this.el.replaceChildren(title, note, count, stepsView(role, steps), list);
    this.#list.setCount(k.states.length);
  }

  hide(): void {
    this.el.hidden = true;
    this.el.replaceChildren();
  }

  /** State i: the fluents its role is unsure of (all of them on hover). */
  #row(i: number): HTMLElement {
    const s = this.#states[i] ?? [];
    const unsure = s.filter((f) => this.#unsure.has(f));
    return h('div', { class: 'vrow', title: s.join(' ') }, h('span', { class: 'rn' }, `${i + 1}`), unsure.length ? unsure.join(' ') : 'the true state, surely');
  }
}
