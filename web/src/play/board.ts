// Automatic boards: finds a grid among a state's fluents — a relation with three arguments
// whose first two look like coordinates, e.g. (cell ?x ?y ?piece) — orders its rows and
// columns by the game's own chains (`(next_file a b)`, whatever it is called; the engine
// finds them), numbers or text, and maps legal moves to the cells a click plays them from.

import { COLOURS, chessPiece, type BoardFacts, type BoardStyle, type DisplayMap } from './pieces';
import { parseTerm, termArgs, termName, termText, type Term } from './terms';

export interface Grid {
  relation: string;
  /** Values of the first argument, in order (see `orderAxis`). */
  xs: string[];
  /** Values of the second argument. */
  ys: string[];
  /** Pieces per cell, keyed by `cellKey(x, y)`. */
  pieces: Map<string, string[]>;
  /** Per cell, the share of each of its pieces (in the order of `pieces`): 1 for a state;
   * a belief board (what a role knows) gives the share of its possible states that hold it. */
  shares: Map<string, number[]>;
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

const collator = new Intl.Collator('en', { numeric: true });

/**
 * The values of an axis in order: the game's own order when one of its chains holds them
 * all (the shortest such chain; the values between theirs too, so that a board has every
 * row), else numbers in numeric order with the gaps filled, else text (numbers in it
 * compared as numbers: `a2` before `a10`).
 */
export function orderAxis(values: Iterable<string>, chains: string[][] = []): string[] {
  const v = [...new Set(values)];
  let best: string[] | null = null;
  for (const chain of chains) {
    if (chain.length >= v.length && (best === null || chain.length < best.length) && v.every((x) => chain.includes(x))) best = chain;
  }
  if (best !== null && v.length > 0) {
    const at = v.map((x) => best.indexOf(x));
    const [lo, hi] = [Math.min(...at), Math.max(...at)];
    return hi - lo < MAX_SIDE ? best.slice(lo, hi + 1) : [...v].sort((a, b) => best.indexOf(a) - best.indexOf(b));
  }
  if (v.length > 0 && v.every(isInt)) {
    const n = v.map(Number);
    const lo = Math.min(...n);
    const hi = Math.max(...n);
    if (hi - lo < MAX_SIDE) return Array.from({ length: hi - lo + 1 }, (_, i) => String(lo + i));
    return n.sort((a, b) => a - b).map(String);
  }
  return v.sort(collator.compare);
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

/** The values of each cell of `relation` among `fluents`, keyed by `cellKey`, with their
 * shares (`shares[i]` is that of `fluents[i]`, 1 when not given); the other fluents. */
export function cellValues(relation: string, fluents: string[], shares: number[] = []): { pieces: Map<string, string[]>; shares: Map<string, number[]>; others: string[] } {
  const pieces = new Map<string, string[]>();
  const cellShares = new Map<string, number[]>();
  const others: string[] = [];
  fluents.forEach((text, i) => {
    const term = parseTerm(text);
    const c = term !== null && termName(term) === relation ? cellArgs(term) : null;
    if (c === null) {
      others.push(text);
      return;
    }
    const k = cellKey(c[0], c[1]);
    pieces.set(k, [...(pieces.get(k) ?? []), c[2]]);
    cellShares.set(k, [...(cellShares.get(k) ?? []), shares[i] ?? 1]);
  });
  return { pieces, shares: cellShares, others };
}

/**
 * The grid of a state, if it has one. `domain` lists more fluents of the same game (its
 * `base` facts, for instance) so that empty rows of games that list only occupied cells
 * still appear; `chains` are the game's own orders of values (`orderAxis`). A belief board
 * gives the fluents of every possible state with the share of each (`shares`, parallel).
 */
export function detectGrid(fluents: string[], domain: string[] = [], chains: string[][] = [], shares: number[] = []): Grid | null {
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
  return { relation, xs: orderAxis(cand.xs, chains), ys: orderAxis(cand.ys, chains), ...cellValues(relation, fluents, shares) };
}

/**
 * What a board's display is inferred from: the cells of the initial state `start`, and the
 * values the game declares (the initial state's, then those of the `domain`). Values that
 * appear later do not change how the others are drawn.
 */
export function boardFacts(grid: Grid, start: string[], domain: string[], roles: string[]): BoardFacts {
  const first = [...cellValues(grid.relation, start).pieces];
  const declared = [...cellValues(grid.relation, domain).pieces.values()];
  const parity = (k: string) => {
    const [x, y] = k.split('\u0000');
    return (grid.xs.indexOf(x) + grid.ys.indexOf(y) + 2) % 2;
  };
  return {
    start: first.map(([, v]) => v),
    startParity: first.map(([k]) => parity(k)),
    values: [...first.map(([, v]) => v), ...declared].flat(),
    cols: grid.xs.length,
    rows: grid.ys.length,
    roles,
  };
}

/**
 * How a board is turned by default: the pieces of the side that moves first at the bottom,
 * as a chess player expects, whatever the game calls them. They are those the opening moves
 * start from (`(move x1 y1 x2 y2)` in `startLegal`, the legal moves of the initial state, of
 * the first role that has such moves: the first role, in most games); when no role moves
 * pieces at the start, the light pieces of a chess or draughts board go to the bottom. Other
 * boards are drawn as the game lists them.
 */
export function autoOrientation(grid: Grid, start: string[], style: BoardStyle, startLegal: string[][] = []): Orientation {
  const plain = { swap: false, flip: false };
  const fromCells = (role: number) => [...mapMoves(grid, startLegal.map((ms, r) => (r === role ? ms : []))).sources.keys()];
  let cells: string[] = [];
  for (let role = 0; role < startLegal.length && cells.length === 0; role++) cells = fromCells(role);
  if (cells.length === 0 && (style.scheme === 'chess' || style.scheme === 'draughts')) {
    const light = (v: string) => (style.scheme === 'chess' ? chessPiece(v)?.white === true : style.auto(v).colour === COLOURS.white);
    cells = [...cellValues(grid.relation, start).pieces].filter(([, values]) => values.some(light)).map(([k]) => k);
  }
  if (cells.length === 0) return plain;
  const at = cells.map((k): [number, number] => {
    const [x, y] = k.split('\u0000');
    return [grid.xs.indexOf(x), grid.ys.indexOf(y)];
  });
  const spread = (i: 0 | 1) => new Set(at.map((p) => p[i])).size;
  // A side's men stand on few ranks and many files: the axis with fewer values is the ranks.
  const swap = spread(0) < spread(1);
  const ranks = swap ? grid.xs.length : grid.ys.length;
  const mean = at.reduce((sum, p) => sum + p[swap ? 0 : 1], 0) / at.length;
  // Unflipped, the first rank is drawn at the top.
  return { swap, flip: mean < (ranks - 1) / 2 };
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

/**
 * A state that is no grid, as a list: its fluents grouped by relation, the arguments of each
 * (`(heap a 3)`, `(heap b 4)` → heap: `a 3`, `b 4`), relations in order of first appearance;
 * with the share of each (`shares[i]` is that of `fluents[i]`, 1 when not given).
 */
export function groupFluents(fluents: string[], shares: number[] = []): [string, string[], number[]][] {
  const groups = new Map<string, [string[], number[]]>();
  fluents.forEach((text, i) => {
    const t = parseTerm(text);
    const [name, args] = t === null ? [text, ''] : [termName(t), termArgs(t).map(termText).join(' ')];
    const g = groups.get(name) ?? [[], []];
    groups.set(name, [[...g[0], args], [...g[1], shares[i] ?? 1]]);
  });
  return [...groups].map(([name, [args, s]]) => [name, args, s]);
}

/** A share of possible states as people read it: "50%" ("<1%" for a sliver, never "0%" or "100%" unless so). */
export function shareText(share: number): string {
  const pct = share * 100;
  if (pct > 0 && pct < 1) return '<1%';
  if (pct > 99 && pct < 100) return '>99%';
  return `${Math.round(pct)}%`;
}
