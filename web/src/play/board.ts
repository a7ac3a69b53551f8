// Automatic boards: finds a grid among a state's fluents — a relation with three arguments
// whose first two look like coordinates, e.g. (cell ?x ?y ?piece) — and maps legal moves
// to the cells a click should play them from.

import type { BoardFacts, DisplayMap } from './pieces';
import { parseTerm, termArgs, termName, termText, type Term } from './terms';

export interface Grid {
  relation: string;
  /** Values of the first argument, in order (numbers numerically). */
  xs: string[];
  /** Values of the second argument. */
  ys: string[];
  /** Pieces per cell, keyed by `cellKey(x, y)`. */
  pieces: Map<string, string[]>;
  /** The state's fluents that are not cells of the grid. */
  others: string[];
}

/** Names a grid relation usually has; they win over other candidates. */
const GRID_NAMES = ['cell', 'square', 'board', 'location', 'position', 'pos', 'at', 'field', 'tile'];
const MAX_SIDE = 30;

export function cellKey(x: string, y: string): string {
  return `${x}\u0000${y}`;
}

const isInt = (s: string) => /^-?\d+$/.test(s);

/** Numbers in numeric order with the gaps filled (a board has every row), others sorted. */
function axis(values: Set<string>): string[] {
  const v = [...values];
  if (v.length > 0 && v.every(isInt)) {
    const n = v.map(Number);
    const lo = Math.min(...n);
    const hi = Math.max(...n);
    if (hi - lo < MAX_SIDE) return Array.from({ length: hi - lo + 1 }, (_, i) => String(lo + i));
    return n.sort((a, b) => a - b).map(String);
  }
  return v.sort();
}

interface Candidate {
  xs: Set<string>;
  ys: Set<string>;
  cells: number;
}

/** Coordinates and value of a cell fluent: `(cell 1 2 x)`, or `(cell a 1 white rook)` (value `white rook`). */
function cellArgs(t: Term): [string, string, string] | null {
  const a = termArgs(t);
  if (a.length < 3 || typeof a[0] !== 'string' || typeof a[1] !== 'string') return null;
  return [a[0], a[1], a.slice(2).map(termText).join(' ')];
}

/** The values of each cell of `relation` among `fluents`, keyed by `cellKey`; the other fluents. */
export function cellValues(relation: string, fluents: string[]): { pieces: Map<string, string[]>; others: string[] } {
  const pieces = new Map<string, string[]>();
  const others: string[] = [];
  for (const text of fluents) {
    const term = parseTerm(text);
    const c = term !== null && termName(term) === relation ? cellArgs(term) : null;
    if (c === null) {
      others.push(text);
      continue;
    }
    const k = cellKey(c[0], c[1]);
    pieces.set(k, [...(pieces.get(k) ?? []), c[2]]);
  }
  return { pieces, others };
}

/**
 * The grid of a state, if it has one. `domain` lists more fluents of the same game (its
 * `base` facts, for instance) so that empty rows of games that list only occupied cells
 * still appear.
 */
export function detectGrid(fluents: string[], domain: string[] = []): Grid | null {
  const candidates = new Map<string, Candidate>();
  const note = (t: Term | null, inState: boolean) => {
    if (t === null) return;
    const c = cellArgs(t);
    if (c === null) return;
    const name = termName(t);
    let cand = candidates.get(name);
    if (!cand) candidates.set(name, (cand = { xs: new Set(), ys: new Set(), cells: 0 }));
    cand.xs.add(c[0]);
    cand.ys.add(c[1]);
    if (inState) cand.cells++;
  };
  fluents.forEach((f) => note(parseTerm(f), true));
  domain.forEach((f) => note(parseTerm(f), false));

  let best: [string, Candidate] | null = null;
  let bestScore = -1;
  for (const [name, c] of candidates) {
    const fits = c.xs.size >= 2 && c.ys.size >= 2 && c.xs.size <= MAX_SIDE && c.ys.size <= MAX_SIDE;
    if (!fits) continue;
    const score = (GRID_NAMES.includes(name) ? 10_000 : 0) + c.xs.size * c.ys.size + c.cells;
    if (score > bestScore) [best, bestScore] = [[name, c], score];
  }
  if (best === null) return null;
  const [relation, cand] = best;
  return { relation, xs: axis(cand.xs), ys: axis(cand.ys), ...cellValues(relation, fluents) };
}

