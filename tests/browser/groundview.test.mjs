// Browser tests of the grounded game (issue 13): play on the engine `auto` picks, the ground
// program tied to the position (truth values, filters, a move's rules lit up before playing
// it, atoms with the rules defining and using them, the rule graph), the network around an
// atom, the pipeline stage by stage, and Cancel on a game too big to ground. Tic-tac-toe and
// breakthrough; screenshots go to artifacts/.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cell, openPage, setRules, shot, useBrowser } from './lib.mjs';

const env = useBrowser();

async function openGround(page) {
  await page.locator('#tab-ground').click();
  await page.locator('#ground-list .vrow').first().waitFor({ timeout: 30_000 });
  // The values of the position arrive from the worker.
  await page.waitForFunction(() => /fire now/.test(document.querySelector('#ground-count')?.textContent ?? '') && !/ 0 fire now/.test(document.querySelector('#ground-count').textContent));
}

const count = (page) => page.locator('#ground-count').textContent();

async function loadExample(page, id) {
  await page.locator('#examples').selectOption(id);
  await page.waitForFunction(() => /propnet/.test(document.querySelector('#engine-name')?.textContent ?? ''), null, { timeout: 30_000 });
}

test('tic-tac-toe plays on the propositional network, and the engine line says why', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await page.waitForFunction(() => document.querySelector('#engine-name')?.textContent === 'propnet', null, { timeout: 30_000 });
  assert.match(await page.locator('#engine-note').textContent(), /^\(180 ground rules, .*chosen by auto: the game grounds/);
  // The full grounding waits until something shows it.
  assert.match(await page.locator('#ground').textContent(), /grounded when this tab is open/);
  // Moves, Best moves and Why? work on it.
  await cell(page, 2, 2).click();
  await cell(page, 1, 2).click();
  await page.locator('#solve').click();
  await page.locator('#solution .solution-line[data-role="x"]').waitFor({ timeout: 30_000 });
  assert.match(await page.locator('#solution .solution-line[data-role="x"]').textContent(), /^x wins with \(mark 1 1\)/);
  await page.locator('#fluents button', { hasText: '(cell 2 2 x)' }).click();
  assert.match(await page.locator('#why .why-summary').first().textContent(), /\(cell 2 2 x\) is in the state after move 2/);
  await shot(page, 'groundview-engine');
  // Why? links to the same atom in the ground program, live.
  await page.locator('#why-ground').click();
  await page.waitForFunction(() => document.querySelector('#gv-atom-name')?.textContent === '(true (cell 2 2 x))', null, { timeout: 30_000 });
  // Its value comes with the position's values, which the grounding worker sends after.
  await page.waitForFunction(() => document.querySelector('#gv-atom-value')?.textContent !== '', null, { timeout: 30_000 });
  assert.match(await page.locator('#gv-atom-value').textContent(), /^holds/);
  assert.match(await page.locator('#gv-used').textContent(), /\(next \(cell 2 2 x\)\)/);
  await page.locator('#tab-play').click();
  // A game too big to ground plays on the reasoner, with the reason.
  const succ = Array.from({ length: 40 }, (_, i) => `(succ ${i} ${i + 1})`).join(' ');
  await setRules(
    page,
    `${succ} (role a) (init (at 0 0 0 0))
(<= (legal a (go ?a ?b ?c ?d)) (true (at ?a ?b ?c ?d)))
(<= (next (at ?x ?b ?c ?d)) (does a (go ?a ?b ?c ?d)) (succ ?a ?x))
(<= (next (at ?a ?x ?c ?d)) (does a (go ?a ?b ?c ?d)) (succ ?b ?x))
(<= (next (at ?a ?b ?x ?d)) (does a (go ?a ?b ?c ?d)) (succ ?c ?x))
(<= (next (at ?a ?b ?c ?x)) (does a (go ?a ?b ?c ?d)) (succ ?d ?x))
(<= terminal (true (at 3 ?b ?c ?d))) (<= (goal a 100) terminal)`,
  );
  await page.waitForFunction(() => /propositional network is not available/.test(document.querySelector('#engine-note')?.textContent ?? ''), null, { timeout: 60_000 });
  assert.equal(await page.locator('#engine-name').textContent(), 'reasoner');
  // Its full grounding runs on in the worker: Cancel stops it.
  await page.locator('#tab-ground').click();
  await page.locator('#ground-cancel').click();
  assert.match(await page.locator('#ground').textContent(), /Grounding cancelled/);
  await shot(page, 'groundview-cancelled');
  assert.deepEqual(errors, []);
  await context.close();
});

