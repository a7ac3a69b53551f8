// Browser tests of boards people recognise and of deployment: a chess board with Unicode
// pieces on light and dark squares, white at the bottom; the corpus's chess with its files and
// ranks renamed and its facts shuffled, drawn in the game's own order (a move of one file
// moves one column); checkers as discs on dark squares; an othello whose empty cells are
// `green` on a green board; dots and boxes as lines between dots; an othello-like board of
// stones, an obfuscated game whose empty marker is inferred, the person's display mapping
// (kept by share links and reloads), the page served from a sub-path (/sub/path/) and working
// offline after a first visit. Screenshots: artifacts/board-*.png.

import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DIST, startServer } from '../../web/serve.mjs';
import { cell, openPage, setRules, shot, useBrowser } from './lib.mjs';

const env = useBrowser();

const CORPUS_CHESS = new URL('../../../shared/corpus/ggp-base/chess.kif', import.meta.url);
const CORPUS_DOTS = new URL('../../../shared/corpus/ggp-repository/dotsAndBoxes.kif', import.meta.url);
const GAMES = new URL('../../games/', import.meta.url);

/** `text` without comments, every symbol renamed by `names` (whole symbols only). */
function renamed(text, names) {
  return text.replace(/;[^\n]*/g, '').replace(/[^\s()]+/g, (w) => (Object.hasOwn(names, w) ? names[w] : w));
}

/** The top-level forms of `text` (no comments) in an order shuffled by a seeded generator. */
function shuffledForms(text, seed = 7) {
  const forms = [];
  let depth = 0;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(' && depth++ === 0) start = i;
    else if (text[i] === ')' && --depth === 0) forms.push(text.slice(start, i + 1));
  }
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648);
  for (let i = forms.length - 1; i > 0; i--) {
    const j = next() % (i + 1);
    [forms[i], forms[j]] = [forms[j], forms[i]];
  }
  return forms.join('\n') + '\n';
}

/** The middle of an element on the page (asked again if the board was just drawn anew). */
async function centre(locator) {
  for (let i = 0; ; i++) {
    await locator.waitFor();
    const b = await locator.boundingBox();
    if (b) return { x: b.x + b.width / 2, y: b.y + b.height / 2, width: b.width, height: b.height };
    if (i === 5) throw new Error(`${locator} has no box`);
  }
}

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
  // White at the bottom, the a-file on the left.
  const [a1, a8, h1] = await Promise.all([centre(cell(page, 'a', 1)), centre(cell(page, 'a', 8)), centre(cell(page, 'h', 1))]);
  assert.ok(a1.y > a8.y && h1.x > a1.x, 'white is drawn at the bottom');
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
  // Roles are drawn by their initials (full name on hover).
  assert.equal(await cellText(a.page, 2, 2), 'O');
  assert.equal(await cell(a.page, 2, 2).locator('.mark').getAttribute('title'), 'omega');
  await cell(a.page, 3, 3).click();
  assert.equal(await cellText(a.page, 3, 3), 'A');
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
  assert.equal(await cellText(b.page, 3, 3), 'A');
  assert.equal(await b.page.locator('#board-display tr[data-value="alpha"] .glyph-preview').textContent(), 'A');
  await b.page.locator('#board-display button', { hasText: 'All automatic' }).click();
  assert.equal(await cell(b.page, 2, 2).locator('.disc').count(), 0);
  assert.equal(await cellText(b.page, 2, 2), 'O');
  assert.deepEqual(b.errors, []);
  await b.context.close();
});

