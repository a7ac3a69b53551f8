// How the values of a board's cells are drawn: which value means "empty" (inferred from the
// initial state, whatever it is called; a colour name colours the board's cloth), Unicode
// chess pieces when the names say so (wk, white_king, (black rook) …), discs with kings for
// draughts (men on squares of one colour), coloured stones for two-value games (othello, go,
// x/o), role initials, and the person's own mapping (value → symbol or colour), which wins
// over all of these. Pure: the page draws what `boardStyle` returns.

/** How one value is drawn: nothing, a symbol (optionally coloured), a stone, a numbered tile. */
export interface Glyph {
  shape: 'blank' | 'text' | 'stone' | 'tile';
  /** The symbol of `text` and `tile`; on a `stone`, a mark on it (a draughts king's crown). */
  text?: string;
  /** `#rrggbb`: the stone's colour, or the symbol's. */
  colour?: string;
}

/** The person's mapping, value → glyph; saved with the board view and in share links. */
export type DisplayMap = Record<string, Glyph>;

/** Values that mean "no piece here" by name; they win when the initial state has one. */
export const BLANKS = new Set(['b', 'blank', 'empty', 'e', 'none', 'nil', '_', 'space', '-', '.', 'free', 'hole', 'clear']);

/** Colour names drawn as stones of that colour. */
export const COLOURS: Record<string, string> = {
  red: '#d93025',
  yellow: '#f9c623',
  white: '#ffffff',
  black: '#202124',
  blue: '#1a73e8',
  green: '#188038',
  orange: '#f29900',
  purple: '#8e24aa',
  brown: '#795548',
  pink: '#e91e63',
  gray: '#9aa0a6',
  grey: '#9aa0a6',
};

/** Mark colours of the first four roles (as in style.css). */
const ROLE_COLOURS = ['#0b57d0', '#b3261e', '#1b6e33', '#7a1fa2'];

/** Longest symbol a mapping may hold (characters). */
export const MAX_SYMBOL = 8;

/** Cells per side from which a board of two values is drawn with stones (tic-tac-toe keeps X and O). */
const STONE_SIDE = 5;

// ---------------------------------------------------------------- the empty value

/**
 * The value that means "empty", from the values of the cells in the initial state: a
 * conventional blank name (`b`, `blank`, …) if the start has one, else the value that fills
 * most cells if it fills at least half of the board and no other value fills as many (an
 * obfuscated game's `xqz`). `null` when neither (games that list only occupied cells).
 */
export function inferEmpty(start: string[][], boardCells: number): string | null {
  const counts = new Map<string, number>();
  for (const values of start) for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const named = ranked.find(([v]) => BLANKS.has(v));
  if (named) return named[0];
  const [top, second] = ranked;
  if (!top || top[1] * 2 < boardCells || (second && second[1] === top[1])) return null;
  return top[0];
}

// ---------------------------------------------------------------- chess pieces

const PIECE_KINDS: [RegExp, number][] = [
  [/^(k|king)$/, 0],
  [/^(q|queen)$/, 1],
  [/^(r|rook|castle)$/, 2],
  [/^(b|bishop)$/, 3],
  [/^(n|kn|knight|horse)$/, 4],
  [/^(p|pawn)$/, 5],
];

const kindOf = (s: string) => PIECE_KINDS.find(([re]) => re.test(s))?.[1] ?? null;

/**
 * A chess piece named by a value, in any case and spelling: `wk`, `BQ`, `white_king`,
 * `whiteKing`, `king_black`, `(white rook)`; `null` if the name is not one.
 */
export function chessPiece(value: string): { white: boolean; kind: number } | null {
  const v = value.toLowerCase().replace(/[\s_\-()]/g, '');
  const m = /^(white|black|w|b)(.+)$/.exec(v);
  if (m) {
    const kind = kindOf(m[2]);
    if (kind !== null) return { white: m[1].startsWith('w'), kind };
  }
  const r = /^(.+?)(white|black|w|b)$/.exec(v);
  if (r) {
    const kind = kindOf(r[1]);
    if (kind !== null) return { white: r[2].startsWith('w'), kind };
  }
  return null;
}

/** The Unicode symbol: ♔♕♖♗♘♙ for white, ♚♛♜♝♞♟ for black. */
export function chessSymbol(p: { white: boolean; kind: number }): string {
  // U+FE0E asks for the text form (the black pawn has an emoji form on some systems).
  return String.fromCodePoint((p.white ? 0x2654 : 0x265a) + p.kind) + '\uFE0E';
}

