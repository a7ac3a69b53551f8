// Shared by the browser tests and the benchmark: serve web/dist on a free localhost port
// and drive the Debian chromium through npm playwright-core (nothing is downloaded).

import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
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
