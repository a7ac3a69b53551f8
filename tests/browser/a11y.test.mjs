// Every student can use the page. An accessibility audit (axe-core, from web/node_modules)
// finds no serious or critical violation on any pane, at 1440×900 and on a phone; and a game
// of tic-tac-toe is played to the end by keyboard alone: Tab reaches the board, the arrow
// keys move the focus square, Enter plays, and the focus always shows.

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { openPage, shot, useBrowser } from './lib.mjs';

const env = useBrowser();
const require = createRequire(new URL('../../web/package.json', import.meta.url));
const AXE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe's serious and critical violations on the page as it is, in words. */
async function audit(page) {
  await page.addScriptTag({ content: AXE });
  const found = await page.evaluate(async () => {
    const { violations } = await window.axe.run(document, { resultTypes: ['violations'] });
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(', ')}`);
  });
  return found;
}

for (const screen of [{ name: 'desktop', width: 1440, height: 900 }, { name: 'phone', width: 390, height: 844 }]) {
  test(`axe finds no serious or critical violation on any pane (${screen.name})`, async () => {
    const { context, page, errors } = await openPage(env.browser, env.url, { viewport: { width: screen.width, height: screen.height }, bypassCSP: true });
    const problems = [];
    for (const tab of await page.locator('[role="tab"]').all()) {
      await tab.click();
      const name = await tab.getAttribute('aria-label') ?? await tab.textContent();
      if (name === 'Grounded rules') await page.locator('#gv-legend').waitFor({ timeout: 30_000 });
      for (const p of await audit(page)) problems.push(`${name}: ${p}`);
    }
    // A lesson open beside the rules (on the phone, the rules view).
    await page.locator('#tab-play').click();
    await page.locator('#lessons').selectOption({ index: 1 });
    await page.locator('#lesson').waitFor();
    for (const p of await audit(page)) problems.push(`lesson: ${p}`);
    assert.deepEqual([...new Set(problems)], []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('tic-tac-toe is played to the end by keyboard alone, the focus always in sight', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      const st = getComputedStyle(el);
      return { cell: el.matches('#board button.cell') ? `${el.dataset.x} ${el.dataset.y}` : null, ring: st.outlineStyle !== 'none' && parseFloat(st.outlineWidth) >= 2 };
    });
  // Tab through the page until the board has the focus (in the editor Tab indents: Escape,
  // then Tab, leaves it, as CodeMirror documents).
  let at = await focused();
  for (let i = 0; i < 80 && at.cell === null; i++) {
    if (await page.evaluate(() => document.activeElement.closest('.cm-editor') !== null)) await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    at = await focused();
  }
  assert.equal(at.cell, '1 1', 'Tab never reached the board, or not its first square');
  assert.ok(at.ring, 'the focused square shows no ring');
  // x on the diagonal, o beside it: (1 1) x, (2 1) o, (2 2) x, (3 2) o, (3 3) x wins.
  const plays = [[], ['ArrowRight'], ['ArrowDown'], ['ArrowRight'], ['ArrowDown']];
  const expected = ['1 1', '2 1', '2 2', '3 2', '3 3'];
  for (const [i, keys] of plays.entries()) {
    for (const k of keys) await page.keyboard.press(k);
    at = await focused();
    assert.equal(at.cell, expected[i], `the arrow keys took the focus to ${at.cell}`);
    assert.ok(at.ring, `no focus ring on ${at.cell}`);
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => document.querySelectorAll('#history li').length === n + 2, i, { timeout: 15_000 });
  }
  await page.locator('#outcome.over').waitFor();
  assert.match(await page.locator('#outcome').textContent(), /x/);
  await shot(page, 'a11y-keyboard');
  assert.deepEqual(errors, []);
  await context.close();
});
