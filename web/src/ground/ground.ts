// The grounded-rules pane: the pipeline stage by stage (normalised, fixed, specialised, decomposed
// rules, domains, ground program, network: counts and times, each viewable) and the ground
// program tied to the position played. Every atom shows whether it holds and every rule
// whether it fires (values computed by the engine in the grounding worker); filters by
// relation, by "fires now", by text; a legal move selected here (or on the Play pane's board
// or buttons in preview mode, summarised there) lights up the rules that make it legal and the
// `next` rules it switches on or off, with what would change. A click on an
// atom shows the rules defining and using it, its neighbourhood in the network, and its
// relation in the rule graph. Lists are virtualised (100 000+ rules stay smooth).

import { byId, h } from '../dom';
import type { GroundClient, Program, Values } from './client';
import type { View } from '../engine/engine';
import { VirtualList } from './vlist';

const PHASES = ['starting', 'normalise', 'domains', 'instantiate', 'simplify'];
/** Rules listed at most under an atom (the main list shows them all with a filter). */
const LISTED = 60;
/** Move buttons drawn per role at most. */
const MOVE_BUTTONS = 120;
/** Rules listed in the Play pane's preview at most. */
const PREVIEWED = 12;

export interface GroundActions {
  play(joint: string[]): void;
  cancel(): void;
  /** Opens this pane (from the Play pane's preview). */
  showMoveRules(): void;
  showInGraph(relation: string): void;
}

/** Figures read by the benchmark: positions evaluated and drawn. */
export const groundMetrics = { evaluations: 0 };

type Filter = { relation: number; fires: boolean; changes: boolean; text: string };

/** Where the ground program is: rules with errors, loaded (grounded when first shown),
 * grounding, ready, failed or cancelled. */
type Status = 'none' | 'loaded' | 'grounding' | 'ready' | 'stopped';

export class GroundPane {
  private program: Program | null = null;
  private status: Status = 'none';
  private view: View | null = null;
  /** Values of the position (no move chosen) and with the chosen moves. */
  private now: Values | null = null;
  private withMove: Values | null = null;
  private chosen: (string | null)[] = [];
  /** The `legal` atoms of the chosen moves. */
  private legal = new Set<number>();
  private filter: Filter = { relation: -1, fires: false, changes: false, text: '' };
  private shown = new Uint32Array(0);
  private lowered: string[] | null = null;
  private atom = -1;
  private stage = 'ground';
  private list: VirtualList | null = null;
  private on = false;
  /** An atom (canonical text) to select once the program is ready. */
  private pendingAtom: string | null = null;
  /** The Play pane's preview mode is on: evaluate even when this pane is hidden. */
  private previewing = false;
  private seq = 0;

  constructor(
    private client: GroundClient,
    private actions: GroundActions,
  ) {}

  private get pane(): HTMLElement {
    return byId('ground');
  }

  /** The tab was opened (true) or left. */
  setVisible(on: boolean): void {
    this.on = on;
    if (on) this.start();
    if (on) void this.refresh();
  }

  /** New rules are loaded: they are grounded when this pane or a preview first needs them. */
  loaded(): void {
    this.program = null;
    this.status = 'loaded';
    this.pane.replaceChildren(h('p', { class: 'muted' }, 'The rules are grounded when this tab is open.'));
    if (this.on || this.previewing) this.start();
  }

  /** Starts the full grounding if nothing has yet. */
  private start(): void {
    if (this.status !== 'loaded') return;
    if (this.client.ground()) {
      this.status = 'grounding';
      this.grounding('starting');
    }
  }

  noRules(): void {
    this.status = 'none';
    this.program = null;
    this.pane.replaceChildren(h('p', { class: 'message' }, 'The rules have errors: fix them to see the ground program.'));
  }

  grounding(phase: string): void {
    this.program = null;
    const step = Math.max(0, PHASES.indexOf(phase));
    this.pane.replaceChildren(
      h(
        'div',
        { class: 'ground-progress' },
        h('strong', {}, 'Grounding… '),
        h('span', { class: 'muted' }, phase),
        h('progress', { max: PHASES.length, value: step, 'aria-label': 'Grounding progress' }),
        h('button', { type: 'button', id: 'ground-cancel', onclick: () => this.actions.cancel() }, 'Cancel'),
      ),
    );
  }

