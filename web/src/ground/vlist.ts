// A virtualised list: only the rows in view (and a few around them) exist in the DOM, so a
// list of 100 000+ rules scrolls as smoothly as one of ten. Rows have one fixed height,
// measured from the first row drawn (it follows the page's text size). A list may ask to be
// drawn whole while it is short (`wholeUpTo` rows): its rows then wrap to the width
// (`.vlist.whole`), which one fixed height forbids.

import { h } from '../dom';

const OVERSCAN = 8;

/** Rule lists up to this long are drawn whole, their rows wrapping (a few thousand rows draw at once). */
export const WRAP_UP_TO = 1000;

export class VirtualList {
  readonly el: HTMLElement;
  #spacer: HTMLElement;
  #rows: HTMLElement;
  #count = 0;
  #rowHeight = 0;

  constructor(
    private row: (i: number) => HTMLElement,
    attrs: Record<string, string> = {},
    private wholeUpTo = 0,
  ) {
    this.#rows = h('div', { class: 'vlist-rows' });
    this.#spacer = h('div', { class: 'vlist-spacer' }, this.#rows);
    this.el = h('div', { class: 'vlist', tabindex: '0', ...attrs }, this.#spacer);
    this.el.addEventListener('scroll', () => this.#whole() || this.draw(), { passive: true });
  }

  /** Whether the list is drawn whole (short enough). */
  #whole(): boolean {
    return this.#count <= this.wholeUpTo;
  }

  /** Shows `count` rows (row i drawn by `row(i)`), keeping the scroll position if it can. */
  setCount(count: number): void {
    this.#count = count;
    this.draw();
  }

  /** Draws the rows in view again (their content changed). */
  draw(): void {
    this.el.classList.toggle('whole', this.#whole());
    if (this.#whole()) {
      this.#spacer.style.height = '';
      this.#rows.style.transform = '';
      this.#rows.replaceChildren(...Array.from({ length: this.#count }, (_, i) => this.row(i)));
      return;
    }
    if (this.#rowHeight === 0 && this.#count > 0) {
      const probe = this.row(0);
      this.#rows.replaceChildren(probe);
      this.#rowHeight = probe.getBoundingClientRect().height || 24;
    }
    const hgt = this.#rowHeight || 24;
    this.#spacer.style.height = `${this.#count * hgt}px`;
    const first = Math.max(0, Math.floor(this.el.scrollTop / hgt) - OVERSCAN);
    const visible = Math.ceil((this.el.clientHeight || 600) / hgt) + 2 * OVERSCAN;
    const last = Math.min(this.#count, first + visible);
    this.#rows.style.transform = `translateY(${first * hgt}px)`;
    const out: HTMLElement[] = [];
    for (let i = first; i < last; i++) out.push(this.row(i));
    this.#rows.replaceChildren(...out);
  }

  /** Scrolls so that row i is in view. */
  scrollTo(i: number): void {
    if (this.#whole()) {
      const row = this.#rows.children[i] as HTMLElement | undefined;
      if (row) this.el.scrollTop = Math.max(0, row.offsetTop - this.el.clientHeight / 3);
      return;
    }
    const hgt = this.#rowHeight || 24;
    this.el.scrollTop = Math.max(0, i * hgt - this.el.clientHeight / 3);
    this.draw();
  }

  /** The text size changed: measure the rows again. */
  remeasure(): void {
    this.#rowHeight = 0;
    this.draw();
  }
}
