// The Grounded rules pane: the pipeline stage by stage (normalised, fixed, specialised, decomposed
// rules, domains, ground program, network: counts and times, each viewable; stages.ts) and the
// ground program tied to the position played (rule-list.ts). Every atom shows whether it holds
// and every rule whether it fires (values computed by the engine in the grounding worker;
// position.ts); a legal move selected here (moves-view.ts, or on the Play pane's board or
// buttons in preview mode, summarised there) lights up the rules that make it legal and the
// `next` rules it switches on or off, with what would change. A click on an atom shows the
// rules defining and using it (atom-view.ts), its neighbourhood in the network, and its
// relation in the rule graph. This file follows the grounding and keeps the parts in step.

import { byId, h } from '../dom';
import { groundStageNames, largerLimits, type View } from '../engine/engine';
import { renderAtom } from './atom-view';
import type { GroundClient, Program } from './client';
import { renderPosition, renderPreview, type MoveActions } from './moves-view';
import { Position } from './position';
import { NO_FILTER, RuleList } from './rule-list';
import { pipeline, showNetwork, showStageText } from './stages';

export interface GroundActions {
  play(joint: string[]): void;
  cancel(): void;
  /** Opens this pane (from the Play pane's preview). */
  showMoveRules(): void;
  showInGraph(relation: string): void;
  /** Grounds the rules again, with limits `scale` times the default. */
  retry(scale: number): void;
}

/** Figures read by the benchmark: positions evaluated and drawn. */
export const groundMetrics = { evaluations: 0 };

/** Where the ground program is: rules with errors, loaded (grounded when first shown),
 * grounding, ready, failed or cancelled. */
type Status = 'none' | 'loaded' | 'grounding' | 'ready' | 'stopped';

