// The playouts pane: N playouts or T seconds on a pool of Web Workers (one per core by
// default, each with its share of the playouts and its own seed), with a progress bar, Cancel,
// playouts per second, lengths and a goal histogram per role. With `auto`, a run still going
// after UPGRADE_AFTER_MS starts one more worker that grounds the game in full: if `auto` kept
// the reasoner only for its own bounds and the network is measured faster, the pool stops
// and that worker plays the rest of the run on the network (the same playouts, faster).

import { byId, h } from '../dom';
import { mergePlayouts, type Capabilities } from '../engine/engine';
import { UpgradeController } from '../engine/upgrade';
import { emptyTotals, type FromWorker, type RunRequest, type Totals } from './protocol';

/** The playouts of worker `w` of `workers` when `count` are shared out (the first ones
 * take one more when it does not divide). */
export function shareCount(count: number, w: number, workers: number): number {
  return Math.floor(count / workers) + (w < count % workers ? 1 : 0);
}

/** Below this much play (milliseconds) a run is too short for a steady rate. */
const SHORT_RUN_MS = 300;

/** A playouts worker, `name`d for the browser's tools. */
function playoutWorker(name: string): Worker {
  return new Worker(new URL('./playout-worker.ts', import.meta.url), { type: 'module', name });
}

/** A worker grounding the game in full for the upgrade (see the top): it answers whether it
 * moved to the network, or fails. */
function upgradeWorker(request: RunRequest, answered: (moved: boolean, note: string) => void, failed: () => void): { worker: Worker; stop(): void } {
  const worker = playoutWorker('upgrade');
  worker.onerror = () => failed();
  worker.onmessage = (e: MessageEvent<FromWorker>) => {
    const m = e.data;
    if (m.type === 'upgraded') answered(m.moved, m.note);
    else failed();
  };
  worker.postMessage(request);
  return { worker, stop: () => worker.terminate() };
}

export class PlayoutsPane {
  /** The pool: one worker per core (navigator.hardwareConcurrency) unless set otherwise. */
  #workers: Worker[] = [];
  #roles: string[] = [];
  #running = false;
  #engine = 'auto';
  /** Which engine runs and why, as the first worker reports it. */
  #note = '';
  /** Per worker of the run: its latest totals, whether it finished, and when it started
   * playing (milliseconds of the run's play: the worker that took over starts late). */
  #parts: { totals: Totals | null; done: boolean; cancelled: boolean; since: number }[] = [];
  #count: number | null = null;
  #seconds: number | null = null;
  /** Moves a long run to the network (see the top). */
  #upgrade = new UpgradeController();
  /** The worker that moved to the network, and its part's index (after the pool's). */
  #taker: Worker | null = null;
  #handover: number | null = null;

  /** When the run was asked for (performance.now()): start-up is the time before its play. */
  #askedAt = 0;

