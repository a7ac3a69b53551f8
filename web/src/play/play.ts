// The play pane: the current state's fluents, an automatic board when the state has a grid,
// legal moves per role as buttons (one person plays every role), random move, undo/redo,
// the move list, and the outcome of a terminal state. Teaching aids: a click on a fluent (or a
// question typed in the Why box) explains it; "Best moves" solves the position in a worker.

import { boardFacts, detectGrid, layout, mapMoves, type BoardView, type Grid, type MoveMap } from './board';
import { byId, h } from '../dom';
import type { Explanation, GoalValue, Solution, View } from '../engine/engine';
import { explanationView } from './explain';
import { fitBoard } from './fit';
import { boardStyle } from './pieces';
import { DisplayEditor, glyphView } from './pieces-view';

export interface PlayActions {
  play(joint: string[]): void;
  undo(): void;
  redo(): void;
  goTo(step: number): void;
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
}

const NOOP = /^(noop|nop|pass|wait)$/;

/** Move buttons drawn per role at most (a filter finds the others). */
const MAX_MOVE_BUTTONS = 200;

function goalText(values: GoalValue[]): string {
  return values.length === 0 ? 'no goal' : values.join('/');
}

function firstNumber(values: GoalValue[]): number | null {
  const n = values.find((v) => typeof v === 'number');
  return typeof n === 'number' ? n : null;
}

/** "x wins", "Draw" or a one-player score. */
export function verdict(roles: string[], goals: GoalValue[][]): string {
  const scores = goals.map(firstNumber);
  if (roles.length === 1) return `${roles[0]} scores ${goalText(goals[0] ?? [])}`;
  if (scores.some((s) => s === null)) return 'Game over';
  const best = Math.max(...(scores as number[]));
  const winners = roles.filter((_, i) => scores[i] === best);
  if (winners.length === roles.length) return 'Draw';
  return winners.length === 1 ? `${winners[0]} wins` : `${winners.join(' and ')} win`;
}

export class PlayPane {
  #view: View | null = null;
  #domain: string[] = [];
  /** The initial state (the empty value is inferred from it). */
  #start: string[] = [];
  #displayEditor: DisplayEditor;
  #grid: Grid | null = null;
  #moves: MoveMap | null = null;
  /** Per role, the move chosen so far for the next joint move. */
  #chosen: (string | null)[] = [];
  #selected: string | null = null;
  #orientation: BoardView = { swap: false, flip: false };
  /** The solved values of the position shown, if asked for. */
  #solution: Solution | null = null;
  /** Preview mode: a chosen move lights up its ground rules instead of being played. */
  #previewing = false;