/** A set of values is chess when every one names a piece and there are kings and other officers. */
function isChess(values: string[]): boolean {
  const pieces = values.map(chessPiece);
  if (values.length === 0 || pieces.some((p) => p === null)) return false;
  const kinds = new Set(pieces.map((p) => p!.kind));
  return kinds.has(0) && [1, 2, 3, 4].some((k) => kinds.has(k));
}

// ---------------------------------------------------------------- the board's style

export interface BoardStyle {
  /** The inferred empty value (never drawn), if any. */
  empty: string | null;
  /** Light and dark squares (8×8 and 10×10 boards, chess, draughts). */
  chequered: boolean;
  /** Which squares are dark: those whose (column + row) % 2, by index, is this. */
  darkParity: number;
  /** The board's colour when the empty value names one (an othello whose empty cells are `green`). */
  cloth: string | null;
  /** Chess pieces, draughts (discs on one colour of squares, kings crowned), stones, or per-value marks. */
  scheme: 'chess' | 'draughts' | 'stones' | 'marks';
  /** How a value is drawn: the person's mapping first, then the automatic one. */
  glyph(value: string): Glyph;
  /** How a value is drawn without the person's mapping. */
  auto(value: string): Glyph;
}

export interface BoardFacts {
  /** Values of each cell in the initial state (one list per cell that has values). */
  start: string[][];
  /** The colour of each cell of `start` on a chequered board: (column + row) % 2, by index. */
  startParity: number[];
  /** The values the game declares for cells (initial state, then base facts), in that order. */
  values: string[];
  cols: number;
  rows: number;
  roles: string[];
}

/** Men of a draughts game: at least this many pieces at the start, all on squares of one colour. */
const DRAUGHTS_MEN = 4;

/** A draughts king by its name: a chess king's name (`wk`, `(king black)`), or one with crown or dame in it. */
const isKing = (v: string) => chessPiece(v)?.kind === 0 || /king|crown|dame/i.test(v);

/** The automatic and the person's display of a board. */
export function boardStyle(facts: BoardFacts, user: DisplayMap = {}): BoardStyle {
  const cells = facts.cols * facts.rows;
  const empty = inferEmpty(facts.start, cells);
  const isEmpty = (v: string) => (empty === null ? BLANKS.has(v) : v === empty);
  const pieces = [...new Set(facts.values)].filter((v) => !isEmpty(v));
  const chess = isChess(pieces);
  const occupied = facts.startParity.filter((_, i) => facts.start[i].some((v) => !isEmpty(v)));
  const draughts = !chess && occupied.length >= DRAUGHTS_MEN && occupied.every((p) => p === occupied[0]) && Math.min(facts.cols, facts.rows) >= STONE_SIDE;
  const stones = !chess && !draughts && pieces.length === 2 && Math.min(facts.cols, facts.rows) >= STONE_SIDE;
  const side = facts.cols === facts.rows ? facts.cols : 0;
  const cloth = empty !== null && Object.hasOwn(COLOURS, empty) ? COLOURS[empty] : null;
  const chequered = cloth === null && (chess || draughts || side === 8 || side === 10);
  // Draughts: the men's colours (as named, else black and white), a king takes its man's.
  const men = draughts ? [...new Set(facts.start.flat())].filter((v) => !isEmpty(v)) : [];
  const stoneColours = stones ? twoColours(pieces, facts.roles) : draughts ? twoColours(men.slice(0, 2), facts.roles) : new Map<string, string>();
  // Roles as marks: their initials when those tell them apart (xplayer → X), else their names.
  const initials = facts.roles.map((r) => [...r][0]?.toUpperCase() ?? '');
  const roleMark = (i: number) => (new Set(initials).size === initials.length ? initials[i] : facts.roles[i]);

  const auto = (v: string): Glyph => {
    if (isEmpty(v)) return { shape: 'blank' };
    const p = chessPiece(v);
    if (chess && p) return { shape: 'text', text: chessSymbol(p), colour: '#202124' };
    if (draughts) {
      const colour = colourHint(v) ?? stoneColours.get(v) ?? COLOURS.gray;
      return isKing(v) ? { shape: 'stone', colour, text: chessSymbol({ white: false, kind: 0 }) } : { shape: 'stone', colour };
    }
    const stone = stoneColours.get(v) ?? (Object.hasOwn(COLOURS, v) ? COLOURS[v] : undefined);
    if (stone) return { shape: 'stone', colour: stone };
    const role = facts.roles.indexOf(v);
    const short = v.length <= 2 ? v.toUpperCase() : v;
    if (role >= 0) return { shape: 'text', text: roleMark(role), colour: ROLE_COLOURS[role % ROLE_COLOURS.length] };
    if (/^\d+$/.test(v)) return { shape: 'tile', text: v };
    return { shape: 'text', text: short };
  };
  return {
    empty,
    chequered,
    darkParity: draughts ? occupied[0] : 0,
    cloth,
    scheme: chess ? 'chess' : draughts ? 'draughts' : stones ? 'stones' : 'marks',
    glyph: (v) => (Object.hasOwn(user, v) ? user[v] : auto(v)),
    auto,
  };
}