export class GroundPane {
  #program: Program | null = null;
  #status: Status = 'none';
  #position = new Position();
  #rules: RuleList | null = null;
  #atom = -1;
  #stage = 'ground';
  #on = false;
  /** An atom (canonical text) to select once the program is ready. */
  #pendingAtom: string | null = null;
  /** The Play pane's preview mode is on: evaluate even when this pane is hidden. */
  #previewing = false;
  #seq = 0;
  /** The limits of the grounding, in times the default (larger after a limit stopped one). */
  #scale = 1;
  #moveActions: MoveActions = {
    choose: (r, m) => {
      this.#position.choose(r, m);
      void this.#refresh();
    },
    play: (joint) => this.actions.play(joint),
    openChanges: () => this.#openChanges(),
  };

  constructor(
    private client: GroundClient,
    private actions: GroundActions,
  ) {}

  get #pane(): HTMLElement {
    return byId('ground');
  }

  /** The tab was opened (true) or left. */
  setVisible(on: boolean): void {
    this.#on = on;
    if (on) this.#start();
    if (on) void this.#refresh();
  }

  /** New rules are loaded: they are grounded (with limits `scale` times the default) when
   * this pane or a preview first needs them. */
  loaded(scale = 1): void {
    this.#scale = scale;
    this.#program = null;
    this.#status = 'loaded';
    this.#pane.replaceChildren(h('p', { class: 'muted' }, 'The rules are grounded when this tab is open.'));
    if (this.#on || this.#previewing) this.#start();
  }

  /** Starts the full grounding if nothing has yet. */
  #start(): void {
    if (this.#status !== 'loaded') return;
    if (this.client.ground(this.#scale)) {
      this.#status = 'grounding';
      this.grounding('starting');
    }
  }

  noRules(): void {
    this.#status = 'none';
    this.#program = null;
    this.#pane.replaceChildren(h('p', { class: 'message' }, 'The rules have errors: fix them to see the ground program.'));
  }

  /** The grounding runs: `stage` (a name of core's list, or 'starting' before the first). */
  grounding(stage: string): void {
    this.#program = null;
    const stages = groundStageNames();
    const step = stages.indexOf(stage) + 1;
    this.#pane.replaceChildren(
      h(
        'div',
        { class: 'ground-progress' },
        h('strong', {}, 'Grounding… '),
        h('span', { class: 'muted' }, stage),
        h('progress', { max: stages.length + 1, value: step, 'aria-label': 'Grounding progress' }),
        h('button', { type: 'button', id: 'ground-cancel', onclick: () => this.actions.cancel() }, 'Cancel'),
      ),
    );
  }

  failed(message: string): void {
    this.#status = 'stopped';
    this.#program = null;
    // A limit stopped it: say what larger limits may take, and offer them (or why not).
    const byLimit = /raise the limit|limit max_/.test(message);
    const larger = byLimit ? largerLimits(this.#scale) : null;
    this.#pane.replaceChildren(
      h('p', { class: 'warn', role: 'alert' }, `The rules cannot be grounded${this.#scale > 1 ? ` even with limits ${this.#scale} times the default` : ''}: ${message}`),
      larger?.scale
        ? h('p', {}, h('button', { type: 'button', id: 'ground-larger', onclick: () => this.actions.retry(larger.scale as number) }, 'Try with larger limits'), h('span', { class: 'muted' }, ` (${larger.note})`))
        : '',
      larger && !larger.scale ? h('p', { class: 'muted', id: 'ground-no-larger' }, larger.note) : '',
      h('p', { class: 'muted' }, 'The game still plays on the reasoner, which needs no grounding.'),
    );
  }

  cancelled(): void {
    this.#status = 'stopped';
    this.#program = null;
    this.#pane.replaceChildren(h('p', { class: 'message' }, 'Grounding cancelled. It starts again when the rules change.'));
  }

  ready(p: Program): void {
    this.#status = 'ready';
    this.#program = p;
    this.#atom = -1;
    this.#position.now = this.#position.withMove = null;
    this.#rules = new RuleList(p, this.#position, () => this.#atom, (a) => this.#selectAtom(a));
    this.#render();
    if (this.#pendingAtom !== null) this.showAtom(this.#pendingAtom);
    void this.#refresh();
  }

  /** Selects the atom with canonical text `key` (from the Play pane's Why?), once grounded. */
  showAtom(key: string): void {
    const p = this.#program;
    this.#pendingAtom = p ? null : key;
    if (!p) return;
    const a = p.find(key);
    if (a >= 0) {
      this.#stage = 'ground';
      this.#rules!.filter = NO_FILTER;
      this.#render();
      this.#selectAtom(a);
      const defined = p.definedBy(a);
      if (defined.length) this.#reveal(defined[0]);
    } else {
      byId('gv-stage').prepend(h('p', { class: 'warn', id: 'gv-no-atom' }, `${key} is not in the ground program: no rule can make it hold, and none reads it.`));
    }
  }

  /** The position shown in the play pane changed; `hiddenFor`: the role it is viewed as
   * (GDL-II), who may not see the true state, so no rule is lit against it. */
  setPosition(view: View | null, hiddenFor: string | null = null): void {
    this.#position.hiddenFor = hiddenFor;
    this.#position.setView(hiddenFor === null ? view : null);
    if (hiddenFor === null) return void this.#refresh();
    this.#position.now = this.#position.withMove = null;
    if (this.#program && document.getElementById('gv-stage')) this.#openStage(this.#stage);
  }

  /** The Play pane's preview: the moves chosen there (null: preview off). */
  preview(chosen: (string | null)[] | null): void {
    this.#previewing = chosen !== null;
    if (chosen) this.#position.chosen = [...chosen];
    this.#start();
    if (!chosen) byId('preview-box').replaceChildren();
    else if (!this.#program) byId('preview-box').replaceChildren(h('p', { class: 'muted' }, 'The ground program is not ready: see the Grounded rules tab.'));
    void this.#refresh();
  }

  /** Evaluates the position (and the chosen moves) in the worker, then redraws. */
  async #refresh(): Promise<void> {
    const p = this.#program;
    const view = this.#position.view;
    if ((!this.#on && !this.#previewing) || !p || !view) return;
    const seq = ++this.#seq;
    try {
      const values = await this.#position.evaluate(this.client, view);
      if (seq !== this.#seq || p !== this.#program) return;
      this.#position.update(p, values);
    } catch {
      return;
    }
    renderPosition(p, this.#position, this.#moveActions);
    this.#applyFilter();
    this.#renderAtom();
    if (this.#previewing) renderPreview(p, this.#position, this.#moveActions);
    groundMetrics.evaluations++;
  }

  #render(): void {
    const p = this.#program;
    if (!p) return;
    this.#pane.replaceChildren(...pipeline(p.data.summary, this.#stage, (name) => this.#openStage(name)), h('div', { id: 'gv-stage' }));
    this.#openStage(this.#stage);
  }

  #openStage(name: string): void {
    this.#stage = name;
    for (const b of this.#pane.querySelectorAll('.gv-stage')) b.setAttribute('aria-pressed', String(b.getAttribute('data-stage') === name));
    const box = byId('gv-stage');
    if (name === 'ground') return this.#renderProgram(box);
    if (name === 'network') return void showNetwork(box, this.#program!, this.#position.values, this.#atom, (a) => (this.#atom = a), this.client.factors().catch(() => null));
    const stage = this.#program?.data.summary.stages.find((st) => st.name === name);
    if (stage && !stage.text) return void box.replaceChildren(h('p', { class: 'muted' }, `${stage.explanation} This stage left ${stage.summary}; its rules are not kept: the ground stage shows the program they become.`));
    showStageText(box, this.client, name, stage?.explanation ?? '');
  }

  #renderProgram(box: HTMLElement): void {
    const rules = this.#rules!;
    box.replaceChildren(
      h('div', { id: 'gv-position', class: 'gv-position' }),
      ...rules.tools(),
      h('div', { class: 'gv-main' }, rules.list.el, h('aside', { id: 'gv-atom', class: 'gv-atom', 'aria-live': 'polite' }, h('p', { class: 'muted' }, 'Click an atom to see the rules that define it and use it.'))),
    );
    renderPosition(this.#program, this.#position, this.#moveActions);
    this.#applyFilter();
    this.#renderAtom();
  }

  #applyFilter(): void {
    if (this.#stage === 'ground') this.#rules?.apply();
  }

  /** Opens this pane listing the rules the chosen moves switch. */
  #openChanges(): void {
    if (this.#rules) this.#rules.filter = { ...NO_FILTER, changes: true };
    if (this.#stage !== 'ground') this.#stage = 'ground';
    this.actions.showMoveRules();
    if (this.#program) this.#render();
  }

  #selectAtom(a: number): void {
    this.#atom = a;
    this.#rules?.list.draw();
    if (this.#stage !== 'ground') this.#openStage('ground');
    this.#renderAtom();
  }

  #renderAtom(): void {
    const p = this.#program;
    if (!p || this.#atom < 0) return;
    renderAtom(p, this.#atom, this.#position.values, {
      reveal: (r) => this.#reveal(r),
      showNetwork: () => this.#openStage('network'),
      showInGraph: (relation) => this.actions.showInGraph(relation),
    });
  }

  /** Shows rule r in the list, clearing filters that hide it. */
  #reveal(r: number): void {
    if (this.#stage !== 'ground') this.#openStage('ground');
    const rules = this.#rules!;
    let i = rules.indexOf(r);
    if (i < 0) {
      rules.filter = NO_FILTER;
      this.#renderProgram(byId('gv-stage'));
      i = r;
    }
    rules.scrollTo(i, r);
  }
}
