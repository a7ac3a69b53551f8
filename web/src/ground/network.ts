// The propositional network as a picture, around one atom: whole networks are too big to draw,
// so this shows a neighbourhood a few levels deep — the gates feeding the atom (each rule an AND
// of its literals, the atom the OR of its rules) and the gates it feeds — with each node's
// value in the position. A click on a node expands the picture around it. Each atom of a
// fluent or a move is outlined in its factor's colour (core's factors, `atomFactors`: a game's
// independent subgames), with a legend. Loaded on demand, drawn by the rule graph's
// `LayeredGraph`.

import { LayeredGraph, type LayeredEdge, type LayeredNode } from '../graph/layered';
import { h } from '../dom';
import type { AtomFactors, Program, Values } from './client';

/** Levels drawn on each side of the chosen atom at first, and most nodes in a picture. */
const DEPTH = 2;
const MAX_NODES = 160;
/** Most rules followed from one atom (an atom read by hundreds of rules shows the first). */
const FANOUT = 12;
/** Colours of factors (style.css `.factor-k`), reused beyond; names listed in the legend. */
const COLOURS = 8;
const LEGEND = 12;

/** The class of atom `a`'s factor, if any. */
const factorClass = (f: AtomFactors | null, a: number): string[] => {
  const k = f?.ofAtom[a] ?? -1;
  return k < 0 ? [] : [`factor-${k % COLOURS}`];
};

/** The picture so far: nodes and edges by id. */
interface Picture {
  nodes: Map<string, LayeredNode>;
  edges: Map<string, LayeredEdge>;
}

/** Adds the neighbourhood of atom `a` (`depth` levels of rules in, and out) to `pic`. */
function grow(pic: Picture, p: Program, v: Values | null, f: AtomFactors | null, a: number, depth: number): void {
  const value = (on: boolean) => (v ? [on ? 't' : 'f'] : []);
  const atomNode = (x: number) => {
    const id = `a${x}`;
    if (!pic.nodes.has(id)) pic.nodes.set(id, { id, label: [p.atom(x)], classes: ['atom', ...value(!!v?.atoms[x]), ...factorClass(f, x)] });
    return id;
  };
  const ruleNode = (r: number) => {
    const id = `r${r}`;
    if (pic.nodes.has(id)) return id;
    pic.nodes.set(id, { id, label: [`AND #${r + 1}`], classes: ['gate', ...value(!!v?.fires[r])], shape: 'diamond' });
    pic.edges.set(`h${r}`, { source: id, target: atomNode(p.head(r)), classes: ['or'] });
    for (const [b, neg] of p.body(r)) {
      pic.edges.set(`l${r}-${b}`, { source: atomNode(b), target: id, label: neg ? 'not' : undefined, classes: neg ? ['neg'] : [] });
    }
    return id;
  };
  atomNode(a);
  let inward = [a];
  let outward = [a];
  for (let d = 0; d < depth && pic.nodes.size < MAX_NODES; d++) {
    const nextIn: number[] = [];
    for (const x of inward) for (const r of p.definedBy(x).subarray(0, FANOUT)) {
      ruleNode(r);
      nextIn.push(...p.body(r).map(([b]) => b));
    }
    const nextOut: number[] = [];
    for (const x of outward) for (const r of p.usedBy(x).subarray(0, FANOUT)) {
      ruleNode(r);
      nextOut.push(p.head(r));
    }
    inward = nextIn;
    outward = nextOut;
  }
}

/** The legend of the factors: each one's colour and core's words for it. */
function legend(f: AtomFactors): HTMLElement {
  const shown = f.names.slice(0, LEGEND).map((name, k) => h('span', { class: 'gv-key' }, h('span', { class: `gv-swatch factor-${k % COLOURS}`, 'aria-hidden': 'true' }), name));
  const more = f.names.length > LEGEND ? [`and ${f.names.length - LEGEND} more`] : [];
  return h('p', { class: 'gv-legend gv-factors' }, 'Factors (independent subgames), each outlined in its colour: ', ...shown, ...more);
}

export function drawNeighbourhood(
  container: HTMLElement,
  p: Program,
  v: Values | null,
  atom: number,
  select: (a: number) => void,
  factors: Promise<AtomFactors | null>,
): void {
  const graph = new LayeredGraph(container, { fontSize: 13, padding: 6, nodeSep: 10, rankSep: 60, minReadableZoom: 0.8 });
  const pic: Picture = { nodes: new Map(), edges: new Map() };
  const draw = () => {
    graph.draw([...pic.nodes.values()], [...pic.edges.values()]);
    graph.mark(`a${atom}`, 'centre');
  };
  let f: AtomFactors | null = null;
  grow(pic, p, v, f, atom, DEPTH);
  draw();
  graph.start(`a${atom}`);
  void factors.then((found) => {
    if (!found || !container.isConnected) return;
    f = found;
    for (const n of pic.nodes.values()) if (n.id.startsWith('a')) n.classes.push(...factorClass(f, Number(n.id.slice(1))));
    draw();
    container.before(legend(f));
  });
  graph.onPick((id) => {
    if (id === null) return;
    const n = Number(id.slice(1));
    const focus = id.startsWith('a') ? n : p.head(n);
    if (id.startsWith('a')) select(n);
    if (pic.nodes.size >= MAX_NODES) return;
    const before = pic.nodes.size;
    grow(pic, p, v, f, focus, 1);
    if (pic.nodes.size === before) return;
    draw();
    graph.start(id);
  });
}
