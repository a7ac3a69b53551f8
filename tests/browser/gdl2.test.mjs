// Browser tests of GDL-II games in the Play pane: "View as" a role hides the true state and
// shows the role's belief board, percepts and possible states, which agree with the engine's
// command line (`gdl info --as ROLE --path MOVES`); nature (`random`) moves by itself in Monty
// Hall, or as the teacher chooses; a share link and a reload keep the view; an information set
// too large to work out exactly is shown as a sample, marked as such, and the page stays
// responsive; an estimated count stays between the states seen and 2^base; Monty Hall's end is
// the candidate's result (core's words), nature is never judged; "I choose its moves" holds
// from the first move and Restart starts a game nature plays in; the Grounded rules pane
// lights the `sees` rules a joint move fires. Screenshots go to artifacts/.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cell, gdlBinary, openPage, setRules, shot, useBrowser } from './lib.mjs';

const env = useBrowser();
/** Games of ../shared/corpus-gdl2 (a missing file fails the test, never skips it). */
const corpus = (name) => fileURLToPath(new URL(`../../../shared/corpus-gdl2/${name}.kif`, import.meta.url));
const KRIEG = corpus('kriegTTT_5x5');
const MONTY = corpus('montyhall');

/** What the command line says `role` knows after `path` (limit and seed as the page's). */
function cliKnows(game, role, path) {
  const out = execFileSync(gdlBinary(), ['info', game, '--as', role, '--path', path, '--limit', '1000', '--seed', '1', '--json'], { encoding: 'utf8' });
  const k = JSON.parse(out.split('\n').find((l) => l.startsWith('{')));
  const shares = new Map();
  for (const s of k.states) for (const f of s) shares.set(f, (shares.get(f) ?? 0) + 1 / k.states.length);
  return { count: Math.round(k.count), exact: !k.sampled, shares };
}

/** A screenshot of the Play pane from its top. */
async function paneShot(page, name) {
  await page.locator('#pane-play').evaluate((e) => (e.scrollTop = 0));
  await shot(page, name);
}

/** The page's share of a fluent as drawn: "50%" etc. */
const pct = (share) => `${Math.round(share * 100)}%`;

/** Puts `file`'s rules in the editor and waits for the game (with its "View as" control). */
async function openGame(page, file) {
  await setRules(page, readFileSync(file, 'utf8'));
  await page.locator('#view-as-role').waitFor();
}

/** Opens `file`'s rules and plays `joints` (one move text per role) with the move buttons, as the referee. */
async function openAndPlay(page, file, joints) {
  await openGame(page, file);
  for (const joint of joints) {
    const before = await page.locator('#history li').count();
    for (const [r, m] of joint.entries()) {
      const role = await page.locator('#moves .role-moves').nth(r).getAttribute('data-role');
      await page.locator(`#moves .role-moves[data-role="${role}"] button.move`, { hasText: m }).first().click();
    }
    await page.waitForFunction((n) => document.querySelectorAll('#history li').length === n + 1, before);
  }
}

const KRIEG_PATH = [
  ['(mark 1 1)', '(mark 3 3)'],
  ['(mark 2 2)', '(mark 1 1)'],
  ['(mark 3 3)', '(mark 5 5)'],
];
const pathText = (joints) => joints.map((j) => j.join(', ')).join('; ');