test('chess with renamed files and ranks and shuffled facts is drawn in its own order: a move of one file moves one column', async () => {
  const files = ['zulu', 'kilo', 'bravo', 'yankee', 'alpha', 'mike', 'echo', 'delta'];
  const ranks = ['uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho'];
  const names = Object.fromEntries([...files.map((f, i) => ['abcdefgh'[i], f]), ...ranks.map((r, i) => [String(i + 1), r])]);
  const rules = shuffledForms(renamed(await readFile(CORPUS_CHESS, 'utf8'), names));
  const { context, page, errors } = await withGame(rules, 64);
  assert.equal(await page.locator('#board').getAttribute('data-scheme'), 'chess');
  // Column headers in the game's order (next_file), rows from the eighth rank down to the first.
  const labels = await page.locator('#board .label').evaluateAll((els) => els.map((e) => e.getAttribute('title')));
  assert.deepEqual(labels.slice(0, 8), files);
  assert.deepEqual(labels.slice(8), [...ranks].reverse());
  // Labels fit: no header wider than its column.
  const overflow = await page.locator('#board .label').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).length);
  assert.equal(overflow, 0);
  // a1 is a dark square, as on a chessboard.
  assert.match(await cell(page, 'zulu', 'uno').getAttribute('class'), /\bdark\b/);
  // The knight from g1 to f3: one column to the left, two rows up.
  const [g1, f3] = [cell(page, 'echo', 'uno'), cell(page, 'mike', 'tres')];
  const [from, to] = [await centre(g1), await centre(f3)];
  assert.equal(await cellText(page, 'echo', 'uno'), '♘\uFE0E');
  await g1.click();
  await f3.click();
  await page.waitForFunction(() => document.querySelector('#board [data-x="mike"][data-y="tres"]')?.textContent === '♘\uFE0E');
  assert.ok(Math.abs(from.x - to.x - from.width) < 2, `one column: ${from.x - to.x} px for cells of ${from.width} px`);
  assert.ok(Math.abs(from.y - to.y - 2 * from.height) < 3, `two rows: ${from.y - to.y} px`);
  await shot(page, 'board-chess-renamed');
  assert.deepEqual(errors, []);
  await context.close();
});

test('checkers lite: discs on the dark squares, white at the bottom', async () => {
  const { context, page, errors } = await withGame(await readFile(new URL('checkers.kif', GAMES), 'utf8'), 36);
  const board = page.locator('#board');
  assert.equal(await board.getAttribute('data-scheme'), 'draughts');
  assert.match(await board.getAttribute('class'), /\bchequered\b/);
  assert.equal(await page.locator('#board .disc').count(), 12);
  assert.equal(await page.locator('#board .cell:not(.dark) .disc').count(), 0);
  // Read in one step in the page (the board may be drawn again meanwhile).
  const disc = (x, y) => page.evaluate(([x, y]) => getComputedStyle(document.querySelector(`#board [data-x="${x}"][data-y="${y}"] .disc`)).backgroundColor, [x, y]);
  assert.equal(await disc(1, 1), 'rgb(255, 255, 255)');
  assert.equal(await disc(2, 6), 'rgb(32, 33, 36)');
  assert.ok((await centre(cell(page, 1, 1))).y > (await centre(cell(page, 2, 6))).y, 'white is drawn at the bottom');
  // A man steps forward.
  await cell(page, 2, 2).click();
  await cell(page, 3, 3).click();
  await page.waitForFunction(() => document.querySelector('#board [data-x="3"][data-y="3"] .disc') !== null);
  assert.equal(await page.locator('#board .disc').count(), 12);
  await shot(page, 'board-checkers');
  assert.deepEqual(errors, []);
  await context.close();
});

test('an othello whose empty cells are `green` is drawn on green, not on a chessboard', async () => {
  // 8x8: a board of that size used to be drawn as a brown chessboard.
  const start = { '4 4': 'white', '5 5': 'white', '4 5': 'black', '5 4': 'black' };
  const { context, page, errors } = await withGame(placementGame({ roles: ['black', 'white'], rel: 'cell', empty: 'green', move: 'place', side: 8, start }), 64);
  const board = page.locator('#board');
  assert.doesNotMatch(await board.getAttribute('class'), /\bchequered\b/);
  assert.match(await board.getAttribute('class'), /\bclothed\b/);
  // Read in one go once the board stands with its 64 cells (fit.ts may draw it again as it
  // sizes it: read in two steps, the cells could be gone in between).
  const backgrounds = await page
    .waitForFunction(() => {
      const cells = [...document.querySelectorAll('#board .cell')];
      const colours = cells.map((e) => getComputedStyle(e).backgroundColor);
      return cells.length === 64 && colours.every((c) => c !== '') && [...new Set(colours)];
    })
    .then((found) => found.jsonValue());
  assert.deepEqual(backgrounds, ['rgb(24, 128, 56)']);
  assert.equal(await page.locator('#board .disc').count(), 4);
  await cell(page, 1, 1).click();
  assert.equal(await page.locator('#board .disc').count(), 5);
  await shot(page, 'board-othello-green');
  assert.deepEqual(errors, []);
  await context.close();
});

