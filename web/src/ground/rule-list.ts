// The ground program as a list in the Grounded rules pane: every rule with its atoms coloured
// by whether they hold (and the rule by whether it fires), the rules the chosen moves switch
// lit up, the `sees` rules that produce a percept with them (GDL-II) lit in blue; filters by
// relation, by "fires now", by "switched by the move", by "percepts" and by text; the count of
// rules per relation. The list is virtualised (100 000+ rules stay smooth).

import { byId, h } from '../dom';
import type { Program } from './client';
import type { Position } from './position';
import { VirtualList, WRAP_UP_TO } from './vlist';

export type Filter = { relation: number; fires: boolean; changes: boolean; percepts: boolean; text: string };

export const NO_FILTER: Filter = { relation: -1, fires: false, changes: false, percepts: false, text: '' };

/** A `sees` rule that fires: it produces a percept (GDL-II) with the moves chosen. */
function perceives(p: Program, fires: Uint8Array | undefined, r: number): boolean {
  return !!fires?.[r] && p.relation(r) === 'sees/2';
}

/** A legend entry for rows drawn as `cls`: a swatch of the row's colour, then the words. */
const rowKey = (cls: string, words: string) => h('span', { class: 'gv-key' }, h('span', { class: `gv-swatch ${cls}`, 'aria-hidden': 'true' }), words);

export class RuleList {
  filter: Filter = NO_FILTER;
  /** The rules shown, after the filter. */
  #shown = new Uint32Array(0);
  #lowered: string[] | null = null;
  readonly list: VirtualList;

