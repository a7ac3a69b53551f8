// Shared by the browser tests and the benchmark: serve web/dist on a free localhost port
// and drive the Debian chromium through npm playwright-core (nothing is downloaded).

import { mkdirSync } from 'node:fs';
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

/** A fresh context (empty localStorage) on `url`, waiting until the page says it is ready. */
export async function openPage(browser, url, { viewport = { width: 1440, height: 900 } } = {}) {
  const context = await browser.newContext({ viewport });
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
