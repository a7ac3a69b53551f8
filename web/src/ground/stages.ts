// The pipeline of the Grounded rules pane: one button per stage of the grounding (counts and
// times), the text of a stage's rules, and the propositional network around an atom.

import { byId, h } from '../dom';
import { networkHere } from '../engine/auto';
import { glossary, stageWord } from './glossary';
import type { AtomFactors, GroundClient, Program, Values } from './client';
import type { GroundSummary } from './protocol';
import { VirtualList, WRAP_UP_TO } from './vlist';

/** The stages as a pipeline, one after the other, each with what it does in a sentence (and
 * a link to the word it is about), what it holds and its time (a button: `stage` pressed,
 * `open` shows its rules); the words used; the engine `auto` picked; the warnings. */
export function pipeline(s: GroundSummary, stage: string, open: (name: string) => void): HTMLElement[] {
  const stages = h(
    'ol',
    { class: 'gv-pipeline', 'aria-label': 'The stages of the grounding, in order' },
    ...s.stages.map((st) =>
      h(
        'li',
        {},
        h(
          'button',
          { type: 'button', class: 'gv-stage', 'data-stage': st.name, 'aria-pressed': String(st.name === stage), onclick: () => open(st.name) },
          h('strong', {}, st.name),
          h('span', { class: 'gv-stage-what' }, st.summary),
          h('span', { class: 'muted gv-stage-ms' }, `${st.ms.toFixed(1)} ms`),
          h('span', { class: 'muted gv-stage-why' }, st.explanation),
        ),
        stageWord(st.name),
      ),
    ),
  );
  // The same story as the Play pane's engine line: a network slow to build plays in the
  // workers, the reasoner on the page itself.
  const here = s.engine === 'propnet' && !networkHere(s) ? ` The Play pane's own moves use the reasoner: the network takes ${s.engineMs.toFixed(0)} ms to build, so only the workers (Playouts, Best moves, Analysis, Match) build it.` : '';
  const engine = h('p', { class: 'muted', id: 'gv-engine' }, `Engine auto: ${s.engineNote} · decided in ${s.engineMs.toFixed(0)} ms.${here}`);
  return [stages, glossary(), engine, ...s.warnings.map((w) => h('p', { class: 'warn' }, w))];
}

/** Stage `name`'s rules as text, asked from the worker, into `box`, under what the stage does. */
export function showStageText(box: HTMLElement, client: GroundClient, name: string, explanation: string): void {
  const lines = h('div', { class: 'gv-lines' });
  box.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
  client.stage(name).then(
    (text) => {
      const all = text.split('\n').filter((l) => l !== '');
      const list = new VirtualList((i) => h('div', { class: 'vrow line' }, all[i]), { id: 'gv-stage-list', 'aria-label': `${name} rules` }, WRAP_UP_TO);
      box.replaceChildren(h('p', { class: 'muted' }, explanation), lines, list.el);
      list.setCount(all.length);
    },
    (e: Error) => box.replaceChildren(h('p', { class: 'warn' }, e.message)),
  );
}

/** The network's figures and its picture around `atom` (the last rule's head if none), into
 * `box`; a click on a node selects its atom. */
export async function showNetwork(box: HTMLElement, p: Program, values: Values | null, atom: number, select: (a: number) => void, factors: Promise<AtomFactors | null>): Promise<void> {
  const net = p.data.summary.network;
  const stats = net
    ? `Compiled network: ${net.gates.toLocaleString('en')} gates, ${net.inputs.toLocaleString('en')} gate inputs, ${net.fluents} fluents (${net.permanent} permanent, ${net.persistent} persistent, ${net.ephemeral} ephemeral), ${net.moves} moves, ${net.cyclic_blocks} cyclic blocks, evaluated by ${net.strategy}; built in ${net.build_ms.toFixed(1)} ms.`
    : 'The compiled network was not built: the game plays on the reasoner.';
  const around = atom >= 0 ? atom : p.head(p.rules - 1);
  box.replaceChildren(
    h('p', { class: 'muted', id: 'gv-network-stats' }, stats),
    h(
      'p',
      { class: 'muted' },
      'Around ',
      h('code', {}, p.atom(around)),
      ': each rule is an AND gate of its literals (a dashed red input is negated), each atom an OR of its rules; green holds in this position. Click a node to expand around it.',
    ),
    h('div', { id: 'gv-network', class: 'graph gv-network' }),
  );
  const { drawNeighbourhood } = await import('./network');
  drawNeighbourhood(byId('gv-network'), p, values, around, select, factors);
}
