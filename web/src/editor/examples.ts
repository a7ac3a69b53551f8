// The example games of games/*.kif, bundled at build time, with how their boards are drawn.

import type { Orientation } from '../play/board';

const files = import.meta.glob('../../../games/*.kif', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

export interface Example {
  id: string;
  title: string;
  /** One line for the menu: the second comment line. */
  summary: string;
  text: string;
  view: Orientation;
}

/** The menu's groups, in order; games in no group follow under "More". */
const GROUPS: [string, string[]][] = [
  ['Two players, taking turns', ['tictactoe', 'connectfour', 'breakthrough', 'knightthrough', 'checkers', 'othello', 'hex', 'dotsandboxes', 'nim', 'chomp', 'peano', 'reach', 'bigstatic', 'negation', 'arith', 'lists']],
  ['More players, simultaneous moves', ['takeaway3', 'rps', 'pennies', 'prisoners', 'simultaneous']],
  ['Puzzles (one player)', ['eightpuzzle', 'hanoi', 'blocksworld', 'lightsout', 'sudoku', 'maze', 'codebreaker']],
  ['Chance and hidden information (GDL-II)', ['montyhall', 'highdie', 'blindttt']],
  ['Find the bug', ['bug-unsafe', 'bug-negation', 'bug-unreachable']],
];
const ORDER = GROUPS.flatMap(([, ids]) => ids);

/** Boards whose first coordinate is a row, or whose rows count from the bottom (per the game's comments). */
const VIEWS: Record<string, Partial<Orientation>> = {
  connectfour: { flip: true },
  breakthrough: { flip: true },
  knightthrough: { flip: true },
  checkers: { flip: true },
  chomp: { flip: true },
  hanoi: { flip: true },
  eightpuzzle: { swap: true },
};

export const DEFAULT_EXAMPLE = 'tictactoe';

export const examples: Example[] = Object.entries(files)
  .map(([path, text]) => {
    const id = path.replace(/^.*\//, '').replace(/\.kif$/, '');
    // The first comment line names the game ("; Tic-tac-toe"), the second sums it up.
    const [title, summary] = text
      .split('\n')
      .filter((l) => l.startsWith(';'))
      .slice(0, 2)
      .map((l) => l.replace(/^;+\s*/, '').trim());
    return { id, title: title || id, summary: summary ?? '', text, view: { swap: false, flip: false, ...VIEWS[id] } };
  })
  .sort((a, b) => {
    const ia = ORDER.indexOf(a.id);
    const ib = ORDER.indexOf(b.id);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.id.localeCompare(b.id);
  });

/** The examples by menu group. */
export function exampleGroups(): { label: string; examples: Example[] }[] {
  const groups = GROUPS.map(([label, ids]) => ({ label, examples: examples.filter((e) => ids.includes(e.id)) }));
  const rest = examples.filter((e) => !ORDER.includes(e.id));
  return rest.length ? [...groups, { label: 'More', examples: rest }] : groups;
}

export function example(id: string): Example | undefined {
  return examples.find((e) => e.id === id);
}
