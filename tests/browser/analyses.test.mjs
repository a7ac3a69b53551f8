// Browser tests of the teaching analyses: explanations in the play pane (click a fluent, ask
// a question, unfold premises), the "Best moves" solver, and the analysis pane (proofs,
// witness paths opened in the play pane, Cancel). Screenshots go to artifacts/.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cell, openPage, setRules, shot, useBrowser } from './lib.mjs';

const env = useBrowser();

test('clicking a fluent explains it, and premises unfold level by level', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await cell(page, 2, 2).click();
  await page.locator('#fluents button', { hasText: '(cell 2 2 x)' }).click();
  const root = page.locator('#why > .why-node');
  assert.match(await root.locator('.why-summary').first().textContent(), /\(cell 2 2 x\) is in the state after move 1, because \(next \(cell 2 2 x\)\) held/);
  // Unfold (next (cell 2 2 x)): x's move, by the rule on line 51.
  await root.locator('.why-open').first().click();
  const next = root.locator('.why-nested .why-node').first();
  assert.match(await next.locator('.rule').first().textContent(), /Rule on line 51: \(<= \(next \(cell 2 2 x\)\) \(does x \(mark 2 2\)\)\)/);
  await next.locator('.why-open').first().click();
  assert.match(await next.locator('.why-nested .why-summary').first().textContent(), /x played \(mark 2 2\) in move 1/);
  // The rule's line opens in the editor.
  await next.locator('.rule-line').first().click();
  const selected = await page.evaluate(() => getSelection()?.toString() ?? '');
  assert.match(selected, /\(<= \(next \(cell \?c \?r \?p\)\)/);
  await shot(page, 'explain-fluent');

  // A question typed in the Why box: o cannot mark the taken centre, and the failing condition is named.
  await page.locator('#why-query').fill('(legal o (mark 2 2))');
  await page.locator('#why-form button[type="submit"]').click();
  assert.match(await root.locator('.why-summary').first().textContent(), /does not hold/);
  const failing = root.locator('.premise.failing').first();
  assert.match(await failing.textContent(), /\(true \(cell 2 2 b\)\)\s*fails here/);
  // A bad question gets a message, not a crash.
  await page.locator('#why-query').fill('(legal o');
  await page.locator('#why-form button[type="submit"]').click();
  assert.match(await page.locator('#why .warn').textContent(), /cannot read the query/);
  await page.locator('#why-terminal').click();
  assert.match(await page.locator('#why .why-summary').first().textContent(), /terminal does not hold/);
  // (line ?p) fails here: its instances can be asked about in turn, one at a time.
  await page.locator('#why .premise', { hasText: '(line ?p)' }).locator('button', { hasText: 'ask about an instance' }).click();
  assert.equal(await page.locator('#why-query').inputValue(), '(line ?p)');
  assert.equal(await page.evaluate(() => { const i = document.querySelector('#why-query'); return i.value.slice(i.selectionStart, i.selectionEnd); }), '?p');
  await page.keyboard.type('x');
  await page.locator('#why-form button[type="submit"]').click();
  assert.match(await root.locator('.why-summary').first().textContent(), /\(line x\) does not hold/);
  // The box suggests a question about the game played.
  assert.match(await page.locator('#why-query').getAttribute('placeholder'), /^\(legal o \(mark \d \d\)\)$/);
  await shot(page, 'explain-question');
  assert.deepEqual(errors, []);
  await context.close();
});

