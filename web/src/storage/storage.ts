// Autosave: the rules, the moves, the board view (orientation, display mapping) and the role
// viewed as, in localStorage, so that a reload never loses work.

import type { BoardView } from '../play/board';
import { readBoardView } from './share';

const KEY = 'gdl-playground/v1';

export interface Saved {
  rules: string;
  moves: string[][];
  step: number;
  view: BoardView;
  scale: number;
  /** GDL-II: the role the Play pane shows the game as (null: the referee). */
  as: string | null;
}

export function loadSaved(): Partial<Saved> | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const s = JSON.parse(raw) as Partial<Saved>;
    if (typeof s !== 'object' || s === null || typeof s.rules !== 'string') return null;
    return { ...s, view: s.view && typeof s.view === 'object' ? readBoardView(s.view) : undefined, as: typeof s.as === 'string' ? s.as : null };
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

const LESSONS_KEY = 'gdl-playground/lessons/v1';

/** The lessons passed, and the lesson open (shown again after a reload). */
export interface Progress {
  done: string[];
  open: string | null;
}

export function loadProgress(): Progress {
  try {
    const p = JSON.parse(localStorage.getItem(LESSONS_KEY) ?? 'null') as Partial<Progress> | null;
    const done = Array.isArray(p?.done) ? p.done.filter((d): d is string => typeof d === 'string') : [];
    return { done, open: typeof p?.open === 'string' ? p.open : null };
  } catch {
    return { done: [], open: null };
  }
}

export function saveProgress(p: Progress): void {
  try {
    localStorage.setItem(LESSONS_KEY, JSON.stringify(p));
  } catch {
    // Storage refused (full or disabled): progress lasts until the page closes.
  }
}
