// The atom panel of the Grounded rules pane: the atom selected, whether it holds, the rules
// defining and using it (each a link into the list), and the ways to its network
// neighbourhood and its relation in the rule graph.

import { h } from '../dom';
import type { Program, Values } from './client';

/** Rules listed at most under an atom (the main list shows them all with a filter). */
const LISTED = 60;

export interface AtomActions {
  /** Shows rule r in the list. */
  reveal(r: number): void;
  showNetwork(): void;
  showInGraph(relation: string): void;
}

/** Atom `a` of `p` with the values `v`, into #gv-atom (if it is shown). */
export function renderAtom(p: Program, a: number, v: Values | null, actions: AtomActions): void {
  const box = document.getElementById('gv-atom');
  if (!box) return;
  const holds = v ? v.atoms[a] === 1 : null;
  const defined = p.definedBy(a);
  const used = p.usedBy(a);
  const ruleList = (rules: Uint32Array, id: string) =>
    h(
      'ol',
      { class: 'gv-rules', id },
      ...[...rules.subarray(0, LISTED)].map((r) =>
        h('li', { class: v?.fires[r] ? 'fires' : '' }, h('button', { type: 'button', class: 'link', onclick: () => actions.reveal(r) }, p.text(r))),
      ),
      rules.length > LISTED ? h('li', { class: 'muted' }, `… ${rules.length - LISTED} more`) : '',
    );
  const rel = relationOf(p.key(a));
  box.replaceChildren(
    h('h3', { id: 'gv-atom-name' }, p.atom(a)),
    h('p', { class: holds ? 'gain' : 'muted', id: 'gv-atom-value' }, holds === null ? '' : holds ? 'holds in this position' : 'does not hold in this position'),
    h('p', {}, h('strong', {}, `Defined by ${defined.length} rule${defined.length === 1 ? '' : 's'}`)),
    ruleList(defined, 'gv-defined'),
    h('p', {}, h('strong', {}, `Used by ${used.length} rule${used.length === 1 ? '' : 's'}`)),
    ruleList(used, 'gv-used'),
    h(
      'div',
      { class: 'controls' },
      h('button', { type: 'button', class: 'small', id: 'gv-to-network', onclick: () => actions.showNetwork() }, 'Network around it'),
      h('button', { type: 'button', class: 'small', id: 'gv-to-graph', onclick: () => actions.showInGraph(rel) }, `${rel} in the rule graph`),
    ),
  );
}

/** `name/arity` of an atom's canonical text. */
export function relationOf(text: string): string {
  if (!text.startsWith('(')) return `${text}/0`;
  const name = text.slice(1).split(/[\s()]/)[0];
  let depth = 0;
  let args = 0;
  let inArg = false;
  for (const c of text.slice(name.length + 1, -1)) {
    if (depth === 0 && /\s/.test(c)) inArg = false;
    else if (depth === 0 && !inArg) {
      args++;
      inArg = true;
    }
    if (c === '(') depth++;
    if (c === ')') depth--;
  }
  return `${name}/${args}`;
}
