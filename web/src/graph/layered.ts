// A layered graph drawn as SVG: dagre places the nodes in layers from left to right, and this
// draws boxes (or diamonds), edges with arrows and labels, and lets people pan (drag), zoom
// (wheel, pinch, the + / − / Fit buttons) and pick a node (click or Enter). The rule graph and
// the network view draw through it; their colours live in style.css under the classes they give.

import dagre from '@dagrejs/dagre';
import { svg } from '../dom';

export interface LayeredNode {
  id: string;
  /** Lines of text. */
  label: string[];
  classes: string[];
  shape?: 'box' | 'diamond';
}

export interface LayeredEdge {
  source: string;
  target: string;
  label?: string;
  classes: string[];
}

export interface LayeredOptions {
  fontSize: number;
  /** Space inside a node around its text, and between nodes of a layer and between layers. */
  padding: number;
  nodeSep: number;
  rankSep: number;
  /** Below this zoom text is too small to read: a large graph starts at it instead of fitted. */
  minReadableZoom: number;
}

const MIN_ZOOM = 0.1;
const MAX_ZOOM = 4;
/** Width of a character of the monospace font, in font sizes. */
const CHAR_WIDTH = 0.62;

/** A path through `points`, with its corners rounded (quadratic curves through the middles). */
function smoothPath(points: { x: number; y: number }[]): string {
  if (points.length < 3) return `M${points.map((p) => `${p.x},${p.y}`).join(' L')}`;
  let d = `M${points[0].x},${points[0].y}`;
  for (let i = 1; i < points.length - 1; i++) {
    const p = points[i];
    const q = points[i + 1];
    const mid = i === points.length - 2 ? q : { x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 };
    d += ` Q${p.x},${p.y} ${mid.x},${mid.y}`;
  }
  return d;
}

/** A triangle at the end of `points`, pointing along the last segment. */
function arrowHead(points: { x: number; y: number }[]): SVGPolygonElement {
  const [a, b] = points.length >= 2 ? points.slice(-2) : [{ x: 0, y: 0 }, { x: 1, y: 0 }];
  const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const [ux, uy] = [(b.x - a.x) / len, (b.y - a.y) / len];
  const [l, w] = [10, 4.5];
  const corner = (side: number) => `${b.x - ux * l - uy * w * side},${b.y - uy * l + ux * w * side}`;
  return svg('polygon', { class: 'head', points: `${b.x},${b.y} ${corner(1)} ${corner(-1)}` });
}

export class LayeredGraph {
  readonly #container: HTMLElement;
  readonly #options: LayeredOptions;
  readonly #svg: SVGSVGElement;
  readonly #view: SVGGElement;
  #nodes = new Map<string, { el: SVGGElement; x: number; y: number }>();
  #edges: { el: SVGGElement; source: string; target: string }[] = [];
  #box = { width: 0, height: 0 };
  #zoom = 1;
  #pan = { x: 0, y: 0 };
  /** Pointers down on the drawing (two: a pinch). */
  #pointers = new Map<number, { x: number; y: number }>();
  #moved = false;
  #onPick: ((id: string | null) => void) | null = null;

  constructor(container: HTMLElement, options: LayeredOptions) {
    this.#container = container;
    this.#options = options;
    this.#view = svg('g', {});
    this.#svg = svg('svg', { class: 'layered' }, this.#view);
    const zoomBy = (f: number) => () => this.#zoomAt(this.#zoom * f, container.clientWidth / 2, container.clientHeight / 2);
    const tools = document.createElement('div');
    tools.className = 'graph-tools';
    for (const [text, label, act] of [
      ['+', 'Zoom in', zoomBy(1.25)],
      ['−', 'Zoom out', zoomBy(0.8)],
      ['Fit', 'Fit the whole graph', () => this.fit()],
    ] as const) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = text;
      b.title = label;
      b.setAttribute('aria-label', label);
      b.addEventListener('click', act);
      tools.append(b);
    }
    container.replaceChildren(this.#svg, tools);
    this.#listen();
  }

  /** Calls `pick` with a node's id when it is clicked (not dragged) or chosen with Enter,
   * with `null` when the background is clicked. */
  onPick(pick: (id: string | null) => void): void {
    this.#onPick = pick;
  }

  get nodeCount(): number {
    return this.#nodes.size;
  }

