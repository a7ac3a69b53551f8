// Browser tests of boards people recognise and of deployment: a chess board with Unicode
// pieces on light and dark squares, an othello-like board of stones, an obfuscated game whose
// empty marker is inferred, the person's display mapping (kept by share links and reloads),
// the page served from a sub-path (/sub/path/) and working offline after a first visit.
// Screenshots: artifacts/board-*.png.

import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DIST, startServer } from '../../web/serve.mjs';
import { cell, openPage, setRules, shot, useBrowser } from './lib.mjs';

const env = useBrowser();

const CORPUS_CHESS = new URL('../../../shared/corpus/ggp-base/chess.kif', import.meta.url);

/** A game where two roles take turns putting their mark on an empty cell of a side×side board. */
function placementGame({ roles: [a, b], rel, empty, move, side, start }) {
  const lines = [`; Placement: ${a} and ${b} take turns filling empty cells of a ${side}x${side} board.`, `(role ${a})`, `(role ${b})`, `(init (control ${a}))`];
  for (let x = 1; x <= side; x++) for (let y = 1; y <= side; y++) lines.push(`(init (${rel} ${x} ${y} ${start[`${x} ${y}`] ?? empty}))`);
  lines.push(
    `(<= (legal ?r (${move} ?x ?y)) (true (control ?r)) (true (${rel} ?x ?y ${empty})))`,
    `(<= (legal ?r noop) (role ?r) (not (true (control ?r))))`,
    `(<= (next (${rel} ?x ?y ?r)) (does ?r (${move} ?x ?y)))`,
    `(<= (next (${rel} ?x ?y ?p)) (true (${rel} ?x ?y ?p)) (not (taken ?x ?y)))`,
    `(<= (taken ?x ?y) (does ?r (${move} ?x ?y)))`,
    `(<= (next (control ${b})) (true (control ${a})))`,
    `(<= (next (control ${a})) (true (control ${b})))`,
    `(<= open (true (${rel} ?x ?y ${empty})))`,
    `(<= terminal (not open))`,
    `(<= (goal ?r 50) (role ?r))`,
  );
  return lines.join('\n') + '\n';
}

const cellText = (page, x, y) => cell(page, x, y).evaluate((el) => el.textContent);

/** Loads `rules` into a fresh page and waits for its board. */
async function withGame(rules, cells) {
  const opened = await openPage(env.browser, env.url);
  await setRules(opened.page, rules);
  await opened.page.waitForFunction((n) => document.querySelectorAll('#board button.cell').length === n, cells, { timeout: 30_000 });
  return opened;
}

test('a chess game shows Unicode pieces on a chequered board', async () => {
  // The corpus's chess (../shared beside the repository): the test fails without it.
  const rules = await readFile(CORPUS_CHESS, 'utf8');
  const { context, page, errors } = await withGame(rules, 64);
  const board = page.locator('#board');
  assert.equal(await board.getAttribute('data-scheme'), 'chess');
  assert.match(await board.getAttribute('class'), /\bchequered\b/);
  assert.equal(await page.locator('#board button.cell.dark').count(), 32);
  // a1 is a dark square with a white rook, e8 the black king; the middle is empty.
  assert.match(await cell(page, 'a', 1).getAttribute('class'), /\bdark\b/);
  assert.equal(await cellText(page, 'a', 1), '♖\uFE0E');
  assert.equal(await cellText(page, 'e', 1), '♔\uFE0E');
  assert.equal(await cellText(page, 'e', 8), '♚\uFE0E');
  assert.equal(await cellText(page, 'g', 8), '♞\uFE0E');
  assert.equal(await cellText(page, 'd', 7), '♟\uFE0E');
  assert.equal(await cellText(page, 'e', 4), '');
  assert.equal(await cell(page, 'e', 4).getAttribute('aria-label'), 'cell e 4: empty');
  await page.locator('#board-flip').click();
  await shot(page, 'board-chess');
  // A pawn moves from e2 to e4 with two clicks.
  await cell(page, 'e', 2).click();
  await cell(page, 'e', 4).click();
  await page.waitForFunction(() => document.querySelector('#board [data-x="e"][data-y="4"]')?.textContent === '♙\uFE0E');
  assert.equal(await cellText(page, 'e', 2), '');
  assert.deepEqual(errors, []);
  await context.close();
});

