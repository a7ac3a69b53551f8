// The grounding worker: grounds the rules off the page's thread and reports each phase as it
// starts. Cancel terminates the worker (grounding is one synchronous call).

import { api, errorMessage, startEngineSync } from './engine';
import type { GroundView } from './engine';

export type GroundRequest = { module: WebAssembly.Module; text: string; syntax: 'prefix' | 'infix' };
export type GroundReply = { type: 'phase'; phase: string } | { type: 'done'; view: GroundView; ms: number } | { type: 'error'; message: string };

let started = false;

onmessage = (e: MessageEvent<GroundRequest>) => {
  const { module, text, syntax } = e.data;
  const post = (m: GroundReply) => postMessage(m);
  try {
    if (!started) {
      startEngineSync(module);
      started = true;
    }
    const t0 = performance.now();
    const view = api.ground(text, syntax, (phase) => post({ type: 'phase', phase }));
    post({ type: 'done', view, ms: performance.now() - t0 });
  } catch (err) {
    post({ type: 'error', message: errorMessage(err) });
  }
};