  /** Lays out and draws `nodes` and `edges` (edges between unknown nodes are left out). */
  draw(nodes: LayeredNode[], edges: LayeredEdge[]): void {
    const o = this.#options;
    const g = new dagre.graphlib.Graph({ multigraph: true });
    g.setGraph({ rankdir: 'LR', nodesep: o.nodeSep, ranksep: o.rankSep, marginx: o.padding, marginy: o.padding });
    g.setDefaultEdgeLabel(() => ({}));
    const line = o.fontSize * 1.25;
    for (const n of nodes) {
      const chars = Math.max(...n.label.map((l) => l.length));
      let width = chars * o.fontSize * CHAR_WIDTH + 2 * o.padding;
      let height = n.label.length * line + o.padding;
      if (n.shape === 'diamond') [width, height] = [width * 1.5, height * 1.8];
      g.setNode(n.id, { width, height });
    }
    const kept = edges.filter((e) => g.hasNode(e.source) && g.hasNode(e.target));
    kept.forEach((e, i) => {
      const label = e.label ? { width: e.label.length * o.fontSize * CHAR_WIDTH * 0.9, height: line, labelpos: 'c' as const } : {};
      g.setEdge(e.source, e.target, label, `e${i}`);
    });
    dagre.layout(g);

    this.#nodes.clear();
    this.#edges = [];
    const edgeLayer = svg('g', { class: 'edges' });
    const nodeLayer = svg('g', { class: 'nodes' });
    kept.forEach((e, i) => {
      const at = g.edge(e.source, e.target, `e${i}`);
      const points = at.points ?? [];
      const el = svg('g', { class: ['edge', ...e.classes].join(' ') }, svg('path', { d: smoothPath(points) }), arrowHead(points));
      if (e.label && at.x !== undefined && at.y !== undefined) {
        el.append(svg('text', { x: at.x, y: at.y, 'dominant-baseline': 'central', 'text-anchor': 'middle', class: 'edge-label' }, e.label));
      }
      edgeLayer.append(el);
      this.#edges.push({ el, source: e.source, target: e.target });
    });
    for (const n of nodes) {
      const at = g.node(n.id);
      const x = at.x ?? 0;
      const y = at.y ?? 0;
      const [w, hgt] = [at.width, at.height];
      const shape =
        n.shape === 'diamond'
          ? svg('polygon', { points: `${x},${y - hgt / 2} ${x + w / 2},${y} ${x},${y + hgt / 2} ${x - w / 2},${y}` })
          : svg('rect', { x: x - w / 2, y: y - hgt / 2, width: w, height: hgt, rx: 6 });
      const text = svg('text', { x, y: y - ((n.label.length - 1) * line) / 2, 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': o.fontSize });
      // A space ends each line but the last: read as text, the lines are words apart (as the name says).
      n.label.forEach((l, i) => text.append(svg('tspan', { x, dy: i === 0 ? 0 : line }, i < n.label.length - 1 ? `${l} ` : l)));
      const el = svg('g', { class: ['node', ...n.classes].join(' '), tabindex: 0, 'data-id': n.id, role: 'button', 'aria-label': n.label.join(' ') }, shape, text);
      nodeLayer.append(el);
      this.#nodes.set(n.id, { el, x, y });
    }
    this.#view.replaceChildren(edgeLayer, nodeLayer);
    const size = g.graph();
    this.#box = { width: size.width ?? 0, height: size.height ?? 0 };
    this.#container.dataset.nodes = String(this.#nodes.size);
  }

  /** The whole graph in view or, when that makes text too small, the smallest readable zoom
   * centred on node `around`, else on the graph's left end (the nodes the others are built
   * from). */
  start(around?: string): void {
    if (this.#fitZoom() >= this.#options.minReadableZoom) return this.fit();
    this.#zoom = this.#options.minReadableZoom;
    if (around && this.#nodes.has(around)) return this.centreOn(around);
    this.#pan = { x: 0, y: this.#container.clientHeight / 2 - (this.#box.height / 2) * this.#zoom };
    this.#apply();
  }

  /** The whole graph in view. */
  fit(): void {
    this.#zoom = this.#fitZoom();
    const { clientWidth: w, clientHeight: h } = this.#container;
    this.#pan = { x: (w - this.#box.width * this.#zoom) / 2, y: (h - this.#box.height * this.#zoom) / 2 };
    this.#apply();
  }

  /** Node `id` in the middle of the view, at least at the smallest readable zoom. */
  centreOn(id: string): void {
    const n = this.#nodes.get(id);
    if (!n) return;
    this.#zoom = Math.max(this.#zoom, this.#options.minReadableZoom);
    this.#pan = { x: this.#container.clientWidth / 2 - n.x * this.#zoom, y: this.#container.clientHeight / 2 - n.y * this.#zoom };
    this.#apply();
  }

  /** Marks node `id` and fades everything but it, its neighbours and their edges; false when
   * there is no such node. `null` clears the marks. */
  focus(id: string | null): boolean {
    for (const { el } of this.#nodes.values()) el.classList.remove('faded', 'focus');
    for (const { el } of this.#edges) el.classList.remove('faded');
    if (id === null) return true;
    const node = this.#nodes.get(id);
    if (!node) return false;
    const near = new Set([id]);
    for (const e of this.#edges) {
      if (e.source === id) near.add(e.target);
      if (e.target === id) near.add(e.source);
    }
    for (const [n, { el }] of this.#nodes) if (!near.has(n)) el.classList.add('faded');
    for (const e of this.#edges) if (e.source !== id && e.target !== id) e.el.classList.add('faded');
    node.el.classList.add('focus');
    return true;
  }

  /** Marks node `id` as the centre of the picture. */
  mark(id: string, cls: string): void {
    this.#nodes.get(id)?.el.classList.add(cls);
  }

  #fitZoom(): number {
    const { clientWidth: w, clientHeight: h } = this.#container;
    if (!this.#box.width || !this.#box.height || !w || !h) return 1;
    return Math.min(MAX_ZOOM, 1, w / this.#box.width, h / this.#box.height);
  }

  #apply(): void {
    this.#view.setAttribute('transform', `translate(${this.#pan.x},${this.#pan.y}) scale(${this.#zoom})`);
  }

  /** Zooms to `zoom` keeping the point (`x`, `y`) of the container where it is. */
  #zoomAt(zoom: number, x: number, y: number): void {
    const z = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
    this.#pan = { x: x - ((x - this.#pan.x) * z) / this.#zoom, y: y - ((y - this.#pan.y) * z) / this.#zoom };
    this.#zoom = z;
    this.#apply();
  }

  #listen(): void {
    const s = this.#svg;
    const local = (e: { clientX: number; clientY: number }) => {
      const r = s.getBoundingClientRect();
      return { x: e.clientX - r.left, y: e.clientY - r.top };
    };
    s.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        const p = local(e);
        this.#zoomAt(this.#zoom * Math.exp(-e.deltaY * 0.0015), p.x, p.y);
      },
      { passive: false },
    );
    s.addEventListener('pointerdown', (e) => {
      this.#pointers.set(e.pointerId, local(e));
      this.#moved = false;
    });
    s.addEventListener('pointermove', (e) => {
      const before = this.#pointers.get(e.pointerId);
      if (!before) return;
      const now = local(e);
      if (Math.abs(now.x - before.x) + Math.abs(now.y - before.y) > 3) this.#moved = true;
      if (!this.#moved) return;
      if (this.#pointers.size === 2) {
        const other = [...this.#pointers].find(([id]) => id !== e.pointerId)?.[1] ?? now;
        const dist = (a: { x: number; y: number }) => Math.hypot(a.x - other.x, a.y - other.y) || 1;
        this.#zoomAt((this.#zoom * dist(now)) / dist(before), (now.x + other.x) / 2, (now.y + other.y) / 2);
      } else {
        this.#pan = { x: this.#pan.x + now.x - before.x, y: this.#pan.y + now.y - before.y };
        this.#apply();
      }
      if (!s.hasPointerCapture(e.pointerId)) s.setPointerCapture(e.pointerId);
      this.#pointers.set(e.pointerId, now);
    });
    const up = (e: PointerEvent) => {
      this.#pointers.delete(e.pointerId);
    };
    s.addEventListener('pointerup', up);
    s.addEventListener('pointercancel', up);
    s.addEventListener('click', (e) => {
      if (this.#moved) return;
      const node = (e.target as Element).closest('g.node');
      this.#onPick?.(node instanceof SVGGElement && node.dataset.id ? node.dataset.id : null);
    });
    s.addEventListener('keydown', (e) => {
      const node = (e.target as Element).closest('g.node');
      if (e.key === 'Enter' && node instanceof SVGGElement && node.dataset.id) this.#onPick?.(node.dataset.id);
    });
  }
}
