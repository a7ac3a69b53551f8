// The example games of games/*.kif, bundled at build time, with how their boards are drawn.

import type { Orientation } from './board';

const files = import.meta.glob('../../games/*.kif', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

export interface Example {
  id: string;
  title: string;
  text: string;
  view: Orientation;
}

/** Menu order; games not listed follow alphabetically. */
const ORDER = ['tictactoe', 'connectfour', 'breakthrough', 'nim', 'rps', 'eightpuzzle'];

/** Boards whose first coordinate is a row, or whose rows count from the bottom (per the game's comments). */
const VIEWS: Record<string, Partial<Orientation>> = {
  connectfour: { flip: true },
  breakthrough: { flip: true },
  eightpuzzle: { swap: true },
};

export const DEFAULT_EXAMPLE = 'tictactoe';

export const examples: Example[] = Object.entries(files)
  .map(([path, text]) => {
    const id = path.replace(/^.*\//, '').replace(/\.kif$/, '');
    // The first comment line names the game: "; Tic-tac-toe".
    const first = text.split('\n').find((l) => l.startsWith(';'));
    const title = first?.replace(/^;+\s*/, '').trim() || id;
    return { id, title, text, view: { swap: false, flip: false, ...VIEWS[id] } };
  })
  .sort((a, b) => {
    const ia = ORDER.indexOf(a.id);
    const ib = ORDER.indexOf(b.id);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.id.localeCompare(b.id);
  });

export function example(id: string): Example | undefined {
  return examples.find((e) => e.id === id);
}
