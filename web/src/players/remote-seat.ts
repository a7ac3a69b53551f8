// A remote player at a seat of the Play pane, refereed by core (`RefereeMatch`): core gives
// each message — (START …) at the game's first position, (PLAY …) at every step, also where
// its only move is noop (it must follow the game), (STOP …) at the end —, judges each answer
// (a late, missing or illegal move is replaced by one drawn from the match's seed, and the
// fault worded), and follows the joint moves the pane plays. This file only posts the
// messages (through a match worker) and shows what core says. A remote player cannot take
// moves back: going back in the move list aborts its match (ABORT), and a new one starts from
// the game's first position. Closing the page aborts it too.

import type { View } from '../engine/engine';
import { RefereeMatch } from '../engine/engine';
import { randomSeed, startPlayers, type Exchange, type Players, type Remote } from './protocol';
import { abortSoon, type MessageLog } from './remote';

/** How a seat's messages reach its player when not over HTTP (a student's sandbox,
 * `web/src/student/seat.ts`): the exchange, and the end of the seat. */
export interface Transport {
  /** The exchange, and lines the player wrote meanwhile for the log (`said`). */
  post(message: string, clock: number): Promise<Exchange & { said?: string[] }>;
  end(): void;
}

/** The match a remote seat is playing. */
interface Conversation {
  /** Core's referee of the match. */
  referee: RefereeMatch;
  id: string;
  /** The joint moves of the game its match has followed (given to `referee`). */
  followed: string[][];
  /** PLAYs sent (the next one is for step `asked`, from 0). */
  asked: number;
  over: boolean;
}

export class RemoteSeat {
  /** Sends the messages (started with the first one). */
  #worker: Players | null = null;
  #answer: (e: Exchange) => void = () => {};
  #match: Conversation | null = null;
  #view: View | null = null;
  #queue: Promise<void> = Promise.resolve();
  #ended = false;

  constructor(
    private module: WebAssembly.Module,
    public remote: Remote,
    private role: number,
    private log: MessageLog,
    private rules: () => string | null,
    private choose: (role: number, move: string) => void,
    private status: (text: string, alert?: boolean) => void,
    private transport: Transport | null = null,
  ) {}

  /** The position shown changed: tell the player what it needs, in order. */
  update(view: View): void {
    this.#view = view;
    this.#queue = this.#queue.then(() => this.#follow()).catch((e) => this.status(`the remote player's match stopped: ${(e as Error).message}`, true));
  }

  /** Ends the match (ABORT when it is on) and the worker. */
  end(): void {
    this.#ended = true;
    this.#queue = this.#queue.then(async () => {
      const m = this.#match;
      this.#match = null;
      if (m && !m.over) await this.#post(m.referee.abortMessage(), this.remote.playClock * 1000);
      m?.referee.free();
      this.#worker?.stop();
      this.transport?.end();
    });
  }

  /** The page is closing: the player's match, if on, is aborted at once. */
  abandon(): void {
    const m = this.#match;
    if (m && !m.over && this.remote.target && !this.transport) abortSoon(this.remote.target, m.id);
  }

  /** Posts `message` and waits for the exchange (logged). */
  #post(message: string, clock: number): Promise<Exchange> {
    if (this.transport) {
      return this.transport.post(message, clock).then(({ said, ...e }) => {
        this.log.add(e);
        for (const line of said ?? []) this.log.note(line);
        return e;
      });
    }
    return new Promise((done) => {
      this.#answer = (e) => {
        const named = { ...e, to: `${this.#roleName()} (${this.remote.url})` };
        this.log.add(named);
        done(named);
      };
      const request = { module: this.module, rules: '', engine: '', moves: [], task: { kind: 'post' as const, url: this.remote.target ?? this.remote.url, message, clock } };
      if (this.#worker) return this.#worker.send(request);
      this.#worker = startPlayers(request, (m) => {
        if (m.type === 'posted') return this.#answer(m.exchange);
        this.#worker?.stop();
        this.#worker = null;
        this.#answer({ to: '', message, reply: null, failure: { kind: 'unreachable', detail: m.type === 'error' ? m.message : 'the worker stopped' }, millis: 0, at: Date.now() });
      }, () => true);
    });
  }

  #roleName(): string {
    return this.#view?.roles[this.role] ?? '';
  }

  /** A fault, as core's referee says it. */
  #fault(line: string): void {
    this.log.fault(line);
    this.status(line, true);
  }

  /** Brings the player to the position shown, one message at a time. */
  async #follow(): Promise<void> {
    for (;;) {
      const view = this.#view;
      const rules = this.rules();
      if (this.#ended || !view || rules === null || this.remote.target === null) return;
      const played = view.history.slice(0, view.step);
      let m = this.#match;
      const follows = (moves: string[][]) => moves.length <= played.length && moves.every((j, i) => j.join() === played[i].join());
      if (m && !follows(m.followed)) {
        this.#match = null;
        if (!m.over) await this.#post(m.referee.abortMessage(), this.remote.playClock * 1000);
        m.referee.free();
        m = null;
      }
      if (!m) {
        if (view.step !== 0) return this.status('waits for a new game: a remote player plays a match from the start and cannot take moves back');
        m = await this.#start(rules);
        continue;
      }
      if (m.over || m.asked > played.length) return;
      // Core's referee follows the joint moves played since its last PLAY.
      for (let k = m.referee.steps(); k < m.asked; k++) m.referee.advance(played[k]);
      m.followed = played.slice(0, m.asked);
      if (view.terminal && m.asked === played.length) {
        m.over = true;
        const e = await this.#post(m.referee.stopMessage(this.role), this.remote.playClock * 1000);
        const fault = m.referee.stopped(this.role, e.reply ?? undefined, e.failure);
        if (fault) this.#fault(fault);
        return this.status('the match is over');
      }
      const step = m.asked;
      m.asked++;
      this.status(`asked for its move at step ${step + 1}…`);
      const e = await this.#post(m.referee.playMessage(this.role), this.remote.playClock * 1000);
      const now = this.#view;
      // The position may have moved on meanwhile (a person's move where the player had only noop).
      if (now && now.step === step && !now.terminal && played.slice(0, step).every((j, i) => now.history[i]?.join() === j.join())) {
        const legal = now.legal[this.role];
        const { move, fault } = m.referee.answered(this.role, e.reply ?? undefined, e.failure, e.millis);
        if (fault !== null) this.#fault(fault);
        else this.status(`played ${move} after ${Math.round(e.millis)} ms`);
        // A single legal move is the pane's to fill, unless no role has a choice (then no one would).
        if (legal.length > 1 || now.legal.every((ms) => ms.length === 1)) this.choose(this.role, move);
      }
    }
  }

  async #start(rules: string): Promise<Conversation> {
    const id = `playground.${Date.now()}`;
    const { startClock, playClock } = this.remote;
    const referee = new RefereeMatch(rules, id, startClock, playClock, randomSeed());
    this.status('starting its match…');
    const e = await this.#post(referee.startMessage(this.role), startClock * 1000);
    const fault = referee.started(this.role, e.reply ?? undefined, e.failure, e.millis);
    if (fault) this.#fault(fault);
    const m = { referee, id, followed: [], asked: 0, over: false };
    this.#match = m;
    return m;
  }
}