  /** `selected` is the atom selected (-1: none); `select` selects one. */
  constructor(
    private p: Program,
    private position: Position,
    private selected: () => number,
    private select: (atom: number) => void,
  ) {
    this.list = new VirtualList((i) => this.#ruleRow(this.#shown[i]), { id: 'ground-list', 'aria-label': 'Ground rules' }, WRAP_UP_TO);
  }

  /** The filters, the count line and the table of rules per relation. */
  tools(): HTMLElement[] {
    const p = this.p;
    const relations = h(
      'select',
      { id: 'gv-relation', 'aria-label': 'Relation', onchange: (e: Event) => this.#setFilter({ relation: Number((e.target as HTMLSelectElement).value) }) },
      h('option', { value: '-1' }, `All relations (${p.rules.toLocaleString('en')})`),
      ...p.data.summary.relations.map(([rel, n], i) => h('option', { value: String(i), selected: i === this.filter.relation }, `${rel} (${n.toLocaleString('en')})`)),
    );
    const check = (id: string, label: string, key: 'fires' | 'changes' | 'percepts') =>
      h('label', { class: 'gv-check' }, h('input', { type: 'checkbox', id, checked: this.filter[key], onchange: (e: Event) => this.#setFilter({ [key]: (e.target as HTMLInputElement).checked }) }), label);
    const text = h('input', {
      type: 'search',
      id: 'gv-text',
      value: this.filter.text,
      placeholder: 'Filter, e.g. (cell 1 1',
      'aria-label': 'Filter the ground rules',
      oninput: (e: Event) => this.#setFilter({ text: (e.target as HTMLInputElement).value.trim().toLowerCase() }),
    });
    const sees = p.data.summary.relations.some(([rel]) => rel === 'sees/2');
    return [
      h('div', { class: 'ground-tools' }, relations, check('gv-fires', 'fires now', 'fires'), check('gv-changes', 'switched by the move', 'changes'), sees ? check('gv-percepts', 'percepts', 'percepts') : '', text, h('span', { class: 'muted', id: 'ground-count' })),
      h(
        'p',
        { class: 'legend gv-legend', id: 'gv-legend', 'aria-label': 'What the colours say' },
        h('span', { class: 'gv-key atom-t' }, 'holds'),
        h('span', { class: 'gv-key atom-f' }, 'does not hold'),
        rowKey('row-fires', 'fires in this position'),
        rowKey('row-hl', 'fires with the chosen move'),
        rowKey('row-off', 'stops firing with the chosen move'),
        sees ? rowKey('row-percept', 'produces a percept (sees)') : '',
      ),
      h('details', { class: 'ground-counts', id: 'gv-counts' }, h('summary', {}, `Rules per relation (${p.data.summary.relations.length})`), h('table', { class: 'counts', id: 'gv-counts-table' })),
    ];
  }

  #setFilter(f: Partial<Filter>): void {
    this.filter = { ...this.filter, ...f };
    this.apply();
  }

  /** Lists the rules the filter keeps, with the values of the position. */
  apply(): void {
    const p = this.p;
    const { relation, fires, changes, percepts, text } = this.filter;
    const values = this.position.values;
    if (text && !this.#lowered) this.#lowered = Array.from({ length: p.rules }, (_, r) => p.text(r).toLowerCase());
    const out = new Uint32Array(p.rules);
    let n = 0;
    for (let r = 0; r < p.rules; r++) {
      if (relation >= 0 && p.data.ruleRelations[r] !== relation) continue;
      if (fires && !(values && values.fires[r])) continue;
      if (changes && this.position.switched(r) === 0 && !this.position.makesLegal(p, r)) continue;
      if (percepts && !perceives(p, values?.fires, r)) continue;
      if (text && !this.#lowered![r].includes(text)) continue;
      out[n++] = r;
    }
    this.#shown = out.subarray(0, n);
    const any = relation >= 0 || fires || changes || percepts || text;
    const firing = values ? values.fires.reduce((s, v) => s + v, 0) : 0;
    byId('ground-count').textContent = `${any ? `${n.toLocaleString('en')} of ` : ''}${p.rules.toLocaleString('en')} ground rules · ${firing.toLocaleString('en')} fire now`;
    this.list.setCount(n);
    this.#renderCounts();
  }

  /** Per relation: rules, and how many fire in the position. */
  #renderCounts(): void {
    const p = this.p;
    const values = this.position.values;
    const firing = new Array<number>(p.data.summary.relations.length).fill(0);
    if (values) for (let r = 0; r < p.rules; r++) if (values.fires[r]) firing[p.data.ruleRelations[r]]++;
    byId('gv-counts-table').replaceChildren(
      h('tr', {}, h('th', {}, 'relation'), h('th', { class: 'num' }, 'rules'), h('th', { class: 'num' }, 'fire now')),
      ...p.data.summary.relations.map(([rel, n], i) => h('tr', { 'data-relation': rel }, h('td', {}, rel), h('td', { class: 'num' }, n.toLocaleString('en')), h('td', { class: 'num' }, firing[i].toLocaleString('en')))),
    );
  }

  #ruleRow(r: number): HTMLElement {
    const p = this.p;
    const values = this.position.values;
    const atomValues = values?.atoms;
    const sw = this.position.switched(r);
    const seen = perceives(p, values?.fires, r);
    const cls = ['vrow', 'rule', values?.fires[r] ? 'fires' : '', sw > 0 || this.position.makesLegal(p, r) ? 'hl' : '', sw < 0 ? 'hl-off' : '', seen ? 'percept' : ''].filter(Boolean).join(' ');
    const atomButton = (a: number, neg: boolean) => {
      const holds = atomValues ? atomValues[a] === 1 : null;
      const lit = holds === null ? '' : holds !== neg ? 't' : 'f';
      const text = neg ? (p.syntax === 'prefix' ? `(not ${p.atom(a)})` : `~${p.atom(a)}`) : p.atom(a);
      return h('button', { type: 'button', class: `atom ${lit}${a === this.selected() ? ' sel' : ''}`, 'data-atom': String(a), onclick: () => this.select(a) }, text);
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
    // The whole rule on hover (a long one runs past the pane), and what its colour says.
    const why = seen ? ' (produces a percept with the chosen move)' : sw > 0 ? ' (fires with the chosen move)' : sw < 0 ? ' (stops firing with the chosen move)' : '';
    return h('div', { class: cls, 'data-rule': String(r), title: `${p.text(r)}${why}` }, ...parts);
  }

  /** Rule r's row in the list as filtered now, or -1. */
  indexOf(r: number): number {
    return this.#shown.indexOf(r);
  }

  /** Scrolls row `i` into view and flashes rule r there. */
  scrollTo(i: number, r: number): void {
    this.list.scrollTo(i);
    document.querySelector(`#ground-list [data-rule="${r}"]`)?.classList.add('flash');
  }
}
