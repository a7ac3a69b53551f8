// The play pane: the current state's fluents, an automatic board when the state has a grid,
// legal moves per role as buttons (one person plays every role), random move, undo/redo,
// the move list, and the outcome of a terminal state. Teaching aids: a click on a fluent (or a
// question typed in the Why box) explains it; "Best moves" solves the position in a worker.
// GDL-II: "View as" a role shows only what it may know (its legal moves, its own moves and
// percepts, the belief board drawn from its possible states), until the game ends.

import { autoOrientation, boardFacts, detectGrid, groupFluents, layout, mapMoves, shareText, type BoardMove, type BoardView, type Grid, type MoveMap } from './board';
import { byId, h } from '../dom';
import type { Domain, Explanation, GoalValue, Knowledge, Solution, View } from '../engine/engine';
import { explanationView } from './explain';
import { KnowsView } from './knows-view';
import { BoardKeys } from './board-keys';
import { fitBoard } from './fit';
import { detectLines, type Lines } from './lines';
import { linesView } from './lines-view';
import { abbreviations, boardStyle } from './pieces';
import { DisplayEditor, SQUARE_CHARS, glyphText, glyphView, renderLegend } from './pieces-view';

export interface PlayActions {
  play(joint: string[]): void;
  undo(): void;
  redo(): void;
  goTo(step: number): void;
  /** A new game: back to the initial state, the moves after it dropped. */
  restart(): void;
  /** A legal move of role `role` here, drawn by the engine's seeded generator. */
  draw(role: number): string;
  /** The board view changed (orientation, the person's value → glyph mapping). */
  orient(o: BoardView): void;
  /** The explanation of an atom (`step`: the position; default: the current one), or an error. */
  explain(atom: string, step?: number): Explanation | string;
  /** Shows line `line` of the rules in the editor. */
  reveal(line: number): void;
  /** Solves the current position (answers through `showSolution`). */
  solve(): void;
  cancelSolve(): void;
  /** Shows a ground atom of the current position in the grounded-rules pane. */
  showGround(atom: string): void;
  /** Preview mode: the moves chosen so far (per role, null: none), not played; null: preview off. */
  preview(chosen: (string | null)[] | null): void;
  /** GDL-II: show the game as role `role` sees it (null: the referee, who sees everything). */
  viewAs(role: string | null): void;
}

const NOOP = /^(noop|nop|pass|wait)$/;

/** Characters of a row or column name drawn (the full name on hover and in the legend). */
const LABEL_CHARS = 3;

/** Move buttons drawn per role at most (a filter finds the others). */
const MAX_MOVE_BUTTONS = 200;

function goalText(values: GoalValue[]): string {
  return values.length === 0 ? 'no goal' : values.join('/');
}

export class PlayPane {
  #view: View | null = null;
  #domain: string[] = [];
  /** The game's own orders of values (rows and columns are drawn in them). */
  #chains: string[][] = [];
  /** The initial state (the empty value is inferred from it). */
  #start: string[] = [];
  #startLegal: string[][] = [];
  #displayEditor: DisplayEditor;
  #grid: Grid | null = null;
  /** Lines between dots (dots and boxes), drawn instead of the grid (whose cells are then the boxes). */
  #lines: Lines | null = null;
  #moves: MoveMap | null = null;
  /** Per role, the move chosen so far for the next joint move. */
  #chosen: (string | null)[] = [];
  #selected: string | null = null;
  #orientation: BoardView = { swap: false, flip: false };
  /** The solved values of the position shown, if asked for. */
  #solution: Solution | null = null;
  /** Preview mode: a chosen move lights up its ground rules instead of being played. */
  #previewing = false;
  /** GDL-II: the role the game is shown as (null: the referee), and what it knows at the
   * position shown (null: being worked out; a string: why it could not be). */
  #viewAs: string | null = null;
  #knowledge: Knowledge | string | null = null;
  #knows = new KnowsView(byId('knows'));
  #keys = new BoardKeys(byId('board'));
  /** The teacher chooses nature's moves (else nature draws them itself). */
  #natureByHand = false;

