// Browser tests of the Match tab's tournament: three entrants on tic-tac-toe run to their
// leaderboard, which equals `gdl tournament`'s with the same seed (core computes both; so
// does one with two remote `gdl player`s on two games), and a
// game opens in the Play pane; a reload in the middle keeps every finished game and Resume
// plays only the rest; an entrant that never answers is reported in the referee's words while
// the tournament goes on. Screenshots go to artifacts/.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gdlBinary, openPage, shot, startGdlPlayer, useBrowser } from './lib.mjs';

const env = useBrowser();
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Opens the tournament form with `entrants`, `perSeating` games per seating and `seed` (and
 * `library` games beside the editor's), and starts it. */
async function startTournament(page, entrants, perSeating, seed, library = []) {
  await page.locator('#tab-match').click();
  await page.locator('#to-section > summary').click();
  await page.locator('#to-entrants').fill(entrants);
  await page.locator('#to-library').selectOption(library);
  await page.locator('#to-per-pairing').fill(String(perSeating));
  await page.locator('#to-seed').fill(String(seed));
  await page.locator('#to-run').click();
}

/** `gdl tournament` with `args`, its JSON. */
const gdlTournament = (args) =>
  new Promise((ok, fail) =>
    execFile(gdlBinary(), ['tournament', ...args, '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 }, (e, out, err) => (e ? fail(new Error(`${e.message}\n${err}`)) : ok(JSON.parse(out)))),
  );

/** A leaderboard of `gdl tournament --json` as `rows` reads the page's. */
const table = (board) => board.map((s) => [s.tally.player, s.tally.games, s.tally.wins, s.tally.draws, s.tally.losses, s.fault_counts.text]);

const played = (page, n) => page.waitForFunction((n) => new RegExp(`^${n} of ${n} games played`).test(document.querySelector('#to-status')?.textContent ?? ''), n, { timeout: 120_000 });

/** The leaderboard's rows: entrant (as the page names it), games, wins, draws, losses, faults. */
const rows = (page) => page.locator('#to-results .to-board tbody tr').evaluateAll((rs) => rs.map((r) => [r.dataset.entrant, ...[...r.querySelectorAll('td')].slice(2, 6).map((td) => Number(td.textContent)), r.querySelector('td:last-child').textContent]));

/** The saved record's finished games: number → joint moves. */
const saved = (page) =>
  page.evaluate(() => {
    const s = JSON.parse(localStorage.getItem('gdl.tournament') ?? 'null');
    if (s === null) return {};
    return Object.fromEntries(JSON.parse(s.record).finished.map((f) => [f.fixture, f.record.steps.map((st) => st.moves)]));
  });

test('three entrants on tic-tac-toe: the leaderboard is gdl tournament’s, and a game opens in Play', { timeout: 240_000 }, async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await startTournament(page, 'random, mc:50, uct:100', 2, 5);
  await played(page, 12);
  const board = await rows(page);
  assert.equal(board.length, 3);
  for (const [, games, w, d, l] of board) assert.deepEqual([games, w + d + l], [8, 8]);
  // The same tournament from the command line: the same table.
  const cli = await gdlTournament(['games/tictactoe.kif', '--entrants', 'random,mc:50,uct:100', '--games-per-pairing', '2', '--seed', '5']);
  assert.deepEqual(board, table(cli.leaderboard.overall));
  // No wider than its pane.
  const [wide, pane] = await page.evaluate(() => [document.querySelector('#to-results .to-scroll').getBoundingClientRect().width, document.querySelector('#pane-match').getBoundingClientRect().width]);
  assert.ok(wide <= pane, `${wide} > ${pane}`);
  await shot(page, 'tournament');
  // The record downloads as gdl tournament's JSON, and as CSV, one line per game.
  const download = async (id) => {
    const [file] = await Promise.all([page.waitForEvent('download'), page.locator(id).click()]);
    return readFile(await file.path(), 'utf8');
  };
  const json = JSON.parse(await download('#to-json'));
  assert.equal(json.format, 'gdl tournament record');
  assert.equal(json.finished.length, 12);
  const csv = (await download('#to-csv')).trim().split('\n');
  assert.equal(csv.length, 13);
  assert.match(csv[1], /^1,the editor’s game,5,x=random o=mc:50,/);
  // A game opens in the Play pane, at its end.
  await page.locator('#to-games summary').click();
  assert.equal(await page.locator('#to-games li').count(), 12);
  const game = page.locator('#to-games li[data-game="3"]');
  const length = Number((await game.textContent()).match(/(\d+) moves/)[1]);
  await game.locator('button', { hasText: 'Open in Play' }).click();
  assert.equal(await page.locator('#tab-play').getAttribute('aria-selected'), 'true');
  assert.equal(await page.locator('#history li').count(), length + 1);
  assert.equal(await page.locator('#outcome.over').count(), 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a reload in the middle keeps every finished game, and Resume plays only the rest', { timeout: 300_000 }, async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await startTournament(page, 'mc:3000, uct:3000, random', 3, 9);
  await page.waitForFunction(() => /^([2-9]|1[0-5]) of 18 games played/.test(document.querySelector('#to-status')?.textContent ?? ''), null, { timeout: 120_000 });
  const before = await saved(page);
  assert.ok(Object.keys(before).length >= 2);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await page.locator('#tab-match').click();
  // The tournament saved is shown at once.
  assert.equal(await page.locator('#to-section').getAttribute('open'), '');
  const after = await saved(page);
  // Nothing finished is lost, nor changed.
  for (const [n, moves] of Object.entries(before)) assert.deepEqual(after[n], moves, `game ${Number(n) + 1}`);
  const kept = Object.keys(after).length;
  assert.match(await page.locator('#to-status').textContent(), new RegExp(`^${kept} of 18 games played`));
  assert.equal(await page.locator('#to-resume').isVisible(), true);
  await page.locator('#to-resume').click();
  await played(page, 18);
  const done = await saved(page);
  assert.equal(Object.keys(done).length, 18);
  for (const [n, moves] of Object.entries(after)) assert.deepEqual(done[n], moves, `game ${Number(n) + 1} replayed`);
  assert.equal(await page.locator('#to-resume').isVisible(), false);
  assert.deepEqual(errors, []);
  await context.close();
});

test('an entrant that never answers is reported in the referee’s words, and the tournament goes on', { timeout: 240_000 }, async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  // A port nothing listens on: every message to it is refused at once.
  const port = await new Promise((ok) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => ok(port));
    });
  });
  const silentUrl = `http://127.0.0.1:${port}`;
  await startTournament(page, `random, uct:20, ${silentUrl}`, 1, 2);
  await played(page, 6);
  const silent = page.locator(`#to-results .to-board tbody tr[data-entrant="${silentUrl}"]`);
  const cells = await silent.locator('td').allTextContents();
  assert.equal(cells[2], '4');
  // Counted by kind: never reached.
  const [count, kind] = cells.at(-1).split(' ');
  assert.ok(Number(count) > 4 && kind === 'unreachable', `faults: ${cells.at(-1)}`);
  const words = await silent.locator('td').last().getAttribute('title');
  assert.match(words, /^game \d+: player 3 \((x|o)\) at the start: no reply: the player cannot be reached/);
  assert.equal(await page.locator('#to-results .to-board tbody tr[data-entrant="random"] td').last().textContent(), 'none');
  // The page's own console errors from the refused connections are the browser's, not the page's.
  assert.deepEqual(errors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(e)), []);
  await context.close();
});

