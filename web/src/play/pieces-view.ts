// Drawing board values (a glyph as an element) and the "Pieces" panel where a person maps
// each value of the game to a symbol, a stone or nothing; the mapping travels with the board
// view (autosave and share links).

import { h } from '../dom';
import { MAX_MAPPED, MAX_SYMBOL, abbreviations, type BoardStyle, type DisplayMap, type Glyph } from './pieces';

/** Characters of a name drawn in a square (the full name on hover and in the legend). */
export const SQUARE_CHARS = 4;

/** Whether text on a background of colour `#rrggbb` should be light. */
function isDark(colour: string): boolean {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b < 128;
}

/** What a glyph writes: its symbol, else the value's name. */
export const glyphText = (g: Glyph, value: string): string => g.text ?? value;

/** The element of a value drawn as `g`; `null` for a blank. Names longer than a square
 * holds are drawn as their label in `short` (see `abbreviations`), sized to fit and named in
 * full on hover. */
export function glyphView(g: Glyph, value: string, short: Map<string, string> = abbreviations([glyphText(g, value)], SQUARE_CHARS)): HTMLElement | null {
  const full = glyphText(g, value);
  const text = short.get(full) ?? full;
  switch (g.shape) {
    case 'blank':
      return null;
    case 'stone': {
      const colour = g.colour ?? '#202124';
      const el = h('span', { class: 'disc', title: value }, g.text ? h('span', { class: 'crown' }, text) : '');
      el.style.background = colour;
      el.style.color = isDark(colour) ? '#ffffff' : '#202124';
      return el;
    }
    case 'tile':
      return h('span', { class: 'tile', title: value }, text);
    case 'text': {
      const el = h('span', { class: [...text].length === 1 ? 'mark' : 'token', title: value }, text);
      el.style.setProperty('--len', String([...text].length));
      if (g.colour) el.style.color = g.colour;
      return el;
    }
  }
}

/** The legend of the names drawn shorter (`groups`: a heading and each name's label), hidden
 * when every name is drawn in full. */
export function renderLegend(el: HTMLElement, groups: [string, Map<string, string>][]): void {
  const parts = groups
    .map(([heading, labels]) => [heading, [...labels].filter(([full, label]) => full !== label)] as const)
    .filter(([, pairs]) => pairs.length > 0)
    .map(([heading, pairs]) =>
      h('div', {}, h('dt', {}, `${heading}:`), ...pairs.map(([full, label]) => h('dd', {}, h('b', {}, label), ` = ${full}`))),
    );
  el.replaceChildren(...parts);
  el.hidden = parts.length === 0;
}

/** A glyph with only the fields its shape uses. */
function glyphOf(shape: Glyph['shape'], text: string, colour: string | undefined): Glyph {
  const g: Glyph = { shape };
  if (shape === 'text' || shape === 'tile') g.text = [...text].slice(0, MAX_SYMBOL).join('');
  if ((shape === 'text' || shape === 'stone') && colour) g.colour = colour;
  return g;
}

const SHAPE_NAMES: [Glyph['shape'] | 'auto', string][] = [
  ['auto', 'Automatic'],
  ['blank', 'Nothing (empty)'],
  ['text', 'Symbol'],
  ['stone', 'Stone'],
  ['tile', 'Tile'],
];

/** The "Pieces" panel: one row per value, the person's choice or Automatic. */
export class DisplayEditor {
  #shown = '';

  constructor(
    private panel: HTMLElement,
    private onChange: (map: DisplayMap) => void,
  ) {}

  /** Lists `values` as `style` draws them; rebuilt only when the values or the mapping changed. */
  show(values: string[], style: BoardStyle, user: DisplayMap): void {
    const key = JSON.stringify([values, user]);
    if (key === this.#shown) return;
    this.#shown = key;
    const map: DisplayMap = Object.assign(Object.create(null), user);
    const emit = () => {
      this.#shown = JSON.stringify([values, map]);
      this.onChange(Object.fromEntries(Object.entries(map)));
    };
    const rows = values.slice(0, MAX_MAPPED).map((value) => {
      const preview = h('span', { class: 'glyph-preview' });
      const shape = h('select', { 'aria-label': `How ${value} is drawn` }, ...SHAPE_NAMES.map(([v, label]) => h('option', { value: v }, label)));
      const symbol = h('input', { type: 'text', maxlength: MAX_SYMBOL, size: 4, 'aria-label': `Symbol for ${value}` });
      const colour = h('input', { type: 'color', 'aria-label': `Colour of ${value}` });
      const mapped = () => Object.hasOwn(map, value);
      const current = () => (mapped() ? map[value] : style.auto(value));
      const sync = () => {
        const g = current();
        shape.value = mapped() ? g.shape : 'auto';
        symbol.value = g.text ?? (g.shape === 'text' || g.shape === 'tile' ? value : '');
        colour.value = g.colour ?? '#202124';
        symbol.disabled = !(g.shape === 'text' || g.shape === 'tile');
        colour.disabled = !(g.shape === 'text' || g.shape === 'stone');
        preview.replaceChildren(glyphView(g, value) ?? h('span', { class: 'muted' }, 'empty'));
      };
      const set = (shapeName: Glyph['shape'], text: string, c: string | undefined) => {
        map[value] = glyphOf(shapeName, text, c);
        sync();
        emit();
      };
      shape.addEventListener('change', () => {
        if (shape.value === 'auto') {
          delete map[value];
          sync();
          emit();
          return;
        }
        // A new shape starts from what is shown now.
        const was = current();
        set(shape.value as Glyph['shape'], was.text ?? value, was.colour);
      });
      const edited = () => set(shape.value === 'auto' ? current().shape : (shape.value as Glyph['shape']), symbol.value, colour.value);
      symbol.addEventListener('input', edited);
      colour.addEventListener('input', edited);
      sync();
      return h('tr', { 'data-value': value }, h('td', {}, h('code', {}, value)), h('td', {}, shape), h('td', {}, symbol), h('td', {}, colour), h('td', {}, preview));
    });
    const reset = h('button', { type: 'button', class: 'small', onclick: () => this.onChange({}) }, 'All automatic');
    this.panel.replaceChildren(
      h('p', { class: 'muted' }, `Empty cells hold ${style.empty === null ? 'no value (or one named b, blank, empty…)' : style.empty}. Choose how each value is drawn; your choice is saved and goes with share links.`),
      h('table', { class: 'display-map' }, h('thead', {}, h('tr', {}, h('th', {}, 'Value'), h('th', {}, 'Drawn as'), h('th', {}, 'Symbol'), h('th', {}, 'Colour'), h('th', {}, ''))), h('tbody', {}, ...rows)),
      values.length > MAX_MAPPED ? h('p', { class: 'muted' }, `… and ${values.length - MAX_MAPPED} more values, drawn automatically.`) : '',
      reset,
    );
  }
}
