// Autosave on the page: what `read` gives is saved a moment after each change, and at once
// when the page is left.

import { byId } from '../dom';
import { save, type Saved } from './storage';

const SAVE_DELAY_MS = 300;

export class Autosave {
  #timer = 0;

  constructor(private read: () => Saved | null) {
    addEventListener('pagehide', () => this.now());
  }

  /** Saves a moment from now (later changes push it back). */
  schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = window.setTimeout(() => this.now(), SAVE_DELAY_MS);
  }

  now(): void {
    clearTimeout(this.#timer);
    const saved = this.read();
    if (saved && !save(saved)) byId('status').textContent += ' · autosave failed: the browser refuses to store data';
  }
}