  failed(message: string): void {
    this.status = 'stopped';
    this.program = null;
    this.pane.replaceChildren(h('p', { class: 'warn', role: 'alert' }, `The rules cannot be grounded: ${message}`));
  }

  cancelled(): void {
    this.status = 'stopped';
    this.program = null;
    this.pane.replaceChildren(h('p', { class: 'message' }, 'Grounding cancelled. It starts again when the rules change.'));
  }

  ready(p: Program): void {
    this.status = 'ready';
    this.program = p;
    this.lowered = null;
    this.atom = -1;
    this.now = this.withMove = null;
    this.filter = { relation: -1, fires: false, changes: false, text: '' };
    this.list = new VirtualList((i) => this.ruleRow(this.shown[i]), { id: 'ground-list', 'aria-label': 'Ground rules' });
    this.render();
    if (this.pendingAtom !== null) this.showAtom(this.pendingAtom);
    void this.refresh();
  }

  /** Selects the atom with canonical text `key` (from the Play pane's Why?), once grounded. */
  showAtom(key: string): void {
    const p = this.program;
    this.pendingAtom = p ? null : key;
    if (!p) return;
    const a = p.find(key);
    if (a >= 0) {
      this.stage = 'ground';
      this.filter = { relation: -1, fires: false, changes: false, text: '' };
      this.render();
      this.selectAtom(a);
      const defined = p.definedBy(a);
      if (defined.length) this.reveal(defined[0]);
    } else {
      byId('gv-stage').prepend(h('p', { class: 'warn', id: 'gv-no-atom' }, `${key} is not in the ground program: no rule can make it hold, and none reads it.`));
    }
  }

  /** The position shown in the play pane changed. */
  setPosition(view: View | null): void {
    const same = this.view && view && this.view.step === view.step && this.view.state.join() === view.state.join();
    this.view = view;
    if (!same) this.chosen = view ? view.roles.map(() => null) : [];
    void this.refresh();
  }

  /** The Play pane's preview: the moves chosen there (null: preview off). */
  preview(chosen: (string | null)[] | null): void {
    this.previewing = chosen !== null;
    if (chosen) this.chosen = [...chosen];
    this.start();
    if (!chosen) byId('preview-box').replaceChildren();
    else if (!this.program) byId('preview-box').replaceChildren(h('p', { class: 'muted' }, 'The ground program is not ready: see the Grounded rules tab.'));
    void this.refresh();
  }

  /** Evaluates the position (and the chosen moves) in the worker, then redraws. */
  private async refresh(): Promise<void> {
    const p = this.program;
    const view = this.view;
    if ((!this.on && !this.previewing) || !p || !view) return;
    const seq = ++this.seq;
    const joint = this.joint();
    try {
      const roles = view.roles.filter((_, i) => joint[i] !== null);
      const moves = joint.filter((m): m is string => m !== null);
      const [now, withMove] = await Promise.all([
        this.client.evaluate(view.state, [], []),
        moves.length ? this.client.evaluate(view.state, roles, moves) : Promise.resolve(null),
      ]);
      if (seq !== this.seq || p !== this.program) return;
      this.now = now;
      this.withMove = withMove;
      this.legal = this.legalAtoms();
    } catch {
      return;
    }
    this.renderPosition();
    this.applyFilter();
    if (this.atom >= 0) this.renderAtom();
    if (this.previewing) this.renderPreview();
    groundMetrics.evaluations++;
  }

  /** The joint move chosen so far: roles with one legal move need no choice. */
  private joint(): (string | null)[] {
    const view = this.view;
    if (!view || view.terminal) return [];
    if (!this.chosen.some((c) => c !== null)) return view.roles.map(() => null);
    return view.legal.map((ms, r) => this.chosen[r] ?? (ms.length === 1 ? ms[0] : null));
  }

  private render(): void {
    const p = this.program;
    if (!p) return;
    const s = p.data.summary;
    const stages = h(
      'div',
      { class: 'gv-pipeline', role: 'group', 'aria-label': 'Pipeline stages' },
      ...s.stages.map((st, i) =>
        h(
          'button',
          { type: 'button', class: 'gv-stage', 'data-stage': st.name, 'aria-pressed': String(st.name === this.stage), onclick: () => this.openStage(st.name) },
          h('strong', {}, `${i + 1}. ${st.name}`),
          h('span', {}, st.summary),
          h('span', { class: 'muted' }, `${st.ms.toFixed(1)} ms`),
        ),
      ),
    );
    const engine = h('p', { class: 'muted', id: 'gv-engine' }, `Engine auto: ${s.engineNote} · decided in ${s.engineMs.toFixed(0)} ms`);
    const warnings = s.warnings.map((w) => h('p', { class: 'warn' }, w));
    this.pane.replaceChildren(stages, engine, ...warnings, h('div', { id: 'gv-stage' }));
    this.openStage(this.stage);
  }

