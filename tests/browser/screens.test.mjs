// The page on the screens of a classroom: a projector (1280×720 with the text enlarged twice),
// laptops, a tablet in both orientations and a phone. On each: every tab button lies inside the
// window and opens its pane; every tool of the header is in view (on the phone its row scrolls
// sideways); the page never scrolls sideways; nothing scrolls inside the Play pane but the
// list of moves; the header keeps its height when the rules turn invalid; on the projector and
// the tablets the whole board is in view, for tic-tac-toe and for chess. Screenshots:
// artifacts/screen-*.png.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { openPage, setRules, shot, useBrowser } from './lib.mjs';

const env = useBrowser();

const CHESS = new URL('../../../shared/corpus/ggp-base/chess.kif', import.meta.url);

const SCREENS = [
  { name: 'projector', width: 1280, height: 720, larger: 2, board: true },
  { name: 'laptop', width: 1366, height: 768, larger: 0, board: true },
  { name: 'laptop-large', width: 1440, height: 900, larger: 0, board: true },
  { name: 'tablet', width: 768, height: 1024, larger: 0, board: true },
  { name: 'tablet-landscape', width: 1024, height: 768, larger: 0, board: true },
  { name: 'phone', width: 390, height: 844, larger: 0, board: false },
];

/** The element's box, checked to lie inside the window. */
async function inView(page, locator, what, { width, height }) {
  const box = await locator.boundingBox();
  assert.ok(box, `${what} is not shown`);
  const eps = 0.5;
  assert.ok(box.x >= -eps && box.y >= -eps && box.x + box.width <= width + eps && box.y + box.height <= height + eps, `${what} lies outside the ${width}×${height} window: ${JSON.stringify(box)}`);
  return box;
}

const narrow = (s) => s.width < 960;

/** Shows the rules (on narrow screens, where one side shows at a time). */
async function showRules(page, s) {
  if (narrow(s)) await page.locator('#show-rules').click();
}

async function showGame(page, s) {
  if (narrow(s)) await page.locator('#show-game').click();
}

