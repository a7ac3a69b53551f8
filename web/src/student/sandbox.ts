// The sandbox a student's player runs in: a worker (sandbox-worker.ts) inside an iframe with
// `sandbox="allow-scripts"` (no allow-same-origin: an opaque origin, so no access to the
// page's storage, cookies or DOM, nor to other players' sandboxes) and a CSP without
// `connect-src` (no fetch, no sockets). The page hands it the worker's script and the
// engine's bytes by postMessage; it fetches nothing. Each message has the play clock: when it
// runs out the worker is terminated, the answer is a timeout (which core's referee words and
// replaces), and a new worker catches up with the match's messages before the next move.

import { messageKind, type NoReply } from '../engine/engine';
import wasmUrl from '../../pkg/gdl_wasm_bg.wasm?url';
import workerUrl from './sandbox-worker.ts?worker&url';
import type { Answer, LogEntry } from './api';
import type { FromWorker, ToWorker } from './sandbox-worker';

/** The answer to one message, as a remote player's exchange has it, and the player's logs. */
export interface Ran {
  reply: string | null;
  failure: NoReply | null;
  logs: LogEntry[];
  millis: number;
}

/** The worker's script and the engine's bytes, fetched once by the page. */
let assets: Promise<{ script: string; bytes: ArrayBuffer }> | null = null;
function loadAssets(): Promise<{ script: string; bytes: ArrayBuffer }> {
  assets ??= Promise.all([fetch(workerUrl).then((r) => r.text()), fetch(wasmUrl).then((r) => r.arrayBuffer())]).then(([script, bytes]) => ({ script, bytes }));
  return assets;
}

type FromFrame = FromWorker | { type: 'loaded' } | { type: 'crashed'; message: string };

/** One player's sandbox. */
export class Sandbox {
  readonly frame: HTMLIFrameElement;
  #listeners = new Set<(m: FromFrame) => void>();
  #next = 0;
  /** The messages of the match on, which a new worker is brought up to. */
  #kept: string[] = [];
  #closed = false;
  #onMessage = (e: MessageEvent) => {
    if (e.source !== this.frame.contentWindow || this.#closed) return;
    for (const l of [...this.#listeners]) l(e.data as FromFrame);
  };

  private constructor(
    private code: string,
    private seed: number,
  ) {
    this.frame = document.createElement('iframe');
    this.frame.setAttribute('sandbox', 'allow-scripts');
    this.frame.className = 'student-sandbox';
    this.frame.hidden = true;
    this.frame.title = 'sandbox of a player';
    // A document of its own (not srcdoc, which would take the page's CSP): its CSP and relay
    // script are in web/public/sandbox.html.
    this.frame.src = new URL('sandbox.html', document.baseURI).href;
    addEventListener('message', this.#onMessage);
  }

  /** A sandbox running `code`, ready for messages (or saying why the code does not load). */
  static async open(code: string, seed: number): Promise<{ sandbox: Sandbox; error: string | null }> {
    const sandbox = new Sandbox(code, seed);
    const loaded = sandbox.#wait((m) => m.type === 'loaded');
    document.body.append(sandbox.frame);
    await loaded;
    const error = await sandbox.#boot();
    return { sandbox, error };
  }

  /** Hears the first message `want` accepts. */
  #wait(want: (m: FromFrame) => boolean): Promise<FromFrame> {
    return new Promise((done) => {
      const l = (m: FromFrame) => {
        if (!want(m)) return;
        this.#listeners.delete(l);
        done(m);
      };
      this.#listeners.add(l);
    });
  }

  #send(m: ToWorker | { type: 'kill' } | { type: 'boot'; script: string; init: ToWorker }, transfer: Transferable[] = []): void {
    this.frame.contentWindow?.postMessage(m, '*', transfer);
  }

  /** Starts a worker: the error of the player's code, if any. */
  async #boot(): Promise<string | null> {
    const { script, bytes } = await loadAssets();
    const ready = this.#wait((m) => m.type === 'ready' || m.type === 'crashed');
    const copy = bytes.slice(0);
    this.#send({ type: 'boot', script, init: { type: 'init', bytes: copy, code: this.code, seed: this.seed } }, [copy]);
    const m = await ready;
    return m.type === 'ready' ? m.error : `the player's worker did not start: ${m.type === 'crashed' ? m.message : ''}`;
  }

  /** Sends `message` and waits `clock` ms at most for the answer. */
  async post(message: string, clock: number): Promise<Ran> {
    const kind = messageKind(message);
    const start = performance.now();
    const answered = await this.#ask(message, false, clock);
    const millis = performance.now() - start;
    if (kind === 'start') this.#kept = [message];
    else if (kind === 'play') this.#kept.push(message);
    else if (kind === 'stop' || kind === 'abort') this.#kept = [];
    if (answered === 'late') {
      // The worker is stopped; a new one follows the match up to here, for the next message.
      this.#send({ type: 'kill' });
      await this.#restart();
      return { reply: null, failure: { kind: 'timeout', millis: clock }, logs: [], millis };
    }
    if (answered === 'crashed') {
      await this.#restart();
      return { reply: null, failure: { kind: 'failed', why: 'the player stopped: its worker crashed' }, logs: [], millis };
    }
    const failure: NoReply | null = answered.failed !== null ? { kind: 'failed', why: answered.failed } : null;
    return { reply: answered.reply, failure, logs: answered.logs, millis };
  }

  /** The worker's answer to one message, or `late` when `clock` ms (if any) run out first. */
  #ask(message: string, follow: boolean, clock: number | null): Promise<Answer | 'late' | 'crashed'> {
    const id = this.#next++;
    const answer = this.#wait((m) => (m.type === 'answer' && m.id === id) || m.type === 'crashed').then((m) => (m.type === 'answer' ? m.answer : 'crashed' as const));
    this.#send({ type: 'message', id, message, follow });
    if (clock === null) return answer;
    return Promise.race([answer, new Promise<'late'>((done) => setTimeout(() => done('late'), clock))]);
  }

  async #restart(): Promise<void> {
    await this.#boot();
    for (const m of this.#kept) await this.#ask(m, true, null);
  }

  /** Ends the worker and removes the iframe. */
  close(): void {
    this.#closed = true;
    this.#send({ type: 'kill' });
    removeEventListener('message', this.#onMessage);
    this.frame.remove();
  }
}
