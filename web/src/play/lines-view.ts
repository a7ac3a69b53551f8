// Drawing a board of lines (dots and boxes) as SVG: dots, the segments drawn, the segments a
// move draws (a click plays it), and the owner of each box when the game has a grid of them.

import { svg } from '../dom';
import { cellKey, type BoardMove, type Grid } from './board';
import type { Lines } from './lines';
import type { BoardStyle } from './pieces';

/** Pixels between two dots, and around them. */
const STEP = 64;
const MARGIN = 16;

/** The lines of `lines` as an SVG; `boxes` is the game's grid of boxes between the dots, if any. */
export function linesView(lines: Lines, boxes: Grid | null, style: BoardStyle | null, play: (m: BoardMove) => void): SVGSVGElement {
  const at = (i: number) => MARGIN + i * STEP;
  const width = at(lines.xs.length - 1) + MARGIN;
  const height = at(lines.ys.length - 1) + MARGIN;
  const root = svg('svg', { class: 'lines', viewBox: `0 0 ${width} ${height}`, role: 'group', 'aria-label': `${lines.relation}: ${lines.drawn.size} of ${lines.segments.size} drawn` });
  if (boxes && style) {
    for (const [k, values] of boxes.pieces) {
      const [x, y] = k.split('\u0000');
      const [i, j] = [lines.xs.indexOf(x), lines.ys.indexOf(y)];
      const shown = values.filter((v) => style.glyph(v).shape !== 'blank');
      if (i < 0 || j < 0 || i + 1 >= lines.xs.length || j + 1 >= lines.ys.length || shown.length === 0) continue;
      const g = style.glyph(shown[0]);
      const cx = at(i) + STEP / 2;
      const cy = at(j) + STEP / 2;
      root.append(
        svg('rect', { class: 'box', x: at(i) + 4, y: at(j) + 4, width: STEP - 8, height: STEP - 8, fill: g.colour ?? '#9aa0a6', 'data-box': cellKey(x, y) }, svg('title', {}, `${boxes.relation} ${x} ${y}: ${shown.join(', ')}`)),
        // The owner's mark, or the initial of its name (a colour fills the box already).
        svg('text', { class: 'box-owner', x: cx, y: cy, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g.shape === 'text' && g.text ? g.text : [...shown[0]][0].toUpperCase()),
      );
    }
  }
  // Segments as bars (a line's box is flat, which neither a click target nor a test can see).
  const bar = ([x1, y1, x2, y2]: number[], thick: number, attrs: Record<string, string | number>, title: string) =>
    svg('rect', { x: at(Math.min(x1, x2)) - thick / 2, y: at(Math.min(y1, y2)) - thick / 2, width: Math.abs(x2 - x1) * STEP + thick, height: Math.abs(y2 - y1) * STEP + thick, rx: thick / 2, ...attrs }, svg('title', {}, title));
  for (const [k, s] of lines.segments) {
    const moves = lines.moves.get(k) ?? [];
    const name = `${lines.xs[s[0]]} ${lines.ys[s[1]]} – ${lines.xs[s[2]]} ${lines.ys[s[3]]}`;
    if (lines.drawn.has(k)) {
      root.append(bar(s, 8, { class: 'segment drawn', 'data-segment': k }, `drawn: ${name}`));
    } else if (moves.length > 0) {
      const hit = bar(s, 14, { class: 'segment playable', tabindex: 0, role: 'button', 'aria-label': moves[0].move, 'data-move': moves[0].move }, moves[0].move);
      hit.addEventListener('click', () => play(moves[0]));
      hit.addEventListener('keydown', (e) => {
        if ((e as KeyboardEvent).key === 'Enter') play(moves[0]);
      });
      root.append(hit);
    } else {
      root.append(bar(s, 3, { class: 'segment open' }, name));
    }
  }
  for (let i = 0; i < lines.xs.length; i++) for (let j = 0; j < lines.ys.length; j++) root.append(svg('circle', { class: 'dot', cx: at(i), cy: at(j), r: 5 }));
  return root;
}
