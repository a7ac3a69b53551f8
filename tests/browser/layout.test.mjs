// The page uses its space and cuts nothing off, on the six screens of a classroom (those of
// screens.test.mjs). On each, on every tab and with an error in the rules: no visible element
// is wider than its box unless it is a declared scroll area (or scrolls inside one): no text
// clipped mid-word, no table or form wider than its pane, ground rules that wrap. On the
// projector (1280×720, text enlarged twice): the header and the tabs each on one row, the
// status read in full, the board at least half the pane, tic-tac-toe's board and legal moves
// in view; A+ enlarges the board there, and never shrinks it on any screen. The header cuts
// nothing (status, menus, tools) on any screen at any of three text sizes. A ground rule
// list of more than a thousand rules (drawn virtually) wraps as a short one does. On a
// disguised chess (tests/bench/variants.py: every name opaque) the side that moves first is at
// the bottom and no piece or coordinate label is clipped. The Match tab's results fit their pane.
// Screenshots: artifacts/layout-*.png.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ARTIFACTS, openPage, setRules, shot, useBrowser } from './lib.mjs';

const env = useBrowser();

const CHESS = new URL('../../../shared/corpus/ggp-base/chess.kif', import.meta.url);

const SCREENS = [
  { name: 'projector', width: 1280, height: 720, larger: 2 },
  { name: 'laptop', width: 1366, height: 768, larger: 0 },
  { name: 'laptop-large', width: 1440, height: 900, larger: 0 },
  { name: 'tablet', width: 768, height: 1024, larger: 0 },
  { name: 'tablet-landscape', width: 1024, height: 768, larger: 0 },
  { name: 'phone', width: 390, height: 844, larger: 0 },
];

/** Visible elements wider inside than their box, outside any declared scroll area (in the page).
 * A pane scrolls up and down, never sideways: something wider than a pane is cut off. */