test('roles as cell values are drawn by their initials, fitting their squares (Kriegspiel tic-tac-toe)', async () => {
  const rules = await readFile(new URL('../../../shared/corpus-gdl2/kriegTTT_5x5.kif', import.meta.url), 'utf8');
  const { context, page, errors } = await withGame(rules, 25);
  // Both roles mark at once; when both pick the same cell (1 time in 25) neither mark holds,
  // so random joint moves are played until one leaves marks.
  for (let i = 0; i < 8 && (await page.locator('#board .mark').count()) === 0; i++) {
    const before = await page.locator('#step').textContent();
    await page.locator('#random').click();
    await page.waitForFunction((s) => document.querySelector('#step').textContent !== s, before);
  }
  await page.waitForFunction(() => document.querySelectorAll('#board .mark').length === 2);
  assert.deepEqual((await page.locator('#board .mark').allTextContents()).sort(), ['O', 'X']);
  assert.deepEqual((await page.locator('#board .mark').evaluateAll((els) => els.map((e) => e.title))).sort(), ['oplayer', 'xplayer']);
  const spilled = await page.locator('#board .cell').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1).length);
  assert.equal(spilled, 0);
  await shot(page, 'board-krieg-ttt');
  assert.deepEqual(errors, []);
  await context.close();
});

/** Plays the first playable segment of a board of lines `n` times. */
async function drawLines(page, n) {
  for (let i = 0; i < n; i++) {
    const drawn = await page.locator('#board .segment.drawn').count();
    await page.locator('#board .segment.playable').first().click();
    await page.waitForFunction((k) => document.querySelectorAll('#board .segment.drawn').length > k, drawn);
  }
}

test('dots and boxes is drawn as lines between dots; a click draws one', async () => {
  const opened = await openPage(env.browser, env.url);
  const { context, page, errors } = opened;
  await setRules(page, await readFile(new URL('dotsandboxes.kif', GAMES), 'utf8'));
  await page.waitForFunction(() => document.querySelectorAll('#board .segment').length === 12, null, { timeout: 30_000 });
  assert.equal(await page.locator('#board').getAttribute('data-scheme'), 'lines');
  assert.equal(await page.locator('#board .dot').count(), 9);
  assert.equal(await page.locator('#board .segment.playable').count(), 12);
  await drawLines(page, 6);
  assert.equal(await page.locator('#board .segment.drawn').count(), 6);
  // Draw on until a box is closed: its owner is drawn in it.
  while ((await page.locator('#board .box').count()) === 0) await drawLines(page, 1);
  assert.match(await page.locator('#board .box-owner').first().textContent(), /^[RB]$/);
  await shot(page, 'board-dots-and-boxes');

  // The corpus's dots and boxes: lines as (line x1 y1 x2 y2), no base facts.
  await setRules(page, await readFile(CORPUS_DOTS, 'utf8'));
  await page.waitForFunction(() => document.querySelector('#board')?.dataset.scheme === 'lines' && document.querySelectorAll('#board .dot').length === 36, null, { timeout: 30_000 });
  await drawLines(page, 6);
  assert.equal(await page.locator('#board .segment.drawn').count(), 6);
  // No box is closed yet (box_count 0): the lines are not taken for boxes.
  assert.match(await page.locator('#fluents').textContent(), /\(box_count xplayer 0\)/);
  assert.equal(await page.locator('#board .box').count(), 0);
  await shot(page, 'board-dots-and-boxes-corpus');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a state that is no grid is listed by relation, never an empty board', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await setRules(page, await readFile(new URL('nim.kif', GAMES), 'utf8'));
  await page.waitForFunction(() => document.querySelector('#board')?.dataset.scheme === 'list', null, { timeout: 30_000 });
  assert.ok((await page.locator('#board .state-list tr').count()) >= 2);
  assert.ok(await page.locator('#board').isVisible());
  await shot(page, 'board-list');
  assert.deepEqual(errors, []);
  await context.close();
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
