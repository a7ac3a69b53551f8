// Seats of the play pane: per role, who plays it: a person, or a player of core's catalogue
// (random, MCTS with a strength, the perfect player, …; those that cannot play the game are
// not offered, and one that refuses it when asked for a move, such as perfect on a game too
// big to solve within its time, gives its seat back to the person with core's reason). When a computer seat has a choice to make, it thinks in a worker
// (match-worker.ts) with a visible "thinking" line that shows its playouts and best move so far,
// Move now (which plays that best move) and Stop (which hands its seats back to people); its
// move goes to the play pane as a click would. Computers on every seat play on.
// Stepped back in the move list, computers wait (so the moves after can be stepped through)
// until a move is played there or "Continue from here" is clicked. GDL-II's role `random` is
// nature: no seat, it draws each move uniformly among its legal ones with the engine's seeded
// generator (`randomMove`; waiting as a computer does), unless the teacher chooses its moves.
// A remote player (remote-seat.ts) is refereed by the page over the GGP protocol, its messages
// in the log under the seats; in a game with percepts it is told only its own moves and percepts.
// Nature is never a remote seat.

import './players.css';
import { byId, h } from '../dom';
import { playerCatalogue, type Catalogue, type Thought, type View } from '../engine/engine';
import { RemoteSeat } from './remote-seat';
import { MessageLog, addressBox, clockBoxes, newRemote } from './remote';
import { randomSeed, startPlayers, type Players, type PlayersReply, type Remote, type Seat } from './protocol';
import { MY_PLAYER, WRITE_PLAYER, newStudentRemote, studentEntrants, studentTransport } from '../student/seat';
import { showMyPlayers } from '../student/panel';

/** The engine's name of a computer seat's player (`uct:1s`), null for a person or a remote player. */
function playerOf(seat: Seat): string | null {
  return typeof seat !== 'string' && 'choice' in seat ? seat.choice.spec : null;
}

/** A computer seat's player in the catalogue's words ("MCTS, 1 s a move"). */
function labelOf(seat: Seat): string {
  return typeof seat !== 'string' && 'choice' in seat ? seat.choice.label : 'human';
}

/** A computer seat's worker: it loads the game when the seat is chosen (loading a big game
 * takes a second, which would come out of the first move's time) and keeps it for every move
 * it is asked for. */
interface SeatWorker {
  job: Players;
  /** The engine and rules it loaded. */
  key: string;
  ready: boolean;
  /** Hears its answer to the move asked for now. */
  answer: (m: PlayersReply) => void;
}

export class Seats {
  #seats: Seat[] = [];
  #roles: string[] = [];
  #view: View | null = null;
  /** Stops for the computers thinking now, per role. */
  #thinking = new Map<number, Players>();
  /** What each thinking computer has found so far (its playouts and best move). */
  #soFar = new Map<number, Thought>();
  /** Each computer seat's worker, per role. */
  #workers = new Map<number, SeatWorker>();
  /** Back in the move list, computers wait unless asked to continue from there. */
  #resumed = false;
  /** The remote players, per role, and their messages. */
  #remotes = new Map<number, RemoteSeat>();
  #log = new MessageLog(byId<HTMLDetailsElement>('play-log'));
  /** The game has percepts: its seats offer the honest player. */
  #percepts = false;
  /** The players core offers for this game (what each refuses and why). */
  #catalogue: Catalogue = playerCatalogue(null);
  /** The teacher chooses nature's moves; else nature draws them. */
  #natureByHand = false;
  /** The position where nature last drew its move (it draws once per position). */
  #natureDrew = '';