/** A game whose `seen` (3 × 400³ facts) no limit lets the grounder build, read by a goal
 * alone (`reader`) or by a move too: only the first grounds, its goals left to the reasoner. */
const seenBy = (reader) => `; seen relates every value to every triple: too many facts to ground.
(role p) (init (on 1)) (n 1) (n 2) (n 3)
${Array.from({ length: 400 }, (_, i) => `(m ${i + 1})`).join(' ')}
(<= (legal p (go ?x)) (n ?x))
(<= (next (on ?x)) (does p (go ?x)))
(<= (seen ?x ?y ?z) (true (on ?w)) (m ?x) (m ?y) (m ?z))
(<= terminal (true (on 3)))
(<= (goal p 100) (true (on 3)))
(<= ${reader} (true (on 4)) (seen ?x ?y ?z))
(<= (goal p 0) (true (on ?x)) (distinct ?x 3))
`;
const UNGROUNDABLE = seenBy('(legal p stay)');

test('a game that grounds only without its goals plays on the network, its goals computed by the reasoner, and says so', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await setRules(page, seenBy('(goal p 50)'));
  await page.waitForFunction(() => /terminal and goal by the reasoner: they do not ground/.test(document.querySelector('#engine-note')?.textContent ?? ''), null, { timeout: 30_000 });
  assert.equal(await page.locator('#engine-name').textContent(), 'propnet');
  await page.locator('#tab-ground').click();
  await page.locator('#ground .warn', { hasText: 'terminal and goal are computed by the reasoner on each state' }).waitFor({ timeout: 30_000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a limit that stops grounding is named, and "Try with larger limits" grounds again with limits 4 times the default', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await setRules(page, UNGROUNDABLE);
  await page.waitForFunction(() => document.querySelector('#engine-name')?.textContent === 'reasoner', null, { timeout: 30_000 });
  // The Play pane names auto's own bound, and asks for no limit the page cannot change.
  await page.waitForFunction(() => /not available/.test(document.querySelector('#engine-note')?.textContent ?? ''), null, { timeout: 30_000 });
  const note = await page.locator('#engine-note').textContent();
  assert.match(note, /computing seen\/3 grew past 500000 facts: the game derives too many facts, more than auto grounds before play begins/);
  assert.doesNotMatch(note, /raise the limit/);
  await page.locator('#tab-ground').click();
  const alert = page.locator('#ground [role="alert"]');
  await alert.waitFor({ timeout: 30_000 });
  const first = await alert.textContent();
  assert.match(first, /^The rules cannot be grounded: computing seen\/3 grew past 4000000 facts/);
  // The offer says what it may cost.
  assert.match(await page.locator('#ground').textContent(), /Try with larger limits \(limits 4 times the default: it may take 4 times as long, and up to about [\d.]+ GB of memory\)/);
  await page.locator('#ground-larger').click();
  await page.locator('#ground [role="alert"]', { hasText: 'even with limits 4 times the default' }).waitFor({ timeout: 30_000 });
  assert.match(await alert.textContent(), /grew past 16000000 facts/);
  // Beyond, the page says why not and what can go further.
  await page.locator('#ground-no-larger').waitFor();
  assert.equal(await page.locator('#ground-larger').count(), 0);
  assert.match(await page.locator('#ground-no-larger').textContent(), /more than the 4 GB a browser page may use; the command line can go further: gdl ground FILE --max-rules \d+/);
  // The game still plays.
  await page.locator('#tab-play').click();
  await page.locator('#random').click();
  await page.waitForFunction(() => /after 1 move/.test(document.querySelector('#step')?.textContent ?? ''));
  await shot(page, 'groundview-larger-limits');
  assert.deepEqual(errors, []);
  await context.close();
});

test('tic-tac-toe: the ground program shows the position, a chosen move lights its rules', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await openGround(page);
  // Pipeline: ten stages with counts and times.
  const stages = page.locator('.gv-stage');
  assert.equal(await stages.count(), 10);
  assert.match(await stages.nth(4).textContent(), /domains29 base fluents \(declared\), 20 inputs \(declared\)[\d.]+ ms/);
  assert.match(await stages.nth(5).textContent(), /instantiated\d+ rule instances/);
  assert.match(await stages.nth(8).textContent(), /ground180 ground rules/);
  assert.match(await count(page), /^180 ground rules · \d+ fire now$/);
  // legal/2 and "fires now": x's nine marks and o's noop.
  await page.locator('#gv-relation').selectOption({ label: 'legal/2 (20)' });
  await page.locator('#gv-fires').check();
  assert.match(await count(page), /^10 of 180 ground rules/);
  assert.equal(await page.locator('#ground-list .vrow.fires').count(), 10);
  // Rules per relation with how many fire.
  await page.locator('#gv-counts summary').click();
  assert.match(await page.locator('#gv-counts tr[data-relation="legal/2"]').textContent(), /legal\/22010/);
  await page.locator('#gv-fires').uncheck();
  await page.locator('#gv-relation').selectOption('-1');

  // Choose x's (mark 2 2): what it changes, and the rules it switches on and off.
  await page.locator('.gv-role[data-gv-role="x"] button[data-move="(mark 2 2)"]').click();
  await page.waitForFunction(() => document.querySelector('#gv-changes-list'));
  const changes = await page.locator('#gv-changes-list').textContent();
  for (const c of ['+ (cell 2 2 x)', '+ (control o)', '− (cell 2 2 b)', '− (control x)']) assert.ok(changes.includes(c), changes);
  await page.locator('#gv-changes').check();
  const lit = await page.locator('#ground-list .vrow.hl').allTextContents();
  assert.ok(lit.some((t) => /\(legal x \(mark 2 2\)\) ⇐ \(true \(control x\)\) \(true \(cell 2 2 b\)\)/.test(t)), lit.join('\n'));
  assert.ok(lit.some((t) => /\(next \(cell 2 2 x\)\) ⇐ \(does x \(mark 2 2\)\)/.test(t)), lit.join('\n'));
  assert.ok((await page.locator('#ground-list .vrow.hl-off').count()) > 0);
  await page.locator('#ground-list').scrollIntoViewIfNeeded();
  await shot(page, 'groundview-tictactoe-move');

  // An atom: the rules defining it and using it, the network around it, the rule graph.
  await page.locator('#ground-list button.atom', { hasText: /^\(next \(cell 2 2 x\)\)$/ }).first().click();
  assert.equal(await page.locator('#gv-atom-name').textContent(), '(next (cell 2 2 x))');
  assert.match(await page.locator('#gv-atom-value').textContent(), /^holds/);
  assert.match(await page.locator('#gv-defined').textContent(), /\(does x \(mark 2 2\)\)/);
  await page.locator('#gv-to-network').click();
  await page.locator('#gv-network g.node').first().waitFor();
  assert.ok(Number(await page.locator('#gv-network').getAttribute('data-nodes')) >= 3);
  assert.match(await page.locator('#gv-network-stats').textContent(), /Compiled network: \d+ gates/);
  // Tic-tac-toe does not split: one factor, named in the legend, its cells outlined in its colour.
  await page.locator('.gv-factors').waitFor();
  const legend = await page.locator('.gv-factors').textContent();
  assert.match(legend, /factor 1: 27 fluents, 18 moves.*bookkeeping: 2 fluents/);
  assert.doesNotMatch(legend, /factor 2/);
  await shot(page, 'groundview-network');
  await page.locator('.gv-stage[data-stage="ground"]').click();
  await page.locator('#ground-list button.atom', { hasText: /^\(true \(cell 2 2 b\)\)$/ }).first().click();
  assert.match(await page.locator('#gv-used').textContent(), /\(legal x \(mark 2 2\)\)/);
  await page.locator('#gv-to-graph').click();
  await page.waitForFunction(() => document.querySelector('#graph')?.dataset.focus === 'true/1', null, { timeout: 15_000 });
  await shot(page, 'groundview-rule-graph');

  // Play it from the grounded pane: the position follows.
  await page.locator('#tab-ground').click();
  await page.locator('#gv-play').click();
  await page.waitForFunction(() => /Position after 1 move/.test(document.querySelector('#gv-position')?.textContent ?? ''));
  await page.locator('#gv-changes').uncheck();
  await page.locator('#gv-text').fill('(legal o (mark 2 2');
  assert.match(await count(page), /^1 of 180/);
  assert.equal(await page.locator('#ground-list .vrow.fires').count(), 0);
  // The board in preview mode: a click chooses o's move without playing it.
  await page.locator('#tab-play').click();
  await page.locator('#preview').click();
  await cell(page, 1, 1).click();
  await page.locator('#preview-rules li').first().waitFor();
  assert.match(await page.locator('#preview-rules').textContent(), /legal: \(<= \(legal o \(mark 1 1\)\) \(true \(control o\)\) \(true \(cell 1 1 b\)\)\)/);
  assert.match(await page.locator('#preview-box').textContent(), /\+ \(cell 1 1 o\)/);
  assert.match(await page.locator('#step').textContent(), /after 1 move$/);
  // Preview off: a click plays again.
  await page.locator('#preview').click();
  assert.equal(await page.locator('#preview-box').textContent(), '');
  await cell(page, 1, 1).click();
  await page.waitForFunction(() => /after 2 moves/.test(document.querySelector('#step')?.textContent ?? ''));
  assert.deepEqual(errors, []);
  await context.close();
});