  constructor(private actions: PlayActions) {
    const above = ['outcome', 'seats', 'view-as', 'thinking', 'play-log', 'board-tools'].map((id) => byId(id));
    fitBoard(byId('pane-play'), { area: byId('board-area'), board: byId('board'), display: byId('board-display'), below: byId('play-controls'), above });
    byId('undo').addEventListener('click', () => actions.undo());
    byId('redo').addEventListener('click', () => actions.redo());
    byId('restart').addEventListener('click', () => actions.restart());
    byId('random').addEventListener('click', () => this.random());
    byId('board-swap').addEventListener('click', () => this.setOrientation({ ...this.#orientation, swap: !this.#orientation.swap }));
    byId('board-flip').addEventListener('click', () => this.setOrientation({ ...this.#orientation, flip: !this.#orientation.flip }));
    this.#displayEditor = new DisplayEditor(byId('board-display'), (display) => this.setOrientation({ ...this.#orientation, display }));
    byId('board-pieces').addEventListener('click', () => {
      const panel = byId('board-display');
      panel.hidden = !panel.hidden;
      byId('board-pieces').setAttribute('aria-expanded', String(!panel.hidden));
      if (this.#view) this.#renderBoard(this.#view);
    });
    byId('why-form').addEventListener('submit', (e) => {
      e.preventDefault();
      const q = byId<HTMLInputElement>('why-query').value.trim();
      if (q) this.why(q);
    });
    byId('solve').addEventListener('click', () => actions.solve());
    byId('preview').addEventListener('click', () => {
      this.#previewing = !this.#previewing;
      byId('preview').setAttribute('aria-pressed', String(this.#previewing));
      this.#chosen = this.#chosen.map(() => null);
      actions.preview(this.#previewing ? this.#chosen : null);
      if (this.#view) this.render(this.#view);
    });
    byId('solve-cancel').addEventListener('click', () => actions.cancelSolve());
  }

  /** Shows why `atom` holds or not at `step` (default: the current position). */
  why(atom: string, step?: number): void {
    byId<HTMLInputElement>('why-query').value = atom;
    const x = this.actions.explain(atom, step);
    const reveal = (line: number) => this.actions.reveal(line);
    const explain = (a: string, s: number) => this.actions.explain(a, s);
    // A condition with variables is asked about one instance at a time: the box gets it to fill in.
    const ask = (pattern: string) => {
      const input = byId<HTMLInputElement>('why-query');
      input.value = pattern;
      input.focus();
      const v = pattern.indexOf('?');
      if (v >= 0) input.setSelectionRange(v, v + (/^\?[\w-]*/.exec(pattern.slice(v))?.[0].length ?? 1));
    };
    byId('why').replaceChildren(typeof x === 'string' ? h('p', { class: 'warn', role: 'alert' }, x) : explanationView(x, { explain, reveal, ask }));
    // The same atom in the ground program, live in this position (values from the engine).
    if (typeof x !== 'string' && !x.in_move && x.step === this.#view?.step) {
      byId('why').append(h('button', { type: 'button', class: 'small', id: 'why-ground', onclick: () => this.actions.showGround(x.atom) }, 'Its ground rules, live'));
    }
    byId('why').scrollIntoView({ block: 'nearest' });
  }

  /** The solver is running (true) or stopped without an answer (false). */
  solving(on: boolean): void {
    byId<HTMLButtonElement>('solve').disabled = on;
    byId('solve-cancel').hidden = !on;
    if (on) byId('solution').replaceChildren(h('p', { class: 'muted' }, 'Solving this position…'));
    else if (!this.#solution) byId('solution').replaceChildren();
  }

  /** The solver's answer (or its error) for the position after `step` moves. */
  showSolution(result: Solution | string, step: number): void {
    this.solving(false);
    if (!this.#view || this.#view.step !== step) return;
    const box = byId('solution');
    if (typeof result === 'string') {
      box.replaceChildren(h('p', { class: 'warn' }, result));
      return;
    }
    this.#solution = result;
    box.replaceChildren(
      ...result.roles.map((r) => h('p', { class: 'solution-line', 'data-role': r.role }, h('strong', {}, r.summary))),
      h('p', { class: 'muted' }, `Guaranteed goal values whatever the others do; ${result.nodes.toLocaleString('en')} positions searched${result.factored ? ` (${result.factored})` : ''}${result.stopped ? `, then stopped: ${result.stopped}` : ''}.`),
    );
    this.#renderMoves(this.#view);
  }

  setOrientation(o: BoardView, notify = true): void {
    this.#orientation = o;
    if (notify) this.actions.orient(o);
    if (this.#view) this.render(this.#view);
  }

  /** A new game was loaded: `domain` lists every fluent it may have (for empty rows) and its
   * orders of values, `start` is its initial state and `startLegal` each role's legal moves there. */
  setDomain(domain: Domain, start: string[] = [], startLegal: string[][] = []): void {
    this.#domain = domain.fluents;
    this.#chains = domain.chains.map((c) => c.values);
    this.#start = start;
    this.#startLegal = startLegal;
  }

  /** No game to play: the rules have errors. */
  showMessage(text: string): void {
    const m = byId('play-message');
    m.textContent = text;
    m.hidden = false;
    // What was shown belongs to rules that no longer load: it stays in its place, faded and
    // out of reach, so the page does not jump while the rules are being fixed.
    this.#view = null;
    for (const id of ['outcome', 'seats', 'play-area']) {
      const el = byId(id);
      el.inert = true;
      el.classList.add('stale');
    }
    byId('why').replaceChildren();
    byId('solution').replaceChildren();
  }

  render(view: View): void {
    const sameState = this.#view !== null && this.#view.step === view.step && this.#view.state.join() === view.state.join();
    if (!sameState) {
      this.#chosen = view.roles.map(() => null);
      this.#selected = null;
      this.#solution = null;
      this.#knowledge = null;
      byId('solution').replaceChildren();
      byId('why').replaceChildren();
    }
    this.#view = view;
    const hide = this.hiding(view);
    const known = hide && this.#knowledge !== null && typeof this.#knowledge !== 'string' ? this.#knowledge : null;
    // What the board shows: the state, or what the role viewed as may believe of it.
    const fluents = hide ? (known?.beliefs.map((b) => b.fluent) ?? []) : view.state;
    const shares = known?.beliefs.map((b) => b.share) ?? [];
    const legal = this.#shownLegal(view);
    byId('play-message').hidden = true;
    for (const id of ['outcome', 'seats', 'play-area']) {
      const el = byId(id);
      el.inert = false;
      el.classList.remove('stale');
    }
    this.#lines = detectLines(fluents, this.#domain, view.terminal ? [] : legal, this.#chains);
    // With lines between dots, the grid is that of the boxes (never the lines themselves).
    const lineRelation = this.#lines && `(${this.#lines.relation} `;
    const notLine = (f: string) => lineRelation === null || !f.startsWith(lineRelation);
    this.#grid = detectGrid(fluents.filter(notLine), this.#domain.filter(notLine), this.#chains, shares.filter((_, i) => notLine(fluents[i])));
    this.#moves = this.#grid && !view.terminal ? mapMoves(this.#grid, legal) : null;
    this.#renderViewAs(view);
    this.#renderOutcome(view);
    this.#renderBoard(view);
    this.#renderMoves(view);
    this.#renderHistory(view);
    byId<HTMLButtonElement>('undo').disabled = view.step === 0;
    byId<HTMLButtonElement>('redo').disabled = view.step >= view.history.length;
    byId<HTMLButtonElement>('restart').disabled = view.step === 0 && view.history.length === 0;
    byId<HTMLButtonElement>('random').disabled = view.terminal;
    byId('engine-name').textContent = view.engine;
    byId('engine-note').textContent = view.engineNote;
    byId('step').textContent = `after ${view.step} move${view.step === 1 ? '' : 's'}`;
    byId<HTMLButtonElement>('solve').disabled = view.terminal;
    // The referee's tools read the true state: hidden while it is (and preview mode ends).
    for (const id of ['why-section', 'solver', 'preview']) byId(id).hidden = hide;
    if (hide && this.#previewing) {
      this.#previewing = false;
      byId('preview').setAttribute('aria-pressed', 'false');
      this.actions.preview(null);
    }
    byId('state-heading').firstChild!.textContent = hide ? 'What it may hold ' : 'State ';
    // The Why? box suggests a question about this game: a legal move of a role with a
    // choice here, or terminal.
    const choosing = view.legal.findIndex((moves) => moves.length > 1);
    const r = choosing >= 0 ? choosing : view.legal.findIndex((moves) => moves.length > 0);
    byId<HTMLInputElement>('why-query').placeholder = r >= 0 && !view.terminal ? `(legal ${view.roles[r]} ${view.legal[r][0]})` : 'terminal';
    byId('fluents').replaceChildren(
      ...(hide
        ? (known?.beliefs ?? []).map((b) => h('li', { class: b.share < 1 ? 'unsure' : '' }, b.fluent, b.share < 1 ? h('span', { class: 'share' }, ` ${shareText(b.share)}`) : ''))
        : view.state.map((f) => h('li', {}, h('button', { type: 'button', class: 'link', title: `Why is ${f} in the state?`, onclick: () => this.why(`(true ${f})`, view.step) }, f)))),
    );
    if (this.#viewAs !== null && view.percepts && view.roles.includes(this.#viewAs)) {
      const r = view.roles.indexOf(this.#viewAs);
      this.#knows.show(this.#viewAs, this.#knowledge, view.history.slice(0, view.step).map((j) => j[r]), view.terminal);
    } else this.#knows.hide();
  }

  /** Whether the position is shown as a role sees it (GDL-II, a role chosen, the game not over). */
  hiding(view: View): boolean {
    return this.#viewAs !== null && view.percepts && !view.terminal && view.roles.includes(this.#viewAs);
  }

  /** The legal moves shown: only the viewed role's while hiding. */
  #shownLegal(view: View): string[][] {
    return this.hiding(view) ? view.legal.map((ms, r) => (view.roles[r] === this.#viewAs ? ms : [])) : view.legal;
  }

  /** Shows the game as `role` sees it (null: the referee); `notify` tells the page. */
  setViewAs(role: string | null, notify = true): void {
    this.#viewAs = role;
    this.#knowledge = null;
    if (notify) this.actions.viewAs(role);
    if (this.#view) this.render(this.#view);
  }

  get viewAs(): string | null {
    return this.#viewAs;
  }

  /** What `role` knows after `step` moves (or why it could not be worked out). */
  showKnowledge(role: string, step: number, k: Knowledge | string): void {
    if (!this.#view || this.#view.step !== step || this.#viewAs !== role) return;
    this.#knowledge = k;
    this.render(this.#view);
  }

  /** The teacher chooses nature's moves (true) or nature draws them (false). */
  setNatureByHand(on: boolean): void {
    this.#natureByHand = on;
    const view = this.#view;
    if (!view) return;
    // A move nature drew and that waits for the others' is withdrawn: the teacher chooses it.
    if (on) this.#chosen = this.#chosen.map((m, r) => (view.nature[r] ? null : m));
    this.render(view);
  }

  /** The "View as" control, in a game with percepts: the referee or a role (nature aside). */
  #renderViewAs(view: View): void {
    const el = byId('view-as');
    el.hidden = !view.percepts;
    if (!view.percepts) return el.replaceChildren();
    const roles = view.roles.filter((_, r) => !view.nature[r]);
    const select = h(
      'select',
      { id: 'view-as-role', 'aria-label': 'View the game as', onchange: (e: Event) => this.setViewAs((e.target as HTMLSelectElement).value || null) },
      h('option', { value: '', selected: this.#viewAs === null }, 'the referee (everything)'),
      ...roles.map((r) => h('option', { value: r, selected: this.#viewAs === r }, r)),
    );
    const note = this.hiding(view) ? h('span', { class: 'muted' }, ` · the true state and the others' moves stay hidden until the game ends`) : '';
    el.replaceChildren(h('label', {}, 'View as ', select), note);
  }

  #renderOutcome(view: View): void {
    const el = byId('outcome');
    el.hidden = false;
    el.classList.toggle('over', view.terminal);
    if (view.terminal && view.goals) {
      const goals = view.goals;
      el.replaceChildren(
        // The engine's words (core's `verdict`); nature has no aim, so no goal shown.
        h('strong', { class: 'verdict', 'data-ending': view.verdict?.ending ?? '' }, `Game over: ${view.verdict?.text ?? ''}`),
        h('span', { class: 'goals' }, ...view.roles.flatMap((r, i) => (view.nature[i] ? [] : [h('span', { class: 'goal', 'data-role': r }, `${r}: ${goalText(goals[i] ?? [])}`)]))),
        h('button', { type: 'button', class: 'small', id: 'why-terminal', onclick: () => this.why('terminal') }, 'Why over?'),
      );
      return;
    }
    const toMove = view.roles.filter((_, i) => view.legal[i].length > 1 || !NOOP.test(view.legal[i][0] ?? ''));
    // Simultaneous moves: say who has chosen and who is awaited (not what was chosen).
    const chosen = toMove.filter((r) => this.#chosen[view.roles.indexOf(r)] !== null);
    const waiting = toMove.filter((r) => !chosen.includes(r));
    el.replaceChildren(
      h('span', {}, `Step ${view.step + 1}: `, h('strong', {}, toMove.length ? `${toMove.join(' and ')} to move` : 'no moves')),
      h('button', { type: 'button', class: 'small', id: 'why-terminal', onclick: () => this.why('terminal') }, 'Why not over?'),
      chosen.length > 0 && waiting.length > 0 ? h('span', { class: 'muted', id: 'waiting' }, `${chosen.join(' and ')} chose; now ${waiting.join(' and ')}`) : '',
    );
  }

  #renderBoard(view: View): void {
    const board = byId('board');
    const g = this.#grid;
    if (this.hiding(view) && (this.#knowledge === null || typeof this.#knowledge === 'string')) {
      byId('board-tools').hidden = true;
      board.classList.add('free');
      board.dataset.scheme = 'list';
      board.replaceChildren(h('p', { class: 'muted', id: 'board-hidden' }, this.#knowledge === null ? `Working out what ${this.#viewAs} knows…` : 'What this role knows could not be worked out (see beside).'));
      return;
    }
    byId('board-tools').hidden = g === null || this.#lines !== null;
    board.hidden = false;
    board.classList.toggle('free', g === null || this.#lines !== null);
    if (g === null || this.#lines !== null) {
      byId('board-display').hidden = true;
      byId('board-legend').hidden = true;
      byId('board-pieces').setAttribute('aria-expanded', 'false');
      board.classList.remove('chequered', 'clothed');
      board.dataset.scheme = this.#lines ? 'lines' : 'list';
      if (this.#lines) {
        board.style.setProperty('--cols', String(this.#lines.xs.length));
        board.style.setProperty('--rows', String(this.#lines.ys.length));
      }
      const style = g && boardStyle(boardFacts(g, this.#start.length ? this.#start : view.state, this.#domain, view.roles));
      const play = (m: BoardMove) => {
        if (this.#chosen[m.role] === null) this.choose(m.role, m.move);
      };
      board.replaceChildren(this.#lines ? linesView(this.#lines, g, style, play) : this.#stateList(view));
      board.classList.toggle('belief', this.hiding(view));
      return;
    }
    const start = this.#start.length ? this.#start : view.state;
    const facts = boardFacts(g, start, this.#domain, view.roles);
    const style = boardStyle(facts, this.#orientation.display);
    const values = new Set([...facts.values, ...[...g.pieces.values()].flat()]);
    if (!byId('board-display').hidden) this.#displayEditor.show([...values], style, this.#orientation.display ?? {});
    board.classList.toggle('chequered', style.chequered);
    board.classList.toggle('clothed', style.cloth !== null);
    board.style.setProperty('--cloth', style.cloth ?? 'transparent');
    board.dataset.scheme = style.scheme;
    // The person's swap and flip turn the board from its default (the first mover at the bottom).
    const auto = autoOrientation(g, start, style, this.#start.length ? this.#startLegal : view.legal);
    const o = { swap: auto.swap !== this.#orientation.swap, flip: auto.flip !== this.#orientation.flip };
    const { rows, cols, key } = layout(g, o);
    const dests = new Set(this.#selected ? (this.#moves?.sources.get(this.#selected) ?? []).filter((m) => this.#chosen[m.role] === null).map((m) => m.to) : []);
    board.style.setProperty('--cols', String(cols.length));
    board.style.setProperty('--rows', String(rows.length));
    // Names too long for a square or a coordinate's place are drawn as distinct labels, named in the legend.
    const drawnValues = [...values].filter((v) => style.glyph(v).shape !== 'blank');
    const short = abbreviations(drawnValues.map((v) => glyphText(style.glyph(v), v)), SQUARE_CHARS);
    const [colShort, rowShort] = [abbreviations(cols, LABEL_CHARS), abbreviations(rows, LABEL_CHARS)];
    renderLegend(byId('board-legend'), [['Pieces', short], ['Columns', colShort], ['Rows', rowShort]]);
    // The row names' column: as wide as the longest name drawn (a mono character is about 0.5rem at 0.8rem).
    const longest = Math.max(...rows.map((r) => [...(rowShort.get(r) ?? r)].length));
    board.style.setProperty('--label', `max(1.6rem, ${longest * 0.5 + 0.3}rem)`);
    const cells: HTMLElement[] = [h('span', { class: 'corner' })];
    const label = (text: string, names: Map<string, string>) => h('span', { class: 'label', title: text }, names.get(text) ?? text);
    for (const c of cols) cells.push(label(c, colShort));
    for (const r of rows) {
      cells.push(label(r, rowShort));
      for (const c of cols) {
        const k = key(r, c);
        const values = g.pieces.get(k) ?? [];
        const valueShares = g.shares.get(k) ?? [];
        const pieces = values.filter((p) => style.glyph(p).shape !== 'blank');
        const shareOf = (p: string) => valueShares[values.indexOf(p)] ?? 1;
        // A belief board: pieces the role is unsure of are faded, with their share.
        const drawn = pieces.map((p) => {
          const share = shareOf(p);
          const glyph = glyphView(style.glyph(p), p, short);
          return share < 1 ? h('span', { class: 'belief', title: `${p}: in ${shareText(share)} of the possible states` }, glyph, h('span', { class: 'share' }, shareText(share))) : glyph;
        });
        const unsure = valueShares.some((x) => x < 1);
        const playable = this.#playableAt(k);
        const [x, y] = k.split('\u0000');
        // a1 is dark, as on a chessboard (or the squares draughts men stand on), whichever way the board is turned.
        const dark = (g.xs.indexOf(x) + g.ys.indexOf(y)) % 2 === style.darkParity;
        const cls = ['cell', dark ? 'dark' : '', playable ? 'playable' : '', this.#selected === k ? 'selected' : '', dests.has(k) ? 'dest' : '', unsure ? 'unsure' : ''].filter(Boolean).join(' ');
        const said = unsure ? values.map((p, i) => `${p} ${shareText(valueShares[i] ?? 1)}`) : pieces;
        const name = `${g.relation} ${x} ${y}: ${said.length ? said.join(', ') : 'empty'}`;
        // Inert squares stay focusable (aria-disabled, not disabled): the arrow keys cross them.
        const inert = !playable && !dests.has(k);
        cells.push(h('button', { type: 'button', class: cls, 'data-x': x, 'data-y': y, 'aria-label': name, 'aria-disabled': inert ? 'true' : 'false', onclick: () => this.#clickCell(k) }, ...drawn));
      }
    }
    this.#keys.redraw(() => board.replaceChildren(...cells));
    board.classList.toggle('belief', this.hiding(view));
  }

  /** A state that is no grid: its fluents by relation, one row each. */
  #stateList(view: View): HTMLElement {
    const known = this.hiding(view) && typeof this.#knowledge === 'object' ? this.#knowledge : null;
    const groups = known ? groupFluents(known.beliefs.map((b) => b.fluent), known.beliefs.map((b) => b.share)) : groupFluents(view.state);
    if (groups.length === 0) return h('p', { class: 'muted' }, 'The state is empty.');
    const arg = (a: string, share: number) => (share < 1 ? h('code', { class: 'unsure', title: `in ${shareText(share)} of the possible states` }, a || '✓', h('span', { class: 'share' }, ` ${shareText(share)}`)) : h('code', {}, a || '✓'));
    return h(
      'table',
      { class: 'state-list' },
      h('tbody', {}, ...groups.map(([name, args, shares]) => h('tr', { 'data-relation': name }, h('th', {}, name), h('td', {}, ...args.map((a, i) => arg(a, shares[i])))))),
    );
  }

  /** Can a click on cell `k` play or start a move of a role that has not chosen yet? */
  #playableAt(k: string): boolean {
    if (!this.#moves) return false;
    const open = (m: { role: number }) => this.#chosen[m.role] === null;
    return (this.#moves.targets.get(k) ?? []).some(open) || (this.#moves.sources.get(k) ?? []).some(open);
  }

  #clickCell(k: string): void {
    if (!this.#moves) return;
    const open = <T extends { role: number }>(ms: T[] | undefined) => (ms ?? []).filter((m) => this.#chosen[m.role] === null);
    if (this.#selected) {
      const to = open(this.#moves.sources.get(this.#selected)).filter((m) => m.to === k);
      if (to.length > 0) {
        this.#selected = null;
        this.choose(to[0].role, to[0].move);
        return;
      }
    }
    const targets = open(this.#moves.targets.get(k));
    if (targets.length > 0) {
      this.#selected = null;
      this.choose(targets[0].role, targets[0].move);
      return;
    }
    this.#selected = open(this.#moves.sources.get(k)).length > 0 && this.#selected !== k ? k : null;
    if (this.#view) this.#renderBoard(this.#view);
  }

  /** Records a role's move; plays the joint move once every role has one. */
  choose(role: number, move: string): void {
    const view = this.#view;
    if (!view || view.terminal) return;
    this.#chosen[role] = this.#chosen[role] === move ? null : move;
    // Roles with a single legal move need no choice.
    const joint = view.legal.map((ms, r) => this.#chosen[r] ?? (ms.length === 1 ? ms[0] : null));
    if (this.#previewing) this.actions.preview(this.#chosen);
    else if (joint.every((m): m is string => m !== null)) {
      this.actions.play(joint);
      return;
    }
    this.render(view);
  }

  random(): void {
    const view = this.#view;
    if (!view || view.terminal) return;
    const joint = view.legal.map((ms, r) => this.#chosen[r] ?? (ms.length === 1 ? ms[0] : this.actions.draw(r)));
    this.actions.play(joint);
  }

  #renderMoves(view: View): void {
    const el = byId('moves');
    if (view.terminal) {
      el.replaceChildren();
      return;
    }
    const hide = this.hiding(view);
    el.replaceChildren(
      ...view.roles.map((role, r) => {
        const ms = view.legal[r];
        const pick = () => this.choose(r, this.actions.draw(r));
        if (view.nature[r] && !(this.#natureByHand && !hide)) {
          return h('div', { class: 'role-moves only nature', 'data-role': role }, h('h3', {}, `${role}: `, h('span', { class: 'muted' }, 'nature draws its move at random')));
        }
        if (hide && role !== this.#viewAs) {
          // Another role's moves stay hidden: it plays at its seat, or at random here.
          const chose = this.#chosen[r] !== null;
          return h(
            'div',
            { class: 'role-moves only hidden-moves', 'data-role': role },
            h('h3', {}, `${role}: `, h('span', { class: 'muted' }, chose ? 'has chosen (hidden)' : 'its moves are hidden')),
            chose || ms.length < 2 ? '' : h('button', { type: 'button', class: 'small', onclick: pick }, `${role} plays at random`),
          );
        }
        if (view.nature[r]) {
          const button = (m: string) => h('button', { type: 'button', class: `move nature${this.#chosen[r] === m ? ' chosen' : ''}`, 'aria-pressed': this.#chosen[r] === m ? 'true' : 'false', onclick: () => this.choose(r, m) }, `make nature play ${m}`);
          return h('div', { class: 'role-moves nature', 'data-role': role }, h('h3', {}, `${role} (nature), chosen by you`), h('div', { class: 'buttons' }, ...ms.map(button)));
        }
        if (ms.length === 1 && view.roles.length > 1) {
          // Nothing to choose (noop while the other role moves): one quiet line.
          return h('div', { class: 'role-moves only', 'data-role': role }, h('h3', {}, `${role}: `, h('code', {}, ms[0]), h('span', { class: 'muted' }, ' (its only legal move)')));
        }
        const values = new Map((this.#solution?.roles.find((x) => x.role === role)?.moves ?? []).map((mv) => [mv.move, mv.value]));
        const badge = (m: string) => {
          const v = values.get(m);
          if (v === undefined) return '';
          const cls = v === 100 ? 'win' : v === 0 ? 'loss' : '';
          return h('span', { class: `value ${cls}`, title: `${role} can guarantee ${v ?? '?'} with this move` }, v === null ? '?' : String(v));
        };
        const button = (m: string) =>
          h('button', { type: 'button', class: `move${this.#chosen[r] === m ? ' chosen' : ''}`, 'aria-pressed': this.#chosen[r] === m ? 'true' : 'false', onclick: () => this.choose(r, m) }, m, badge(m));
        const buttons = h('div', { class: 'buttons' });
        // Games with thousands of moves: draw some, and a filter to find the others.
        const draw = (q: string) => {
          const shown = q ? ms.filter((m) => m.includes(q)) : ms;
          buttons.replaceChildren(...shown.slice(0, MAX_MOVE_BUTTONS).map(button));
          if (shown.length > MAX_MOVE_BUTTONS) buttons.append(h('span', { class: 'muted' }, `… and ${(shown.length - MAX_MOVE_BUTTONS).toLocaleString('en')} more: filter to find them`));
        };
        draw('');
        const filter =
          ms.length > MAX_MOVE_BUTTONS &&
          h('input', { type: 'search', class: 'move-filter', placeholder: 'Filter moves…', 'aria-label': `Filter the moves of ${role}`, oninput: (e: Event) => draw((e.target as HTMLInputElement).value.trim().toLowerCase()) });
        return h(
          'div',
          { class: 'role-moves', 'data-role': role },
          h('h3', {}, role, h('span', { class: 'muted' }, ` · ${ms.length.toLocaleString('en')} legal move${ms.length === 1 ? '' : 's'}`)),
          filter,
          ms.length ? buttons : h('p', { class: 'warn' }, 'No legal move: the game cannot go on from here.'),
        );
      }),
    );
  }

  #renderHistory(view: View): void {
    const item = (i: number, text: string) =>
      h(
        'li',
        { class: i === view.step ? 'current' : i > view.step ? 'undone' : '' },
        h('button', { type: 'button', class: 'link', onclick: () => this.actions.goTo(i), 'aria-current': i === view.step ? 'step' : undefined }, text),
      );
    // Seen as a role, a move list shows its own moves only.
    const me = this.hiding(view) ? view.roles.indexOf(this.#viewAs ?? '') : -1;
    const entries = view.history.map((joint, i) => {
      if (me >= 0) return item(i + 1, `${i + 1}. ${view.roles[me]} ${joint[me]}`);
      const parts = joint.map((m, r) => (NOOP.test(m) && joint.length > 1 ? null : `${view.roles[r]} ${m}`)).filter((p): p is string => p !== null);
      return item(i + 1, `${i + 1}. ${parts.length ? parts.join(', ') : joint.join(', ')}`);
    });
    const list = byId('history');
    list.replaceChildren(item(0, 'Start'), ...entries);
    // Scroll the list only (scrollIntoView would scroll the pane away from the board).
    const current = list.querySelector<HTMLElement>('.current');
    if (current) list.scrollTop = current.offsetTop - list.clientHeight / 2;
  }
}
