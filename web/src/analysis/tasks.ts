// Solving and analysis tasks for the page: each runs in a fresh worker (analysis-worker.ts)
// that is terminated when it answers or when the user cancels.

import type { AnalysisReply, AnalysisRequest } from './analysis-worker';

export interface Running {
  cancel(): void;
}

/** Runs one task; `done` gets the worker's reply (not called after `cancel`). */
export function runTask(request: AnalysisRequest, done: (reply: AnalysisReply) => void): Running {
  const worker = new Worker(new URL('./analysis-worker.ts', import.meta.url), { type: 'module', name: 'analyses' });
  worker.onmessage = (e: MessageEvent<AnalysisReply>) => {
    worker.terminate();
    done(e.data);
  };
  worker.onerror = (e) => {
    worker.terminate();
    done({ type: 'error', message: e.message });
  };
  worker.postMessage(request);
  return { cancel: () => worker.terminate() };
}
