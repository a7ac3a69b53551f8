// Remote players on the page's side: an address checked with (INFO) — called directly when
// the player sends CORS headers, else through the relay of the page's own server
// (scripts/serve, to players on this machine only) —, the address box of a seat, and the
// message log (each message, its reply and time, as the Stanford Gametester shows them).
// The messages' text, the judgement of replies and the words of a missing reply are core's
// (engine.ts: protocolMessage, RefereeMatch, noReplyText); the HTTP is the match worker's.

import { h } from '../dom';
import { noReplyText, protocolMessage } from '../engine/engine';
import type { Answerer } from './driven';
import { startPlayers, type Exchange, type Players, type PlayersReply, type PlayersRequest, type Remote } from './protocol';

/** How long a check of an address waits for the answer to (INFO). */
const INFO_MILLIS = 2000;

/** Whether a URL's host is this machine (the relay reaches no other). */
function loopback(url: URL): boolean {
  return url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
}

/** The relay of the page's own server to `url`. */
export function relayed(url: string): string {
  return new URL(`relay?to=${encodeURIComponent(url)}`, location.href).href;
}

/** The exchange of a message the worker could not send (`detail`: why). */
function unreachable(url: string, message: string, detail: string): Exchange {
  return { to: url, message, reply: null, failure: { kind: 'unreachable', detail }, millis: 0, at: Date.now() };
}

/** Sends one message through a worker of its own: the exchange. */
export function postOnce(module: WebAssembly.Module, url: string, message: string, clock: number): Promise<Exchange> {
  return new Promise((done) => {
    startPlayers({ module, rules: '', engine: '', moves: [], task: { kind: 'post', url, message, clock } }, (m: PlayersReply) => {
      done(m.type === 'posted' ? m.exchange : unreachable(url, message, m.type === 'error' ? m.message : 'the worker stopped'));
    });
  });
}

/** The remote player at `target` as a seat of games played on the page's thread (driven.ts):
 * one match worker, kept until `close`, sends each message (a `post` task), and each
 * exchange is logged under `to`. The referee waits for each reply before the next message. */
export function remoteSeat(module: WebAssembly.Module, target: string, to: string, log: MessageLog): Answerer {
  let job: Players | null = null;
  let heard: (m: PlayersReply) => void = () => {};
  return {
    post(message, clock) {
      return new Promise((done) => {
        heard = (m) => {
          if (m.type !== 'posted') job = null;
          const e = m.type === 'posted' ? m.exchange : unreachable(target, message, m.type === 'error' ? m.message : 'the worker stopped');
          log.add({ ...e, to });
          done({ reply: e.reply, failure: e.failure, logs: [], millis: e.millis });
        };
        const request: PlayersRequest = { module, rules: '', engine: '', moves: [], task: { kind: 'post', url: target, message, clock } };
        if (job) job.send(request);
        else job = startPlayers(request, (m) => heard(m), (m) => m.type === 'posted');
      });
    },
    close() {
      job?.stop();
      job = null;
    },
  };
}

/** Checks `address` with (INFO): where to reach it (directly, or through the relay when it
 * sends no CORS headers) and what it said (available, busy), or why it is unreachable. */
export async function reach(module: WebAssembly.Module, address: string, log: MessageLog): Promise<Pick<Remote, 'url' | 'target' | 'status'>> {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    return { url: address, target: null, status: 'not an address: write http://host:port, such as http://127.0.0.1:9147' };
  }
  if (url.protocol !== 'http:') return { url: address, target: null, status: 'the GGP protocol runs over http://, not ' + url.protocol };
  const name = url.href.replace(/\/$/, '');
  const info = protocolMessage('info', '');
  const ask = async (target: string, to: string) => {
    const e = await postOnce(module, target, info, INFO_MILLIS);
    log.add({ ...e, to });
    return e;
  };
  // A player that took the connection and never answered: older players (Jocular) do not know (INFO).
  const silent = (e: Exchange) => e.failure?.kind === 'timeout';
  const mute = 'it took the connection but does not answer (INFO), as older players such as Jocular do not';
  const said = (e: Exchange, target: string, how: string) => {
    const answer = (e.reply ?? '').trim().toLowerCase();
    const status = answer === 'available' || answer === 'busy' ? answer : `answered '${answer.slice(0, 40)}' to (INFO)`;
    return { url: name, target, status: status + how };
  };
  const direct = await ask(name, name);
  if (direct.reply !== null) return said(direct, name, '');
  if (loopback(url) && location.protocol === 'http:') {
    const relay = relayed(name);
    const through = await ask(relay, `${name} (through the relay)`);
    if (through.reply !== null) return said(through, relay, ' (through the relay: it sends no CORS headers)');
    if (silent(through)) return { url: name, target: relay, status: `called through the relay: ${mute}` };
    const missing = through.failure?.kind === 'status' && through.failure.code === 404;
    if (!missing) return { url: name, target: null, status: `unreachable: ${through.failure ? noReplyText(through.failure) : 'no reply'}` };
  }
  if (silent(direct)) return { url: name, target: name, status: `${mute} (if it sends no CORS headers, its replies cannot be read)` };
  return { url: name, target: null, status: 'unreachable: it does not answer, or sends no CORS headers (a player on another machine must send Access-Control-Allow-Origin; one on this machine is reached through the relay of scripts/serve)' };
}