/**
 * What a board's display is inferred from: the cells of the initial state `start`, and the
 * values the game declares (the initial state's, then those of the `domain`). Values that
 * appear later do not change how the others are drawn.
 */
export function boardFacts(grid: Grid, start: string[], domain: string[], roles: string[]): BoardFacts {
  const first = [...cellValues(grid.relation, start).pieces.values()];
  const declared = [...cellValues(grid.relation, domain).pieces.values()];
  return { start: first, values: [...first, ...declared].flat(), cols: grid.xs.length, rows: grid.ys.length, roles };
}

/** One legal move of one role, as a click on the board plays it. */
export interface BoardMove {
  role: number;
  move: string;
}

export interface MoveMap {
  /** Cell → the moves a click there plays (moves naming one cell, or a column). */
  targets: Map<string, BoardMove[]>;
  /** Cell → moves from this cell to another (`(move x1 y1 x2 y2)`), with their destination. */
  sources: Map<string, (BoardMove & { to: string })[]>;
}

/** The cells named by a move's arguments: non-overlapping (x, y) pairs, left to right. */
function cellsOf(args: Term[], xs: Set<string>, ys: Set<string>): string[] {
  const cells: string[] = [];
  for (let i = 0; i + 1 < args.length; i++) {
    const [a, b] = [args[i], args[i + 1]];
    if (typeof a === 'string' && typeof b === 'string' && xs.has(a) && ys.has(b)) {
      cells.push(cellKey(a, b));
      i++;
    }
  }
  return cells;
}

/** Where each legal move (per role) can be played on the grid. */
export function mapMoves(grid: Grid, legal: string[][]): MoveMap {
  const xs = new Set(grid.xs);
  const ys = new Set(grid.ys);
  const map: MoveMap = { targets: new Map(), sources: new Map() };
  const add = <T>(m: Map<string, T[]>, k: string, v: T) => m.set(k, [...(m.get(k) ?? []), v]);
  legal.forEach((moves, role) => {
    for (const move of moves) {
      const t = parseTerm(move);
      if (t === null) continue;
      const args = termArgs(t);
      const cells = cellsOf(args, xs, ys);
      if (cells.length === 1) {
        add(map.targets, cells[0], { role, move });
      } else if (cells.length === 2) {
        add(map.sources, cells[0], { role, move, to: cells[1] });
      } else if (cells.length === 0 && args.length === 1 && typeof args[0] === 'string' && xs.has(args[0])) {
        // A column move such as (drop 3): any cell of the column plays it.
        for (const y of grid.ys) add(map.targets, cellKey(args[0], y), { role, move });
      }
    }
  });
  return map;
}

/** How the grid is drawn: `swap` puts the first argument on rows, `flip` turns rows upside down. */
export interface Orientation {
  swap: boolean;
  flip: boolean;
}

/** The board as the person set it up: orientation and their own value → glyph mapping. */
export interface BoardView extends Orientation {
  display?: DisplayMap;
}

/** Rows of cells as drawn, each cell with its data key and coordinate labels. */
export function layout(grid: Grid, o: Orientation): { rows: string[]; cols: string[]; key: (r: string, c: string) => string } {
  const rows = o.swap ? [...grid.xs] : [...grid.ys];
  const cols = o.swap ? grid.ys : grid.xs;
  if (o.flip) rows.reverse();
  return { rows, cols, key: (r, c) => (o.swap ? cellKey(r, c) : cellKey(c, r)) };
}