test('view as a role: the true state is hidden, the belief board and count agree with the engine', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await openAndPlay(page, KRIEG, KRIEG_PATH);
  // The referee sees o's mark at 3 3 for sure.
  assert.match(await cell(page, 3, 3).getAttribute('aria-label'), /: xplayer$|: oplayer$/);
  await page.locator('#view-as-role').selectOption('xplayer');
  await page.locator('#knows-count[data-count]').waitFor();
  const expected = cliKnows(KRIEG, 'xplayer', pathText(KRIEG_PATH));
  assert.equal(expected.exact, true);
  assert.equal(Number(await page.locator('#knows-count').getAttribute('data-count')), expected.count);
  assert.match(await page.locator('#knows-count').textContent(), new RegExp(`^${expected.count} possible states`));
  // Every cell of the board says what the engine's possible states hold there, with their shares.
  for (const x of [1, 2, 3, 4, 5]) {
    for (const y of [1, 2, 3, 4, 5]) {
      const label = await cell(page, x, y).getAttribute('aria-label');
      const here = [...expected.shares].filter(([f]) => f.startsWith(`(cell ${x} ${y} `));
      const sure = here.length === 1 && here[0][1] > 0.999;
      for (const [f, share] of here) {
        const value = f.slice(`(cell ${x} ${y} `.length, -1);
        if (sure) assert.ok(label.endsWith(value === 'b' ? 'empty' : value), `${label} vs ${f}`);
        else assert.ok(label.includes(`${value} ${pct(share)}`), `${label} lacks ${value} ${pct(share)}`);
      }
    }
  }
  // x is sure of its own marks; o's are only possible (faded, with shares): no o is drawn for sure.
  assert.match(await cell(page, 1, 1).getAttribute('aria-label'), /: xplayer$/);
  assert.deepEqual([...new Set(await page.locator('#board .cell:not(.unsure) .mark').allTextContents())], ['X']);
  assert.equal(await cell(page, 5, 5).locator('.belief').count(), 1);
  assert.ok((await page.locator('#board.belief .cell.unsure').count()) > 0);
  // Nothing of o shows: no move buttons, no move in the list, no percept of its own.
  assert.equal(await page.locator('#moves .role-moves[data-role="oplayer"] button.move').count(), 0);
  assert.match(await page.locator('#moves .role-moves[data-role="oplayer"]').textContent(), /hidden/);
  assert.doesNotMatch(await page.locator('#history').textContent(), /oplayer/);
  assert.equal(await page.locator('#why-section').isHidden(), true);
  // Its percepts step by step, as the engine lists them.
  assert.equal(await page.locator('#percepts li').count(), 3);
  assert.match(await page.locator('#percepts li').first().textContent(), /played \(mark 1 1\) · saw \(tried xplayer 1 1\)\(yougotit 1 1\)/);
  // The possible states, virtualised.
  assert.ok((await page.locator('#knows-states .vrow').count()) < expected.count);
  await paneShot(page, 'gdl2-belief-board');
  // The Grounded rules pane lights no rule against the true state either.
  await page.locator('#tab-ground').click();
  await page.locator('#gv-hidden').waitFor({ timeout: 30_000 });
  assert.match(await page.locator('#gv-hidden').textContent(), /viewed as xplayer, who does not know the true state/);
  assert.ok((await page.locator('#ground-list .vrow').count()) > 0);
  assert.equal(await page.locator('#ground-list .vrow.fires').count(), 0);
  await page.locator('#tab-play').click();

  // Back to the referee: the true state again, and the rules it fires.
  await page.locator('#view-as-role').selectOption('');
  assert.equal(await page.locator('#board .belief').count(), 0);
  assert.equal(await page.locator('#knows').isHidden(), true);
  await page.locator('#tab-ground').click();
  await page.locator('#ground-list .vrow.fires').first().waitFor({ timeout: 30_000 });
  assert.equal(await page.locator('#gv-hidden').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('nature (random) moves by itself in Monty Hall, or as the teacher chooses; the end reveals all', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await openGame(page, MONTY);
  // Nature has no seat to choose who plays it.
  assert.equal(await page.locator('select.seat-kind[data-role="random"]').count(), 0);
  assert.match(await page.locator('.seat.nature').textContent(), /random: nature, draws its moves at random/);
  await page.locator('#view-as-role').selectOption('candidate');
  await page.locator('#moves .role-moves[data-role="candidate"] button.move', { hasText: '(choose 1)' }).click();
  // Nature hid the car with the candidate's move, then opened a door alone: two steps, now the candidate's choice.
  await page.waitForFunction(() => document.querySelectorAll('#history li').length === 3);
  await page.locator('#knows-count[data-count="2"]').waitFor();
  assert.match(await page.locator('#percepts li').nth(1).textContent(), /saw \(does candidate noop\)\(open_door [23]\)/);
  // The car is behind door 1 or the other closed door, half and half; the candidate cannot tell.
  assert.equal(await page.locator('#board .state-list tr[data-relation="car"] code.unsure').count(), 2);
  assert.match(await page.locator('#board .state-list tr[data-relation="car"]').textContent(), /1 50%/);
  await paneShot(page, 'gdl2-monty-candidate');
  await page.locator('#moves .role-moves[data-role="candidate"] button.move', { hasText: 'switch' }).click();
  await page.waitForFunction(() => /Game over/.test(document.querySelector('#outcome').textContent));
  // The end reveals the true state: the car is drawn for sure.
  assert.equal(await page.locator('#board .state-list tr[data-relation="car"] code').count(), 1);
  assert.match(await page.locator('#knows').textContent(), /The game is over: the true state and every move are shown/);
  assert.match(await page.locator('#history').textContent(), /random \(hide_car/);

  // The teacher chooses nature's moves, to demonstrate.
  await page.locator('#restart').click();
  await page.locator('#view-as-role').selectOption('');
  await page.locator('#nature-by-hand').check();
  await page.locator('#moves button.move.nature', { hasText: 'make nature play (hide_car 2)' }).click();
  await page.locator('#moves .role-moves[data-role="candidate"] button.move', { hasText: '(choose 1)' }).click();
  await page.locator('#moves button.move.nature', { hasText: 'make nature play (open_door 3)' }).click();
  assert.match(await page.locator('#history').textContent(), /random \(hide_car 2\).*random \(open_door 3\)/s);
  await paneShot(page, 'gdl2-monty-teacher');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a share link and a reload keep the view as a role', async () => {
  const a = await openPage(env.browser, env.url);
  await openAndPlay(a.page, KRIEG, KRIEG_PATH.slice(0, 2));
  await a.page.locator('#view-as-role').selectOption('oplayer');
  await a.page.locator('#knows-count[data-count]').waitFor();
  const count = await a.page.locator('#knows-count').getAttribute('data-count');
  assert.equal(Number(count), cliKnows(KRIEG, 'oplayer', pathText(KRIEG_PATH.slice(0, 2))).count);
  await a.page.locator('#share').click();
  const link = await a.page.locator('#share-link').inputValue();
  await a.page.keyboard.press('Escape');

  const b = await openPage(env.browser, link);
  await b.page.locator(`#knows-count[data-count="${count}"]`).waitFor();
  assert.equal(await b.page.locator('#view-as-role').inputValue(), 'oplayer');
  assert.ok((await b.page.locator('#board.belief .cell.unsure').count()) > 0);
  await paneShot(b.page, 'gdl2-shared-view');
  // A reload keeps it too (the autosave).
  await b.page.reload();
  await b.page.waitForSelector('body[data-ready="true"]');
  await b.page.locator(`#knows-count[data-count="${count}"]`).waitFor();
  assert.equal(await b.page.locator('#view-as-role').inputValue(), 'oplayer');
  assert.deepEqual([...a.errors, ...b.errors], []);
  await a.context.close();
  await b.context.close();
});

test('an information set too large to work out exactly is a sample, marked as such; the page stays responsive', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  const path = [...KRIEG_PATH, ['(mark 4 4)', '(mark 2 1)']];
  await openAndPlay(page, KRIEG, path);
  await page.locator('#view-as-role').selectOption('xplayer');
  // While it is worked out (in a worker), the page answers at once.
  const t0 = Date.now();
  await page.locator('#tab-playouts').click();
  await page.locator('#tab-play').click();
  assert.ok(Date.now() - t0 < 2000, 'the page answered clicks while the information set was worked out');
  await page.locator('#knows-count[data-sampled="true"]').waitFor({ timeout: 30_000 });
  const expected = cliKnows(KRIEG, 'xplayer', pathText(path));
  assert.equal(expected.exact, false);
  assert.equal(Number(await page.locator('#knows-count').getAttribute('data-count')), expected.count);
  assert.match(await page.locator('#knows-count').textContent(), new RegExp(`^at least [\\d,]+ distinct states seen; about ${expected.count.toLocaleString('en')} by estimate \\(from sampled lines of play`));
  assert.match(await page.locator('#knows summary').textContent(), /The sample \(1,000 states\)/);
  await paneShot(page, 'gdl2-sampled');
  assert.deepEqual(errors, []);
  await context.close();
});

/** Eleven steps of a seeded playout of Kriegspiel tic-tac-toe 5×5 (`gdl playout --seed 3`). */
const KRIEG_LONG = [
  ['(mark 4 4)', '(mark 3 5)'],
  ['(mark 4 1)', '(mark 5 1)'],
  ['(mark 5 1)', '(mark 4 1)'],
  ['(mark 5 5)', '(mark 5 3)'],
  ['(mark 2 4)', '(mark 4 2)'],
  ['(mark 1 3)', '(mark 2 1)'],
  ['(mark 4 5)', '(mark 2 2)'],
  ['(mark 1 2)', '(mark 4 1)'],
  ['(mark 5 3)', '(mark 1 1)'],
  ['(mark 4 3)', '(mark 1 4)'],
  ['(mark 4 2)', '(mark 5 4)'],
];

test('deep into Kriegspiel 5×5 the count is an estimate between the states seen and 2^base, said in words', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await openAndPlay(page, KRIEG, KRIEG_LONG);
  await page.locator('#view-as-role').selectOption('xplayer');
  const count = page.locator('#knows-count[data-sampled="true"]');
  await count.waitFor({ timeout: 60_000 });
  const [n, seen, base] = await Promise.all(['data-count', 'data-seen', 'data-base'].map(async (a) => Number(await count.getAttribute(a))));
  assert.ok(base > 0, 'the game grounds: its base facts bound the count');
  assert.ok(seen <= n && n <= 2 ** base, `${seen} <= ${n} <= 2^${base}`);
  const text = await count.textContent();
  assert.match(text, /^at least [\d,]+ distinct states seen; about [\d,.×^]+ by estimate \(from sampled lines of play; a sample of 1,000 shown\)/);
  assert.ok(text.endsWith(`at most 2^${base} by the game's ${base} base facts`), text);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Monty Hall won by switching is the candidate\'s win: nature is never a winner nor part of a draw', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await openGame(page, MONTY);
  // Ticked right after loading: nature plays none of its moves itself, not even the first.
  await page.locator('#nature-by-hand').check();
  await page.locator('#moves .role-moves[data-role="candidate"] button.move', { hasText: '(choose 1)' }).click();
  await page.waitForTimeout(500);
  assert.equal(await page.locator('#history li').count(), 1, 'no move played while nature waits for the teacher');
  await page.locator('#moves button.move.nature', { hasText: 'make nature play (hide_car 2)' }).click();
  await page.waitForFunction(() => document.querySelectorAll('#history li').length === 2);
  await page.locator('#moves button.move.nature', { hasText: 'make nature play (open_door 3)' }).click();
  await page.waitForFunction(() => document.querySelectorAll('#history li').length === 3);
  await page.locator('#moves .role-moves[data-role="candidate"] button.move', { hasText: 'switch' }).click();
  await page.waitForFunction(() => /Game over/.test(document.querySelector('#outcome').textContent));
  const verdict = await page.locator('#outcome .verdict').textContent();
  assert.equal(verdict, 'Game over: candidate scores 100: a win');
  assert.doesNotMatch(verdict, /random|Draw/);
  assert.equal(await page.locator('#outcome .goal[data-role="random"]').count(), 0);
  assert.match(await page.locator('#history').textContent(), /random \(hide_car 2\)/);

  // Restart starts a new game, and nature (drawing again) plays in it without being asked.
  await page.locator('#nature-by-hand').uncheck();
  await page.locator('#restart').click();
  await page.waitForFunction(() => document.querySelectorAll('#history li').length === 1);
  await page.locator('#moves .role-moves[data-role="candidate"] button.move', { hasText: '(choose 2)' }).click();
  await page.waitForFunction(() => document.querySelectorAll('#history li').length === 3);
  assert.equal(await page.locator('#think-continue').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the Grounded rules pane lights the sees rules that a chosen joint move fires', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await openGame(page, MONTY);
  await page.locator('#nature-by-hand').check();
  await page.locator('#tab-ground').click();
  await page.locator('#ground-list .vrow').first().waitFor({ timeout: 30_000 });
  // No move chosen: no percept.
  assert.equal(await page.locator('#ground-list .vrow.percept').count(), 0);
  await page.locator('.gv-role[data-gv-role="candidate"] button.gv-move[data-move="(choose 1)"]').click();
  await page.locator('.gv-role[data-gv-role="random"] button.gv-move[data-move="(hide_car 2)"]').click();
  await page.waitForFunction(() => /hide_car 2/.test(document.querySelector('#gv-percepts-list')?.textContent ?? ''));
  assert.match(await page.locator('#gv-percepts-list').textContent(), /\(sees candidate \(does candidate \(choose 1\)\)\).*\(sees random \(hide_car 2\)\)/);
  // Only the sees rules that fire, listed with the filter, each lit.
  await page.locator('#gv-percepts').check();
  const rows = await page.locator('#ground-list .vrow').allTextContents();
  assert.ok(rows.length >= 3 && rows.every((r) => /sees/.test(r)), rows.join('\n'));
  assert.equal(await page.locator('#ground-list .vrow.percept').count(), rows.length);
  assert.ok(rows.some((r) => /\(sees random \(hide_car 2\)\)/.test(r)));
  assert.ok(!rows.some((r) => /hide_car 1/.test(r)), 'rules of other moves stay dark');
  await shot(page, 'gdl2-ground-sees');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the honest player plays GDL-II games: at a seat of the Play pane, and a match in the Match tab', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await openGame(page, corpus('kriegTTT_4x4'));
  // Seats offer the honest player, remote players and the student's own (told only their
  // percepts), not MCTS or perfect (which need the true state).
  const kinds = await page.locator('select.seat-kind[data-role="oplayer"] option').allTextContents();
  assert.deepEqual(kinds, ['human', 'random', 'honest', 'remote player', 'my player: write one…']);
  await page.locator('select.seat-kind[data-role="oplayer"]').selectOption('honest');
  await page.locator('select[aria-label="Budget of oplayer"]').selectOption('100');
  await page.locator('#moves .role-moves[data-role="xplayer"] button.move', { hasText: '(mark 1 1)' }).click();
  await page.waitForFunction(() => document.querySelectorAll('#history li').length === 2, null, { timeout: 20_000 });

  await page.locator('#tab-match').click();
  await page.locator('#ma-a').selectOption('honest:100');
  await page.locator('#ma-b').selectOption('random');
  await page.locator('#ma-games').fill('4');
  await page.locator('#ma-run').click();
  await page.waitForFunction(() => /4 of 4 games/.test(document.querySelector('#ma-results')?.textContent ?? ''), null, { timeout: 60_000 });
  const first = await page.locator('#ma-results > .match-table tbody tr').nth(0).locator('td').allTextContents();
  assert.equal(first[0], 'honest, 100 playouts a move');
  assert.equal(first[1], '4');
  await shot(page, 'gdl2-match-honest');
  assert.deepEqual(errors, []);
  await context.close();
});
