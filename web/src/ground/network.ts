// The propositional network as a picture, around one atom: whole networks are too big to draw,
// so this shows a neighbourhood a few levels deep — the gates feeding the atom (each rule an AND
// of its literals, the atom the OR of its rules) and the gates it feeds — with each node's
// value in the position. A click on a node expands the picture around it. Loaded on demand,
// drawn by the rule graph's `LayeredGraph`.

import { LayeredGraph, type LayeredEdge, type LayeredNode } from '../graph/layered';
import type { Program, Values } from './client';

/** Levels drawn on each side of the chosen atom at first, and most nodes in a picture. */
const DEPTH = 2;
const MAX_NODES = 160;
/** Most rules followed from one atom (an atom read by hundreds of rules shows the first). */
const FANOUT = 12;

/** The picture so far: nodes and edges by id. */
interface Picture {
  nodes: Map<string, LayeredNode>;
  edges: Map<string, LayeredEdge>;
}

/** Adds the neighbourhood of atom `a` (`depth` levels of rules in, and out) to `pic`. */
function grow(pic: Picture, p: Program, v: Values | null, a: number, depth: number): void {
  const value = (on: boolean) => (v ? [on ? 't' : 'f'] : []);
  const atomNode = (x: number) => {
    const id = `a${x}`;
    if (!pic.nodes.has(id)) pic.nodes.set(id, { id, label: [p.atom(x)], classes: ['atom', ...value(!!v?.atoms[x])] });
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

export function drawNeighbourhood(container: HTMLElement, p: Program, v: Values | null, atom: number, select: (a: number) => void): void {
  const graph = new LayeredGraph(container, { fontSize: 13, padding: 6, nodeSep: 10, rankSep: 60, minReadableZoom: 0.8 });
  const pic: Picture = { nodes: new Map(), edges: new Map() };
  const draw = () => {
    graph.draw([...pic.nodes.values()], [...pic.edges.values()]);
    graph.mark(`a${atom}`, 'centre');
  };
  grow(pic, p, v, atom, DEPTH);
  draw();
  graph.start(`a${atom}`);
  graph.onPick((id) => {
    if (id === null) return;
    const n = Number(id.slice(1));
    const focus = id.startsWith('a') ? n : p.head(n);
    if (id.startsWith('a')) select(n);
    if (pic.nodes.size >= MAX_NODES) return;
    const before = pic.nodes.size;
    grow(pic, p, v, focus, 1);
    if (pic.nodes.size === before) return;
    draw();
    graph.start(id);
  });
}
