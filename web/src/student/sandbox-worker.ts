// The worker a student's player runs in, inside the sandboxed iframe of sandbox.ts (started as
// a classic worker from its bundle, which imports nothing: keep it so). It starts
// the engine from the bytes it is given (it fetches nothing), reads the player's code, and
// answers each GGP message with the API's runner (api.ts). It only ever hears the messages
// the referee sends its role.

import { PlayerGame, initSync, messageKind } from '../../pkg/gdl_wasm.js';
import { PlayerRunner, loadPlayer, type Answer, type PlayerEngine } from './api';

/** What the sandbox tells the worker: start (engine bytes, the player's code, a seed), then messages. */
export type ToWorker = { type: 'init'; bytes: ArrayBuffer; code: string; seed: number } | { type: 'message'; id: number; message: string; follow: boolean };
export type FromWorker = { type: 'ready'; error: string | null } | { type: 'answer'; id: number; answer: Answer };

const engine: PlayerEngine = { startGame: (start, seed) => new PlayerGame(start, seed), messageKind };
let runner: PlayerRunner | null = null;
let broken = 'the player has not started';

const reply = (m: FromWorker) => postMessage(m);

onmessage = (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  if (m.type === 'init') {
    try {
      initSync({ module: m.bytes });
      runner = new PlayerRunner(engine, loadPlayer(m.code), () => performance.now(), m.seed);
      return reply({ type: 'ready', error: null });
    } catch (err) {
      broken = `the player's code does not load: ${err instanceof Error ? err.message : String(err)}`;
      return reply({ type: 'ready', error: broken });
    }
  }
  const answer = runner ? runner.answer(m.message, m.follow) : { reply: null, failed: broken, logs: [] };
  reply({ type: 'answer', id: m.id, answer });
};