test('two of ours and two remote gdl players on two games: the leaderboard is gdl tournament’s', { timeout: 400_000 }, async () => {
  const players = [await startGdlPlayer(['--player', 'uct:50']), await startGdlPlayer(['--player', 'mc:50'])];
  try {
    const entrants = `random, uct:30, ${players[0].url}, ${players[1].url}`;
    const { context, page, errors } = await openPage(env.browser, env.url);
    await startTournament(page, entrants, 1, 8, ['nim']);
    await played(page, 24);
    // Per game and overall, as gdl tournament says with the same seed.
    const boards = await page.locator('#to-results .to-board').evaluateAll((bs) => bs.map((b) => [...b.querySelectorAll('tbody tr')].map((r) => [r.dataset.entrant, ...[...r.querySelectorAll('td')].slice(2, 6).map((td) => Number(td.textContent)), r.querySelector('td:last-child').textContent])));
    const cli = await gdlTournament(['games/tictactoe.kif', 'games/nim.kif', '--entrants', entrants.replaceAll(' ', ''), '--seed', '8']);
    assert.deepEqual(boards, [...cli.leaderboard.per_game.map((b) => table(b.standings)), table(cli.leaderboard.overall)]);
    assert.equal(await page.locator('#to-results').getByText('faults of').count(), 0);
    for (const row of await page.locator('#to-results .to-board tbody tr td:last-child').allTextContents()) assert.equal(row, 'none');
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    for (const p of players) p.stop();
  }
});

test("a remote entrant is freed of its game when the tournament's Stop is clicked", { timeout: 120_000 }, async () => {
  const ours = await startGdlPlayer(['--player', 'uct:300ms']);
  try {
    const info = async () => (await fetch(ours.url, { method: 'POST', body: '(INFO)' })).text();
    const { context, page } = await openPage(env.browser, env.url);
    await startTournament(page, `random, ${ours.url}`, 4, 5);
    // In the middle of a game with it.
    await page.waitForFunction(() => [...document.querySelectorAll('#to-log li')].some((li) => li.textContent.includes('(PLAY ')), null, { timeout: 30_000 });
    assert.equal(await info(), 'busy');
    await page.locator('#to-stop').click();
    let now = await info();
    for (let k = 0; k < 40 && now !== 'available'; k++) {
      await new Promise((ok) => setTimeout(ok, 100));
      now = await info();
    }
    assert.equal(now, 'available', ours.said());
    await context.close();
  } finally {
    ours.stop();
  }
});
