// The analyses worker: solving a position, checking a game's requirements, checking a lesson
// and working out what a role knows (GDL-II) run here, off the page's thread. The game is
// loaded into a session of its own, on the engine `auto` picked (the propositional network
// when the game grounds), and the moves replayed; Cancel terminates the worker (each task is
// one synchronous call).

import { Session } from '../engine/engine';
import { openSession, serve, startOnce } from '../engine/worker-kit';
import type { AnalysisReport, Knowledge, Solution } from '../engine/engine';
import { checkLesson, type Verdict } from '../lessons/check';
import type { Requirement } from '../lessons/data';

export type AnalysisTask =
  /** `millis` counts from `requestedAt` (Date.now()): loading the game comes out of it. */
  | { kind: 'solve'; budget: number; millis: number; requestedAt: number }
  | { kind: 'analyze'; maxStates: number; playouts: number; maxSteps: number; seed: number }
  | { kind: 'lesson'; requirements: Requirement[] }
  /** GDL-II: what `role` knows after `moves` (its information set, exact up to `limit` states). */
  | { kind: 'knows'; role: string; limit: number; seed: number };
/** `engine`: the engine `auto` picked on the page (`auto` if not known yet). */
export type AnalysisRequest = { module: WebAssembly.Module; rules: string; engine: string; moves: string[][]; task: AnalysisTask };
export type AnalysisReply =
  | { type: 'solved'; solution: Solution; ms: number }
  | { type: 'analyzed'; report: AnalysisReport; ms: number }
  | { type: 'checked'; verdicts: Verdict[] }
  | { type: 'knows'; knowledge: Knowledge }
  | { type: 'error'; message: string };

serve<AnalysisRequest>(({ module, rules, engine, moves, task }) => {
  const post = (m: AnalysisReply) => postMessage(m);
  startOnce(module);
  if (task.kind === 'lesson') return post({ type: 'checked', verdicts: checkLesson(new Session(), task.requirements, rules) });
  const { session } = openSession(rules, engine, moves);
  if (task.kind === 'knows') return post({ type: 'knows', knowledge: session.knows(task.role, task.limit, task.seed) });
  const t0 = performance.now();
  if (task.kind === 'solve') post({ type: 'solved', solution: session.solve(task.budget, Math.max(1, task.millis - (Date.now() - task.requestedAt))), ms: performance.now() - t0 });
  else post({ type: 'analyzed', report: session.analyze(task.maxStates, task.playouts, task.maxSteps, task.seed), ms: performance.now() - t0 });
}, (message): AnalysisReply => ({ type: 'error', message }));
