// Autosave: the rules, the moves and the board view in localStorage, so that a reload
// never loses work.

import type { Orientation } from './board';

const KEY = 'gdl-playground/v1';

export interface Saved {
  rules: string;
  moves: string[][];
  step: number;
  view: Orientation;
  scale: number;
}

export function loadSaved(): Partial<Saved> | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const s = JSON.parse(raw) as Partial<Saved>;
    return typeof s === 'object' && s !== null && typeof s.rules === 'string' ? s : null;
  } catch {
    return null;
  }
}

/** Saves; returns false when the browser refuses (storage full or disabled). */
export function save(s: Saved): boolean {
  try {
    localStorage.setItem(KEY, JSON.stringify(s));
    return true;
  } catch {
    return false;
  }
}