  private openStage(name: string): void {
    this.stage = name;
    for (const b of this.pane.querySelectorAll('.gv-stage')) b.setAttribute('aria-pressed', String(b.getAttribute('data-stage') === name));
    const box = byId('gv-stage');
    if (name === 'ground') return this.renderProgram(box);
    if (name === 'network') return void this.renderNetwork(box);
    const lines = h('div', { class: 'gv-lines' });
    box.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
    this.client.stage(name).then(
      (text) => {
        const all = text.split('\n').filter((l) => l !== '');
        const list = new VirtualList((i) => h('div', { class: 'vrow line' }, all[i]), { id: 'gv-stage-list', 'aria-label': `${name} rules` });
        box.replaceChildren(h('p', { class: 'muted' }, STAGE_NOTES[name] ?? ''), lines, list.el);
        list.setCount(all.length);
      },
      (e: Error) => box.replaceChildren(h('p', { class: 'warn' }, e.message)),
    );
  }

  private renderProgram(box: HTMLElement): void {
    const p = this.program!;
    const relations = h(
      'select',
      { id: 'gv-relation', 'aria-label': 'Relation', onchange: (e: Event) => this.setFilter({ relation: Number((e.target as HTMLSelectElement).value) }) },
      h('option', { value: '-1' }, `All relations (${p.rules.toLocaleString('en')})`),
      ...p.data.summary.relations.map(([rel, n], i) => h('option', { value: String(i), selected: i === this.filter.relation }, `${rel} (${n.toLocaleString('en')})`)),
    );
    const check = (id: string, label: string, key: 'fires' | 'changes') =>
      h('label', { class: 'gv-check' }, h('input', { type: 'checkbox', id, checked: this.filter[key], onchange: (e: Event) => this.setFilter({ [key]: (e.target as HTMLInputElement).checked }) }), label);
    const text = h('input', {
      type: 'search',
      id: 'gv-text',
      value: this.filter.text,
      placeholder: 'Filter, e.g. (cell 1 1',
      'aria-label': 'Filter the ground rules',
      oninput: (e: Event) => this.setFilter({ text: (e.target as HTMLInputElement).value.trim().toLowerCase() }),
    });
    box.replaceChildren(
      h('div', { id: 'gv-position', class: 'gv-position' }),
      h('div', { class: 'ground-tools' }, relations, check('gv-fires', 'fires now', 'fires'), check('gv-changes', 'switched by the move', 'changes'), text, h('span', { class: 'muted', id: 'ground-count' })),
      h('details', { class: 'ground-counts', id: 'gv-counts' }, h('summary', {}, `Rules per relation (${p.data.summary.relations.length})`), h('table', { class: 'counts', id: 'gv-counts-table' })),
      h('div', { class: 'gv-main' }, this.list!.el, h('aside', { id: 'gv-atom', class: 'gv-atom', 'aria-live': 'polite' }, h('p', { class: 'muted' }, 'Click an atom to see the rules that define it and use it.'))),
    );
    this.renderPosition();
    this.applyFilter();
    if (this.atom >= 0) this.renderAtom();
  }

  private setFilter(f: Partial<Filter>): void {
    this.filter = { ...this.filter, ...f };
    this.applyFilter();
  }

  /** The rules switched on (1) or off (-1) by the chosen moves, else 0. */
  private switched(r: number): number {
    if (!this.now || !this.withMove) return 0;
    return this.withMove.fires[r] - this.now.fires[r];
  }