test('an othello-like game of x and o shows black and white stones', async () => {
  const start = { '4 4': 'o', '5 5': 'o', '4 5': 'x', '5 4': 'x' };
  const { context, page, errors } = await withGame(placementGame({ roles: ['x', 'o'], rel: 'cell', empty: 'b', move: 'place', side: 8, start }), 64);
  assert.equal(await page.locator('#board').getAttribute('data-scheme'), 'stones');
  assert.equal(await page.locator('#board .disc').count(), 4);
  // Read in one step in the page: the board may be drawn again meanwhile (the engine `auto`
  // picks arrives after the first drawing), which detaches the element a locator found.
  const colour = (x, y) =>
    page
      .waitForFunction(
        ([x, y]) => {
          const disc = document.querySelector(`#board [data-x="${x}"][data-y="${y}"] .disc`);
          return disc && getComputedStyle(disc).backgroundColor;
        },
        [String(x), String(y)],
      )
      .then((h) => h.jsonValue());
  // x moves first: black.
  assert.equal(await colour(4, 5), 'rgb(32, 33, 36)');
  assert.equal(await colour(4, 4), 'rgb(255, 255, 255)');
  await cell(page, 3, 4).click();
  assert.equal(await page.locator('#board .disc').count(), 5);
  assert.equal(await colour(3, 4), 'rgb(32, 33, 36)');
  assert.equal(await cellText(page, 1, 1), '');
  await shot(page, 'board-othello');
  assert.deepEqual(errors, []);
  await context.close();
});

