// The grounded-rules pane: the ground program (one rule per line, prefix or infix), counts
// per relation, time per phase and a filter box. Grounding runs in a worker, with a progress
// bar (one step per phase) and Cancel.

import { byId, h } from './dom';
import type { GroundView } from './engine';
import type { GroundReply, GroundRequest } from './ground-worker';

/** Lines drawn at most; the filter searches all of them. */
const SHOWN_LINES = 3000;
const PHASES = ['normalise', 'domains', 'instantiate', 'simplify'];

export class GroundPane {
  private worker: Worker | null = null;
  private lines: string[] = [];
  private shownFor = '';

  constructor(private module: WebAssembly.Module) {}

  /** Grounds `text` unless the pane already shows it; `null` when the rules have errors. */
  show(text: string | null, syntax: 'prefix' | 'infix'): void {
    const key = `${syntax}\u0000${text}`;
    if (key === this.shownFor) return;
    this.cancel(false);
    const pane = byId('ground');
    if (text === null) {
      this.shownFor = '';
      pane.replaceChildren(h('p', { class: 'message' }, 'The rules have errors: fix them to see the ground program.'));
      return;
    }
    this.shownFor = key;
    const bar = h('progress', { max: PHASES.length, value: 0, 'aria-label': 'Grounding progress' });
    const phase = h('span', { class: 'muted' }, 'starting…');
    const cancel = h('button', { type: 'button', id: 'ground-cancel', onclick: () => this.cancel(true) }, 'Cancel');
    pane.replaceChildren(h('div', { class: 'ground-progress' }, h('strong', {}, 'Grounding… '), phase, bar, cancel));
    const worker = new Worker(new URL('./ground-worker.ts', import.meta.url), { type: 'module', name: 'ground' });
    this.worker = worker;
    worker.onmessage = (e: MessageEvent<GroundReply>) => {
      const m = e.data;
      if (m.type === 'phase') {
        bar.value = PHASES.indexOf(m.phase);
        phase.textContent = m.phase;
        return;
      }
      this.stop();
      if (m.type === 'done') this.render(m.view, m.ms);
      else pane.replaceChildren(h('p', { class: 'warn', role: 'alert' }, `The rules cannot be grounded: ${m.message}`));
    };
    worker.onerror = (e) => {
      this.stop();
      pane.replaceChildren(h('p', { class: 'warn', role: 'alert' }, `Grounding stopped: ${e.message}`));
    };
    worker.postMessage({ module: this.module, text, syntax } satisfies GroundRequest);
  }

  private stop(): void {
    this.worker?.terminate();
    this.worker = null;
  }

  /** Stops a grounding under way; `byUser` leaves a message (and grounds again on the next change). */
  cancel(byUser: boolean): void {
    if (!this.worker) return;
    this.stop();
    if (byUser) {
      this.shownFor = '';
      byId('ground').replaceChildren(h('p', { class: 'message' }, 'Grounding cancelled. It starts again when the rules change or this tab is opened.'));
    }
  }

  private render(g: GroundView, ms: number): void {
    this.lines = g.text.split('\n').filter((l) => l !== '');
    const out = h('pre', { class: 'ground-text', id: 'ground-text' });
    const count = h('span', { class: 'muted', id: 'ground-count' });
    const draw = (q: string) => {
      const all = q ? this.lines.filter((l) => l.toLowerCase().includes(q)) : this.lines;
      out.textContent = all.slice(0, SHOWN_LINES).join('\n');
      const shown = all.length > SHOWN_LINES ? `the first ${SHOWN_LINES.toLocaleString('en')} of ` : '';
      count.textContent = q ? `${shown}${all.length.toLocaleString('en')} of ${this.lines.length.toLocaleString('en')} rules match` : `${shown}${this.lines.length.toLocaleString('en')} ground rules`;
    };
    const filter = h('input', {
      type: 'search',
      placeholder: 'Filter, e.g. legal or (cell 1 1',
      'aria-label': 'Filter the ground rules',
      oninput: (e: Event) => draw((e.target as HTMLInputElement).value.trim().toLowerCase()),
    });
    draw('');
    const domain = (n: number, declared: boolean, what: string) => `${n.toLocaleString('en')} ${what} (${declared ? 'declared' : 'computed'})`;
    byId('ground').replaceChildren(
      h('div', { class: 'ground-tools' }, filter, count),
      h(
        'p',
        { class: 'muted', id: 'ground-phases' },
        `${g.phases.map(([p, t]) => `${p} ${t.toFixed(1)} ms`).join(' · ')} · total ${ms.toFixed(0)} ms · ${domain(g.base, g.declaredBase, 'base fluents')} · ${domain(g.input, g.declaredInput, 'inputs')}`,
      ),
      h(
        'details',
        { class: 'ground-counts' },
        h('summary', {}, `Rules per relation (${g.relations.length})`),
        h('table', { class: 'counts' }, ...g.relations.map(([rel, n]) => h('tr', {}, h('td', {}, rel), h('td', { class: 'num' }, n.toLocaleString('en'))))),
      ),
      out,
    );
  }
}