test('Best moves shows who wins with what, and the move buttons carry the values', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await cell(page, 2, 2).click();
  await cell(page, 1, 2).click();
  await page.locator('#solve').click();
  const line = page.locator('#solution .solution-line[data-role="x"]');
  await line.waitFor({ timeout: 30_000 });
  assert.match(await line.textContent(), /^x wins with \(mark 1 1\) or \(mark 1 3\) or \(mark 2 1\) or \(mark 2 3\) or \(mark 3 1\) or \(mark 3 3\)$/);
  const badge = (m) => page.locator('[data-role="x"] button.move', { hasText: m }).locator('.value');
  assert.equal(await badge('(mark 1 1)').textContent(), '100');
  assert.equal(await badge('(mark 3 2)').textContent(), '50');
  await shot(page, 'solver');
  // Another move clears the answer.
  await cell(page, 3, 2).click();
  assert.equal(await page.locator('#solution').textContent(), '');
  assert.equal(await page.locator('button.move .value').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the analysis pane proves tic-tac-toe well-formed and opens witness paths in the play pane', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await page.locator('#tab-analysis').click();
  await page.locator('#an-run').click();
  const verdict = page.locator('#an-verdict');
  await verdict.waitFor({ timeout: 60_000 });
  assert.match(await verdict.textContent(), /Well-formed: Holds/);
  assert.match(await page.locator('#an-method').textContent(), /Exhaustive search of all 5,478 reachable states/);
  const row = (name, role = '') => page.locator(`tr.check[data-check="${name}"][data-role="${role}"]`);
  assert.match(await row('termination').textContent(), /Holds.*every game ends within 9 moves/);
  assert.match(await row('strong winnability', 'x').textContent(), /Fails.*against best play it gets 50/);
  await shot(page, 'analysis-tictactoe');
  // o's weak-winnability witness opens in the play pane at its end: o has won.
  await row('weak winnability', 'o').locator('button.witness').click();
  assert.equal(await page.locator('#tab-play').getAttribute('aria-selected'), 'true');
  assert.match(await page.locator('#outcome').textContent(), /Game over: o wins/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a game that can loop fails termination with a witness, and a long analysis can be cancelled', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await setRules(
    page,
    '(role p)\n(init (at 1))\n(<= (legal p (go 2)) (true (at 1)))\n(<= (legal p (go 1)) (true (at 2)))\n(<= (legal p (go 3)) (true (at 2)))\n(<= (next (at ?x)) (does p (go ?x)))\n(<= terminal (true (at 3)))\n(goal p 100)\n',
  );
  await page.locator('#status', { hasText: '1 role (p)' }).waitFor();
  await page.locator('#tab-analysis').click();
  await page.locator('#an-run').click();
  await page.locator('#an-verdict').waitFor({ timeout: 30_000 });
  assert.match(await page.locator('#an-verdict').textContent(), /Well-formed: Fails/);
  const t = page.locator('tr.check[data-check="termination"]');
  assert.match(await t.textContent(), /Fails.*return to the position after move 0/);
  await t.locator('button.witness').click();
  assert.match(await page.locator('#step').textContent(), /after 2 moves/);
  assert.equal(await page.locator('#history li').count(), 3);
  await shot(page, 'analysis-loop');

  // Connect four is too big to search: the analysis runs in a worker and Cancel stops it.
  await page.locator('#examples').selectOption({ label: 'Connect Four' });
  await page.locator('#status', { hasText: 'red, yellow' }).waitFor();
  await page.locator('#tab-analysis').click();
  await page.locator('#an-states').fill('5000000');
  await page.locator('#an-run').click();
  await page.waitForTimeout(300);
  assert.equal(await page.locator('#an-cancel').isEnabled(), true);
  // The page stays responsive while the worker searches.
  await page.locator('#tab-play').click();
  await page.locator('#tab-analysis').click();
  await page.locator('#an-cancel').click();
  assert.match(await page.locator('#an-status').textContent(), /Analysis cancelled/);
  assert.equal(await page.locator('#an-run').isEnabled(), true);
  // A smaller limit finishes by simulation, clearly labelled.
  await page.locator('#an-states').fill('1000');
  await page.locator('#an-playouts').fill('30');
  await page.locator('#an-run').click();
  await page.locator('#an-verdict').waitFor({ timeout: 60_000 });
  assert.match(await page.locator('#an-verdict').textContent(), /Not proven/);
  assert.match(await page.locator('#an-method').textContent(), /More than 1,000 states, so 30 random playouts/);
  await shot(page, 'analysis-simulated');
  assert.deepEqual(errors, []);
  await context.close();
});