function clipped() {
  const scrolls = (el) => /(auto|scroll)/.test(getComputedStyle(el).overflowX) && !el.matches('.pane');
  /** Whether the overflow of `el` can be scrolled to: it scrolls, or what holds it does. */
  const reachable = (el) => {
    for (let a = el; a; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (scrolls(a)) return true;
      if (a !== el && st.overflowX !== 'visible') return false;
      if (a === el && st.overflowX !== 'visible') return false;
    }
    return false;
  };
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    // The editor is CodeMirror's own scroll area; screen-reader labels are 1 px on purpose.
    if (el.closest('.cm-editor, svg, .sr-only, [hidden]')) continue;
    if (el.getClientRects().length === 0 || getComputedStyle(el).visibility === 'hidden') continue;
    if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1 && !reachable(el)) {
      out.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].join('.')} (${el.scrollWidth} px in ${el.clientWidth}): "${(el.textContent ?? '').trim().slice(0, 40)}"`);
    }
  }
  return out;
}

const narrow = (s) => s.width < 960;

for (const s of SCREENS) {
  test(`${s.name} (${s.width}×${s.height}${s.larger ? `, text enlarged ${s.larger}×` : ''}): nothing cut off on any tab, nor with an error`, async () => {
    const { context, page, errors } = await openPage(env.browser, env.url, { viewport: { width: s.width, height: s.height } });
    for (let i = 0; i < s.larger; i++) await page.locator('#larger').click();
    for (const tab of await page.locator('[role="tab"]').all()) {
      await tab.click();
      const name = await tab.getAttribute('aria-label') ?? await tab.textContent();
      if (name === 'Grounded rules') {
        // The rule rows wrap: the list never scrolls sideways.
        await page.locator('#ground-list .vrow').first().waitFor({ timeout: 30_000 });
        const [wide, room] = await page.locator('#ground-list').evaluate((el) => [el.scrollWidth, el.clientWidth]);
        assert.ok(wide <= room + 1, `the ground rules are ${wide} px wide in ${room} px`);
      }
      assert.deepEqual(await page.evaluate(clipped), [], `cut off on the ${name} tab`);
    }
    await page.locator('#tab-play').click();
    if (narrow(s)) await page.locator('#show-rules').click();
    await setRules(page, '(role x) (init (cell 1 1 b)\n(<= (legal x (mark ?c ?r)) (true (cell ?c ?r b))');
    await page.locator('#status.bad').waitFor();
    assert.deepEqual(await page.evaluate(clipped), [], 'cut off with an error in the rules');
    await shot(page, `layout-${s.name}-error`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

/** Whether the boxes lie on one row: each overlaps the first one's height. */
async function oneRow(locators) {
  const boxes = [];
  for (const l of locators) boxes.push(await l.boundingBox());
  const [first] = boxes;
  return boxes.every((b) => b.y < first.y + first.height && b.y + b.height > first.y);
}

test('projector (1280×720, A+ twice): header and tabs on one row each, the status in full, the board large, tic-tac-toe moves in view', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url, { viewport: { width: 1280, height: 720 } });
  for (let i = 0; i < 2; i++) await page.locator('#larger').click();
  await page.waitForFunction(() => getComputedStyle(document.documentElement).getPropertyValue('--scale').trim() === '1.2');
  await page.waitForTimeout(200);

  const header = page.locator('header.top');
  const parts = [header.locator('h1'), ...(await header.locator('.toolbar > *').all()), page.locator('#status')];
  assert.ok(await oneRow(parts), 'the header takes more than one row');
  assert.ok(await oneRow(await page.locator('[role="tab"]').all()), 'the tabs take more than one row');
  const fits = () => page.locator('#status').evaluate((el) => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1);
  assert.ok(await fits(), `the status is cut: ${await page.locator('#status').textContent()}`);

  // The board is at least half the pane (its height or width, whichever is smaller); it and
  // every legal move are in view without scrolling.
  const pane = await page.locator('#pane-play').boundingBox();
  const board = await page.locator('#board').boundingBox();
  assert.ok(Math.min(board.width, board.height) >= 0.5 * Math.min(pane.width, pane.height), `the board is ${JSON.stringify(board)} in the pane ${JSON.stringify(pane)}`);
  const inView = (b) => b.x >= 0 && b.y >= 0 && b.x + b.width <= 1280 && b.y + b.height <= 720;
  assert.ok(inView(board), `the board lies outside the window: ${JSON.stringify(board)}`);
  const moves = await page.locator('#moves button.move').all();
  assert.equal(moves.length, 9);
  for (const m of moves) assert.ok(inView(await m.boundingBox()), `the move ${await m.textContent()} is out of view`);
  for (const id of ['undo', 'random']) assert.ok(inView(await page.locator(`#${id}`).boundingBox()), `${id} is out of view`);
  await shot(page, 'layout-projector');

  // Chess: the longer status still reads in full, the header keeps one row.
  await setRules(page, await readFile(CHESS, 'utf8'));
  await page.waitForFunction(() => document.querySelectorAll('#board button.cell').length === 64, null, { timeout: 30_000 });
  assert.match(await page.locator('#status').textContent(), /white, black/);
  assert.ok(await fits(), `the status is cut: ${await page.locator('#status').textContent()}`);
  assert.ok(await oneRow(parts), 'the header takes more than one row on chess');
  assert.deepEqual(errors, []);
  await context.close();
});

/** What of the header is cut, in words (empty when nothing is): the status not read in full,
 * a menu's chosen label wider than the menu (its arrow included), a tool outside the header
 * unless the toolbar scrolls sideways to it (the narrow screens' one row of tools). */
