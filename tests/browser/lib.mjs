// Shared by the browser tests and the benchmark: serve web/dist on a free localhost port
// and drive the Debian chromium through npm playwright-core (nothing is downloaded).

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../web/serve.mjs';

const require = createRequire(new URL('../../web/package.json', import.meta.url));
const { chromium } = require('playwright-core');

export const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));
mkdirSync(ARTIFACTS, { recursive: true });

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

export async function launch() {
  const { url, server } = await startServer();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-gpu', '--no-first-run'],
  });
  return {
    url,
    browser,
    async close() {
      await browser.close();
      await new Promise((ok) => server.close(ok));
    },
  };
}

/** A fresh context (empty localStorage) on `url`, waiting until the page says it is ready.
 * `bypassCSP` lets a test inject a script of its own (the accessibility audit). */
export async function openPage(browser, url, { viewport = { width: 1440, height: 900 }, bypassCSP = false } = {}) {
  const context = await browser.newContext({ viewport, bypassCSP });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
  return { context, page, errors };
}

/** Starts the server and the browser before a test file's tests and stops them after;
 * the returned object gets `url` and `browser`. */
export function useBrowser() {
  const env = {};
  before(async () => Object.assign(env, await launch()));
  after(async () => env.close?.());
  return env;
}

export const shot = (page, name) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });

export const cell = (page, x, y) => page.locator(`#board button.cell[data-x="${x}"][data-y="${y}"]`);

/** Replaces the editor's text as a person pasting would. */
export async function setRules(page, text) {
  await page.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(text);
}

/** A walk of 80 cells whose moves read a static relation of 80³ facts: past the facts `auto`
 * allows a grounding (it plays on the reasoner), within the grounder's own limits. */
export const TRIO = (() => {
  const n = Array.from({ length: 80 }, (_, i) => `(n ${i})`).join(' ');
  const succ = Array.from({ length: 79 }, (_, i) => `(succ ${i} ${i + 1})`).join(' ');
  return `(role p) ${n}\n${succ}\n(init (at 0)) (init (time 0))\n(<= (trio ?a ?b ?c) (n ?a) (n ?b) (n ?c))\n` +
    '(<= (legal p (go ?b)) (true (at ?a)) (succ ?a ?b) (trio ?a ?b ?b))\n(<= (legal p stay) (true (at ?a)))\n' +
    '(<= (next (at ?b)) (does p (go ?b)))\n(<= (next (at ?a)) (does p stay) (true (at ?a)))\n' +
    '(<= (next (time ?u)) (true (time ?t)) (succ ?t ?u))\n(<= terminal (true (at 20)))\n(<= terminal (true (time 30)))\n' +
    '(<= (goal p 100) (true (at 20)))\n(<= (goal p 0) (not (true (at 20))))\n';
})();

/** The root of the repository and ../shared beside it. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SHARED = join(ROOT, '../shared');

/** Why Java cannot run here (scripts/setup.sh need_java installs it), or null when it can. */
export function javaMissing() {
  const run = spawnSync('java', ['-version']);
  return run.status === 0 ? null : 'java is not installed (scripts/setup.sh need_java installs it)';
}

/** Waits for a line of `stream` that `wanted` matches; rejects when the stream ends first. */
function lineOf(stream, wanted, what) {
  return new Promise((ok, fail) => {
    let text = '';
    const hear = (chunk) => {
      text += chunk;
      // Whole lines only: a chunk may end inside one.
      const line = text.split('\n').slice(0, -1).find((l) => wanted.test(l));
      if (line) {
        stream.off('data', hear);
        stream.resume();
        ok(line);
      }
    };
    stream.setEncoding('utf8');
    stream.on('data', hear);
    stream.on('end', () => fail(new Error(`${what} stopped before it was ready:\n${text}`)));
  });
}

/** The command line, as `cargo test` builds it (target/debug/gdl); a missing one fails the test. */
export function gdlBinary() {
  const gdl = join(ROOT, 'target/debug/gdl');
  if (!existsSync(gdl)) throw new Error(`${gdl} is missing: build it with cargo build -p gdl-cli`);
  return gdl;
}

/** `gdl player` on a free loopback port: `{url, stop, said}` (`said()`: its messages since). */
export async function startGdlPlayer(args = []) {
  const child = spawn(gdlBinary(), ['player', '--port', '0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  const line = await lineOf(child.stderr, /listening on http:\/\//, 'gdl player');
  // What it says after, for a test that fails.
  const said = [];
  child.stderr.on('data', (chunk) => said.push(chunk));
  return { url: `http://${line.split('http://')[1].trim()}`, stop: () => child.kill(), said: () => said.join('') };
}

/** Jocular (../shared/ggp-referee/jocular.jar) on a free loopback port: `{url, stop}`. It
 * sends no CORS headers: the page reaches it through the relay of web/serve.mjs. */
export async function startJocular() {
  const port = await new Promise((ok) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => ok(port));
    });
  });
  const jar = join(SHARED, 'ggp-referee/jocular.jar');
  if (!existsSync(jar)) throw new Error(`${jar} is missing: the remote player tests need ../shared`);
  const child = spawn('java', ['-jar', jar, '--daemon', `--port=${port}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  // Jocular says on stderr when it listens (a probe connection would upset it).
  await lineOf(child.stderr, /Awaiting incoming connections/, 'Jocular');
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}