  constructor(private actions: PlayActions) {
    fitBoard(byId('pane-play'), byId('board'), ['outcome', 'seats', 'thinking', 'board-tools', 'board-display'].map((id) => byId(id)));
    byId('undo').addEventListener('click', () => actions.undo());
    byId('redo').addEventListener('click', () => actions.redo());
    byId('restart').addEventListener('click', () => actions.goTo(0));
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
      h('p', { class: 'muted' }, `Guaranteed goal values whatever the others do; ${result.nodes.toLocaleString('en')} positions searched${result.stopped ? `, then stopped: ${result.stopped}` : ''}.`),
    );
    this.#renderMoves(this.#view);
  }

  setOrientation(o: BoardView, notify = true): void {
    this.#orientation = o;
    if (notify) this.actions.orient(o);
    if (this.#view) this.render(this.#view);
  }

  /** A new game was loaded: `domain` lists every fluent it may have (for empty rows), `start` is its initial state. */
  setDomain(domain: string[], start: string[] = []): void {
    this.#domain = domain;
    this.#start = start;
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
      byId('solution').replaceChildren();
      byId('why').replaceChildren();
    }
    this.#view = view;
    byId('play-message').hidden = true;
    for (const id of ['outcome', 'seats', 'play-area']) {
      const el = byId(id);
      el.inert = false;
      el.classList.remove('stale');
    }
    this.#grid = detectGrid(view.state, this.#domain);
    this.#moves = this.#grid && !view.terminal ? mapMoves(this.#grid, view.legal) : null;
    this.#renderOutcome(view);
    this.#renderBoard(view);
    this.#renderMoves(view);
    this.#renderHistory(view);
    byId<HTMLButtonElement>('undo').disabled = view.step === 0;
    byId<HTMLButtonElement>('redo').disabled = view.step >= view.history.length;
    byId<HTMLButtonElement>('restart').disabled = view.step === 0;
    byId<HTMLButtonElement>('random').disabled = view.terminal;
    byId('engine-name').textContent = view.engine;
    byId('engine-note').textContent = view.engineNote;
    byId('step').textContent = `after ${view.step} move${view.step === 1 ? '' : 's'}`;
    byId<HTMLButtonElement>('solve').disabled = view.terminal;
    // The Why? box suggests a question about this game: a legal move of a role with a
    // choice here, or terminal.
    const choosing = view.legal.findIndex((moves) => moves.length > 1);
    const r = choosing >= 0 ? choosing : view.legal.findIndex((moves) => moves.length > 0);
    byId<HTMLInputElement>('why-query').placeholder = r >= 0 && !view.terminal ? `(legal ${view.roles[r]} ${view.legal[r][0]})` : 'terminal';
    byId('fluents').replaceChildren(
      ...view.state.map((f) => h('li', {}, h('button', { type: 'button', class: 'link', title: `Why is ${f} in the state?`, onclick: () => this.why(`(true ${f})`, view.step) }, f))),
    );
  }

  #renderOutcome(view: View): void {
    const el = byId('outcome');
    el.hidden = false;
    el.classList.toggle('over', view.terminal);
    if (view.terminal && view.goals) {
      const goals = view.goals;
      el.replaceChildren(
        h('strong', { class: 'verdict' }, `Game over: ${verdict(view.roles, goals)}`),
        h('span', { class: 'goals' }, ...view.roles.map((r, i) => h('span', { class: 'goal', 'data-role': r }, `${r}: ${goalText(goals[i] ?? [])}`))),
        h('button', { type: 'button', class: 'small', id: 'why-terminal', onclick: () => this.why('terminal') }, 'Why over?'),
      );
      return;
    }
    const toMove = view.roles.filter((_, i) => view.legal[i].length > 1 || !NOOP.test(view.legal[i][0] ?? ''));
    // Simultaneous moves: say who has chosen and who is awaited (not what was chosen).
    const chosen = view.roles.filter((_, i) => this.#chosen[i] !== null);
    const waiting = toMove.filter((r) => !chosen.includes(r));
    el.replaceChildren(
      h('span', {}, `Step ${view.step + 1}: `, h('strong', {}, toMove.length ? `${toMove.join(' and ')} to move` : 'no moves')),
      h('button', { type: 'button', class: 'small', id: 'why-terminal', onclick: () => this.why('terminal') }, 'Why not over?'),
      chosen.length > 0 && waiting.length > 0 ? h('span', { class: 'muted', id: 'waiting' }, `${chosen.join(' and ')} chose; now ${waiting.join(' and ')}`) : '',
    );
  }

  #renderBoard(view: View): void {
    const board = byId('board');
    byId('board-tools').hidden = this.#grid === null;
    const g = this.#grid;
    if (!g) {
      board.replaceChildren();
      board.hidden = true;
      byId('board-display').hidden = true;
      byId('board-pieces').setAttribute('aria-expanded', 'false');
      return;
    }
    board.hidden = false;
    const facts = boardFacts(g, this.#start.length ? this.#start : view.state, this.#domain, view.roles);
    const style = boardStyle(facts, this.#orientation.display);
    if (!byId('board-display').hidden) {
      const values = new Set([...facts.values, ...[...g.pieces.values()].flat()]);
      this.#displayEditor.show([...values], style, this.#orientation.display ?? {});
    }
    board.classList.toggle('chequered', style.chequered);
    board.dataset.scheme = style.scheme;
    const { rows, cols, key } = layout(g, this.#orientation);
    const dests = new Set(this.#selected ? (this.#moves?.sources.get(this.#selected) ?? []).filter((m) => this.#chosen[m.role] === null).map((m) => m.to) : []);
    board.style.setProperty('--cols', String(cols.length));
    board.style.setProperty('--rows', String(rows.length));
    const cells: HTMLElement[] = [h('span', { class: 'corner' })];
    for (const c of cols) cells.push(h('span', { class: 'label' }, c));
    for (const r of rows) {
      cells.push(h('span', { class: 'label' }, r));
      for (const c of cols) {
        const k = key(r, c);
        const pieces = (g.pieces.get(k) ?? []).filter((p) => style.glyph(p).shape !== 'blank');
        const playable = this.#playableAt(k);
        const [x, y] = k.split('\u0000');
        // a1 is dark, as on a chessboard, whichever way the board is turned.
        const dark = (g.xs.indexOf(x) + g.ys.indexOf(y)) % 2 === 0;
        const cls = ['cell', dark ? 'dark' : '', playable ? 'playable' : '', this.#selected === k ? 'selected' : '', dests.has(k) ? 'dest' : ''].filter(Boolean).join(' ');
        const label = `${g.relation} ${x} ${y}: ${pieces.length ? pieces.join(', ') : 'empty'}`;
        cells.push(
          h('button', { type: 'button', class: cls, 'data-x': x, 'data-y': y, 'aria-label': label, disabled: !playable && !dests.has(k), onclick: () => this.#clickCell(k) }, ...pieces.map((p) => glyphView(style.glyph(p), p))),
        );
      }
    }
    board.replaceChildren(...cells);
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
    const joint = view.legal.map((ms, r) => this.#chosen[r] ?? ms[Math.floor(Math.random() * ms.length)]);
    this.actions.play(joint);
  }

  #renderMoves(view: View): void {
    const el = byId('moves');
    if (view.terminal) {
      el.replaceChildren();
      return;
    }
    el.replaceChildren(
      ...view.roles.map((role, r) => {
        const ms = view.legal[r];
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
    const entries = view.history.map((joint, i) => {
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
