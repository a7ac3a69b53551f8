// A virtualised list: only the rows in view (and a few around them) exist in the DOM, so a
// list of 100 000+ rules scrolls as smoothly as one of ten. Rows wrap to the list's width, so
// they differ in height: each row drawn is measured (the others count as tall as the first one
// measured until they are drawn), and a Fenwick tree of the heights finds the row at a scroll offset
// and the offset of a row in log time. A change of width (the side panel, the window) or of
// text size measures the rows again. A list may ask to be drawn whole while it is short
// (`wholeUpTo` rows: every row in the DOM, found by the browser's search).

import { h } from '../dom';

const OVERSCAN = 8;

/** Rule lists up to this long are drawn whole (a few thousand rows draw at once). */
export const WRAP_UP_TO = 1000;

/** Row heights, summed by prefix in log time (a Fenwick tree over a plain array of them). */
export class Heights {
  readonly of: Float64Array;
  #tree: Float64Array;

  constructor(count: number, each: number) {
    this.of = new Float64Array(count).fill(each);
    this.#tree = new Float64Array(count + 1);
    for (let i = 1; i <= count; i++) {
      this.#tree[i] += each;
      const up = i + (i & -i);
      if (up <= count) this.#tree[up] += this.#tree[i];
    }
  }

  get count(): number {
    return this.of.length;
  }

  set(i: number, height: number): void {
    const d = height - this.of[i];
    this.of[i] = height;
    for (let k = i + 1; k <= this.count; k += k & -k) this.#tree[k] += d;
  }

  /** The offset of row i's top (the total for i = count). */
  top(i: number): number {
    let s = 0;
    for (let k = i; k > 0; k -= k & -k) s += this.#tree[k];
    return s;
  }

  /** The row at offset y (the last row past the end). */
  at(y: number): number {
    let i = 0;
    for (let step = 1 << Math.floor(Math.log2(this.count || 1)); step > 0; step >>= 1) {
      if (i + step <= this.count && this.#tree[i + step] <= y) {
        i += step;
        y -= this.#tree[i];
      }
    }
    return Math.min(i, this.count - 1);
  }
}

export class VirtualList {
  readonly el: HTMLElement;
  #spacer: HTMLElement;
  #rows: HTMLElement;
  #count = 0;
  #heights = new Heights(0, 0);
  /** The width and text size the heights were measured at. */
  #measuredAt = '';

  constructor(
    private row: (i: number) => HTMLElement,
    attrs: Record<string, string> = {},
    private wholeUpTo = 0,
  ) {
    this.#rows = h('div', { class: 'vlist-rows' });
    // An empty mark one em wide: it changes size with the text (A+, A−).
    const em = h('div', { class: 'vlist-em', 'aria-hidden': 'true' });
    this.#spacer = h('div', { class: 'vlist-spacer' }, this.#rows, em);
    this.el = h('div', { class: 'vlist', tabindex: '0', ...attrs }, this.#spacer);
    this.el.addEventListener('scroll', () => this.#whole() || this.draw(), { passive: true });
    const resized = new ResizeObserver(() => this.#whole() || this.draw());
    resized.observe(this.el);
    resized.observe(em);
  }

  /** Whether the list is drawn whole (short enough). */
  #whole(): boolean {
    return this.#count <= this.wholeUpTo;
  }

  /** Shows `count` rows (row i drawn by `row(i)`), keeping the scroll position if it can. */
  setCount(count: number): void {
    this.#count = count;
    this.#measuredAt = '';
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
    const first = this.#heights.count ? this.#heights.at(this.el.scrollTop) : 0;
    const at = `${this.el.clientWidth} ${getComputedStyle(this.el).fontSize}`;
    if (at !== this.#measuredAt) this.#estimate(at, first);
    this.#drawFrom(first);
  }

  /** Starts the heights afresh from the height of the row `first` (the first in view, which
   * stays so); rows are measured again as they are drawn. */
  #estimate(at: string, first: number): void {
    this.#measuredAt = at;
    let each = 24;
    if (this.#count > 0 && this.el.clientWidth > 0) {
      const probe = this.row(Math.min(first, this.#count - 1));
      this.#rows.replaceChildren(probe);
      each = probe.getBoundingClientRect().height || each;
    }
    this.#heights = new Heights(this.#count, each);
    if (this.el.clientWidth > 0) this.el.scrollTop = this.#heights.top(first);
  }

  /** Draws the rows around `first` (the row at the top of the view) and measures them,
   * keeping `first` where it was if rows above it proved taller or shorter than estimated. */
  #drawFrom(first: number): void {
    const heights = this.#heights;
    const shown = this.el.clientWidth > 0;
    const start = Math.max(0, first - OVERSCAN);
    const offsetInFirst = Math.max(0, this.el.scrollTop - heights.top(first));
    const bottom = () => heights.top(first) + offsetInFirst + (this.el.clientHeight || 600);
    this.#rows.replaceChildren();
    let end = start;
    // The rows the heights say fill the view, and OVERSCAN more; measured, they may prove
    // shorter than estimated, and then more rows are drawn.
    for (;;) {
      const from = end;
      let more = 0;
      while (end < this.#count && (heights.top(end) < bottom() || more++ < OVERSCAN)) this.#rows.append(this.row(end++));
      if (!shown) break;
      const rows = this.#rows.children;
      for (let i = from; i < end; i++) {
        const height = rows[i - start].getBoundingClientRect().height;
        if (height > 0) heights.set(i, height);
      }
      if (end === this.#count || end === from || heights.top(end) >= bottom()) break;
    }
    this.#rows.style.transform = `translateY(${heights.top(start)}px)`;
    this.#spacer.style.height = `${heights.top(this.#count)}px`;
    const top = heights.top(first) + offsetInFirst;
    if (shown && Math.abs(this.el.scrollTop - top) > 0.5) this.el.scrollTop = top;
  }

  /** Scrolls so that row i is in view. */
  scrollTo(i: number): void {
    if (this.#whole()) {
      const row = this.#rows.children[i] as HTMLElement | undefined;
      if (row) this.el.scrollTop = Math.max(0, row.offsetTop - this.el.clientHeight / 3);
      return;
    }
    this.el.scrollTop = Math.max(0, this.#heights.top(i) - this.el.clientHeight / 3);
    this.draw();
  }
}
