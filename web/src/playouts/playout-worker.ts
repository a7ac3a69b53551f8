// The playouts worker: runs random playouts in batches sized to take about 50 ms, reports
// totals after each batch, and looks for Cancel between batches, so the page never freezes.
// A worker asked to `upgrade` plays on the network (the rest of the run, handed over by the
// page) if `auto` picks it, or if `auto` kept the reasoner for its own bounds and the game,
// ground in full first, gives a network measured faster.

import { errorMessage, mergePlayouts, type Session } from '../engine/engine';
import { openSession, startOnce } from '../engine/worker-kit';
import { emptyTotals, type FromWorker, type Handover, type RunRequest, type ToWorker, type Totals } from './protocol';

const BATCH_MS = 50;
let cancelled = false;
/** Resolves the wait of a worker that moved to the network for the rest of the run. */
let handOver: ((h: Handover) => void) | null = null;

const post = (m: FromWorker) => postMessage(m);

/** Lets queued messages (Cancel) in without the 4 ms clamp of nested timers. */
function yieldToMessages(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve();
    ch.port2.postMessage(null);
  });
}

async function run(req: RunRequest): Promise<void> {
  let session: Session | null = null;
  let totals: Totals | null = null;
  try {
    startOnce(req.module);
    const opened = openSession(req.rules, req.engine);
    session = opened.session;
    let { count, seconds } = req;
    if (req.upgrade) {
      const handover = new Promise<Handover>((resolve) => (handOver = resolve));
      const u = session.upgrade();
      post({ type: 'upgraded', moved: u.moved, note: u.note });
      if (!u.moved) return;
      ({ count, seconds } = await handover);
    } else {
      post({ type: 'engine', note: opened.note });
    }
    session.seed(req.seed);
    totals = emptyTotals(opened.roles);
    const start = performance.now();
    let batch = 1;
    let lastReport = 0;
    while (!cancelled) {
      const want = count === null ? batch : Math.min(batch, count - totals.playouts);
      if (want <= 0) break;
      if (seconds !== null && seconds <= 0) break;
      const t0 = performance.now();
      Object.assign(totals, mergePlayouts(totals, session.playouts(want, req.maxSteps)));
      const dt = performance.now() - t0;
      batch = Math.max(1, Math.min(100_000, Math.round(batch * Math.min(4, BATCH_MS / Math.max(dt, 0.5)))));
      totals.elapsedMs = performance.now() - start;
      totals.progress = count !== null ? totals.playouts / count : Math.min(1, totals.elapsedMs / (1000 * (seconds ?? 1)));
      if (seconds !== null && totals.elapsedMs >= seconds * 1000) break;
      if (totals.elapsedMs - lastReport >= 100) {
        lastReport = totals.elapsedMs;
        post({ type: 'progress', totals });
      }
      await yieldToMessages();
    }
    totals.elapsedMs = performance.now() - start;
    post({ type: 'done', totals, cancelled });
  } catch (e) {
    post({ type: 'error', message: errorMessage(e), totals });
  } finally {
    handOver = null;
    session?.free();
  }
}

onmessage = (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  if (m.type === 'cancel') {
    cancelled = true;
    handOver?.({ count: 0, seconds: 0 });
  } else if (m.type === 'handover') {
    handOver?.({ count: m.count, seconds: m.seconds });
  } else {
    cancelled = false;
    void run(m);
  }
};
