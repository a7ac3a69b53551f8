// The tab strip over the panes (Play, Playouts, Analysis, Match, Rule graph, Grounded rules):
// a click or the arrow keys select a tab, show its pane and hide the others.

import { byId } from './dom';

export class Tabs {
  #tabs = [...document.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  /** The tab selected: its id without `tab-` (play, playouts, …). */
  current = 'play';

  /** `changed` hears every selection. */
  constructor(private changed: (tab: string) => void) {
    this.#tabs.forEach((t, i) => {
      t.tabIndex = t.getAttribute('aria-selected') === 'true' ? 0 : -1;
      t.addEventListener('click', () => this.#pick(t));
      t.addEventListener('keydown', (e) => {
        const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
        if (!d) return;
        const next = this.#tabs[(i + d + this.#tabs.length) % this.#tabs.length];
        next.focus();
        this.#pick(next);
      });
    });
  }

  /** Selects the tab `tab-${id}`. */
  select(id: string): void {
    const tab = this.#tabs.find((t) => t.id === `tab-${id}`);
    if (tab) this.#pick(tab);
  }

  #pick(tab: HTMLButtonElement): void {
    for (const t of this.#tabs) {
      const on = t === tab;
      t.setAttribute('aria-selected', String(on));
      t.tabIndex = on ? 0 : -1;
      byId(t.getAttribute('aria-controls')!).hidden = !on;
    }
    this.current = tab.id.replace('tab-', '');
    this.changed(this.current);
  }
}
