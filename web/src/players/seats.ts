// Seats of the play pane: per role, who plays it (a person, random, MCTS with a strength, or
// the perfect player). When a computer seat has a choice to make, it thinks in a worker
// (match-worker.ts) with a visible "thinking" line and Stop (which hands its seats back to
// people); its move goes to the play pane as a click would. Computers on every seat play on.
// Stepped back in the move list, computers wait (so the moves after can be stepped through)
// until a move is played there or "Continue from here" is clicked.

import './players.css';
import { byId, h } from '../dom';
import type { View } from '../engine/engine';
import { STRENGTHS, playerSpec, randomSeed, seatLabel, startPlayers, type Players, type Seat } from './protocol';

export class Seats {
  #seats: Seat[] = [];
  #roles: string[] = [];
  #view: View | null = null;
  /** Stops for the computers thinking now, per role. */
  #thinking = new Map<number, Players>();
  /** Back in the move list, computers wait unless asked to continue from there. */
  #resumed = false;

  constructor(
    private module: WebAssembly.Module,
    private rules: () => string | null,
    private choose: (role: number, move: string) => void,
  ) {}

  /** The position shown changed: computers whose turn it is start thinking. */
  update(view: View): void {
    if (view.roles.join() !== this.#roles.join()) {
      this.#roles = view.roles;
      this.#seats = view.roles.map(() => 'human');
      this.#renderSeats();
    }
    const moved = this.#view === null || this.#view.step !== view.step || this.#view.history.length !== view.history.length || this.#view.state.join() !== view.state.join();
    this.#view = view;
    if (moved) {
      this.#stop();
      this.#resumed = false;
    }
    this.#startThinking();
  }

  /** No game to play: stop thinking. */
  clear(): void {
    this.#stop();
    this.#view = null;
  }

  #startThinking(): void {
    const view = this.#view;
    const rules = this.rules();
    if (!view || view.terminal || rules === null) return this.#renderThinking();
    const computerToMove = view.roles.some((_, r) => playerSpec(this.#seats[r]) !== null && view.legal[r].length > 1);
    if (computerToMove && view.step < view.history.length && !this.#resumed) return this.#renderWaiting();
    const moves = view.history.slice(0, view.step);
    view.roles.forEach((_, r) => {
      const player = playerSpec(this.#seats[r]);
      if (player === null || view.legal[r].length < 2 || this.#thinking.has(r)) return;
      const players = startPlayers({ module: this.module, rules, moves, task: { kind: 'think', player, role: r, seed: randomSeed() } }, (reply) => {
        if (this.#thinking.get(r) !== players) return;
        this.#thinking.delete(r);
        this.#renderThinking();
        if (reply.type === 'thought') this.choose(r, reply.thought.move);
        else if (reply.type === 'error') {
          const who = `${view.roles[r]} (${seatLabel(this.#seats[r])})`;
          this.#seats[r] = 'human';
          this.#renderSeats();
          byId('thinking').replaceChildren(h('p', { class: 'warn', role: 'alert' }, `${who} cannot move: ${reply.message}. Its seat is yours now.`));
        }
      });
      this.#thinking.set(r, players);
    });
    this.#renderThinking();
  }

  #stop(): void {
    for (const players of this.#thinking.values()) players.stop();
    this.#thinking.clear();
    this.#renderThinking();
  }

  /** Stop: the thinking computers give their seats to people. */
  #stopAndTakeOver(): void {
    for (const r of this.#thinking.keys()) this.#seats[r] = 'human';
    this.#stop();
    this.#renderSeats();
  }

  /** Stepped back in the move list: the computers wait, so the moves after stay to step through. */
  #renderWaiting(): void {
    const resume = () => {
      this.#resumed = true;
      this.#startThinking();
    };
    byId('thinking').replaceChildren(
      h('p', { class: 'thinking waiting', role: 'status' }, 'The computers wait while you step through the moves.', h('button', { type: 'button', class: 'small', id: 'think-continue', onclick: resume }, 'Continue from here')),
    );
  }

  #renderThinking(): void {
    const box = byId('thinking');
    if (this.#thinking.size === 0) {
      if (box.querySelector('.thinking')) box.replaceChildren();
      return;
    }
    const who = [...this.#thinking.keys()].map((r) => `${this.#roles[r]} (${seatLabel(this.#seats[r])})`);
    box.replaceChildren(
      h('p', { class: 'thinking', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), `${who.join(' and ')} ${who.length > 1 ? 'are' : 'is'} thinking…`, h('button', { type: 'button', class: 'small', id: 'think-stop', onclick: () => this.#stopAndTakeOver() }, 'Stop')),
    );
  }

  #renderSeats(): void {
    const row = (role: string, r: number) => {
      const seat = this.#seats[r];
      const kind = typeof seat === 'string' ? seat : 'mcts';
      const select = h(
        'select',
        { 'aria-label': `Who plays ${role}`, 'data-role': role, class: 'seat-kind', onchange: (e: Event) => this.#setSeat(r, (e.target as HTMLSelectElement).value) },
        ...['human', 'random', 'mcts', 'perfect'].map((k) => h('option', { value: k, selected: k === kind }, k === 'mcts' ? 'MCTS' : k)),
      );
      const strength =
        typeof seat !== 'string' &&
        h(
          'label',
          { class: 'seat-strength' },
          'strength ',
          h('input', { type: 'range', min: 0, max: STRENGTHS.length - 1, value: seat.mcts, 'aria-label': `Strength of ${role}`, onchange: (e: Event) => this.#setSeat(r, 'mcts', Number((e.target as HTMLInputElement).value)) }),
          h('span', { class: 'muted' }, ` ${STRENGTHS[seat.mcts].toLocaleString('en')} playouts a move`),
        );
      return h('div', { class: 'seat' }, h('strong', {}, `${role}: `), select, strength);
    };
    byId('seats').replaceChildren(...this.#roles.map(row));
  }

  #setSeat(r: number, kind: string, strength = 2): void {
    this.#seats[r] = kind === 'mcts' ? { mcts: strength } : (kind as Seat);
    this.#thinking.get(r)?.stop();
    this.#thinking.delete(r);
    this.#renderSeats();
    this.#startThinking();
  }
}
