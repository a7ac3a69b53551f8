// GDL Playground's page: starts the engine (gdl-wasm) and the app (app.ts) on the rules a
// share link, the autosave or the default example gives, and publishes the figures the
// browser tests and the benchmark read.

import './style.css';
import { App, type Metrics } from './app';
import { byId } from './dom';
import { capabilities, errorMessage, startEngine } from './engine/engine';
import { groundMetrics } from './ground/ground';
import { initLayout } from './layout';
import { showBanner, toast } from './notices';
import { registerOffline } from './offline';
import { startingPoint } from './storage/starting-point';
import { loadSaved } from './storage/storage';
import { openPlayerLink, wireMyPlayers } from './student/panel';

/** Figures read by the browser tests and the benchmark. */
const metrics: Metrics & { readyMs: number; ground: typeof groundMetrics } = { readyMs: 0, lastUpdateMs: 0, loads: 0, text: () => '', ground: groundMetrics };
(window as unknown as { gdlPlayground: typeof metrics }).gdlPlayground = metrics;

async function boot(): Promise<void> {
  initLayout();
  // A link that brings a player (not a game) opens it in My players, waiting for Run.
  openPlayerLink(location.hash);
  wireMyPlayers();
  const { start, scale, linkError, fromLink } = startingPoint();
  if (linkError) showBanner(`${linkError} Showing ${loadSaved() ? 'your last saved rules' : 'tic-tac-toe'} instead.`);
  const module = await startEngine();
  new App(module, capabilities(), start, scale, metrics);
  if (fromLink) toast('Opened the shared game.');
  metrics.readyMs = performance.now();
  document.body.dataset.ready = 'true';
  registerOffline();
}

boot().catch((e) => {
  byId('status').textContent = 'The engine could not start.';
  showBanner(`The engine could not start: ${errorMessage(e)}. Try a recent version of Chrome, Firefox, Safari or Edge.`);
});