function headerCut() {
  const out = [];
  const status = document.querySelector('#status');
  if (status.scrollHeight > status.clientHeight + 1 || status.scrollWidth > status.clientWidth + 1) out.push(`the status "${status.textContent}" (${status.scrollWidth}×${status.scrollHeight} px in ${status.clientWidth}×${status.clientHeight})`);
  const ctx = document.createElement('canvas').getContext('2d');
  for (const menu of document.querySelectorAll('header.top select')) {
    const st = getComputedStyle(menu);
    ctx.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
    const text = menu.options[menu.selectedIndex].text;
    // The arrow of a closed menu takes about one em beside the padding.
    const room = menu.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight) - parseFloat(st.fontSize);
    if (ctx.measureText(text).width > room + 1) out.push(`the menu "${text}" (${Math.round(ctx.measureText(text).width)} px in ${Math.round(room)})`);
  }
  const header = document.querySelector('header.top').getBoundingClientRect();
  const toolbar = document.querySelector('#toolbar');
  const scrolls = /(auto|scroll)/.test(getComputedStyle(toolbar).overflowX);
  for (const el of document.querySelectorAll('header.top button, header.top select')) {
    const b = el.getBoundingClientRect();
    if (b.width === 0 || (scrolls && toolbar.contains(el))) continue;
    if (b.left < header.left - 1 || b.right > header.right + 1 || b.top < header.top - 1 || b.bottom > header.bottom + 1) out.push(`"${el.textContent.trim() || el.id}" outside the header`);
  }
  return out;
}

// The header cuts nothing on any of the six screens, at every text size up to A+ twice, on
// tic-tac-toe and on chess (whose status names longer roles): the status moves to a row of
// its own rather than be cut, the lessons menu shows its count whole.
for (const s of SCREENS) {
  test(`${s.name} (${s.width}×${s.height}): the header cuts nothing at A+ 0, 1 and 2, on tic-tac-toe and chess`, async () => {
    const { context, page, errors } = await openPage(env.browser, env.url, { viewport: { width: s.width, height: s.height } });
    const check = async (game) => {
      for (const scale of ['1', '1.1', '1.2']) {
        if (scale !== '1') await larger(page, scale);
        await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
        assert.deepEqual(await page.evaluate(headerCut), [], `cut in the header on ${game} at scale ${scale}`);
      }
      await shot(page, `layout-header-${s.name}-${game}`);
    };
    await check('tic-tac-toe');
    for (let i = 0; i < 2; i++) await page.locator('#smaller').click();
    await page.waitForFunction(() => getComputedStyle(document.documentElement).getPropertyValue('--scale').trim() === '1');
    if (narrow(s)) await page.locator('#show-rules').click();
    await setRules(page, await readFile(CHESS, 'utf8'));
    await page.waitForFunction(() => /white, black/.test(document.querySelector('#status').textContent), null, { timeout: 60_000 });
    await check('chess');
    assert.deepEqual(errors, []);
    await context.close();
  });
}

/** The board's width and height once the layout has settled. */
async function boardSize(page) {
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  await page.waitForTimeout(150);
  const { width, height } = await page.locator('#board').boundingBox();
  return { width, height };
}

/** Presses A+ and waits for the text to be `scale` times its normal size. */
async function larger(page, scale) {
  await page.locator('#larger').click();
  await page.waitForFunction((s) => getComputedStyle(document.documentElement).getPropertyValue('--scale').trim() === s, String(scale));
}