  constructor(
    private module: WebAssembly.Module,
    private rules: () => string | null,
    private engine: () => string,
    private choose: (role: number, move: string) => void,
    private natureByHand: (on: boolean) => void,
    /** A legal move of role `role` at the position shown, drawn by the engine's seeded generator. */
    private draw: (role: number) => string,
  ) {
    // Closing the page frees the remote players of their matches.
    addEventListener('pagehide', () => {
      for (const remote of this.#remotes.values()) remote.abandon();
    });
    // The student's players kept change: the menus follow.
    addEventListener('student-players', () => this.#renderSeats());
  }

  /** The position shown changed: computers whose turn it is start thinking. */
  update(view: View): void {
    const moved = this.#view === null || this.#view.step !== view.step || this.#view.history.length !== view.history.length || this.#view.state.join() !== view.state.join();
    this.#view = view;
    if (view.roles.join() !== this.#roles.join() || view.percepts !== this.#percepts) {
      this.#roles = view.roles;
      this.#percepts = view.percepts;
      this.#catalogue = playerCatalogue(view.percepts);
      this.#seats = view.roles.map(() => 'human');
      this.#endRemotes();
      this.#renderSeats();
    }
    if (moved) {
      this.#stop();
      this.#resumed = false;
    }
    this.#startThinking();
    for (const remote of this.#remotes.values()) remote.update(view);
  }

  /** No game to play: stop thinking. */
  clear(): void {
    this.#stop();
    this.#view = null;
    for (const r of [...this.#workers.keys()]) this.#endWorker(r);
    this.#endRemotes();
  }

  #endRemotes(): void {
    for (const remote of this.#remotes.values()) remote.end();
    this.#remotes.clear();
    this.#log.clear();
  }

  /** Role `r`'s worker with `rules` loaded on the page's engine, started if it is not yet. */
  #worker(r: number, rules: string): SeatWorker {
    const engine = this.engine();
    const key = `${engine}\n${rules}`;
    const known = this.#workers.get(r);
    if (known?.key === key) return known;
    known?.job.stop();
    const w: SeatWorker = { key, ready: false, answer: () => {}, job: null as unknown as Players };
    w.job = startPlayers(
      { module: this.module, rules, engine, moves: [], task: { kind: 'load' } },
      (m) => {
        if (m.type === 'error') this.#workers.delete(r);
        if (m.type !== 'ready') return w.answer(m);
        w.ready = true;
        this.#markReady();
      },
      (m) => m.type !== 'error',
    );
    this.#workers.set(r, w);
    return w;
  }

  /** Starts the workers of the computer seats (and ends those of seats people took). */
  #warm(): void {
    const rules = this.rules();
    this.#roles.forEach((_, r) => {
      if (rules !== null && playerOf(this.#seats[r]) !== null) this.#worker(r, rules);
      else this.#endWorker(r);
    });
    this.#markReady();
  }

  #endWorker(r: number): void {
    this.#workers.get(r)?.job.stop();
    this.#workers.delete(r);
  }

  /** Each seat says whether its computer has the game loaded (`data-ready`). */
  #markReady(): void {
    for (const el of byId('seats').querySelectorAll<HTMLElement>('.seat')) {
      const w = this.#workers.get(Number(el.dataset.index));
      el.dataset.ready = String(!!w?.ready);
    }
  }

  #startThinking(): void {
    const view = this.#view;
    const rules = this.rules();
    this.#warm();
    if (!view || view.terminal || rules === null) return this.#renderThinking();
    const natureDraws = (r: number) => view.nature[r] && !this.#natureByHand && view.legal[r].length > 0;
    const computerToMove = view.roles.some((_, r) => (playerOf(this.#seats[r]) !== null && view.legal[r].length > 1) || natureDraws(r));
    if (computerToMove && view.step < view.history.length && !this.#resumed) return this.#renderWaiting();
    const moves = view.history.slice(0, view.step);
    // Nature draws once per position, uniformly (its move waits, unseen, for the others'),
    // after the page has drawn the position.
    const here = (v: View) => `${v.step}\n${v.history.length}\n${v.state.join()}`;
    if (this.#natureDrew !== here(view)) {
      this.#natureDrew = here(view);
      const drawing = view.roles.map((_, r) => r).filter(natureDraws);
      setTimeout(() => {
        if (this.#view === null || here(this.#view) !== here(view)) return;
        for (const r of drawing) if (!this.#natureByHand) this.choose(r, this.draw(r));
      });
    }
    view.roles.forEach((_, r) => {
      const player = playerOf(this.#seats[r]);
      if (player === null || view.legal[r].length < 2 || this.#thinking.has(r)) return;
      const worker = this.#worker(r, rules);
      const players = worker.job;
      worker.answer = (reply) => {
        if (this.#thinking.get(r) !== players) return;
        if (reply.type === 'progress') {
          this.#soFar.set(r, reply.soFar);
          return this.#renderSoFar();
        }
        this.#thinking.delete(r);
        this.#soFar.delete(r);
        this.#renderThinking();
        if (reply.type === 'thought') this.choose(r, reply.thought.move);
        else if (reply.type === 'error') {
          const who = `${view.roles[r]} (${labelOf(this.#seats[r])})`;
          this.#seats[r] = 'human';
          this.#renderSeats();
          byId('thinking').replaceChildren(h('p', { class: 'warn', role: 'alert' }, `${who} cannot move: ${reply.message}. Its seat is yours now.`));
        }
      };
      players.send({ module: this.module, rules, engine: this.engine(), moves, task: { kind: 'think', player, role: r, seed: randomSeed(), requestedAt: Date.now() } });
      this.#thinking.set(r, players);
    });
    this.#renderThinking();
  }

  /** Stops the computers thinking now (their workers end: a search cannot be interrupted). */
  #stop(): void {
    for (const r of this.#thinking.keys()) this.#endWorker(r);
    this.#thinking.clear();
    this.#soFar.clear();
    this.#renderThinking();
  }

  /** Move now: the thinking computers play their best moves so far. */
  #moveNow(): void {
    const best = [...this.#thinking.keys()].flatMap((r) => {
      const soFar = this.#soFar.get(r);
      return soFar ? [[r, soFar.move] as const] : [];
    });
    if (best.length < this.#thinking.size) return;
    this.#stop();
    for (const [r, move] of best) this.choose(r, move);
  }

  /** Each thinking computer's playouts and best move so far; Move now once all have one. */
  #renderSoFar(): void {
    const line = document.getElementById('think-so-far');
    if (!line) return;
    const found = [...this.#thinking.keys()].flatMap((r) => {
      const t = this.#soFar.get(r);
      if (!t) return [];
      const expects = t.expects === null ? '' : `, expecting ${Math.round(t.expects)}`;
      return [`${this.#roles[r]}: ${t.playouts.toLocaleString('en')} playouts, best so far ${t.move}${expects}`];
    });
    line.textContent = found.join(' · ');
    const now = document.getElementById('think-now') as HTMLButtonElement | null;
    if (now) now.disabled = found.length < this.#thinking.size;
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
    const thinkers = [...this.#thinking.keys()];
    const who = thinkers.map((r) => `${this.#roles[r]} (${labelOf(this.#seats[r])})`);
    // A player with a time fills a bar as it runs out (the longest of the thinkers').
    const millis = Math.max(0, ...thinkers.map((r) => {
      const seat = this.#seats[r];
      return (typeof seat !== 'string' && 'choice' in seat && seat.choice.millis) || 0;
    }));
    const bar = millis > 0 ? h('progress', { class: 'think-time', max: millis, value: 0, 'aria-label': 'Thinking time used' }) : null;
    box.replaceChildren(
      h(
        'p',
        { class: 'thinking', role: 'status' },
        h('span', { class: 'spinner', 'aria-hidden': 'true' }),
        `${who.join(' and ')} ${who.length > 1 ? 'are' : 'is'} thinking…`,
        bar,
        h('button', { type: 'button', class: 'small', id: 'think-now', disabled: true, title: 'Play the best move found so far', onclick: () => this.#moveNow() }, 'Move now'),
        h('button', { type: 'button', class: 'small', id: 'think-stop', title: 'Stop thinking: the seat is yours', onclick: () => this.#stopAndTakeOver() }, 'Stop'),
      ),
      h('p', { class: 'muted think-so-far', id: 'think-so-far', 'aria-live': 'off' }),
    );
    this.#renderSoFar();
    if (bar) {
      const start = performance.now();
      const tick = () => {
        if (!bar.isConnected) return;
        bar.value = Math.min(millis, performance.now() - start);
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    }
  }

  #renderSeats(): void {
    const row = (role: string, r: number) => {
      if (this.#view?.nature[r]) {
        const byHand = h('input', { type: 'checkbox', id: 'nature-by-hand', checked: this.#natureByHand, onchange: (e: Event) => this.#setNatureByHand((e.target as HTMLInputElement).checked) });
        return h('div', { class: 'seat nature', 'data-index': r }, h('strong', {}, `${role}: `), 'nature, draws its moves at random ', h('label', { class: 'small' }, byHand, ' I choose its moves'));
      }
      const seat = this.#seats[r];
      const kind = typeof seat === 'string' ? seat : 'remote' in seat ? (seat.player === undefined ? 'remote' : MY_PLAYER + seat.player) : seat.kind.name;
      // The kinds core offers for this game: in a game with percepts, MCTS and perfect (which
      // read the true state) give way to the honest player; a remote player is sent only its
      // own moves and percepts.
      const kinds = this.#catalogue.kinds.filter((k) => k.offered);
      const select = h(
        'select',
        { 'aria-label': `Who plays ${role}`, 'data-role': role, class: 'seat-kind', onchange: (e: Event) => this.#setSeat(r, (e.target as HTMLSelectElement).value) },
        h('option', { value: 'human', selected: kind === 'human' }, 'human'),
        ...kinds.map((k) => h('option', { value: k.name, selected: k.name === kind }, k.label)),
        ...[...studentEntrants(), WRITE_PLAYER].map((e) => h('option', { value: e.value, selected: e.value === kind }, e.label)),
      );
      const budget =
        typeof seat !== 'string' &&
        'choice' in seat &&
        seat.kind.choices.length > 1 &&
        h(
          'select',
          { class: 'seat-budget', 'aria-label': `Budget of ${role}`, onchange: (e: Event) => this.#setSeat(r, kind, (e.target as HTMLSelectElement).value) },
          ...seat.kind.choices.map((c) => h('option', { value: c.budget, selected: c.spec === seat.choice.spec }, c.budgetLabel)),
        );
      const remote = typeof seat !== 'string' && 'remote' in seat && (seat.player === undefined ? this.#remoteBoxes(r, role, seat.remote) : this.#studentBoxes(r, role, seat.player, seat.remote));
      return h('div', { class: 'seat', 'data-index': r }, h('strong', {}, `${role}: `), select, budget, remote);
    };
    byId('seats').replaceChildren(...this.#roles.map(row));
    this.#markReady();
  }

  /** A remote seat's address, clocks and status (the boxes say their own changes); a change
   * of address or clock starts its match anew. */
  #remoteBoxes(r: number, role: string, remote: Remote): HTMLElement {
    const changed = (next: Remote) => {
      this.#seats[r] = { remote: next };
      this.#remotes.get(r)?.end();
      this.#remotes.set(r, new RemoteSeat(this.module, next, r, this.#log, this.rules, this.choose, (text, alert) => this.#remoteStatus(r, text, alert)));
      if (this.#view) this.#remotes.get(r)?.update(this.#view);
    };
    const status = h('span', { class: 'remote-seat-status muted', role: 'status' });
    return h('span', { class: 'remote-seat' }, addressBox(this.module, `Address of the remote player for ${role}`, remote, this.#log, changed), clockBoxes(remote, changed, role), status);
  }

  /** A student's player's play clock and status; a change of clock starts its match anew. */
  #studentBoxes(r: number, role: string, name: string, remote: Remote): HTMLElement {
    const status = h('span', { class: 'remote-seat-status muted', role: 'status' });
    return h('span', { class: 'remote-seat' }, clockBoxes(remote, (next) => this.#seatStudent(r, name, next), role), status);
  }

  /** Seat `r` goes to the student's player `name`, refereed by core as a remote player is. */
  #seatStudent(r: number, name: string, remote: Remote): void {
    this.#seats[r] = { remote, player: name };
    this.#remotes.get(r)?.end();
    const transport = studentTransport(name, this.#log, () => `${this.#roles[r]} (my player ${name})`);
    this.#remotes.set(r, new RemoteSeat(this.module, remote, r, this.#log, this.rules, this.choose, (text, alert) => this.#remoteStatus(r, text, alert), transport));
    if (this.#view) this.#remotes.get(r)?.update(this.#view);
  }

  #remoteStatus(r: number, text: string, alert = false): void {
    const el = byId('seats').querySelector<HTMLElement>(`.seat[data-index="${r}"] .remote-seat-status`);
    if (!el) return;
    el.textContent = text;
    el.classList.toggle('warn', alert);
  }

  /** The teacher chooses nature's moves (on), or nature draws them again (off). */
  #setNatureByHand(on: boolean): void {
    this.#natureByHand = on;
    this.#natureDrew = '';
    this.natureByHand(on);
    this.#startThinking();
  }

  /** Seat `r` goes to a person, or to the catalogue's kind named `kind` with its choice of
   * `budget` (its default unless given). */
  #setSeat(r: number, kind: string, budget?: string): void {
    // "write one…" opens the player editor; the seat stays as it was.
    if (kind === WRITE_PLAYER.value) {
      showMyPlayers();
      return this.#renderSeats();
    }
    this.#remotes.get(r)?.end();
    this.#remotes.delete(r);
    if (kind.startsWith(MY_PLAYER)) {
      if (this.#thinking.delete(r)) this.#endWorker(r);
      this.#seatStudent(r, kind.slice(MY_PLAYER.length), newStudentRemote(kind.slice(MY_PLAYER.length)));
      this.#renderSeats();
      return this.#startThinking();
    }
    const offered = this.#catalogue.kinds.find((k) => k.name === kind);
    const choice = offered?.choices.find((c) => c.budget === budget) ?? offered?.choices[offered.default];
    this.#seats[r] = !offered ? 'human' : choice ? { kind: offered, choice } : { remote: newRemote() };
    if (this.#thinking.delete(r)) this.#endWorker(r);
    this.#renderSeats();
    this.#startThinking();
  }
}
