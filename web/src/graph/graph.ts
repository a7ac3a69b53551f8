// The rule graph pane: relations as nodes coloured by what they depend on (static, the
// state, the moves), edges from a relation to the relations whose rules use it, dashed red
// under `not`; laid out in layers (`LayeredGraph`). A click on a relation shows it with its
// neighbours only; a click on the background brings the rest back. Loaded on demand.

import type { RuleGraph } from '../engine/engine';
import { LayeredGraph } from './layered';

const KEYWORDS = new Set(['role/1', 'init/1', 'true/1', 'does/2', 'next/1', 'legal/2', 'goal/2', 'terminal/0', 'base/1', 'input/2', 'sees/2']);
const BUILTIN = new Set(['true/1', 'does/2']);

let graph: LayeredGraph | null = null;

export function drawGraph(container: HTMLElement, g: RuleGraph): void {
  graph = new LayeredGraph(container, { fontSize: 15, padding: 10, nodeSep: 16, rankSep: 70, minReadableZoom: 0.75 });
  graph.draw(
    g.nodes.map((n) => ({
      id: n.id,
      label: [n.id, `stratum ${n.stratum}`],
      classes: [n.kind, KEYWORDS.has(n.id) ? 'keyword' : '', n.recursive ? 'recursive' : '', !n.defined && !BUILTIN.has(n.id) ? 'undefined' : ''].filter(Boolean),
    })),
    // Data flows from the relation used to the relation defined with it.
    g.edges.map((e) => ({ source: e.to, target: e.from, label: e.negative ? 'not' : undefined, classes: [e.negative ? 'negative' : 'positive'] })),
  );
  graph.start();
  // A second click on the relation in focus brings the rest back too.
  graph.onPick((id) => setFocus(container, id === container.dataset.focus ? null : id));
}

function setFocus(container: HTMLElement, id: string | null): boolean {
  if (!graph?.focus(id)) return false;
  if (id === null) delete container.dataset.focus;
  else container.dataset.focus = id;
  return true;
}

/** Selects relation `id` (`name/arity`) with the relations it is defined with and those
 * defined with it, fading the rest; false when the graph has no such relation. */
export function highlightRelation(container: HTMLElement, id: string): boolean {
  if (!setFocus(container, id)) return false;
  graph?.centreOn(id);
  return true;
}