  private applyFilter(): void {
    const p = this.program;
    if (!p || this.stage !== 'ground' || !this.list) return;
    const { relation, fires, changes, text } = this.filter;
    const values = this.withMove ?? this.now;
    if (text && !this.lowered) this.lowered = Array.from({ length: p.rules }, (_, r) => p.text(r).toLowerCase());
    const out = new Uint32Array(p.rules);
    let n = 0;
    for (let r = 0; r < p.rules; r++) {
      if (relation >= 0 && p.data.ruleRelations[r] !== relation) continue;
      if (fires && !(values && values.fires[r])) continue;
      if (changes && this.switched(r) === 0 && !this.makesLegal(r)) continue;
      if (text && !this.lowered![r].includes(text)) continue;
      out[n++] = r;
    }
    this.shown = out.subarray(0, n);
    const any = relation >= 0 || fires || changes || text;
    const firing = values ? values.fires.reduce((s, v) => s + v, 0) : 0;
    byId('ground-count').textContent = `${any ? `${n.toLocaleString('en')} of ` : ''}${p.rules.toLocaleString('en')} ground rules · ${firing.toLocaleString('en')} fire now`;
    this.list.setCount(n);
    this.renderCounts();
  }

  /** Per relation: rules, and how many fire in the position. */
  private renderCounts(): void {
    const p = this.program!;
    const values = this.withMove ?? this.now;
    const firing = new Array<number>(p.data.summary.relations.length).fill(0);
    if (values) for (let r = 0; r < p.rules; r++) if (values.fires[r]) firing[p.data.ruleRelations[r]]++;
    byId('gv-counts-table').replaceChildren(
      h('tr', {}, h('th', {}, 'relation'), h('th', {}, 'rules'), h('th', {}, 'fire now')),
      ...p.data.summary.relations.map(([rel, n], i) => h('tr', { 'data-relation': rel }, h('td', {}, rel), h('td', { class: 'num' }, n.toLocaleString('en')), h('td', { class: 'num' }, firing[i].toLocaleString('en')))),
    );
  }

  /** A rule that makes a chosen move legal. */
  private makesLegal(r: number): boolean {
    return this.now !== null && this.now.fires[r] === 1 && this.legal.has(this.program!.head(r));
  }

  private legalAtoms(): Set<number> {
    const p = this.program!;
    const view = this.view!;
    const out = new Set<number>();
    this.chosen.forEach((m, r) => {
      if (m === null) return;
      const a = p.find(`(legal ${view.roles[r]} ${m})`);
      if (a >= 0) out.add(a);
    });
    return out;
  }

  private ruleRow(r: number): HTMLElement {
    const p = this.program!;
    const values = this.withMove ?? this.now;
    const atomValues = values?.atoms;
    const sw = this.switched(r);
    const cls = ['vrow', 'rule', values?.fires[r] ? 'fires' : '', sw > 0 || this.makesLegal(r) ? 'hl' : '', sw < 0 ? 'hl-off' : ''].filter(Boolean).join(' ');
    const atomButton = (a: number, neg: boolean) => {
      const holds = atomValues ? atomValues[a] === 1 : null;
      const lit = holds === null ? '' : holds !== neg ? 't' : 'f';
      const text = neg ? (p.syntax === 'prefix' ? `(not ${p.atom(a)})` : `~${p.atom(a)}`) : p.atom(a);
      return h('button', { type: 'button', class: `atom ${lit}${a === this.atom ? ' sel' : ''}`, 'data-atom': String(a), onclick: () => this.selectAtom(a) }, text);
    };
    const body = p.body(r);
    const parts: (HTMLElement | string)[] = [h('span', { class: 'rn' }, `${r + 1}`), atomButton(p.head(r), false)];
    if (body.length) {
      parts.push(h('span', { class: 'op' }, p.syntax === 'prefix' ? ' ⇐ ' : ' :- '));
      body.forEach(([a, neg], i) => {
        if (i > 0 && p.syntax === 'infix') parts.push(h('span', { class: 'op' }, ' & '));
        else if (i > 0) parts.push(' ');
        parts.push(atomButton(a, neg));
      });
    }
    return h('div', { class: cls, 'data-rule': String(r), title: sw > 0 ? 'fires with the chosen move' : sw < 0 ? 'stops firing with the chosen move' : '' }, ...parts);
  }