/** The address of a remote seat, checked when entered: `remote` is updated, and `changed` told. */
export function addressBox(module: WebAssembly.Module, label: string, remote: Remote, log: MessageLog, changed: (r: Remote) => void): HTMLElement {
  const status = h('span', { class: 'remote-status muted', role: 'status', 'data-reachable': String(remote.target !== null) }, remote.status);
  const input = h('input', { type: 'url', class: 'remote-url', value: remote.url, placeholder: 'http://127.0.0.1:9147', 'aria-label': label, spellcheck: 'false' });
  const check = async () => {
    // A seat drawn anew drops its box, which may say `change` once more.
    if (!input.isConnected || (input.value === remote.url && remote.target !== null)) return;
    status.textContent = 'checking…';
    const found = await reach(module, input.value, log);
    status.textContent = found.status;
    status.dataset.reachable = String(found.target !== null);
    changed(Object.assign(remote, found));
  };
  input.addEventListener('change', check);
  // What is typed stays if the seat is drawn anew before it is checked.
  input.addEventListener('input', () => Object.assign(remote, { url: input.value, target: null }));
  return h('span', { class: 'remote-address' }, input, status);
}

/** Start and play clocks (seconds) of a remote seat or a match: `clocks` is updated, and
 * `changed` told. */
export function clockBoxes<T extends { startClock: number; playClock: number }>(clocks: T, changed: (c: T) => void, label: string): HTMLElement {
  const box = (key: 'startClock' | 'playClock', name: string) =>
    h('label', { class: 'remote-clock' }, `${name} `, h('input', { type: 'number', min: '0.1', step: '0.1', value: clocks[key], 'aria-label': `${name} of ${label}`, onchange: (e: Event) => {
          clocks[key] = Number((e.target as HTMLInputElement).value) || clocks[key];
          changed(clocks);
        } }), ' s');
  return h('span', { class: 'remote-clocks' }, box('startClock', 'start clock'), box('playClock', 'play clock'));
}

/** Tells a remote player its match `id` is over, without waiting (the page may be closing:
 * a beacon, which browsers send even then), so that it is free for the next one. */
export function abortSoon(target: string, id: string): void {
  navigator.sendBeacon(target, protocolMessage('abort', id));
}

/** A new remote seat: no address yet, clocks of 10 s and 3 s. */
export function newRemote(): Remote {
  return { url: '', target: null, status: 'give its address', startClock: 10, playClock: 3 };
}

/** Most characters of a message shown in the log (a START carries the whole rules). */
const SHOWN = 240;

/** A message log: each exchange with a remote player (message, reply or why none, time) and
 * each fault, newest last, in a collapsible box. */
export class MessageLog {
  #list = h('ol', { class: 'message-list' });
  #count = 0;
  #summary = h('summary', {}, 'Messages (0)');

  constructor(private box: HTMLDetailsElement) {
    box.replaceChildren(this.#summary, this.#list);
  }

  clear(): void {
    this.#list.replaceChildren();
    this.#count = 0;
    this.#summary.textContent = 'Messages (0)';
    this.box.hidden = true;
  }

  add(e: Exchange): void {
    const time = new Date(e.at).toISOString().slice(11, 23);
    const shown = e.message.length > SHOWN ? `${e.message.slice(0, SHOWN)}… (${e.message.length.toLocaleString('en')} characters)` : e.message;
    const answer = e.reply !== null ? h('code', { class: 'reply' }, e.reply.trim() || '(empty)') : h('span', { class: 'warn' }, e.failure ? noReplyText(e.failure) : 'no reply');
    this.#item(h('li', { class: 'exchange' }, h('span', { class: 'muted' }, `${time} to ${e.to}: `), h('code', {}, shown), h('br'), '→ ', answer, h('span', { class: 'muted' }, ` · ${Math.round(e.millis).toLocaleString('en')} ms`)));
  }

  /** A fault of a player, as the referee says it. */
  fault(text: string): void {
    this.#item(h('li', { class: 'fault warn' }, text));
  }

  /** What a student's player logged (`web/src/student/seat.ts`). */
  note(text: string): void {
    this.#item(h('li', { class: 'player-said' }, text));
  }

  /** A refereed game's result line, as the referee says it. */
  result(text: string): void {
    this.#item(h('li', { class: 'result' }, text));
  }

  #item(li: HTMLElement): void {
    this.#list.append(li);
    this.#count++;
    this.#summary.textContent = `Messages (${this.#count})`;
    this.box.hidden = false;
  }
}