test('an obfuscated game: the inferred empty marker is not drawn; a mapping of its own travels with the link', async () => {
  const rules = placementGame({ roles: ['alpha', 'omega'], rel: 'zqrt', empty: 'mung', move: 'dropit', side: 4, start: { '2 2': 'omega' } }).toUpperCase();
  const a = await withGame(rules, 16);
  assert.equal(await cellText(a.page, 1, 1), '');
  assert.equal(await cell(a.page, 1, 1).getAttribute('aria-label'), 'zqrt 1 1: empty');
  assert.equal(await cellText(a.page, 2, 2), 'omega');
  await cell(a.page, 3, 3).click();
  assert.equal(await cellText(a.page, 3, 3), 'alpha');
  await shot(a.page, 'board-obfuscated');

  // The Pieces panel: alpha becomes a red star, omega a blue stone.
  await a.page.locator('#board-pieces').click();
  const row = (v) => a.page.locator(`#board-display tr[data-value="${v}"]`);
  assert.equal(await row('mung').locator('select').inputValue(), 'auto');
  assert.match(await a.page.locator('#board-display').textContent(), /Empty cells hold mung/);
  await row('alpha').locator('select').selectOption('text');
  await row('alpha').locator('input[type="text"]').fill('★');
  await row('alpha').locator('input[type="color"]').fill('#cc0000');
  await row('omega').locator('select').selectOption('stone');
  await row('omega').locator('input[type="color"]').fill('#1a73e8');
  assert.equal(await cellText(a.page, 3, 3), '★');
  assert.equal(await cell(a.page, 3, 3).locator('.mark').evaluate((el) => getComputedStyle(el).color), 'rgb(204, 0, 0)');
  assert.equal(await cell(a.page, 2, 2).locator('.disc').evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(26, 115, 232)');
  await shot(a.page, 'board-obfuscated-mapped');

  // Saved in the browser: a reload keeps it.
  await a.page.waitForTimeout(400);
  await a.page.reload();
  await a.page.waitForSelector('body[data-ready="true"]');
  assert.equal(await cellText(a.page, 3, 3), '★');

  // And in the share link.
  await a.page.locator('#share').click();
  const link = await a.page.locator('#share-link').inputValue();
  assert.deepEqual(a.errors, []);
  await a.context.close();
  const b = await openPage(env.browser, link);
  assert.equal(await cellText(b.page, 3, 3), '★');
  assert.equal(await cell(b.page, 2, 2).locator('.disc').count(), 1);
  // Back to automatic, one value and then all.
  await b.page.locator('#board-pieces').click();
  await b.page.locator('#board-display tr[data-value="alpha"] select').selectOption('auto');
  assert.equal(await cellText(b.page, 3, 3), 'alpha');
  assert.equal(await b.page.locator('#board-display tr[data-value="alpha"] .glyph-preview').textContent(), 'alpha');
  await b.page.locator('#board-display button', { hasText: 'All automatic' }).click();
  assert.equal(await cell(b.page, 2, 2).locator('.disc').count(), 0);
  assert.equal(await cellText(b.page, 2, 2), 'omega');
  assert.deepEqual(b.errors, []);
  await b.context.close();
});

/** Runs 50 playouts in the playouts worker and waits for the result. */
async function runPlayouts(page) {
  await page.locator('#tab-playouts').click();
  await page.locator('#po-count').fill('50');
  await page.locator('#po-run').click();
  await page.locator('#po-results .phase.done').waitFor({ timeout: 60_000 });
}

/** Serves a copy of web/dist at /sub/path/; `stop()` closes the server, `dir` is the copy. */
async function servedCopy() {
  const dir = await mkdtemp(join(tmpdir(), 'gdl-dist-'));
  await cp(DIST, dir, { recursive: true });
  const { url, server } = await startServer({ root: dir, base: '/sub/path/' });
  const stop = () =>
    new Promise((ok) => {
      server.close(ok);
      server.closeAllConnections();
    });
  return { url, dir, stop, clean: () => rm(dir, { recursive: true, force: true }) };
}

test('the page works served from /sub/path/: engine, board, workers', async () => {
  const site = await servedCopy();
  assert.match(site.url, /\/sub\/path\/$/);
  const { context, page, errors } = await openPage(env.browser, site.url);
  const failed = [];
  page.on('requestfailed', (r) => failed.push(r.url()));
  page.on('response', (r) => r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`));
  assert.match(await page.locator('#status').textContent(), /Valid/);
  await cell(page, 2, 2).click();
  assert.equal(await cell(page, 2, 2).getAttribute('aria-label'), 'cell 2 2: x');
  // A worker (loaded relative to the page) runs playouts.
  await runPlayouts(page);
  assert.deepEqual(failed, []);
  assert.deepEqual(errors, []);
  await context.close();
  await site.stop();
  await site.clean();
});

test('after a first visit the page works offline, and a new deploy replaces the old cache', async () => {
  const site = await servedCopy();
  const { context, page, errors } = await openPage(env.browser, site.url);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  const caches1 = await page.evaluate(() => caches.keys());
  assert.equal(caches1.length, 1);
  assert.match(caches1[0], /^gdl-playground-[0-9a-f]{16}$/);

  // A new deploy (another version in sw.js): the next visit installs it and drops the old cache.
  const sw = join(site.dir, 'sw.js');
  await writeFile(sw, (await readFile(sw, 'utf8')).replace(/"version":"[0-9a-f]+"/, '"version":"0123456789abcdef"'));
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForFunction(async () => (await caches.keys()).join() === 'gdl-playground-0123456789abcdef', null, { timeout: 15_000 });

  // The server stops: the page, the engine and the workers still load from the cache.
  await site.stop();
  await assert.rejects(fetch(site.url));
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
  assert.match(await page.locator('#status').textContent(), /Valid/);
  await cell(page, 1, 1).click();
  assert.equal(await cell(page, 1, 1).getAttribute('aria-label'), 'cell 1 1: x');
  await runPlayouts(page);
  await shot(page, 'offline');
  assert.deepEqual(errors, []);
  await context.close();
  await site.clean();
});