/**
 * Labels that fit a square, one per name and all different: a name up to `max` characters
 * stays itself; a longer one becomes the initials of its words (`white_rook_moved` → `WRM`)
 * when no other label is the same, else its shortest beginning no other long name shares
 * (`q140a0d3` → `q1`, beside `qf89fc7b` → `qf`), else its beginning and a number. The page
 * shows the full name on hover and in a legend.
 */
export function abbreviations(names: Iterable<string>, max: number): Map<string, string> {
  const all = [...new Set(names)];
  const out = new Map<string, string>();
  const used = new Set<string>();
  const take = (name: string, label: string) => {
    out.set(name, label);
    used.add(label);
  };
  for (const name of all) if ([...name].length <= max) take(name, name);
  const long = all.filter((n) => !out.has(n));
  const initials = (name: string) => {
    const words = name
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .split(/[\s_\-()]+/)
      .filter(Boolean);
    return words.length >= 2 && words.length <= max ? words.map((w) => [...w][0].toUpperCase()).join('') : null;
  };
  const firsts = long.map(initials);
  const prefix = (name: string, n: number) => [...name].slice(0, n).join('');
  long.forEach((name, i) => {
    const own = firsts[i];
    if (own !== null && !used.has(own) && firsts.filter((f) => f === own).length === 1) return take(name, own);
    for (let n = Math.min(2, max); n <= max; n++) {
      const p = prefix(name, n);
      if (!used.has(p) && long.every((other) => other === name || prefix(other, n) !== p)) return take(name, p);
    }
    for (let k = 1; ; k++) {
      const p = prefix(name, max - String(k).length) + k;
      if (!used.has(p)) return take(name, p);
    }
  });
  return out;
}

/**
 * The colour a value's name suggests: a colour name (`red`), one at either end (`whitepiece`,
 * `stone_black`), or a one-letter `w`/`b` prefix of a two-letter name (`wp`, `bk`).
 */
export function colourHint(value: string): string | undefined {
  const v = value.toLowerCase().replace(/[\s_\-()]/g, '');
  const named = Object.keys(COLOURS)
    .sort((a, b) => b.length - a.length)
    .find((c) => v.startsWith(c) || v.endsWith(c));
  if (named) return COLOURS[named];
  return /^w.$/.test(v) ? COLOURS.white : /^b.$/.test(v) ? COLOURS.black : undefined;
}

/** Stone colours of a two-value game: as their names suggest, else black then white (first role first). */
function twoColours(values: string[], roles: string[]): Map<string, string> {
  const ordered = values.every((v) => roles.includes(v)) ? [...values].sort((a, b) => roles.indexOf(a) - roles.indexOf(b)) : values;
  let hinted = ordered.map(colourHint);
  if (hinted[0] !== undefined && hinted[0] === hinted[1]) hinted = [undefined, undefined];
  const spare = [COLOURS.black, COLOURS.white].filter((c) => !hinted.includes(c));
  return new Map(ordered.map((v, i) => [v, hinted[i] ?? spare.shift() ?? COLOURS.gray]));
}

// ---------------------------------------------------------------- the mapping, from anywhere

const SHAPES = new Set(['blank', 'text', 'stone', 'tile']);
const HEX = /^#[0-9a-f]{6}$/i;
/** Most values a mapping may hold. */
export const MAX_MAPPED = 200;

/** A mapping read from a link or storage: anything malformed is dropped, never trusted. */
export function cleanDisplayMap(x: unknown): DisplayMap {
  const out: DisplayMap = {};
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return out;
  for (const [value, g] of Object.entries(x).slice(0, MAX_MAPPED)) {
    if (value.length > 200 || value === '__proto__' || typeof g !== 'object' || g === null) continue;
    const { shape, text, colour } = g as Record<string, unknown>;
    if (typeof shape !== 'string' || !SHAPES.has(shape)) continue;
    const glyph: Glyph = { shape: shape as Glyph['shape'] };
    if (typeof text === 'string') glyph.text = [...text].slice(0, MAX_SYMBOL).join('');
    if (typeof colour === 'string' && HEX.test(colour)) glyph.colour = colour.toLowerCase();
    out[value] = glyph;
  }
  return out;
}
