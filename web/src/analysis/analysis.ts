// The analysis pane: the game's requirements (termination, playability, goals, weak and
// strong winnability, declared base/input), proven by exhaustive search when the states fit
// the limit, otherwise checked by random playouts and labelled "not proven". Runs in a
// worker with Cancel; each witness path opens in the play pane.

import { byId, h } from '../dom';
import type { AnalysisReport, Outcome } from '../engine/engine';
import { runTask, type Running } from './tasks';

const LABEL: Record<Outcome, string> = { holds: 'Holds', fails: 'Fails', 'not-proven': 'Not proven' };

export class AnalysisPane {
  #running: Running | null = null;

  constructor(
    private module: WebAssembly.Module,
    private rules: () => string | null,
    private engine: () => string,
    private openPath: (moves: string[][]) => void,
  ) {
    byId('an-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.#start();
    });
    byId('an-cancel').addEventListener('click', () => this.cancel());
  }

  #num(id: string, lo: number, hi: number): number {
    const v = Math.round(Number(byId<HTMLInputElement>(id).value));
    return Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : lo;
  }

  #start(): void {
    const rules = this.rules();
    const out = byId('an-results');
    if (rules === null) {
      out.replaceChildren(h('p', { class: 'warn' }, 'The rules have errors: fix them to analyse the game.'));
      return;
    }
    this.cancel();
    const task = { kind: 'analyze' as const, maxStates: this.#num('an-states', 1, 5_000_000), playouts: this.#num('an-playouts', 1, 1_000_000), maxSteps: this.#num('an-steps', 1, 100_000), seed: 1 };
    out.replaceChildren(h('p', { class: 'muted', id: 'an-status' }, 'Analysing… (exhaustive search first, random playouts if the game is too big)'));
    this.#setRunning(true);
    this.#running = runTask({ module: this.module, rules, engine: this.engine(), moves: [], task }, (reply) => {
      this.#running = null;
      this.#setRunning(false);
      if (reply.type === 'analyzed') this.#render(reply.report, reply.ms, task.maxStates);
      else if (reply.type === 'error') out.replaceChildren(h('p', { class: 'warn', role: 'alert' }, `The analysis stopped: ${reply.message}`));
    });
  }

  cancel(): void {
    if (!this.#running) return;
    this.#running.stop();
    this.#running = null;
    this.#setRunning(false);
    byId('an-results').replaceChildren(h('p', { class: 'message', id: 'an-status' }, 'Analysis cancelled.'));
  }

  #setRunning(on: boolean): void {
    byId<HTMLButtonElement>('an-run').disabled = on;
    byId<HTMLButtonElement>('an-cancel').disabled = !on;
    byId('an-progress').hidden = !on;
  }

  #render(r: AnalysisReport, ms: number, maxStates: number): void {
    const proof = r.method === 'exhaustive';
    const method = proof
      ? `Exhaustive search of all ${r.states.toLocaleString('en')} reachable states: these results are proofs.`
      : `More than ${maxStates.toLocaleString('en')} states, so ${r.playouts.toLocaleString('en')} random playouts were run (${r.states.toLocaleString('en')} states visited). Results marked "Not proven" are only likely.`;
    const rows = r.checks.map((c) =>
      h(
        'tr',
        { class: `check ${c.outcome}`, 'data-check': c.name, 'data-role': c.role ?? '' },
        h('td', {}, c.name, c.role ? h('span', { class: 'muted' }, ` (${c.role})`) : '', c.required ? '' : h('span', { class: 'muted' }, ' · info')),
        h('td', {}, h('span', { class: `badge ${c.outcome}` }, LABEL[c.outcome])),
        h(
          'td',
          {},
          c.detail,
          c.witness
            ? h('button', { type: 'button', class: 'small witness', onclick: () => this.openPath(c.witness as string[][]) }, `Open ${c.witness.length} move${c.witness.length === 1 ? '' : 's'} in Play`)
            : '',
        ),
      ),
    );
    byId('an-results').replaceChildren(
      h('p', { class: `verdict ${r.well_formed}`, id: 'an-verdict' }, h('strong', {}, `Well-formed: ${LABEL[r.well_formed]}`), h('span', { class: 'muted' }, ` · ${(ms / 1000).toFixed(2)} s`)),
      h('p', { class: proof ? 'muted' : 'warn', id: 'an-method' }, method),
      h('table', { class: 'checks' }, h('thead', {}, h('tr', {}, h('th', {}, 'Requirement'), h('th', {}, 'Result'), h('th', {}, 'Details'))), h('tbody', {}, ...rows)),
    );
  }
}
