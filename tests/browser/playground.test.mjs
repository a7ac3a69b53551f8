// Browser tests of the built page (web/dist) in headless Chromium: errors at the right line,
// playing tic-tac-toe to a win, undo/redo, share links, playouts, broken links, the other
// panes. Run by scripts/test (`node --test tests/browser/`); screenshots go to artifacts/.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TRIO, cell, openPage, setRules, shot, useBrowser } from './lib.mjs';

const env = useBrowser();

async function statusText(page) {
  return (await page.locator('#status').textContent()).trim();
}

test('tic-tac-toe is loaded by default, with a board', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  assert.match(await statusText(page), /Valid: 2 roles \(x, o\)/);
  assert.equal(await page.locator('#board button.cell').count(), 9);
  assert.match(await page.locator('#outcome').textContent(), /x to move/);
  assert.equal(await page.locator('[data-role="x"] button.move').count(), 9);
  await shot(page, 'default');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a syntax error is shown at its line and column', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await setRules(page, '(role x)\n(role o)\n(init (control x)))\n(init (cell 1))\n');
  await page.locator('.problem.error').first().waitFor();
  assert.match(await page.locator('.problem.error .where').first().textContent(), /^Line 3, column 19$/);
  assert.match(await page.locator('.problem.error .what').first().textContent(), /no matching '\('/);
  assert.match(await statusText(page), /1 error/);
  // The editor marks the same place: the lint range sits on the third line.
  await page.locator('.cm-lintRange-error').first().waitFor();
  const line = await page.evaluate(() => {
    const lines = [...document.querySelectorAll('.cm-content .cm-line')];
    return lines.findIndex((l) => l.querySelector('.cm-lintRange-error')) + 1;
  });
  assert.equal(line, 3);
  assert.match(await page.locator('#play-message').textContent(), /Fix the error/);
  await shot(page, 'syntax-error');
  // Fixing it makes the game playable again.
  await setRules(page, '(role x)\n(role o)\n(init (control x))\n(<= (legal ?r noop) (role ?r))\n(<= (next (control x)) (true (control x)))\n(<= terminal (true (control o)))\n(<= (goal ?r 50) (role ?r))\n');
  await page.locator('#status:not(.bad)').waitFor();
  assert.match(await statusText(page), /Valid/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('tic-tac-toe played to a win shows the goals; undo and redo move through the history', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  for (const [x, y] of [[1, 1], [2, 1], [1, 2], [2, 2], [1, 3]]) await cell(page, x, y).click();
  const outcome = page.locator('#outcome');
  assert.match(await outcome.textContent(), /Game over: x wins/);
  assert.equal(await outcome.locator('.goal[data-role="x"]').textContent(), 'x: 100');
  assert.equal(await outcome.locator('.goal[data-role="o"]').textContent(), 'o: 0');
  assert.equal(await cell(page, 1, 3).getAttribute('aria-label'), 'cell 1 3: x');
  assert.equal(await page.locator('#history li').count(), 6);
  await shot(page, 'win');

  await page.locator('#undo').click();
  assert.match(await outcome.textContent(), /Step 5: x to move/);
  assert.equal(await cell(page, 1, 3).getAttribute('aria-label'), 'cell 1 3: empty');
  assert.equal(await page.locator('#history li.undone').count(), 1);
  assert.equal(await page.locator('#redo').isEnabled(), true);
  await page.locator('#redo').click();
  assert.match(await outcome.textContent(), /x wins/);
  // A different move after undo replaces the undone one.
  await page.locator('#undo').click();
  await page.locator('[data-role="x"] button.move', { hasText: '(mark 3 3)' }).click();
  assert.equal(await page.locator('#history li.undone').count(), 0);
  assert.equal(await page.locator('#redo').isEnabled(), false);
  assert.match(await outcome.textContent(), /o to move/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a share link opened in a fresh context restores the rules and the position', async () => {
  const a = await openPage(env.browser, env.url);
  const rules = (await a.page.evaluate(() => window.gdlPlayground.text())).replace('; Tic-tac-toe', '; Tic-tac-toe (shared copy)');
  await setRules(a.page, rules);
  await a.page.waitForFunction(() => window.gdlPlayground.loads >= 2);
  for (const [x, y] of [[2, 2], [1, 1], [3, 3]]) await cell(a.page, x, y).click();
  await a.page.locator('#undo').click();
  await a.page.locator('#share').click();
  const link = await a.page.locator('#share-link').inputValue();
  assert.match(link, /#g1\.[A-Za-z0-9_-]+$/);
  await a.context.close();

  const b = await openPage(env.browser, link);
  const text = await b.page.evaluate(() => window.gdlPlayground.text());
  assert.equal(text, rules);
  assert.equal(await cell(b.page, 2, 2).getAttribute('aria-label'), 'cell 2 2: x');
  assert.equal(await cell(b.page, 1, 1).getAttribute('aria-label'), 'cell 1 1: o');
  assert.equal(await cell(b.page, 3, 3).getAttribute('aria-label'), 'cell 3 3: empty');
  assert.match(await b.page.locator('#outcome').textContent(), /Step 3: x to move/);
  // The undone move came along as redo history.
  await b.page.locator('#redo').click();
  assert.equal(await cell(b.page, 3, 3).getAttribute('aria-label'), 'cell 3 3: x');
  // The link has been read: the address no longer carries it, a reload shows the autosave.
  assert.equal(new URL(b.page.url()).hash, '');
  // A link pasted into the address bar of an open page is opened too.
  await cell(b.page, 1, 2).click();
  await b.page.evaluate((hash) => (location.hash = hash), new URL(link).hash);
  await b.page.locator('#outcome', { hasText: 'Step 3: x to move' }).waitFor();
  assert.equal(await cell(b.page, 1, 2).getAttribute('aria-label'), 'cell 1 2: empty');
  await shot(b.page, 'shared');
  assert.deepEqual(b.errors, []);
  await b.context.close();
});

test('a corrupt or cut-off share link shows a clear message, and the page still works', async () => {
  const a = await openPage(env.browser, env.url);
  await a.page.locator('#share').click();
  const link = await a.page.locator('#share-link').inputValue();
  await a.context.close();

  for (const [broken, message] of [
    [link.slice(0, link.length - 40), /damaged or incomplete/],
    [link.replace(/#.*/, '#g1.not*base64'), /characters that share links never have/],
    [link.replace(/#.*/, '#g7.AAAA'), /newer version/],
  ]) {
    const { context, page, errors } = await openPage(env.browser, broken);
    await page.locator('#banner').waitFor();
    assert.match(await page.locator('#banner-text').textContent(), message);
    assert.match(await statusText(page), /Valid: 2 roles/);
    assert.equal(await page.locator('#board button.cell').count(), 9);
    if (message.source.includes('damaged')) await shot(page, 'corrupt-link');
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('playouts run in a worker and report a rate; Cancel stops them', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await page.locator('#tab-playouts').click();
  await page.locator('#po-count').fill('500');
  await page.locator('#po-run').click();
  await page.locator('#po-results .phase.done').waitFor({ timeout: 60_000 });
  assert.equal(await page.locator('#po-count-out').textContent(), '500');
  const rate = Number((await page.locator('#po-rate').textContent()).replace(/,/g, ''));
  assert.ok(rate > 0, `rate ${rate}`);
  assert.match(await page.locator('#po-avg').textContent(), /^\d+\.\d moves$/);
  // Start-up is its own figure; a run this short says its rate is not the engine's speed.
  assert.match(await page.locator('#po-startup').textContent(), /^\d+\.\d\d s$/);
  assert.match(await page.locator('#po-short').textContent(), /too short a run for a steady rate/);
  for (const role of ['x', 'o']) {
    const counts = await page.locator(`.histogram[data-role="${role}"] .bar-count`).allTextContents();
    const total = counts.reduce((s, c) => s + Number(c.split(' ')[0].replace(/,/g, '')), 0);
    assert.equal(total, 500, `goal histogram of ${role}`);
    // The engine's shares: each bar's part of the 500 playouts that ended, highest value first.
    for (const c of counts) {
      const [, n, percent] = c.match(/^([\d,]+) \((\d+)%\)$/);
      assert.equal(Number(percent), Math.round((100 * Number(n.replace(/,/g, ''))) / 500), c);
    }
    const labels = (await page.locator(`.histogram[data-role="${role}"] .bar-label`).allTextContents()).map(Number);
    assert.deepEqual(labels, [...labels].sort((a, b) => b - a), `goal values of ${role}`);
  }
  await shot(page, 'playouts');

  await page.locator('input[name="mode"][value="time"]').check();
  await page.locator('#po-seconds').fill('60');
  await page.locator('#po-run').click();
  await page.locator('#po-results .phase.running').waitFor();
  await page.locator('#po-cancel').click();
  await page.locator('#po-results .phase.cancelled').waitFor({ timeout: 5_000 });
  assert.equal(await page.locator('#po-run').isEnabled(), true);

  // The engine menu: auto (the default) ran the propositional network and says so; the ground
  // program plays the same game.
  assert.equal(await page.locator('#po-engine').inputValue(), 'auto');
  assert.match(await page.locator('#po-results .phase').textContent(), /engine propnet \(/);
  await page.locator('#po-engine').selectOption('ground');
  await page.locator('input[name="mode"][value="count"]').check();
  await page.locator('#po-count').fill('200');
  await page.locator('#po-run').click();
  await page.locator('#po-results .phase.done').waitFor({ timeout: 60_000 });
  assert.match(await page.locator('#po-results .phase').textContent(), /engine ground/);
  assert.equal(await page.locator('#po-count-out').textContent(), '200');

  // A game where a move leaves the role without a legal move: the playouts that take it stop
  // there, and the page counts them and names the role. Run right after typing runs what was
  // typed (the edit is loaded first, not after the lint delay).
  await setRules(
    page,
    '(role r) (init (n 0)) (succ 0 1) (succ 1 2) (succ 2 3)\n(<= (legal r up) (true (n ?x)))\n(<= (legal r trap) (true (n ?x)))\n' +
      '(<= (next (n ?y)) (does r up) (true (n ?x)) (succ ?x ?y))\n(<= (next caught) (does r trap))\n' +
      '(<= terminal (true (n 3)))\n(<= (goal r 100) (true (n 3)))\n(<= (goal r 0) (not (true (n 3))))\n',
  );
  await page.locator('#tab-playouts').click();
  await page.locator('#po-engine').selectOption('auto');
  await page.locator('#po-run').click();
  await page.locator('#po-stuck').waitFor({ timeout: 60_000 });
  assert.match(await page.locator('#po-stuck').textContent(), /^[\d,]+ playouts stopped where role r had no legal move/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a long run of playouts moves to the network ground in the background, and plays exactly the count asked', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await setRules(page, TRIO);
  await page.locator('#tab-playouts').click();
  // Enough playouts that the reasoner cannot finish them before the network is ground (a
  // race the network must win by far: at 300,000 a fast machine's reasoner once won it).
  await page.locator('#po-count').fill('3000000');
  await page.locator('#po-run').click();
  await page.locator('#po-results .phase.done').waitFor({ timeout: 120_000 });
  assert.match(await page.locator('#po-results .phase').textContent(), /engine propnet \(.*measured faster than the reasoner/);
  assert.equal(await page.locator('#po-count-out').textContent(), '3,000,000');
  const counts = await page.locator('.histogram[data-role="p"] .bar-count').allTextContents();
  assert.equal(counts.reduce((s, c) => s + Number(c.split(' ')[0].replace(/,/g, '')), 0), 3_000_000);
  // A run of a time moves too, and ends on time.
  await page.locator('input[name="mode"][value="time"]').check();
  await page.locator('#po-seconds').fill('4');
  const start = Date.now();
  await page.locator('#po-run').click();
  await page.locator('#po-results .phase.done').waitFor({ timeout: 60_000 });
  assert.match(await page.locator('#po-results .phase').textContent(), /engine propnet \(/);
  const seconds = Number((await page.locator('#po-time').textContent()).split(' ')[0]);
  assert.ok(seconds >= 4 && Date.now() - start < 20_000, `${seconds} s`);
  await shot(page, 'playouts-upgraded');
  assert.deepEqual(errors, []);
  await context.close();
});

test('playouts asked for while auto still decides start on the reasoner and move to the network it picks', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1440, height: 900 } });
  // The grounding worker arrives late, so auto has not picked when the run starts.
  await context.route('**/ground-worker-*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    await route.continue();
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(env.url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
  await page.locator('#tab-playouts').click();
  await page.locator('#po-count').fill('3000000');
  await page.locator('#po-run').click();
  assert.match(await page.locator('#po-starting').textContent(), /each loads the game on the reasoner/);
  await page.locator('#po-results .phase.done').waitFor({ timeout: 120_000 });
  assert.match(await page.locator('#po-results .phase').textContent(), /engine propnet \(/);
  assert.equal(await page.locator('#po-count-out').textContent(), '3,000,000');
  assert.deepEqual(errors, []);
  await context.close();
});

test('prefix and infix convert into each other; the rule graph and the ground program are shown', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await page.locator('#to-infix').click();
  await page.waitForFunction(() => document.querySelector('#to-infix').getAttribute('aria-pressed') === 'true');
  const editorText = () => page.evaluate(() => window.gdlPlayground.text());
  assert.match(await editorText(), /legal\(P, mark\(C, R\)\) :-/);
  assert.match(await statusText(page), /Valid/);
  await page.locator('#to-prefix').click();
  await page.waitForFunction(() => document.querySelector('#to-prefix').getAttribute('aria-pressed') === 'true');
  assert.match(await editorText(), /\(<= \(legal \?p \(mark \?c \?r\)\)/);

  await page.locator('#tab-graph').click();
  await page.locator('#graph g.node').first().waitFor();
  assert.equal(await page.locator('#graph-message').isHidden(), true);
  // Every relation is a node, and legal/2 is drawn with what it is built from.
  for (const rel of ['legal/2', 'next/1', 'true/1', 'does/2', 'goal/2', 'terminal/0', 'line/1']) {
    assert.equal(await page.locator(`#graph g.node[data-id="${rel}"]`).count(), 1, rel);
  }
  assert.ok((await page.locator('#graph g.edge').count()) >= 10);
  // A click on a relation keeps it and its neighbours, fading the rest; a second click brings them back.
  await page.locator('#graph g.node[data-id="terminal/0"]').click();
  assert.equal(await page.locator('#graph').getAttribute('data-focus'), 'terminal/0');
  assert.ok((await page.locator('#graph g.node.faded').count()) > 0);
  assert.equal(await page.locator('#graph g.node[data-id="line/1"].faded').count(), 0);
  await shot(page, 'rule-graph-focus');
  await page.locator('#graph g.node[data-id="terminal/0"]').click();
  assert.equal(await page.locator('#graph g.node.faded').count(), 0);
  await shot(page, 'rule-graph');

  await page.locator('#tab-ground').click();
  await page.locator('#ground-list .vrow').first().waitFor();
  await page.locator('#gv-text').fill('(legal x (mark 1 1))');
  assert.match(await page.locator('#ground-list').textContent(), /\(legal x \(mark 1 1\)\) ⇐ \(true \(control x\)\) \(true \(cell 1 1 b\)\)/);
  const total = Number((await page.locator('#ground-count').textContent()).match(/([\d,]+) ground rules/)[1].replace(/,/g, ''));
  assert.ok(total > 50, `${total} ground rules`);
  assert.match(await page.locator('#ground').textContent(), /normalised.* ms.*domains.* ms.*ground.* ms.*network.* ms/);
  await page.locator('#gv-text').fill('terminal');
  assert.match(await page.locator('#ground-count').textContent(), /^\d+ of [\d,]+ ground rules/);
  const shown = await page.locator('#ground-list .vrow').allTextContents();
  assert.ok(shown.length > 0 && shown.every((l) => l.includes('terminal')));
  await shot(page, 'grounded');
  assert.deepEqual(errors, []);
  await context.close();
});

test('work survives a reload (autosave), examples load, boards map other games', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await page.locator('#examples').selectOption('connectfour');
  await page.locator('#status', { hasText: 'red, yellow' }).waitFor();
  // A column move: any cell of column 4 drops a disc there, and it lands in row 1.
  await cell(page, 4, 6).click();
  assert.equal(await cell(page, 4, 1).getAttribute('aria-label'), 'cell 4 1: red');
  await shot(page, 'connectfour');
  await page.waitForTimeout(500);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.match(await statusText(page), /red, yellow/);
  assert.equal(await cell(page, 4, 1).getAttribute('aria-label'), 'cell 4 1: red');

  // Simultaneous moves: the joint move is played once every role has chosen.
  await page.locator('#examples').selectOption('rps');
  await page.locator('#status', { hasText: 'alice, bob' }).waitFor();
  await page.locator('[data-role="alice"] button.move', { hasText: 'rock' }).click();
  assert.equal(await page.locator('#waiting').textContent(), 'alice chose; now bob');
  assert.equal(await page.locator('#history li').count(), 1);
  await page.locator('[data-role="bob"] button.move', { hasText: 'paper' }).click();
  assert.equal(await page.locator('#history li').count(), 2);
  assert.match(await page.locator('#history li.current').textContent(), /alice rock, bob paper/);

  await page.locator('#examples').selectOption('breakthrough');
  await page.locator('#status', { hasText: 'white, black' }).waitFor();
  // A from-to move: select a pawn, then its destination.
  await cell(page, 1, 2).click();
  assert.ok((await page.locator('#board .cell.dest').count()) >= 1);
  await cell(page, 1, 3).click();
  assert.equal(await cell(page, 1, 3).getAttribute('aria-label'), 'cell 1 3: white');
  assert.match(await page.locator('#outcome').textContent(), /black to move/);
  await shot(page, 'breakthrough');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a large game: moves are filtered, grounding shows its progress and can be cancelled', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  const index = Array.from({ length: 50 }, (_, i) => `(index ${i})`).join(' ');
  await setRules(
    page,
    `(role p)\n${index}\n(init (s 0))\n(<= (legal p (m ?a ?b ?c)) (true (s 0)) (index ?a) (index ?b) (index ?c))\n` +
      `(<= (next (s 1)) (does p (m ?a ?b ?c)))\n(<= terminal (true (s 1)))\n(goal p 100)\n`,
  );
  await page.locator('#status', { hasText: '1 role (p)' }).waitFor();
  assert.match(await page.locator('[data-role="p"] h3').textContent(), /125,000 legal moves/);
  assert.equal(await page.locator('[data-role="p"] button.move').count(), 200);
  await page.locator('[data-role="p"] .move-filter').fill('(m 7 8 9)');
  assert.equal(await page.locator('[data-role="p"] button.move').count(), 1);
  await page.locator('[data-role="p"] button.move').click();
  assert.match(await page.locator('#outcome').textContent(), /Game over: p scores 100/);

  await page.locator('#tab-ground').click();
  await page.locator('#ground-cancel').waitFor();
  await page.locator('#ground-cancel').click();
  assert.match(await page.locator('#ground').textContent(), /Grounding cancelled/);
  // The page stays responsive: back to playing at once.
  await page.locator('#tab-play').click();
  await page.locator('#undo').click();
  assert.match(await page.locator('#outcome').textContent(), /p to move/);
  assert.deepEqual(errors, []);
  await context.close();
});
