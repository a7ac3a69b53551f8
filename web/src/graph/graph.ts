// The rule graph pane: relations as nodes coloured by what they depend on (static, the
// state, the moves), edges from a relation to the relations whose rules use it, dashed red
// under `not`; laid out in layers by dagre. Loaded on demand (cytoscape is the largest
// part of the page).

import cytoscape from 'cytoscape';
import dagre from 'cytoscape-dagre';
import type { RuleGraph } from '../engine/engine';

cytoscape.use(dagre);

const KEYWORDS = new Set(['role/1', 'init/1', 'true/1', 'does/2', 'next/1', 'legal/2', 'goal/2', 'terminal/0', 'base/1', 'input/2']);

const MIN_READABLE_ZOOM = 0.75;

let cy: cytoscape.Core | null = null;

export function drawGraph(container: HTMLElement, g: RuleGraph): void {
  cy?.destroy();
  const builtin = new Set(['true/1', 'does/2']);
  cy = cytoscape({
    container,
    wheelSensitivity: 0.3,
    minZoom: 0.2,
    maxZoom: 3,
    elements: [
      ...g.nodes.map((n) => ({
        data: { id: n.id, label: `${n.id}\nstratum ${n.stratum}` },
        classes: [n.kind, KEYWORDS.has(n.id) ? 'keyword' : '', n.recursive ? 'recursive' : '', !n.defined && !builtin.has(n.id) ? 'undefined' : ''].filter(Boolean).join(' '),
      })),
      ...g.edges.map((e, i) => ({
        // Data flows from the relation used to the relation defined with it.
        data: { id: `e${i}`, source: e.to, target: e.from, label: e.negative ? 'not' : '' },
        classes: e.negative ? 'negative' : 'positive',
      })),
    ],
    style: [
      {
        selector: 'node',
        style: {
          shape: 'round-rectangle',
          label: 'data(label)',
          'text-wrap': 'wrap',
          'text-valign': 'center',
          'text-halign': 'center',
          'font-family': 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
          'font-size': 15,
          width: 'label',
          height: 'label',
          padding: '10px',
          'border-width': 1.5,
          'border-color': '#5a6270',
          color: '#1d1b20',
        },
      },
      { selector: 'node.static', style: { 'background-color': '#e6ebf2' } },
      { selector: 'node.state', style: { 'background-color': '#cdeccf' } },
      { selector: 'node.move', style: { 'background-color': '#ffd8a8' } },
      { selector: 'node.keyword', style: { 'font-weight': 'bold', 'border-width': 3 } },
      { selector: 'node.recursive', style: { 'border-style': 'double', 'border-width': 5 } },
      { selector: 'node.undefined', style: { 'border-style': 'dashed', 'border-color': '#b3261e' } },
      {
        selector: 'edge',
        style: {
          width: 2,
          'curve-style': 'bezier',
          'target-arrow-shape': 'triangle',
          'line-color': '#6b7280',
          'target-arrow-color': '#6b7280',
          label: 'data(label)',
          'font-size': 13,
          color: '#b3261e',
          'text-background-color': '#ffffff',
          'text-background-opacity': 1,
        },
      },
      { selector: 'edge.negative', style: { 'line-color': '#b3261e', 'target-arrow-color': '#b3261e', 'line-style': 'dashed' } },
      { selector: '.faded', style: { opacity: 0.25 } },
      { selector: 'node.focus', style: { 'border-color': '#1a73e8', 'border-width': 5 } },
    ],
    layout: { name: 'dagre', rankDir: 'LR', nodeSep: 16, rankSep: 70, padding: 16 } as dagre.DagreLayoutOptions,
  });
  // Large games would be fitted into unreadably small text: keep labels readable, let people pan.
  if (cy.zoom() < MIN_READABLE_ZOOM) {
    // Start at the left end (the relations everything is built from), centred vertically.
    const z = MIN_READABLE_ZOOM;
    const box = cy.elements().boundingBox();
    cy.zoom(z);
    cy.pan({ x: 16 - box.x1 * z, y: container.clientHeight / 2 - ((box.y1 + box.y2) / 2) * z });
  }
}

/** Selects relation `id` (`name/arity`) with the relations it is defined with and those
 * defined with it, fading the rest; false when the graph has no such relation. */
export function highlightRelation(id: string): boolean {
  if (!cy) return false;
  const node = cy.$id(id);
  cy.elements().removeClass('faded').removeClass('focus');
  if (node.empty()) return false;
  const near = node.closedNeighborhood();
  cy.elements().not(near).addClass('faded');
  node.addClass('focus');
  const box = cy.container();
  if (box) box.dataset.focus = id;
  cy.animate({ center: { eles: node } }, { duration: 200 });
  return true;
}