// A+ enlarges the board where the pane has room for it (the rules' column gives the game
// width as the text grows) and never shrinks it anywhere: each press keeps the board's
// squares at least as large, on every screen, for a small board and a large one.
for (const s of SCREENS) {
  const games = s.name === 'projector' || s.name === 'tablet-landscape' ? ['tic-tac-toe', 'chess'] : ['tic-tac-toe'];
  for (const game of games) {
    test(`${s.name} (${s.width}×${s.height}), ${game}: A+ ${s.name === 'projector' ? 'enlarges' : 'never shrinks'} the board`, async () => {
      const { context, page, errors } = await openPage(env.browser, env.url, { viewport: { width: s.width, height: s.height } });
      if (game === 'chess') {
        if (narrow(s)) await page.locator('#show-rules').click();
        await setRules(page, await readFile(CHESS, 'utf8'));
        await page.waitForFunction(() => document.querySelectorAll('#board button.cell').length === 64, null, { timeout: 60_000 });
        if (narrow(s)) await page.locator('#show-game').click();
      }
      const sizes = [await boardSize(page)];
      for (const scale of [1.1, 1.2]) {
        await larger(page, scale);
        sizes.push(await boardSize(page));
      }
      const said = sizes.map((b) => `${b.width.toFixed(0)}×${b.height.toFixed(0)}`).join(' → ');
      for (let i = 1; i < sizes.length; i++) {
        assert.ok(sizes[i].width >= sizes[i - 1].width - 0.5 && sizes[i].height >= sizes[i - 1].height - 0.5, `A+ shrank the board: ${said}`);
      }
      if (s.name === 'projector') assert.ok(sizes[2].width > sizes[0].width + 10 && sizes[2].height > sizes[0].height + 10, `A+ twice left the board as it was: ${said}`);
      await shot(page, `layout-larger-${s.name}-${game}`);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
}

/** Visible elements in `selector` (itself included) wider inside than their box. */
const wider = (page, selector) =>
  page.locator(selector).evaluate((list) =>
    [list, ...list.querySelectorAll('*')]
      .filter((el) => el.getClientRects().length > 0 && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} (${el.scrollWidth} px in ${el.clientWidth}): "${(el.textContent ?? '').trim().slice(0, 40)}"`),
  );

// A ground program of more than a thousand rules is listed virtually (only the rows in view
// exist): its rows wrap as a short list's do, with the atom panel beside them empty or
// open, at the top, in the middle and at the end of the list, and with the text enlarged.
test('a ground rule list of over a thousand rows wraps: nothing in it scrolls sideways', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url, { viewport: { width: 1440, height: 900 } });
  await setRules(page, await readFile(new URL('../../games/breakthrough.kif', import.meta.url), 'utf8'));
  await page.locator('#tab-ground').click();
  await page.waitForFunction(() => /^2,119 ground rules/.test(document.querySelector('#ground-count')?.textContent ?? ''), null, { timeout: 60_000 });
  const list = page.locator('#ground-list');
  assert.ok(!(await list.evaluate((el) => el.classList.contains('whole'))), 'the list of 2,119 rules is drawn whole');
  assert.ok((await page.locator('#ground-list .vrow').count()) < 200, 'the long list draws every row');
  const scrollTo = async (where) => {
    await list.evaluate((el, w) => (el.scrollTop = w * el.scrollHeight), where);
    await page.waitForTimeout(150);
  };
  assert.deepEqual(await wider(page, '#ground-list'), [], 'the long list scrolls sideways');
  await scrollTo(0.5);
  assert.deepEqual(await wider(page, '#ground-list'), [], 'the long list scrolls sideways in its middle');
  // The atom panel open beside the list.
  await page.locator('#ground-list button.atom').first().click();
  await page.locator('#gv-atom-name').waitFor();
  assert.deepEqual(await wider(page, '#ground-list'), [], 'the long list scrolls sideways with the atom panel open');
  // The end of the list is reached, its last rule in view: the rows' heights add up.
  await scrollTo(1);
  await scrollTo(1);
  const last = page.locator('#ground-list [data-rule="2118"]');
  assert.equal(await last.count(), 1, 'the last rule is not drawn at the end of the list');
  const [box, row] = [await list.boundingBox(), await last.boundingBox()];
  assert.ok(row.y >= box.y - 1 && row.y + row.height <= box.y + box.height + 1, `the last rule lies outside the list: ${JSON.stringify(row)} in ${JSON.stringify(box)}`);
  // Larger text: the rows are measured again and still wrap.
  for (let i = 0; i < 2; i++) await page.locator('#larger').click();
  await scrollTo(0.3);
  assert.deepEqual(await wider(page, '#ground-list'), [], 'the long list scrolls sideways with the text enlarged');
  assert.deepEqual(await page.evaluate(clipped), []);
  await shot(page, 'layout-ground-long');
  assert.deepEqual(errors, []);
  await context.close();
});

/** A disguised copy of chess written by tests/bench/variants.py (every symbol renamed). */
function disguisedChess() {
  const out = join(ARTIFACTS, 'chess-disguised.kif');
  const bench = fileURLToPath(new URL('../bench/', import.meta.url));
  const run = spawnSync('python3', ['-c', `import sys; sys.path.insert(0, ${JSON.stringify(bench)}); import variants; variants.write_variant('ggp-base/chess', ${JSON.stringify(fileURLToPath(CHESS))}, ${JSON.stringify(out)})`]);
  assert.equal(run.status, 0, `variants.py failed: ${run.stderr}`);
  return readFile(out, 'utf8');
}

for (const s of [SCREENS[0], SCREENS[2]]) {
  test(`a disguised chess on the ${s.name}: the side that moves first at the bottom, no label clipped, a legend of the names drawn shorter`, async () => {
    const { context, page, errors } = await openPage(env.browser, env.url, { viewport: { width: s.width, height: s.height } });
    for (let i = 0; i < s.larger; i++) await page.locator('#larger').click();
    await setRules(page, await disguisedChess());
    await page.waitForFunction(() => document.querySelectorAll('#board button.cell').length === 64, null, { timeout: 60_000 });
    // The cells the first mover's moves start from are its men: in the lower half.
    await page.waitForFunction(() => document.querySelectorAll('#board button.cell.playable').length > 0);
    const rows = await page.locator('#board button.cell.playable').evaluateAll((cells) => {
      const board = document.querySelector('#board').getBoundingClientRect();
      return cells.map((c) => (c.getBoundingClientRect().top - board.top) / board.height);
    });
    assert.ok(rows.every((r) => r > 0.5), `the first mover's men are not at the bottom: ${rows}`);
    // Labels fit their squares and are all different; the legend names them in full.
    const labels = await page.locator('#board .token, #board .mark, #board .label').evaluateAll((els) =>
      els.map((e, i) => ({
        // Pieces, and the labels of columns (the first row of the grid) and of rows.
        kind: e.classList.contains('label') ? (e.getBoundingClientRect().top - document.querySelector('#board').getBoundingClientRect().top < 2 ? 'column' : 'row') : 'piece',
        text: e.textContent,
        title: e.title,
        fits: e.scrollWidth <= e.clientWidth + 1 && e.getBoundingClientRect().width <= e.parentElement.getBoundingClientRect().width + 1,
      })),
    );
    assert.deepEqual(labels.filter((l) => !l.fits), [], 'labels clipped');
    const byText = new Map();
    for (const l of labels.filter((l) => l.title)) byText.set(`${l.kind} ${l.text}`, new Set([...(byText.get(`${l.kind} ${l.text}`) ?? []), l.title]));
    assert.deepEqual([...byText].filter(([, names]) => names.size > 1), [], 'one label stands for two names');
    const legend = await page.locator('#board-legend').textContent();
    for (const l of labels.filter((l) => l.title && l.text !== l.title).slice(0, 8)) assert.ok(legend.includes(`${l.text} = ${l.title}`), `the legend lacks ${l.text} = ${l.title}`);
    assert.deepEqual(await page.evaluate(clipped), []);
    await shot(page, `layout-disguised-chess-${s.name}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test("the Match tab's results fit their pane, on the projector and on a phone", async () => {
  for (const s of [SCREENS[0], SCREENS[5]]) {
    const { context, page, errors } = await openPage(env.browser, env.url, { viewport: { width: s.width, height: s.height } });
    for (let i = 0; i < s.larger; i++) await page.locator('#larger').click();
    await page.locator('#tab-match').click();
    await page.locator('#ma-a').selectOption('random');
    await page.locator('#ma-b').selectOption('random');
    await page.locator('#ma-games').fill('4');
    await page.locator('#ma-run').click();
    await page.locator('#ma-results .match-table').first().waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => !document.querySelector('#ma-run').disabled, null, { timeout: 60_000 });
    assert.deepEqual(await page.evaluate(clipped), [], `cut off in the Match results on the ${s.name}`);
    const [wide, room] = await page.locator('#ma-results').evaluate((el) => [el.scrollWidth, el.clientWidth]);
    if (s.name === 'projector') assert.ok(wide <= room, `the results are ${wide} px wide in ${room} px`);
    await shot(page, `layout-match-${s.name}`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});
