// Boards of lines between dots (dots and boxes): a state relation every fluent of which is
// a segment between two neighbouring dots — `(line 1 1 1 2)`, or `(drawn (h 1 2))` where
// `h` and `v` name the horizontal and vertical segment from a dot — found among the state,
// its domain and the legal moves, which a click on a segment plays. Pure: `lines-view.ts`
// draws what `detectLines` returns.

import { orderAxis, type BoardMove } from './board';
import { parseTerm, termArgs, termName, type Term } from './terms';

/** A segment from dot (x1, y1) to dot (x2, y2), by index in the axes. */
export type Segment = [number, number, number, number];

export interface Lines {
  /** The state relation whose fluents are segments. */
  relation: string;
  /** Dot coordinates in order. */
  xs: string[];
  ys: string[];
  /** Every segment known (state, domain and moves), keyed by `segmentKey`. */
  segments: Map<string, Segment>;
  /** The segments drawn in the state. */
  drawn: Set<string>;
  /** Segment → the moves a click on it plays. */
  moves: Map<string, BoardMove[]>;
}

/** Dots per side at most. */
const MAX_DOTS = 30;
/** Segments a state relation needs (in state and domain) to be taken for lines. */
const MIN_SEGMENTS = 4;

export const segmentKey = (s: Segment) => s.join(',');

/** A segment as written, before the axes are known: four coordinates, or `h`/`v` from a dot. */
type Raw = { ends: [string, string, string, string] } | { dir: 'h' | 'v'; x: string; y: string };

const atoms = (ts: Term[]): ts is string[] => ts.every((t) => typeof t === 'string');

/** The segment a term names: its four atom arguments, or an `h`/`v` term inside it. */
function rawSegment(t: Term): Raw | null {
  const args = termArgs(t);
  if (args.length === 4 && atoms(args)) return { ends: [args[0], args[1], args[2], args[3]] };
  for (const a of args) {
    const inner = termArgs(a);
    const dir = termName(a).toLowerCase();
    if (inner.length === 2 && atoms(inner) && (dir === 'h' || dir === 'v')) return { dir, x: inner[0], y: inner[1] };
  }
  return null;
}

/** Dot coordinates a raw segment names. */
function coordinates(r: Raw): [string[], string[]] {
  return 'ends' in r ? [[r.ends[0], r.ends[2]], [r.ends[1], r.ends[3]]] : [[r.x], [r.y]];
}

/** A raw segment on the axes, if it joins two neighbouring dots. */
function place(r: Raw, xs: string[], ys: string[]): Segment | null {
  let s: Segment;
  if ('ends' in r) {
    s = [xs.indexOf(r.ends[0]), ys.indexOf(r.ends[1]), xs.indexOf(r.ends[2]), ys.indexOf(r.ends[3])];
    // Either way round: from the smaller end.
    if (s[2] < s[0] || s[3] < s[1]) s = [s[2], s[3], s[0], s[1]];
  } else {
    const [x, y] = [xs.indexOf(r.x), ys.indexOf(r.y)];
    s = r.dir === 'h' ? [x, y, x + 1, y] : [x, y, x, y + 1];
  }
  const inside = s.every((v, i) => v >= 0 && v < (i % 2 === 0 ? xs.length : ys.length));
  return inside && Math.abs(s[2] - s[0]) + Math.abs(s[3] - s[1]) === 1 ? s : null;
}

/**
 * The lines of a state, if it is one of lines between dots: a relation whose every fluent
 * (in `fluents` and `domain`) names a segment between neighbouring dots, with at least
 * `MIN_SEGMENTS` of them known (from the domain or the legal moves, so that an empty board
 * of dots is found at the start too).
 */
export function detectLines(fluents: string[], domain: string[], legal: string[][], chains: string[][] = []): Lines | null {
  const byRelation = new Map<string, { raws: [Raw, boolean][]; ok: boolean }>();
  for (const [texts, inState] of [
    [fluents, true],
    [domain, false],
  ] as const) {
    for (const text of texts) {
      const t = parseTerm(text);
      if (t === null || typeof t === 'string') continue;
      const rel = byRelation.get(t.name) ?? { raws: [], ok: true };
      byRelation.set(t.name, rel);
      const r = rawSegment(t);
      if (r === null) rel.ok = false;
      else rel.raws.push([r, inState]);
    }
  }
  const moveRaws = legal.flatMap((ms, role) => ms.map((move) => ({ role, move, raw: rawSegment(parseTerm(move) ?? '') })));
  for (const [relation, { raws, ok }] of byRelation) {
    if (!ok) continue;
    const all = [...raws.map(([r]) => r), ...moveRaws.flatMap((m) => (m.raw ? [m.raw] : []))];
    const xs = orderAxis(all.flatMap((r) => coordinates(r)[0]), chains);
    const ys = orderAxis(all.flatMap((r) => coordinates(r)[1]), chains);
    if (xs.length > MAX_DOTS || ys.length > MAX_DOTS) continue;
    const placed = raws.map(([r, inState]) => [place(r, xs, ys), inState] as const);
    if (placed.some(([s]) => s === null)) continue;
    const lines: Lines = { relation, xs, ys, segments: new Map(), drawn: new Set(), moves: new Map() };
    for (const [s, inState] of placed) {
      const k = segmentKey(s!);
      lines.segments.set(k, s!);
      if (inState) lines.drawn.add(k);
    }
    for (const { role, move, raw } of moveRaws) {
      const s = raw && place(raw, xs, ys);
      if (!s) continue;
      const k = segmentKey(s);
      lines.segments.set(k, s);
      lines.moves.set(k, [...(lines.moves.get(k) ?? []), { role, move }]);
    }
    if (lines.segments.size >= MIN_SEGMENTS) return lines;
  }
  return null;
}
