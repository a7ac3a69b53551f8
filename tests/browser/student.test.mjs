// Browser tests of the student's players (web/src/student/): written in the page's editor,
// run in a sandboxed worker, seated at the Play pane and refereed by core as remote players
// are. The starter player and a minimax play tic-tac-toe to the end against MCTS; a player that
// loops forever is stopped at its clock and the game goes on, at a seat and in a tournament;
// a minimax enters the Match tab and a tournament (also beside a remote player), where each
// game shows its log (and again in the Play pane after Open in Play) and its downloaded
// record holds it; a player from a link runs only
// after Run; from inside the sandbox, storage, IndexedDB and the network are out of reach.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openPage, shot, startGdlPlayer, useBrowser } from './lib.mjs';

const env = useBrowser();

/** Opens My players and saves `code` as the player `name`. */
async function savePlayer(page, name, code) {
  if (!(await page.locator('#my-players').evaluate((d) => d.open))) await page.locator('#my-players > summary').click();
  await page.waitForSelector('.player-code .cm-content');
  await page.locator('button:has-text("New")').click();
  await page.locator('.player-name').fill(name);
  await page.locator('.player-code .cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
  await page.locator('.player-save').click();
  await page.waitForFunction((n) => document.querySelector('.player-notice')?.textContent === `"${n}" saved.`, name);
}

/** Seats role `role` with `choice` (a menu value), and, when given, a budget or a play clock. */
async function seat(page, role, choice, { budget, playClock } = {}) {
  await page.locator(`select.seat-kind[data-role="${role}"]`).selectOption(choice);
  if (budget !== undefined) await page.locator(`.seat:has(select[data-role="${role}"]) select.seat-budget`).selectOption({ index: budget });
  if (playClock !== undefined) {
    const box = page.locator(`input[aria-label="play clock of ${role}"]`);
    await box.fill(String(playClock));
    await box.dispatchEvent('change');
  }
}

const logOf = (page) => page.locator('#play-log li').allTextContents();
const faultsOf = async (page) => (await logOf(page)).filter((l) => /^player \d/.test(l));

async function playsToTheEnd(page) {
  await page.waitForSelector('#outcome.over', { timeout: 90_000 }).catch(async (e) => {
    console.log((await logOf(page)).map((l) => l.slice(0, 200)).join('\n'));
    throw e;
  });
}

const MINIMAX = `// Minimax over the whole game tree, with a table of states seen (states are numbers).
const known = new Map();
function value(game, state, me) {
  if (game.terminal(state)) return game.goal(state, me);
  if (known.has(state)) return known.get(state);
  const joints = game.roles.map((r) => game.legal(state, r));
  const mover = Math.max(0, joints.findIndex((ms) => ms.length > 1));
  const mine = game.roles[mover] === me;
  let best = mine ? -1 : 101;
  for (const move of joints[mover]) {
    const joint = joints.map((ms, r) => (r === mover ? move : ms[0]));
    const v = value(game, game.next(state, joint), me);
    best = mine ? Math.max(best, v) : Math.min(best, v);
  }
  known.set(state, best);
  return best;
}
function play(game) {
  const state = game.current();
  const moves = game.legal(state, game.role);
  let best = moves[0], bestValue = -1;
  for (const move of moves) {
    const joint = game.roles.map((r) => (r === game.role ? move : game.legal(state, r)[0]));
    const v = value(game, game.next(state, joint), game.role);
    if (v > bestValue) [best, bestValue] = [move, v];
  }
  game.log('minimax', { move: best, value: bestValue, states: known.size });
  return best;
}
`;

test('the starter player, then a minimax written here, play tic-tac-toe against MCTS to the end', { timeout: 240_000 }, async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  // A seat's menu opens the editor, and the seat stays a person's.
  await page.locator('select.seat-kind[data-role="x"]').selectOption('my:');
  await page.waitForSelector('.player-code .cm-content');
  assert.equal(await page.locator('select.seat-kind[data-role="x"]').inputValue(), 'human');
  // The starter player, saved as it comes.
  assert.match(await page.locator('.player-code .cm-content').textContent(), /function play\(game\)/);
  // The editor completes the API, with each call's comment.
  await page.locator('.player-code .cm-content').click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.insertText('\n// game.le');
  await page.keyboard.press('Control+Space');
  const option = page.locator('.cm-tooltip-autocomplete li', { hasText: 'legal' });
  await option.waitFor({ timeout: 5_000 });
  assert.match(await option.textContent(), /legal\(state: State, role: string\): string\[\]/);
  await page.keyboard.press('Escape');
  await page.keyboard.press('ControlOrMeta+z');
  await page.locator('.player-name').fill('starter');
  await page.locator('.player-save').click();
  await seat(page, 'o', 'uct', { budget: 0 });
  await seat(page, 'x', 'my:starter');
  await playsToTheEnd(page);
  let log = await logOf(page);
  assert.deepEqual(await faultsOf(page), [], 'no fault');
  assert.ok(log.some((l) => /^x \(my player starter\) logs at step 1, after \d+ ms: chose at random \{"among":9,"timeLeft":\d+\}$/.test(l)), log.join('\n'));
  assert.ok(log.some((l) => /\(STOP playground\.\d+ /.test(l) && /→ done/.test(l)), 'told the end');

  await savePlayer(page, 'minimax', MINIMAX);
  await seat(page, 'x', 'my:minimax', { playClock: 10 });
  await page.locator('#restart').click();
  await playsToTheEnd(page);
  log = await logOf(page);
  assert.deepEqual(await faultsOf(page), [], 'no fault');
  assert.ok(log.some((l) => /^x \(my player minimax\) logs at step 1, after \d+ ms: minimax \{"move":"\(mark \d \d\)","value":50,"states":\d+\}$/.test(l)), log.join('\n'));
  // Minimax never loses tic-tac-toe: x's goal is 50 or 100.
  assert.match(await page.locator('#outcome .goal[data-role="x"]').textContent(), /^x: (50|100)$/);
  await shot(page, 'student-minimax');
  assert.deepEqual(errors, []);
  await context.close();
});

/** Saves the minimax as 'minimax' (its table of states emptied at each START: one sandbox
 * plays every game, and state numbers hold for one game only) and opens the Match tab. */
async function minimaxInMatchTab(page) {
  await savePlayer(page, 'minimax', `${MINIMAX}function start(game) {\n  known.clear();\n}\n`);
  await page.locator('#tab-match').click();
}

/** The lines of the log under game `game` of a list of games, unfolded. */
async function logUnder(game) {
  await game.locator('details.game-log > summary').click();
  return game.locator('.game-log-lines li').allTextContents();
}

/** Opens `game` (of `steps` joint moves) in the Play pane, which then shows `lines`, its log;
 * one step back, the lines said at the position shown (for the last move) are marked. */
async function opensWithItsLog(page, game, lines, steps) {
  await game.locator('button:has-text("Open in Play")').click();
  await page.locator('#opened-log').waitFor();
  assert.deepEqual(await page.locator('#opened-log li').allTextContents(), lines);
  await page.locator('#undo').click();
  const here = await page.locator('#opened-log li.here').allTextContents();
  await shot(page, 'student-opened-log');
  assert.ok(here.length > 0 && here.every((l) => l.startsWith(`at step ${steps} · `)), `${steps}: ${here.join('\n')}`);
}

/** The minimax's log lines as a game's log shows them (core's words for the step). */
const MINIMAX_LINE = /^at step \d+ · [xo] · my player: minimax logs at step \d+, after \d+ ms: minimax \{"move":/;

test("a student's player enters the Match tab: its games are refereed by core to the end, tallied, and its log kept", { timeout: 300_000 }, async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  // One sandbox plays the whole match, as one GGP player plays match after match.
  await minimaxInMatchTab(page);
  // The menus list the players saved when they open.
  await page.locator('#ma-a').focus();
  await page.locator('#ma-a').selectOption('my:minimax');
  await page.locator('#ma-b').selectOption('random');
  await page.locator('#ma-games').fill('4');
  await page.locator('#ma-run').click();
  await page.waitForFunction(() => document.querySelector('#ma-where')?.textContent.startsWith('4 of 4 games'), null, { timeout: 240_000 });
  const row = (await page.locator('#ma-results table.match-table').first().locator('tbody tr').allTextContents()).find((r) => r.startsWith('my player: minimax'));
  // player, games, wins, draws, losses: a minimax never loses tic-tac-toe.
  assert.match(row ?? '', /^my player: minimax4\d\d0/, row);
  // Seats alternate: it played x and o.
  const seats = await page.locator('#ma-seats tbody tr').evaluateAll((rows) => rows.filter((r) => r.textContent.includes('my player: minimax')).map((r) => r.dataset.role));
  assert.deepEqual(seats.sort(), ['o', 'x']);
  const notes = await page.locator('#ma-log li.player-said').allTextContents();
  assert.ok(notes.some((l) => /^game 1: my player: minimax logs at step \d+, after \d+ ms: minimax \{"move":"\(mark \d \d\)"/.test(l)), notes.join('\n'));
  assert.equal(await page.locator('#ma-log li.fault').count(), 0);
  assert.equal(await page.locator('#ma-games-list > ol > li').count(), 4);
  // Under each game, its log: what the minimax said, step by step.
  await page.locator('#ma-games-list > summary').click();
  const first = page.locator('#ma-games-list li[data-game="0"]');
  const lines = await logUnder(first);
  assert.ok(lines.length > 0 && lines.every((l) => MINIMAX_LINE.test(l)), lines.join('\n'));
  // The record downloads as `gdl match --record` writes it, with what was said.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#ma-record').click()]);
  assert.equal(download.suggestedFilename(), 'match.json');
  const file = JSON.parse(readFileSync(await download.path(), 'utf8'));
  assert.equal(file.matches.length, 4);
  assert.ok(file.matches.every((m) => m.players.includes('my:minimax') && m.goals !== null && m.said.length > 0), JSON.stringify(file.matches.map((m) => m.players)));
  assert.equal(file.matches[0].said.length, lines.length);
  await shot(page, 'student-match-log');
  await opensWithItsLog(page, first, lines, file.matches[0].steps.length);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a student's player enters a tournament: its games are played in the page, the others in workers, and the leaderboard is core's", { timeout: 300_000 }, async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await minimaxInMatchTab(page);
  await page.locator('#to-section > summary').click();
  await page.locator('#to-add').focus();
  await page.locator('#to-add').selectOption('my:minimax');
  assert.match(await page.locator('#to-entrants').inputValue(), /(^|, )my:minimax$/);
  await page.locator('#to-entrants').fill('my:minimax, random, mc:20');
  await page.locator('#to-per-pairing').fill('1');
  await page.locator('#to-seed').fill('3');
  await page.locator('#to-run').click();
  // 3 pairings × 2 seatings: the minimax's 4 games on this page, 2 in a worker.
  await page.waitForFunction(() => /^6 of 6 games played/.test(document.querySelector('#to-status')?.textContent ?? ''), null, { timeout: 240_000 }).catch(async (e) => {
    throw new Error(`${e.message}: ${await page.locator('#to-results').textContent()} ${(await page.locator('#to-log li').allTextContents()).join('\n')} ${errors.join('\n')}`);
  });
  const board = await page.locator('#to-results .to-board tbody tr').evaluateAll((rs) => rs.map((r) => [r.dataset.entrant, ...[...r.querySelectorAll('td')].slice(2, 6).map((td) => Number(td.textContent))]));
  const mine = board.find(([who]) => who === 'my:minimax');
  // entrant, games, wins, draws, losses: it never loses tic-tac-toe.
  assert.ok(mine && mine[1] === 4 && mine[4] === 0, JSON.stringify(board));
  assert.equal(board.length, 3);
  // Its games are in the record as core's referee kept them, named by the entrant.
  const record = await page.evaluate(() => JSON.parse(JSON.parse(localStorage.getItem('gdl.tournament')).record));
  const its = record.finished.filter((f) => f.record.players.includes('my:minimax'));
  assert.equal(its.length, 4);
  assert.ok(its.every((f) => f.record.goals !== null && f.record.faults.length === 0), JSON.stringify(its.map((f) => f.record.faults)));
  // With what it logged, move by move, at its role.
  for (const f of its) {
    const role = f.record.roles[f.record.players.indexOf('my:minimax')];
    assert.ok(f.record.said.length > 0 && f.record.said.every((s) => s.role === role && /^my player: minimax logs at step \d+, after \d+ ms: minimax \{/.test(s.text)), JSON.stringify(f.record.said));
  }
  // The downloaded record holds them too.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#to-json').click()]);
  const downloaded = JSON.parse(readFileSync(await download.path(), 'utf8'));
  assert.deepEqual(downloaded.finished.filter((f) => f.record.players.includes('my:minimax')).map((f) => f.record.said), its.map((f) => f.record.said));
  // Under its game in the list, the log; and in the Play pane after Open in Play.
  await page.locator('#to-games > summary').click();
  const game = page.locator(`#to-games li[data-game="${its[0].fixture}"]`);
  const lines = await logUnder(game);
  assert.equal(lines.length, its[0].record.said.length);
  assert.ok(lines.every((l) => MINIMAX_LINE.test(l)), lines.join('\n'));
  await opensWithItsLog(page, game, lines, its[0].record.steps.length);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a player that loops forever is stopped at its clock, its move replaced, and the game goes on', { timeout: 120_000 }, async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await savePlayer(page, 'loops', 'function play(game) {\n  for (;;) {}\n}\n');
  await seat(page, 'o', 'random');
  await seat(page, 'x', 'my:loops', { playClock: 0.5 });
  await playsToTheEnd(page);
  const faults = await faultsOf(page);
  assert.ok(faults.length >= 3, faults.join('\n'));
  assert.match(faults[0], /^player 1 \(x\) at step 1: no reply in 0\.5 s; played \(mark \d \d\) for it$/);
  // Its worker is started anew for each move: it is stopped again at step 3.
  assert.ok(faults.some((f) => /^player 1 \(x\) at step 3: no reply in 0\.5 s; played \(mark \d \d\) for it$/.test(f)), faults.join('\n'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a player is exported as a file, shared by link when ticked, and from the link does not run until Run is pressed', { timeout: 90_000 }, async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await savePlayer(page, 'shared one', "function play(game) {\n  game.log('I ran');\n  return game.legal(game.current(), game.role)[0];\n}\n");
  // Export: the player as a file.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('button:has-text("Export")').click()]);
  assert.equal(download.suggestedFilename(), 'shared_one.js');
  const { readFileSync } = await import('node:fs');
  assert.match(readFileSync(await download.path(), 'utf8'), /^\/\/ GDL Playground player: shared one\nfunction play\(game\) \{\n  game\.log\('I ran'\);/);
  // Sharing is opt-in: no link until the box is ticked.
  assert.equal(await page.locator('.player-link').isVisible(), false);
  await page.locator('.player-share').check();
  const link = await page.locator('.player-link').inputValue();
  assert.match(link, /#p1\.[A-Za-z0-9_-]+$/);
  await context.close();

  // Someone else opens the link.
  const other = await openPage(env.browser, link);
  const p = other.page;
  await p.waitForSelector('.player-run:not([hidden])');
  assert.equal(await p.locator('.player-notice').textContent(), '"shared one" came with a link. Read its code: it runs only when you press Run.');
  assert.match(await p.locator('.player-code .cm-content').textContent(), /game\.log\('I ran'\)/);
  const offered = () => p.locator('select.seat-kind[data-role="x"] option').evaluateAll((os) => os.map((o) => o.value));
  assert.ok(!(await offered()).some((v) => v.startsWith('my:') && v !== 'my:'), 'not offered before Run');
  assert.equal(await p.locator('iframe.student-sandbox').count(), 0, 'no sandbox before Run');
  assert.equal(await p.evaluate(() => localStorage.getItem('gdl-playground-players')), null, 'not kept before Run');
  await p.locator('.player-run').click();
  assert.ok((await offered()).includes('my:shared one'));
  await seat(p, 'x', 'my:shared one');
  await p.waitForFunction(() => [...document.querySelectorAll('#play-log li')].some((li) => li.textContent.includes('I ran')), null, { timeout: 30_000 });
  assert.deepEqual(other.errors, []);
  assert.deepEqual(errors, []);
  await other.context.close();
});

test('the starter player plays Monty Hall (GDL-II) from its own moves and percepts, to the end', { timeout: 90_000 }, async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await page.locator('#examples').selectOption({ label: 'Monty Hall' });
  await page.waitForSelector('select.seat-kind[data-role="candidate"]');
  await savePlayer(page, 'starter', (await import('node:fs')).readFileSync(new URL('../../web/src/student/api.ts', import.meta.url), 'utf8').match(/export const STARTER = `([\s\S]*?)`;/)[1]);
  await seat(page, 'candidate', 'my:starter');
  await playsToTheEnd(page);
  assert.deepEqual(await faultsOf(page), [], 'no fault');
  const log = await logOf(page);
  // It was told only its own moves and percepts: never the host's move.
  const told = log.filter((l) => /to candidate \(my player starter\): \(PLAY /.test(l));
  assert.ok(told.length >= 3, log.join('\n'));
  assert.ok(told.every((l) => !/\(hide \d\)|\(open \d\)/.test(l.split('→')[0])), told.join('\n'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('inside the sandbox, the page storage, IndexedDB and the network are out of reach', { timeout: 90_000 }, async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await page.evaluate(() => localStorage.setItem('secret', 'the page keeps this'));
  const probe = `const found = {};
function start(game) {
  found.localStorage = typeof localStorage === 'undefined' ? 'absent' : String(localStorage.getItem('secret'));
  try {
    const r = indexedDB.open('probe');
    found.indexedDB = 'pending';
    r.onsuccess = () => (found.indexedDB = 'opened');
    r.onerror = () => (found.indexedDB = 'refused: ' + (r.error && r.error.name));
  } catch (e) {
    found.indexedDB = 'refused: ' + e.name;
  }
  found.fetch = 'pending';
  fetch(${JSON.stringify(env.url)}).then(() => (found.fetch = 'fetched'), (e) => (found.fetch = 'refused: ' + e.name));
  try {
    const x = new XMLHttpRequest();
    x.open('GET', ${JSON.stringify(env.url)}, false);
    x.send();
    found.xhr = 'fetched ' + x.status;
  } catch (e) {
    found.xhr = 'refused: ' + e.name;
  }
  found.cookie = typeof document === 'undefined' ? 'absent' : document.cookie;
}
function play(game) {
  game.log('probe', found);
  return game.legal(game.current(), game.role)[0];
}
`;
  await savePlayer(page, 'probe', probe);
  await seat(page, 'o', 'random');
  await seat(page, 'x', 'my:probe');
  // The probe logs at each of its moves; fetch and IndexedDB answer after a while.
  const settled = (l) => l.includes(': probe {') && !l.includes('"pending"');
  await page.waitForFunction(() => [...document.querySelectorAll('#play-log li.player-said')].some((li) => li.textContent.includes(': probe {') && !li.textContent.includes('"pending"')), null, { timeout: 30_000 });
  const said = (await logOf(page)).find(settled);
  const found = JSON.parse(said.slice(said.indexOf('{')));
  assert.equal(found.localStorage, 'absent');
  assert.match(found.indexedDB, /^refused: /);
  assert.match(found.fetch, /^refused: TypeError$/);
  assert.match(found.xhr, /^refused: /);
  assert.equal(found.cookie, 'absent');
  assert.ok(!said.includes('the page keeps this'));
  // The CSP's refusals are the browser's reports, not the page's errors.
  assert.deepEqual(errors.filter((e) => !/Content Security Policy|connect-src|Refused to connect/.test(e)), []);
  await context.close();
});

/** Plays a tic-tac-toe tournament of `entrants` (one game per seating, seed 3) in the Match tab
 * to its end: core's leaderboard rows (entrant, games, wins, draws, losses, faults) and record. */
async function tournament(page, entrants, games) {
  await page.locator('#tab-match').click();
  await page.locator('#to-section > summary').click();
  await page.locator('#to-entrants').fill(entrants);
  await page.locator('#to-per-pairing').fill('1');
  await page.locator('#to-seed').fill('3');
  await page.locator('#to-run').click();
  await page.waitForFunction((n) => new RegExp(`^${n} of ${n} games played`).test(document.querySelector('#to-status')?.textContent ?? ''), games, { timeout: 240_000 }).catch(async (e) => {
    throw new Error(`${e.message}: ${await page.locator('#to-results').textContent()} ${(await page.locator('#to-log li').allTextContents()).join('\n')}`);
  });
  const board = await page.locator('#to-results .to-board tbody tr').evaluateAll((rs) => rs.map((r) => [r.dataset.entrant, ...[...r.querySelectorAll('td')].slice(2, 6).map((td) => Number(td.textContent)), r.querySelector('td:last-child').textContent]));
  const record = await page.evaluate(() => JSON.parse(JSON.parse(localStorage.getItem('gdl.tournament')).record));
  return { board, record };
}

test('in a tournament, a player that loops forever is stopped at each move, its move replaced, and every game is played to the end', { timeout: 240_000 }, async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await savePlayer(page, 'loops', 'function play(game) {\n  for (;;) {}\n}\n');
  const { board, record } = await tournament(page, 'my:loops, random', 2);
  const loops = board.find(([who]) => who === 'my:loops');
  assert.ok(loops && loops[1] === 2 && /^\d+ late$/.test(loops[5]), JSON.stringify(board));
  assert.equal(record.finished.length, 2);
  for (const { record: game } of record.finished) {
    const role = game.roles[game.players.indexOf('my:loops')];
    // To the end, its every move (noop included: a player is asked at each step) replaced, in core's words.
    assert.ok(game.goals !== null, JSON.stringify(game));
    assert.ok(game.faults.length === game.steps.length && game.faults.every((f) => f.role === role && f.kind === 'late' && /no reply in 3 s; played (\(mark \d \d\)|noop) for it$/.test(f.message)), JSON.stringify(game.faults));
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test("a student's player and a remote player meet in one tournament, and in the Match tab: each game is refereed by core, one at a time", { timeout: 300_000 }, async () => {
  const remote = await startGdlPlayer(['--player', 'mc:20']);
  try {
    const { context, page, errors } = await openPage(env.browser, env.url);
    await savePlayer(page, 'minimax', `${MINIMAX}function start(game) {\n  known.clear();\n}\n`);
    const { board, record } = await tournament(page, `my:minimax, ${remote.url}, random`, 6);
    assert.equal(board.length, 3, JSON.stringify(board));
    // entrant, games, wins, draws, losses, faults: the minimax never loses, nobody faults.
    const mine = board.find(([who]) => who === 'my:minimax');
    assert.ok(mine && mine[1] === 4 && mine[4] === 0, JSON.stringify(board));
    assert.ok(board.every((row) => row[5] === 'none'), JSON.stringify(board));
    // The two met twice, at both seatings, and the remote player answered every message.
    const met = record.finished.filter((f) => f.record.players.includes('my:minimax') && f.record.players.includes(remote.url));
    assert.equal(met.length, 2);
    assert.ok(met.every((f) => f.record.goals !== null && f.record.faults.length === 0));
    assert.ok((await page.locator('#to-log li').allTextContents()).some((l) => l.includes(remote.url) && /\(play /i.test(l)), 'the remote player\'s messages are not in the log');

    // The same two in the Match tab: its games on this page too.
    await page.locator('#ma-a').focus();
    await page.locator('#ma-a').selectOption('my:minimax');
    await page.locator('#ma-b').selectOption('remote');
    const address = page.locator('input[aria-label="Address of player B"]');
    await address.fill(remote.url);
    await address.dispatchEvent('change');
    await page.waitForFunction(() => document.querySelector('#ma-remote .remote-status')?.dataset.reachable === 'true', null, { timeout: 15_000 });
    await page.locator('#ma-games').fill('2');
    // The remote player is reached through one worker for the whole match, not one a message.
    let workers = 0;
    page.on('worker', (w) => (workers += /match-worker/.test(w.url()) ? 1 : 0));
    await page.locator('#ma-run').click();
    await page.waitForFunction(() => document.querySelector('#ma-where')?.textContent.startsWith('2 of 2 games'), null, { timeout: 120_000 });
    assert.equal(workers, 1, 'match workers started for the match');
    const row = (await page.locator('#ma-results table.match-table').first().locator('tbody tr').allTextContents()).find((r) => r.startsWith('my player: minimax'));
    assert.match(row ?? '', /^my player: minimax2\d\d0/, row);
    assert.equal(await page.locator('#ma-log li.fault').count(), 0);
    assert.ok((await page.locator('#ma-log li').allTextContents()).some((l) => l.includes(remote.url) && /\(stop /i.test(l)), 'the remote player\'s messages are not in the Match log');
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    remote.stop();
  }
});
