// The playouts worker: runs random playouts in batches sized to take about 50 ms, reports
// totals after each batch, and looks for Cancel between batches, so the page never freezes.

import { Session, api, errorMessage, startEngineSync } from './engine';
import { emptyTotals, merge, type FromWorker, type RunRequest, type ToWorker, type Totals } from './playout-protocol';

const BATCH_MS = 50;
let started = false;
let cancelled = false;

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
  if (!started) {
    startEngineSync(req.module);
    started = true;
  }
  const session = new Session();
  let totals: Totals | null = null;
  try {
    const loaded = api.load(session, req.rules);
    if (!loaded.ok) throw new Error('the rules have errors: fix them first');
    post({ type: 'engine', note: req.engine === 'reasoner' ? 'reasoner' : session.setEngine(req.engine) });
    session.seed(req.seed);
    totals = emptyTotals(loaded.roles.length);
    const start = performance.now();
    let batch = 1;
    let lastReport = 0;
    while (!cancelled) {
      const want = req.count === null ? batch : Math.min(batch, req.count - totals.playouts);
      if (want <= 0) break;
      const t0 = performance.now();
      merge(totals, api.playouts(session, want, req.maxSteps));
      const dt = performance.now() - t0;
      batch = Math.max(1, Math.min(100_000, Math.round(batch * Math.min(4, BATCH_MS / Math.max(dt, 0.5)))));
      totals.elapsedMs = performance.now() - start;
      totals.progress = req.count !== null ? totals.playouts / req.count : Math.min(1, totals.elapsedMs / (1000 * (req.seconds ?? 1)));
      if (req.seconds !== null && totals.elapsedMs >= req.seconds * 1000) break;
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
    session.free();
  }
}

onmessage = (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  if (m.type === 'cancel') cancelled = true;
  else {
    cancelled = false;
    void run(m);
  }
};