test('tic-tac-toe: each stage of the pipeline can be viewed; the program follows the editor syntax', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await openGround(page);
  // The stages in order, each saying in a line what it does; the colours have a legend.
  assert.deepEqual(await page.locator('.gv-stage').evaluateAll((bs) => bs.map((b) => b.dataset.stage)), ['normalised', 'fixed', 'specialised', 'decomposed', 'domains', 'instantiated', 'pruned', 'unfolded', 'ground', 'network']);
  for (const why of await page.locator('.gv-stage-why').allTextContents()) assert.ok(why.length > 20, why);
  assert.equal(await page.locator('#gv-legend .gv-key').count(), 5);
  // A rule's row holds its whole text on hover.
  await page.locator('#gv-text').fill('(legal x (mark 1 1))');
  assert.equal(await page.locator('#ground-list .vrow').first().getAttribute('title'), '(<= (legal x (mark 1 1)) (true (control x)) (true (cell 1 1 b)))');
  await page.locator('#gv-text').fill('');
  for (const [stage, line] of [
    ['normalised', /\(legal \?p \(mark \?c \?r\)\) :-/],
    ['fixed', /:-/],
    ['specialised', /:-/],
    ['decomposed', /:-/],
    ['domains', /\(base \(cell 1 1 b\)\)/],
  ]) {
    await page.locator(`.gv-stage[data-stage="${stage}"]`).click();
    await page.locator('#gv-stage-list .vrow').first().waitFor();
    const text = (await page.locator('#gv-stage-list').textContent()) ?? '';
    assert.match(text, line, stage);
  }
  // The passes over the ground rules say how many rules each left, and that their rules are not kept.
  await page.locator('.gv-stage[data-stage="pruned"]').click();
  assert.match((await page.locator('#gv-stage').textContent()) ?? '', /This stage left \d+ rules; its rules are not kept/);
  await shot(page, 'groundview-stage');
  // In infix the program prints in infix, and a chosen move still finds its rules.
  await page.locator('#to-infix').click();
  await page.locator('.gv-stage[data-stage="ground"]').click();
  await page.locator('#ground-list .vrow', { hasText: 'init(cell(1, 1, b))' }).first().waitFor({ timeout: 30_000 });
  await page.locator('.gv-role[data-gv-role="x"] button[data-move="(mark 1 3)"]').click();
  await page.locator('#gv-changes').check();
  await page.waitForFunction(() => /\+ \(cell 1 3 x\)/.test(document.querySelector('#gv-changes-list')?.textContent ?? ''));
  const lit = await page.locator('#ground-list .vrow.hl').allTextContents();
  assert.ok(lit.some((t) => t.includes('legal(x, mark(1, 3)) :- true(control(x)) & true(cell(1, 3, b))')), lit.join('\n'));
  assert.ok(lit.some((t) => t.includes('next(cell(1, 3, x)) :- does(x, mark(1, 3))')), lit.join('\n'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('breakthrough: engine, a move lit up in its 2 119 ground rules, the network', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await loadExample(page, 'breakthrough');
  assert.match(await page.locator('#engine-note').textContent(), /^\(2119 ground rules/);
  await openGround(page);
  assert.match(await count(page), /^2,119 ground rules/);
  // The list is virtualised: far fewer rows in the page than rules.
  assert.ok((await page.locator('#ground-list .vrow').count()) < 200);
  const move = page.locator('.gv-role[data-gv-role="white"] button.gv-move').first();
  const text = await move.getAttribute('data-move');
  await move.click();
  await page.waitForFunction(() => document.querySelector('#gv-changes-list'));
  const changes = await page.locator('#gv-changes-list').textContent();
  assert.match(changes, /\+ \(cell \d \d white\)/);
  assert.match(changes, /− \(cell \d \d white\)/);
  await page.locator('#gv-changes').check();
  const lit = await page.locator('#ground-list .vrow.hl').allTextContents();
  assert.ok(lit.some((t) => t.includes(`(legal white ${text})`)), `${text}: ${lit.join('\n')}`);
  assert.ok(lit.some((t) => t.includes(`(does white ${text})`)));
  await page.locator('#ground-list').scrollIntoViewIfNeeded();
  await shot(page, 'groundview-breakthrough-move');
  // On the board, in the Play pane's preview mode: a piece, then its destination, is chosen
  // (not played) and its rules are summarised under the moves.
  await page.locator('#tab-play').click();
  await page.locator('#preview').click();
  await cell(page, 1, 2).click();
  await cell(page, 1, 3).click();
  await page.locator('#preview-rules li').first().waitFor();
  assert.match(await page.locator('#preview-box').textContent(), /\+ \(cell 1 3 white\) .*− \(cell 1 2 white\)/);
  const previewed = await page.locator('#preview-rules').textContent();
  assert.match(previewed, /legal: \(<= \(legal white \(move 1 2 1 3\)\)/);
  assert.match(previewed, /fires: \(<= \(next \(cell 1 3 white\)\) .*\(does white \(move 1 2 1 3\)\)/);
  assert.match(await page.locator('#step').textContent(), /after 0 moves/);
  await page.locator('#preview-box').scrollIntoViewIfNeeded();
  await shot(page, 'groundview-breakthrough-preview');
  await page.locator('#preview-open').click();
  assert.equal(await page.locator('#gv-changes').isChecked(), true);
  assert.ok((await page.locator('#ground-list .vrow.hl').allTextContents()).some((t) => t.includes('(legal white (move 1 2 1 3))')));
  await page.locator('#tab-play').click();
  await page.locator('#preview-play').click();
  await page.waitForFunction(() => /after 1 move/.test(document.querySelector('#step')?.textContent ?? ''));
  // The preview follows the new position once the grounding worker has its truth values.
  await page.waitForFunction(() => /choose a move/.test(document.querySelector('#preview-box')?.textContent ?? ''));
  await page.locator('#tab-ground').click();
  await page.locator('#gv-changes').uncheck();
  await page.locator('#gv-text').fill(`(legal white ${text})`);
  await page.locator('#ground-list button.atom', { hasText: `(legal white ${text})` }).first().click();
  await page.locator('#gv-to-network').click();
  await page.locator('#gv-network g.node').first().waitFor();
  const before = Number(await page.locator('#gv-network').getAttribute('data-nodes'));
  assert.ok(before >= 3);
  await shot(page, 'groundview-breakthrough-network');
  assert.deepEqual(errors, []);
  await context.close();
});

test('double tic-tac-toe: the network picture outlines each board, an independent subgame, in its own colour', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await loadExample(page, 'doubletictactoe');
  await openGround(page);
  await page.locator('#ground-list button.atom', { hasText: /^\(next \(cell 1 2 2 x\)\)$/ }).first().click();
  await page.locator('#gv-to-network').click();
  await page.locator('.gv-factors').waitFor();
  assert.match(await page.locator('.gv-factors').textContent(), /factor 1: 27 fluents, 18 moves.*factor 2: 27 fluents, 18 moves.*bookkeeping: 2 fluents/);
  // Board 1's cells and marks in one colour, the turn in the bookkeeping's.
  const nodes = await page.locator('#gv-network g.node.atom').evaluateAll((gs) => gs.map((g) => [g.getAttribute('aria-label'), [...g.classList].find((c) => c.startsWith('factor-')) ?? null]));
  const colours = (re) => [...new Set(nodes.filter(([label]) => re.test(label)).map(([, c]) => c))];
  const board1 = colours(/\(cell 1 |\(mark 1 /);
  assert.equal(board1.length, 1, JSON.stringify(nodes));
  assert.ok(board1[0] !== null, JSON.stringify(nodes));
  assert.ok(!colours(/\(control /).includes(board1[0]), JSON.stringify(nodes));
  await shot(page, 'groundview-factors');
  assert.deepEqual(errors, []);
  await context.close();
});