  /** The legal moves to choose from, and what the chosen ones change. */
  private renderPosition(): void {
    const box = document.getElementById('gv-position');
    const view = this.view;
    const p = this.program;
    if (!box || !p) return;
    if (!view) {
      box.replaceChildren(h('p', { class: 'muted' }, 'No position: the game is not loaded.'));
      return;
    }
    const head = h('p', {}, h('strong', {}, `Position after ${view.step} move${view.step === 1 ? '' : 's'}`), view.terminal ? ' · the game is over' : ' · choose a move to see which rules it switches:');
    const roles = view.terminal
      ? []
      : view.roles.map((role, r) => {
          const ms = view.legal[r];
          return h(
            'div',
            { class: 'gv-role', 'data-gv-role': role },
            h('span', { class: 'muted' }, `${role}: `),
            ...ms.slice(0, MOVE_BUTTONS).map((m) =>
              h('button', { type: 'button', class: `gv-move small${this.chosen[r] === m ? ' chosen' : ''}`, 'aria-pressed': String(this.chosen[r] === m), 'data-move': m, onclick: () => this.choose(r, m) }, m),
            ),
            ms.length > MOVE_BUTTONS ? h('span', { class: 'muted' }, ` … ${ms.length - MOVE_BUTTONS} more (choose them in Play)`) : '',
          );
        });
    const joint = this.joint();
    const complete = joint.length > 0 && joint.every((m) => m !== null);
    const change = this.changes();
    box.replaceChildren(
      head,
      ...roles,
      change
        ? h(
            'p',
            { id: 'gv-changes-list', class: 'gv-diff' },
            h('strong', {}, complete ? 'Playing it changes: ' : 'With the moves chosen so far: '),
            ...change.gained.map((f) => h('span', { class: 'gain' }, `+ ${f}`)),
            ...change.lost.map((f) => h('span', { class: 'loss' }, `− ${f}`)),
            change.gained.length + change.lost.length === 0 ? h('span', { class: 'muted' }, 'nothing') : '',
            complete ? h('button', { type: 'button', id: 'gv-play', class: 'small primary', onclick: () => this.actions.play(joint as string[]) }, 'Play it') : '',
          )
        : '',
    );
  }

  /** The Play pane's preview: what the chosen moves change and the rules they light up. */
  private renderPreview(): void {
    const p = this.program!;
    const box = byId('preview-box');
    const change = this.changes();
    if (!change) {
      box.replaceChildren(h('p', { class: 'muted' }, 'Preview: choose a move (button or board) to see the ground rules it fires before playing it.'));
      return;
    }
    const lit: number[] = [];
    for (let r = 0; r < p.rules && lit.length < PREVIEWED; r++) if (this.makesLegal(r) || this.switched(r) !== 0) lit.push(r);
    const joint = this.joint();
    const complete = joint.every((m) => m !== null);
    box.replaceChildren(
      h('p', {}, h('strong', {}, 'Changes: '), ...change.gained.map((f) => h('span', { class: 'gain' }, `+ ${f} `)), ...change.lost.map((f) => h('span', { class: 'loss' }, `− ${f} `))),
      h(
        'ul',
        { class: 'gv-rules', id: 'preview-rules' },
        ...lit.map((r) => h('li', { class: this.switched(r) < 0 ? 'loss' : 'gain' }, `${this.switched(r) < 0 ? 'stops: ' : this.makesLegal(r) ? 'legal: ' : 'fires: '}${p.text(r)}`)),
      ),
      h(
        'div',
        { class: 'controls' },
        complete ? h('button', { type: 'button', class: 'small primary', id: 'preview-play', onclick: () => this.actions.play(joint as string[]) }, 'Play it') : '',
        h('button', { type: 'button', class: 'small', id: 'preview-open', onclick: () => this.openChanges() }, 'All its rules in Grounded rules'),
      ),
    );
  }

  /** Opens this pane listing the rules the chosen moves switch. */
  private openChanges(): void {
    this.filter = { relation: -1, fires: false, changes: true, text: '' };
    if (this.stage !== 'ground') this.stage = 'ground';
    this.actions.showMoveRules();
    if (this.program) this.render();
  }

  /** Fluents the chosen moves would add and remove (`next` atoms against the state). */
  private changes(): { gained: string[]; lost: string[] } | null {
    const p = this.program!;
    const v = this.withMove;
    if (!v || !this.now) return null;
    const inner = (text: string, key: string) => (text.startsWith(`(${key} `) ? text.slice(key.length + 2, -1) : null);
    const next = new Set<string>();
    const now = new Set<string>();
    (p.data.keys ?? p.data.atoms).forEach((t, a) => {
      const n = inner(t, 'next');
      if (n !== null && v.atoms[a]) next.add(n);
      const f = inner(t, 'true');
      if (f !== null && this.now!.atoms[a]) now.add(f);
    });
    return { gained: [...next].filter((f) => !now.has(f)), lost: [...now].filter((f) => !next.has(f)) };
  }