  constructor(
    private module: WebAssembly.Module,
    caps: Capabilities,
    private rules: () => { text: string; roles: string[] } | null,
    /** What `auto` picked for these rules and why (the engine line of every pane), once known:
     * the workers play on it instead of each deciding again (grounding othello takes seconds). */
    private autoPick: () => { engine: string; note: string } | null,
  ) {
    const engines = byId<HTMLSelectElement>('po-engine');
    engines.replaceChildren(
      ...caps.engines.map((e) => h('option', { value: e.name, title: e.note }, e.name)),
    );
    byId<HTMLInputElement>('po-workers').value = String(navigator.hardwareConcurrency || 1);
    byId('playout-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.#start();
    });
    byId('po-cancel').addEventListener('click', () => this.cancel());
  }

  #start(): void {
    if (this.#running) return;
    const game = this.rules();
    const out = byId('po-results');
    if (!game) {
      out.replaceChildren(h('p', { class: 'warn' }, 'The rules have errors: fix them to run playouts.'));
      return;
    }
    const byTime = (document.querySelector('input[name="mode"]:checked') as HTMLInputElement | null)?.value === 'time';
    const num = (id: string, lo: number, hi: number, def: number) => {
      const v = Number(byId<HTMLInputElement>(id).value);
      return Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : def;
    };
    const count = byTime ? null : Math.round(num('po-count', 1, 1e8, 1000));
    const seconds = byTime ? num('po-seconds', 0.1, 3600, 5) : null;
    const maxSteps = Math.round(num('po-max-steps', 1, 1e6, 1000));
    const n = Math.min(count ?? Infinity, Math.round(num('po-workers', 1, 64, navigator.hardwareConcurrency || 1)));
    this.#roles = game.roles;
    this.#count = count;
    this.#seconds = seconds;
    this.#handover = null;
    while (this.#workers.length < n) this.#workers.push(playoutWorker('playouts'));
    this.#parts = Array.from({ length: n }, () => ({ totals: null, done: false, cancelled: false, since: 0 }));
    this.#setRunning(true);
    byId<HTMLProgressElement>('po-progress').value = 0;
    this.#askedAt = performance.now();
    this.#engine = byId<HTMLSelectElement>('po-engine').value || 'auto';
    const pick = this.#engine === 'auto' ? this.autoPick() : null;
    // While auto decides, the workers play on the reasoner, and the upgrade moves the run to
    // the network if auto picks it.
    const deciding = this.#engine === 'auto' && pick === null;
    const engine = pick?.engine ?? (deciding ? 'reasoner' : this.#engine);
    this.#note = pick ? `${pick.note}; chosen by auto` : deciding ? 'reasoner, while auto decides' : this.#engine;
    out.replaceChildren(h('p', { class: 'muted', id: 'po-starting' }, `Starting ${n} worker${n === 1 ? '' : 's'}: each loads the game on the ${engine}…`));
    const seed = Math.floor(Math.random() * 2 ** 32);
    this.#workers.slice(0, n).forEach((worker, w) => {
      worker.onmessage = (e: MessageEvent<FromWorker>) => this.#onMessage(w, e.data);
      worker.onerror = (e) => this.#finish(this.#total(), `The playouts stopped: ${e.message}`);
      const mine = count === null ? null : shareCount(count, w, n);
      worker.postMessage({ type: 'run', module: this.module, rules: game.text, engine, count: mine, seconds, maxSteps, seed: (seed + w) % 2 ** 32, upgrade: false });
    });
    // Workers on the network have nothing to gain from grounding in full.
    if (this.#engine === 'auto' && engine !== 'propnet') {
      const request: RunRequest = { type: 'run', module: this.module, rules: game.text, engine: 'auto', count: null, seconds: null, maxSteps, seed: (seed + n) % 2 ** 32, upgrade: true };
      this.#upgrade.schedule(game.text, (answered, failed) => upgradeWorker(request, answered, failed), (upgrader, note) => this.#takeOver(upgrader.worker, note));
    }
  }

  /** The worker that grounded the game in full plays the rest of the run on the network:
   * the pool stops, then hands over what it left. */
  #takeOver(worker: Worker, note: string): void {
    this.#taker = worker;
    this.#note = note;
    const w = (this.#handover = this.#parts.length);
    this.#parts.push({ totals: null, done: false, cancelled: false, since: 0 });
    worker.onmessage = (e: MessageEvent<FromWorker>) => this.#onMessage(w, e.data);
    worker.onerror = (e) => this.#finish(this.#total(), `The playouts stopped: ${e.message}`);
    this.#workers.slice(0, w).forEach((x) => x.postMessage({ type: 'cancel' }));
    this.#handOver();
  }

  /** Once the pool has stopped, gives the worker on the network what is left of the run. */
  #handOver(): void {
    const w = this.#handover;
    if (w === null || !this.#parts.slice(0, w).every((p) => p.done)) return;
    const pool = this.#parts.slice(0, w);
    const played = pool.reduce((sum, p) => sum + (p.totals?.playouts ?? 0), 0);
    // Time is time played (loading left out, as each worker counts it): the pool's so far.
    const since = Math.max(0, ...pool.map((p) => p.totals?.elapsedMs ?? 0));
    this.#parts[w].since = since;
    const left = this.#count === null ? null : Math.max(0, this.#count - played);
    const seconds = this.#seconds === null ? null : Math.max(0, this.#seconds - since / 1000);
    this.#taker?.postMessage({ type: 'handover', count: left, seconds });
  }

  cancel(): void {
    if (!this.#running) return;
    this.#upgrade.stop();
    this.#workers.slice(0, this.#parts.length).forEach((w) => w.postMessage({ type: 'cancel' }));
    this.#taker?.postMessage({ type: 'cancel' });
  }

  /** Every worker's totals so far, merged. A worker that took over a run started late: its
   * time counts from the run's start. */
  #total(): Totals {
    const t = emptyTotals(this.#roles);
    this.#parts.forEach(({ totals, since }) => {
      if (!totals) return;
      Object.assign(t, mergePlayouts(t, totals));
      t.elapsedMs = Math.max(t.elapsedMs, totals.elapsedMs + since);
      t.progress = Math.max(t.progress, totals.progress);
    });
    if (this.#count !== null) t.progress = t.playouts / this.#count;
    else if (this.#handover !== null) t.progress = Math.min(1, t.elapsedMs / (1000 * (this.#seconds ?? 1)));
    return t;
  }

  #setRunning(on: boolean): void {
    this.#running = on;
    byId<HTMLButtonElement>('po-run').disabled = on;
    byId<HTMLButtonElement>('po-cancel').disabled = !on;
    byId('pane-playouts').classList.toggle('running', on);
  }

  #onMessage(w: number, m: FromWorker): void {
    const part = this.#parts[w];
    if (!this.#running || !part) return;
    if (m.type === 'engine') {
      // The page's pick says why; a worker that decided for itself says what it found.
      if (w === 0 && this.#handover === null && this.#note === this.#engine) this.#note = m.note;
      return;
    }
    if (m.type === 'upgraded') return;
    part.totals = m.totals ?? part.totals;
    if (m.type === 'progress') return this.#show(this.#total(), 'running');
    if (m.type === 'error') {
      this.cancel();
      return this.#finish(this.#total(), m.message);
    }
    part.done = true;
    // The pool stopped for the worker that moved to the network is not a Cancel.
    part.cancelled = m.cancelled && (this.#handover === null || w === this.#handover);
    this.#handOver();
    if (this.#parts.every((p) => p.done)) this.#finish(this.#total(), null, this.#parts.some((p) => p.cancelled));
    else this.#show(this.#total(), 'running');
  }

  #finish(totals: Totals | null, error: string | null, cancelled = false): void {
    this.#upgrade.stop();
    this.#taker?.terminate();
    this.#taker = null;
    this.#handover = null;
    this.#setRunning(false);
    if (totals) this.#show(totals, cancelled ? 'cancelled' : error ? 'failed' : 'done');
    if (error) byId('po-results').prepend(h('p', { class: 'warn', role: 'alert' }, error));
  }

  #show(t: Totals, phase: 'running' | 'done' | 'cancelled' | 'failed'): void {
    byId<HTMLProgressElement>('po-progress').value = phase === 'done' ? 1 : t.progress;
    // Rates count from the first playout; start-up (workers starting, loading the game,
    // building its engine) is its own figure: the wall time before the play.
    const rate = t.elapsedMs > 0 ? (t.playouts * 1000) / t.elapsedMs : 0;
    const startup = Math.max(0, performance.now() - this.#askedAt - t.elapsedMs);
    const short = phase !== 'running' && t.elapsedMs < SHORT_RUN_MS;
    const status = { running: 'Running…', done: 'Done', cancelled: 'Cancelled', failed: 'Stopped by an error' }[phase];
    const stat = (label: string, value: string, id: string) => h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, label), h('span', { class: 'stat-value', id }, value));
    const hist = this.#roles.map((role, r) => {
      return h(
        'div',
        { class: 'histogram', 'data-role': role },
        h('h3', {}, `Goals of ${role}`, h('span', { class: 'muted' }, ' (goal value: playouts that ended with it)')),
        ...(t.goals[r] ?? []).map(({ label, playouts, share }) =>
          h(
            'div',
            { class: 'bar-row' },
            h('span', { class: 'bar-label' }, label),
            h('span', { class: 'bar', style: `--share: ${share}` }),
            h('span', { class: 'bar-count' }, `${playouts.toLocaleString('en')} (${Math.round(100 * share)}%)`),
          ),
        ),
      );
    });
    byId('po-results').replaceChildren(
      h('p', { class: `phase ${phase}` }, status, h('span', { class: 'muted', id: 'po-engine-note' }, ` · engine ${this.#note}`)),
      h(
        'div',
        { class: 'stats' },
        stat('playouts', t.playouts.toLocaleString('en'), 'po-count-out'),
        stat('playouts/s', rate >= 100 ? Math.round(rate).toLocaleString('en') : rate.toFixed(1), 'po-rate'),
        stat('average length', `${t.averageLength.toFixed(1)} moves`, 'po-avg'),
        stat('shortest / longest', `${t.minLength} / ${t.maxLength}`, 'po-range'),
        stat('time playing', `${(t.elapsedMs / 1000).toFixed(2)} s`, 'po-time'),
        stat('start-up', `${(startup / 1000).toFixed(2)} s`, 'po-startup'),
        stat('workers', String(this.#parts.length), 'po-workers-out'),
      ),
      short ? h('p', { class: 'muted', id: 'po-short' }, `The playouts took ${Math.round(t.elapsedMs)} ms: too short a run for a steady rate (the engine warms up in its first milliseconds). Run for a second or more to measure its speed.`) : '',
      t.cut > 0 ? h('p', { class: 'warn' }, `${t.cut.toLocaleString('en')} playouts were stopped at the move limit before the game ended.`) : '',
      t.stuckNote ? h('p', { class: 'warn', id: 'po-stuck' }, `${t.stuckNote}.`) : '',
      ...hist,
    );
  }
}