for (const s of SCREENS) {
  test(`${s.name} (${s.width}×${s.height}${s.larger ? `, text enlarged ${s.larger}×` : ''}): tabs, board, header, no sideways scrolling`, async () => {
    const { context, page, errors } = await openPage(env.browser, env.url, { viewport: { width: s.width, height: s.height } });
    for (let i = 0; i < s.larger; i++) await page.locator('#larger').click();
    const view = { width: s.width, height: s.height };
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

    // Every tab: in view, and a click opens its pane.
    for (const tab of await page.locator('[role="tab"]').all()) {
      const name = await tab.textContent();
      await inView(page, tab, `the tab ${name}`, view);
      await tab.click();
      assert.equal(await tab.getAttribute('aria-selected'), 'true', name);
      assert.equal(await page.locator(`#${await tab.getAttribute('aria-controls')}`).isVisible(), true, name);
      assert.equal(await overflow(), 0, `the page scrolls sideways on the tab ${name}`);
    }
    // Every tool of the header in view (on a phone the row of tools scrolls sideways).
    if (s.width >= 768) {
      for (const tool of await page.locator('header .toolbar').locator('button, select').all()) await inView(page, tool, `the tool ${await tool.getAttribute('id')}`, view);
    }
    await page.locator('#tab-play').click();
    if (s.board) await inView(page, page.locator('#board'), 'the tic-tac-toe board', view);
    await shot(page, `screen-${s.name}`);

    // The header keeps its height whatever the status says.
    const header = () => page.locator('header.top').evaluate((el) => el.getBoundingClientRect().height);
    const valid = await header();
    const board = narrow(s) ? null : await page.locator('#board').boundingBox();
    await showRules(page, s);
    await setRules(page, '(role x) (init (cell 1 1 b)\n(<= (legal x (mark ?c ?r)) (true (cell ?c ?r b))');
    await page.locator('#status.bad').waitFor();
    assert.equal(await header(), valid, 'the header changed height when the rules turned invalid');
    if (board) {
      // The last board stays where it was, faded and out of reach, while the rules are fixed.
      const kept = await page.locator('#board').boundingBox();
      assert.ok(Math.abs(kept.y - board.y) <= 4 && kept.height === board.height, `the board moved from ${JSON.stringify(board)} to ${JSON.stringify(kept)}`);
      assert.equal(await page.locator('#play-area').evaluate((el) => el.inert && el.classList.contains('stale')), true);
    }
    assert.equal(await overflow(), 0, 'the page scrolls sideways with an error');
    await shot(page, `screen-${s.name}-error`);

    // Chess: its whole board in view too.
    await setRules(page, await readFile(CHESS, 'utf8'));
    await page.locator('#status:not(.bad)').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('#board button.cell').length === 64, null, { timeout: 30_000 });
    await showGame(page, s);
    assert.equal(await header(), valid, 'the header changed height with a longer status');
    if (s.board) await inView(page, page.locator('#board'), 'the chess board', view);
    assert.equal(await overflow(), 0, 'the page scrolls sideways on chess');
    // One scroll area at a time: nothing in the Play pane scrolls inside it but the list of
    // moves played (which keeps the current move beside the board).
    const nested = await page.evaluate(() => {
      const scrolls = (el) => /(auto|scroll)/.test(getComputedStyle(el).overflowY) && el.scrollHeight > el.clientHeight + 2;
      const pane = document.querySelector('#pane-play');
      return [...pane.querySelectorAll('*')].filter((e) => e.offsetParent !== null && e.id !== 'history' && scrolls(e)).map((e) => e.id || e.className);
    });
    assert.deepEqual(nested, [], `scroll areas inside the Play pane on the ${s.name}`);
    // The table of how each value is drawn fits beside the board, without scrolling sideways.
    await page.locator('#board-pieces').click();
    const [wide, room] = await page.locator('#board-display').evaluate((el) => [el.scrollWidth, el.clientWidth]);
    assert.ok(wide <= room, `the Pieces table is ${wide} px wide in ${room} px on the ${s.name}`);
    await page.locator('#board-pieces').click();
    await shot(page, `screen-${s.name}-chess`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('on a phone, Rules and Game switch the page between the editor and the game', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url, { viewport: { width: 390, height: 844 } });
  assert.equal(await page.locator('#editor').isVisible(), false);
  assert.equal(await page.locator('#board').isVisible(), true);
  await page.locator('#show-rules').click();
  assert.equal(await page.locator('#editor').isVisible(), true);
  assert.equal(await page.locator('#board').isVisible(), false);
  assert.equal(await page.locator('#show-rules').getAttribute('aria-pressed'), 'true');
  // The editor gets the height below the header, not a sliver.
  const editor = await page.locator('#editor').boundingBox();
  assert.ok(editor.height > 500, `the editor is ${editor.height} px high`);
  await shot(page, 'screen-phone-rules');
  // Opening a lesson shows the rules.
  await page.locator('#show-game').click();
  await page.locator('#lessons').selectOption({ index: 1 });
  await page.locator('#lesson').waitFor();
  assert.equal(await page.locator('#editor').isVisible(), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a lesson sits beside the editor: after a check its text folds away and its verdict and every result are in view', async () => {
  for (const s of [SCREENS[0], SCREENS[2]]) {
    const { context, page, errors } = await openPage(env.browser, env.url, { viewport: { width: s.width, height: s.height } });
    for (let i = 0; i < s.larger; i++) await page.locator('#larger').click();
    const ids = await page.locator('#lessons option').evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
    await page.locator('#lessons').selectOption(ids[1]);
    await page.locator('#lesson-check').click();
    await page.locator('#lesson-results[data-state="checked"]').waitFor({ timeout: 30_000 });
    const panel = await page.locator('#lesson').boundingBox();
    const head = await page.locator('.lesson-head').boundingBox();
    // In view: inside the panel, and (but for the head's own lines) not under its sticky head.
    const within = async (loc, what, top = head.y + head.height) => {
      const b = await loc.boundingBox();
      assert.ok(b.y >= top - 0.5 && b.y + b.height <= panel.y + panel.height + 0.5, `${what} is cut off by the lesson panel on the ${s.name}: ${JSON.stringify({ b, head, panel })}`);
    };
    await within(page.locator('#lesson-status'), 'the verdict', panel.y);
    for (const li of await page.locator('#lesson-results li').all()) await within(li, `the result "${await li.textContent()}"`);
    assert.match(await page.locator('#lesson-status').textContent(), /Not yet/);
    // The editor keeps lines of text below the panel: at least 12 on the laptop (it had 8).
    const lines = await page.locator('.cm-line').evaluateAll((ls) => ls.filter((l) => { const r = l.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }).length);
    assert.ok(lines >= (s.name === 'projector' ? 4 : 12), `${lines} editor lines in view on the ${s.name}`);
    await shot(page, `screen-${s.name}-lesson`);
    // The check folded the text away; Show text brings it back.
    assert.equal(await page.locator('#lesson-text').isVisible(), false);
    assert.equal(await page.locator('#lesson-fold').textContent(), 'Show text');
    await page.locator('#lesson-fold').click();
    assert.equal(await page.locator('#lesson-text').isVisible(), true);
    assert.equal(await page.locator('#lesson-results').isVisible(), true);
    assert.equal(await page.locator('#lesson-fold').textContent(), 'Hide text');
    assert.deepEqual(errors, []);
    await context.close();
  }
});