  private choose(r: number, m: string): void {
    this.chosen[r] = this.chosen[r] === m ? null : m;
    void this.refresh();
  }

  selectAtom(a: number): void {
    this.atom = a;
    this.list?.draw();
    if (this.stage !== 'ground') this.openStage('ground');
    this.renderAtom();
  }

  private renderAtom(): void {
    const p = this.program;
    const box = document.getElementById('gv-atom');
    if (!p || !box || this.atom < 0) return;
    const a = this.atom;
    const v = this.withMove ?? this.now;
    const holds = v ? v.atoms[a] === 1 : null;
    const defined = p.definedBy(a);
    const used = p.usedBy(a);
    const ruleList = (rules: Uint32Array, id: string) =>
      h(
        'ol',
        { class: 'gv-rules', id },
        ...[...rules.subarray(0, LISTED)].map((r) =>
          h('li', { class: v?.fires[r] ? 'fires' : '' }, h('button', { type: 'button', class: 'link', onclick: () => this.reveal(r) }, p.text(r))),
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
        h('button', { type: 'button', class: 'small', id: 'gv-to-network', onclick: () => this.openStage('network') }, 'Network around it'),
        h('button', { type: 'button', class: 'small', id: 'gv-to-graph', onclick: () => this.actions.showInGraph(rel) }, `${rel} in the rule graph`),
      ),
    );
  }

  /** Shows rule r in the list, clearing filters that hide it. */
  private reveal(r: number): void {
    if (this.stage !== 'ground') this.openStage('ground');
    let i = this.shown.indexOf(r);
    if (i < 0) {
      this.filter = { relation: -1, fires: false, changes: false, text: '' };
      this.renderProgram(byId('gv-stage'));
      i = r;
    }
    this.list!.scrollTo(i);
    document.querySelector(`#ground-list [data-rule="${r}"]`)?.classList.add('flash');
  }

  private async renderNetwork(box: HTMLElement): Promise<void> {
    const p = this.program!;
    const net = p.data.summary.network;
    const stats = net
      ? `Compiled network: ${net.gates.toLocaleString('en')} gates, ${net.inputs.toLocaleString('en')} gate inputs, ${net.fluents} fluents (${net.permanent} permanent, ${net.persistent} persistent, ${net.ephemeral} ephemeral), ${net.moves} moves, ${net.cyclic_blocks} cyclic blocks, evaluated by ${net.strategy}; built in ${net.build_ms.toFixed(1)} ms.`
      : 'The compiled network was not built: the game plays on the reasoner.';
    const atom = this.atom >= 0 ? this.atom : p.head(p.rules - 1);
    box.replaceChildren(
      h('p', { class: 'muted', id: 'gv-network-stats' }, stats),
      h(
        'p',
        { class: 'muted' },
        'Around ',
        h('code', {}, p.atom(atom)),
        ': each rule is an AND gate of its literals (a dashed red input is negated), each atom an OR of its rules; green holds in this position. Click a node to expand around it.',
      ),
      h('div', { id: 'gv-network', class: 'graph gv-network' }),
    );
    const { drawNeighbourhood } = await import('./network');
    drawNeighbourhood(byId('gv-network'), p, this.withMove ?? this.now, atom, (a) => this.selectAtomQuiet(a));
  }

  /** An atom chosen in the network picture: shown beside the list when it comes back. */
  private selectAtomQuiet(a: number): void {
    this.atom = a;
  }
}

const STAGE_NOTES: Record<string, string> = {
  normalised: 'Rules with flat bodies: every or split into rules, relations only locally stratified split by their constants.',
  fixed: 'Fluents no move changes (only a frame rule keeps them) read from init: the relations built on them become static.',
  specialised: 'Copies of relations for the constant arguments bodies use, so that only facts some rule reads are derived.',
  decomposed: 'Dynamic rules split into parts joined only by variables the head lacks, so that their instances add up instead of multiplying.',
  domains: 'The base fluents and inputs the game declares or the relaxed fixpoint computes: every state bit and every move.',
};

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
