// Solving and analysis tasks for the page: each runs in a fresh worker (analysis-worker.ts)
// that is terminated when it answers or when the user cancels.

import { startJob, type Job } from '../engine/jobs';
import type { AnalysisReply, AnalysisRequest } from './analysis-worker';

/** A task at work in its worker: `stop` cancels it. */
export type Running = Job<AnalysisRequest>;

/** Runs one task; `done` gets the worker's reply (not called after `stop`). */
export function runTask(request: AnalysisRequest, done: (reply: AnalysisReply) => void): Running {
  const worker = new Worker(new URL('./analysis-worker.ts', import.meta.url), { type: 'module', name: 'analyses' });
  return startJob(worker, request, done, (message): AnalysisReply => ({ type: 'error', message }));
}
