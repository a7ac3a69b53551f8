// The games library and the lessons: every example of the Examples menu loads and shows
// legal moves (a bug- game shows the error its "; Intended error:" line names); every lesson
// fails on its starter rules and passes on its stored solution (tests/browser/lessons/);
// lesson progress survives a reload.

import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { openPage, setRules, shot, useBrowser } from './lib.mjs';

const env = useBrowser();
const GAMES = new URL('../../games/', import.meta.url);
const SOLUTIONS = new URL('./lessons/', import.meta.url);

const games = readdirSync(GAMES)
  .filter((f) => f.endsWith('.kif'))
  .map((f) => {
    const text = readFileSync(new URL(f, GAMES), 'utf8');
    return { id: f.slice(0, -4), intended: /^; Intended error: (.+)$/m.exec(text)?.[1].trim() };
  });

test('every example loads: valid games show legal moves, bug- games their intended error', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  const menu = await page.locator('#examples option').evaluateAll((os) => os.map((o) => ({ id: o.value, title: o.title })).filter((o) => o.id));
  assert.deepEqual(menu.map((o) => o.id).sort(), games.map((g) => g.id).sort());
  assert.ok(menu.every((o) => o.title.length > 20), 'every example has a summary');
  for (const game of games) {
    await page.locator('#examples').selectOption(game.id);
    const status = (await page.locator('#status').textContent()) ?? '';
    if (!game.id.startsWith('bug-')) {
      assert.match(status, /^✓ Valid/, `${game.id}: ${status}`);
      assert.ok((await page.locator('#moves .role-moves').count()) > 0, `${game.id} shows no moves`);
      assert.ok((await page.locator('#moves button.move').count()) > 0, `${game.id} has no move to click`);
      continue;
    }
    assert.ok(game.intended, `${game.id} names its intended error`);
    if (status.startsWith('✗')) {
      assert.match(await page.locator('#problems').textContent(), new RegExp(`error\\[${game.intended}\\]`), game.id);
    } else {
      // A game that loads but is not well formed: the analysis names the failing check.
      assert.match(status, /^✓ Valid/, `${game.id}: ${status}`);
      await page.locator('#tab-analysis').click();
      await page.locator('#an-run').click();
      await page.locator('#an-verdict').waitFor({ timeout: 30_000 });
      assert.match(await page.locator('#an-verdict').textContent(), /Well-formed: Fails/);
      assert.ok((await page.locator(`tr.check.fails[data-check="${game.intended}"]`).count()) > 0, `${game.id}: ${game.intended} should fail`);
      await shot(page, `library-${game.id}`);
      await page.locator('#tab-play').click();
    }
  }
  await page.locator('#examples').selectOption('othello');
  await shot(page, 'library-othello');
  assert.deepEqual(errors, []);
  await context.close();
});

test('every lesson fails on its starter rules, passes on its solution, and progress survives a reload', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  // The lessons on rules (those on players are player-lessons.test.mjs's).
  const all = await page.locator('#lessons option').evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
  const ids = all.filter((id) => !id.startsWith('player-'));
  assert.ok(ids.length >= 6 && ids.length <= 9, `${ids.length} lessons`);
  assert.deepEqual(ids.slice().sort(), readdirSync(SOLUTIONS).map((f) => f.replace(/\.kif$/, '')).sort(), 'one solution per lesson');
  const check = async () => {
    await page.locator('#lesson-check').click();
    await page.locator('#lesson-results[data-state="checked"]').waitFor({ timeout: 30_000 });
  };
  for (const [i, id] of ids.entries()) {
    await page.locator('#lessons').selectOption(id);
    assert.match(await page.locator('#lesson-title').textContent(), new RegExp(`^Lesson ${i + 1} of ${all.length}: `));
    await check();
    assert.ok((await page.locator('#lesson-results li.fail').count()) > 0, `${id}: the starter rules should not pass`);
    if (i === 1) await shot(page, 'lesson-starter-fails');
    await setRules(page, readFileSync(new URL(`${id}.kif`, SOLUTIONS), 'utf8'));
    await check();
    const failed = await page.locator('#lesson-results li.fail').allTextContents();
    assert.deepEqual(failed, [], `${id}: the solution should pass`);
    assert.ok((await page.locator('#lesson-results li.pass').count()) >= 2);
    assert.match(await page.locator('#lesson-status').textContent(), /Done/);
    if (i === 0) await shot(page, 'lesson-passed');
  }
  assert.equal(await page.locator('#lessons option').first().textContent(), `Lessons ${ids.length}/${all.length}`);
  assert.equal(await page.locator('#lessons').getAttribute('title'), `Lessons: ${ids.length} of ${all.length} done`);
  // After a reload the progress and the open lesson are still there.
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.locator('#lessons option').first().textContent(), `Lessons ${ids.length}/${all.length}`);
  assert.equal(await page.locator('#lesson').isVisible(), true);
  assert.match(await page.locator('#lesson-title').textContent(), new RegExp(`^Lesson ${ids.length} of ${all.length}`));
  assert.match(await page.locator('#lesson-status').textContent(), /Done/);
  await page.locator('#lesson-close').click();
  assert.equal(await page.locator('#lesson').isVisible(), false);
  assert.deepEqual(errors, []);
  await context.close();
});
