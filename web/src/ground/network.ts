// The propositional network as a picture, around one atom: whole networks are too big to draw,
// so this shows a neighbourhood a few levels deep — the gates feeding the atom (each rule an AND
// of its literals, the atom the OR of its rules) and the gates it feeds — with each node's
// value in the position. A click on a node expands the picture around it. Loaded on demand
// with cytoscape, like the rule graph.

import cytoscape from 'cytoscape';
import dagre from 'cytoscape-dagre';
import type { Program, Values } from './client';

cytoscape.use(dagre);

/** Levels drawn on each side of the chosen atom at first, and most nodes in a picture. */
const DEPTH = 2;
const MAX_NODES = 160;
/** Most rules followed from one atom (an atom read by hundreds of rules shows the first). */
const FANOUT = 12;
const MIN_READABLE_ZOOM = 0.8;

let cy: cytoscape.Core | null = null;

type Elements = Map<string, cytoscape.ElementDefinition>;

/** Adds the neighbourhood of atom `a` (`depth` levels of rules in, and out) to `els`. */
function grow(els: Elements, p: Program, v: Values | null, a: number, depth: number): void {
  const atomNode = (x: number) => {
    const id = `a${x}`;
    if (!els.has(id)) els.set(id, { data: { id, label: p.atom(x), atom: x }, classes: `atom ${v ? (v.atoms[x] ? 't' : 'f') : ''}` });
    return id;
  };
  const ruleNode = (r: number) => {
    const id = `r${r}`;
    if (els.has(id)) return id;
    els.set(id, { data: { id, label: `AND #${r + 1}`, rule: r }, classes: `gate ${v ? (v.fires[r] ? 't' : 'f') : ''}` });
    els.set(`h${r}`, { data: { id: `h${r}`, source: id, target: atomNode(p.head(r)) }, classes: 'or' });
    for (const [b, neg] of p.body(r)) {
      els.set(`l${r}-${b}`, { data: { id: `l${r}-${b}`, source: atomNode(b), target: id, label: neg ? 'not' : '' }, classes: neg ? 'neg' : '' });
    }
    return id;
  };
  atomNode(a);
  let inward = [a];
  let outward = [a];
  for (let d = 0; d < depth && els.size < MAX_NODES * 3; d++) {
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
  cy?.destroy();
  const els: Elements = new Map();
  grow(els, p, v, atom, DEPTH);
  const layout = { name: 'dagre', rankDir: 'LR', nodeSep: 10, rankSep: 60, padding: 12 } as dagre.DagreLayoutOptions;
  const core = cytoscape({
    container,
    wheelSensitivity: 0.3,
    minZoom: 0.2,
    maxZoom: 3,
    elements: [...els.values()],
    style: [
      {
        selector: 'node',
        style: {
          label: 'data(label)',
          'text-valign': 'center',
          'text-halign': 'center',
          'font-family': 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
          'font-size': 13,
          width: 'label',
          height: 'label',
          padding: '6px',
          'border-width': 1.5,
          'border-color': '#5a6270',
          'background-color': '#eef1f5',
          color: '#1d1b20',
        },
      },
      { selector: 'node.atom', style: { shape: 'round-rectangle' } },
      { selector: 'node.gate', style: { shape: 'diamond', 'font-size': 11, padding: '12px' } },
      { selector: 'node.t', style: { 'background-color': '#c8ebd1', 'border-color': '#188038' } },
      { selector: 'node.f', style: { 'background-color': '#f1f3f4', color: '#5f6368' } },
      { selector: 'node.centre', style: { 'border-width': 4, 'border-color': '#1a73e8' } },
      { selector: 'edge', style: { width: 1.5, 'curve-style': 'bezier', 'target-arrow-shape': 'triangle', 'line-color': '#6b7280', 'target-arrow-color': '#6b7280', label: 'data(label)', 'font-size': 11, color: '#b3261e' } },
      { selector: 'edge.neg', style: { 'line-color': '#b3261e', 'target-arrow-color': '#b3261e', 'line-style': 'dashed' } },
      { selector: 'edge.or', style: { 'line-color': '#1a73e8', 'target-arrow-color': '#1a73e8' } },
    ],
    layout,
  });
  cy = core;
  const centre = core.$id(`a${atom}`).addClass('centre');
  // A wide neighbourhood would be fitted into unreadably small text: zoom in on the atom.
  if (core.zoom() < MIN_READABLE_ZOOM) core.zoom({ level: MIN_READABLE_ZOOM, renderedPosition: centre.renderedPosition() });
  core.on('tap', 'node', (e) => {
    const d = e.target.data() as { atom?: number; rule?: number };
    const focus = d.atom ?? p.head(d.rule ?? 0);
    if (d.atom !== undefined) select(d.atom);
    if (els.size >= MAX_NODES * 3) return;
    grow(els, p, v, focus, 1);
    const fresh = [...els.values()].filter((el) => core.$id(String(el.data.id)).empty());
    if (fresh.length === 0) return;
    core.add(fresh);
    core.layout(layout).run();
  });
  container.dataset.nodes = String(core.nodes().length);
}
