// A remote player at a seat of the Play pane: the page is its referee. The match starts at
// the game's first position with (START …) on the start clock; at every step the player gets
// (PLAY id last-joint-move) on the play clock — in a game with percepts (GDL-II)
// (PLAY id turn own-move (percepts)), what core's referee tells a role (`Session.told`) —,
// also where its only move is noop (it must follow the game); a late, missing or illegal move is replaced by a random legal one and
// the fault said as core's referee says it; the end of the game sends (STOP …). A remote
// player cannot take moves back: going back in the move list aborts its match (ABORT), and a
// new one starts from the game's first position. Closing the page aborts it too.

import type { Last, View } from '../engine/engine';
import { faultLine, judgeMove, judgeReady, protocolMessage, protocolStart } from '../engine/engine';
import { startPlayers, type Exchange, type Players, type Remote } from './protocol';
import { abortSoon, type MessageLog } from './remote';

/** The match a remote seat is playing. */
interface Conversation {
  id: string;
  /** The joint moves of the game its match has followed. */
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
    /** What this role is told after joint move number `step` of the game shown (0: NIL). */
    private told: (role: number, step: number) => Last,
    private choose: (role: number, move: string) => void,
    private status: (text: string, alert?: boolean) => void,
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
      if (m && !m.over) await this.#post(protocolMessage('abort', m.id, undefined), this.remote.playClock * 1000);
      this.#worker?.stop();
    });
  }

  /** The page is closing: the player's match, if on, is aborted at once. */
  abandon(): void {
    const m = this.#match;
    if (m && !m.over && this.remote.target) abortSoon(this.remote.target, m.id);
  }

  /** Posts `message` and waits for the exchange (logged). */
  #post(message: string, clock: number): Promise<Exchange> {
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
        this.#answer({ to: '', message, reply: null, failure: m.type === 'error' ? m.message : 'no reply', millis: 0, at: Date.now() });
      }, () => true);
    });
  }

  #roleName(): string {
    return this.#view?.roles[this.role] ?? '';
  }

  #fault(step: number, stop: boolean, what: string, played: string | null): void {
    const line = faultLine(this.role + 1, this.#roleName(), step, stop, what, played ?? undefined);
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
        if (!m.over) await this.#post(protocolMessage('abort', m.id, undefined), this.remote.playClock * 1000);
        m = null;
      }
      if (!m) {
        if (view.step !== 0) return this.status('waits for a new game: a remote player plays a match from the start and cannot take moves back');
        m = await this.#start(rules, view);
        continue;
      }
      if (m.over || m.asked > played.length) return;
      const last = this.told(this.role, m.asked);
      if (view.terminal && m.asked === played.length) {
        m.over = true;
        const e = await this.#post(protocolMessage('stop', m.id, last), this.remote.playClock * 1000);
        if (e.reply === null) this.#fault(played.length + 1, true, e.failure ?? 'no reply', null);
        return this.status('the match is over');
      }
      const step = m.asked;
      m.asked++;
      m.followed = played.slice(0, step);
      this.status(`asked for its move at step ${step + 1}…`);
      const e = await this.#post(protocolMessage('play', m.id, last), this.remote.playClock * 1000);
      const now = this.#view;
      // The position may have moved on meanwhile (a person's move where the player had only noop).
      if (now && now.step === step && !now.terminal && played.slice(0, step).every((j, i) => now.history[i]?.join() === j.join())) {
        const legal = now.legal[this.role];
        const judged = judgeMove(e.reply ?? undefined, e.failure ?? undefined, e.millis, this.remote.playClock, legal);
        const move = judged.index !== null ? legal[judged.index] : legal[Math.floor(Math.random() * legal.length)];
        if (judged.why !== null) this.#fault(step + 1, false, judged.why, move);
        else this.status(`played ${move} after ${Math.round(e.millis)} ms`);
        // A single legal move is the pane's to fill, unless no role has a choice (then no one would).
        if (legal.length > 1 || now.legal.every((ms) => ms.length === 1)) this.choose(this.role, move);
      }
    }
  }

  async #start(rules: string, view: View): Promise<Conversation> {
    const id = `playground.${Date.now()}`;
    const { startClock, playClock } = this.remote;
    this.status('starting its match…');
    const e = await this.#post(protocolStart(rules, id, view.roles[this.role], startClock, playClock), startClock * 1000);
    const fault = judgeReady(e.reply ?? undefined, e.failure ?? undefined, e.millis, startClock);
    if (fault) this.#fault(0, false, fault, null);
    const m = { id, followed: [], asked: 0, over: false };
    this.#match = m;
    return m;
  }
}
