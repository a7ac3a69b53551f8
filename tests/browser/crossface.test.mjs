// The cross-face test of the referee: one seeded match refereed by `gdl match --record` and
// by the page's Match tab gives the same moves, the same faults and the same result lines,
// since both faces drive core's one referee (protocol::referee). Each match has a remote
// player that answers every PLAY with an illegal move (its moves are replaced by ones drawn
// from the match's seed) and records every message it is sent: the same messages, in the
// same order, whichever face referees. Tic-tac-toe against our `gdl player`, and Monty Hall
// (GDL-II: each role is told only its own move and percepts; nature is drawn from the seed).

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SHARED, gdlBinary, openPage, setRules, startGdlPlayer, useBrowser } from './lib.mjs';

const env = useBrowser();
const stops = [];
after(() => stops.forEach((stop) => stop()));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SEED = 4242;

/** A player on a free loopback port that is ready at START and answers every PLAY with
 * `illegal`; `messages` keeps what it was sent (START, PLAY, STOP), match ids made alike. */
async function illegalPlayer(illegal) {
  const messages = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const text = body.trim();
      const reply = text.startsWith('(INFO') ? 'available' : text.startsWith('(START') ? 'ready' : text.startsWith('(PLAY') ? illegal : 'done';
      if (/^\((START|PLAY|STOP)/.test(text)) messages.push(text.replace(/^\((\w+) \S+/, '($1 ID'));
      res.writeHead(200, { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type' }).end(req.method === 'OPTIONS' ? '' : reply);
    });
  }).listen(0, '127.0.0.1');
  await new Promise((ok) => server.once('listening', ok));
  stops.push(() => server.closeAllConnections() || server.close());
  return { url: `http://127.0.0.1:${server.address().port}`, messages };
}

/** `gdl match` on `file` between `players`, seeded: its faults, result lines and record
 * (run without blocking: the players of this process answer meanwhile). */
async function cliMatch(file, players, games) {
  const record = join(mkdtempSync(join(tmpdir(), 'crossface-')), 'record.json');
  const args = ['match', file, '--players', players, '--games', String(games), '--seed', String(SEED), '--start-clock', '5', '--play-clock', '2', '--record', record];
  const stderr = await new Promise((done, fail) =>
    execFile(gdlBinary(), args, { cwd: ROOT, encoding: 'utf8', timeout: 120_000 }, (e, _, err) => (e ? fail(new Error(`${e.message}\n${err}`)) : done(err))),
  );
  const lines = stderr.split('\n');
  return {
    faults: lines.filter((l) => l.startsWith('gdl match: player ')).map((l) => l.slice('gdl match: '.length)),
    results: lines.filter((l) => /^game \d+: /.test(l)),
    record: JSON.parse(readFileSync(record, 'utf8')),
  };
}

/** The Match tab on `rules` between remote players at `a` and `b` (or B one of ours), seeded:
 * its faults and result lines, from its message log. */
async function pageMatch(rules, a, b, games) {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await setRules(page, rules);
  await page.locator('#tab-match').click();
  const seats = [['#ma-a', a, 'player A'], ['#ma-b', b, 'player B']];
  // Every seat first: choosing one draws the remote boxes anew.
  for (const [select, player] of seats) await page.locator(select).selectOption(player.startsWith('http://') ? 'remote' : player);
  for (const [, player, name] of seats.filter(([, p]) => p.startsWith('http://'))) {
    const address = page.locator(`input[aria-label="Address of ${name}"]`);
    await address.fill(player);
    await address.dispatchEvent('change');
  }
  const remotes = [a, b].filter((p) => p.startsWith('http://')).length;
  const reachable = (n) => [...document.querySelectorAll('#ma-remote .remote-status')].filter((s) => s.dataset.reachable === 'true').length === n;
  await page.waitForFunction(reachable, remotes, { timeout: 15_000 }).catch(async (e) => {
    throw new Error(`${e.message}: ${await page.locator('#ma-remote').textContent()}`);
  });
  for (const [clock, seconds] of [['start', '5'], ['play', '2']]) {
    await page.locator(`input[aria-label="${clock} clock of the match"]`).fill(seconds);
    await page.locator(`input[aria-label="${clock} clock of the match"]`).dispatchEvent('change');
  }
  await page.locator('#ma-games').fill(String(games));
  await page.locator('#ma-seed').fill(String(SEED));
  await page.locator('#ma-run').click();
  await page.waitForFunction((n) => document.querySelector('#ma-where')?.textContent.startsWith(`${n} of ${n} games`), games, { timeout: 90_000 });
  assert.match(await page.locator('#ma-where').textContent(), new RegExp(`seed ${SEED}\\.`));
  const faults = await page.locator('#ma-log li.fault').allTextContents();
  const results = await page.locator('#ma-log li.result').allTextContents();
  assert.deepEqual(errors, []);
  await context.close();
  return { faults, results };
}

test('a seeded match of tic-tac-toe refereed by gdl match and by the Match tab: same moves, faults and results', { timeout: 240_000 }, async () => {
  const ours = await startGdlPlayer(['--player', 'random', '--seed', '9']);
  stops.push(ours.stop);
  const file = 'games/tictactoe.kif';
  const illegal = await illegalPlayer('(mark 9 9)');
  const cli = await cliMatch(file, `${ours.url},${illegal.url}`, 2);
  const told = illegal.messages.splice(0);
  const page = await pageMatch(readFileSync(join(ROOT, file), 'utf8'), ours.url, illegal.url, 2);
  // Every move of the illegal player was replaced, and the faults say so in the same words.
  assert.ok(cli.faults.length >= 4 && cli.faults.every((f) => /^player 2 \((x|o)\) at step \d+: \(mark 9 9\) is not a legal move; played /.test(f)), cli.faults.join('\n'));
  assert.deepEqual(page.faults, cli.faults);
  assert.equal(cli.results.length, 2);
  assert.deepEqual(page.results, cli.results);
  // The same messages, in the same order: the joint moves of the record, told after each step.
  assert.deepEqual(illegal.messages, told);
  const expected = cli.record.matches.flatMap(({ steps }) => [
    '(PLAY ID NIL)',
    ...steps.slice(0, -1).map((s) => `(PLAY ID (${s.moves.join(' ')}))`),
    `(STOP ID (${steps.at(-1).moves.join(' ')}))`,
  ]);
  assert.deepEqual(told.filter((m) => !m.startsWith('(START')), expected);
});

test('a seeded match of Monty Hall (GDL-II) refereed by gdl match and by the Match tab: same moves, faults and results', { timeout: 240_000 }, async () => {
  const file = 'games/montyhall.kif';
  const illegal = await illegalPlayer('(choose 9)');
  const cli = await cliMatch(file, `${illegal.url},random`, 2);
  const told = illegal.messages.splice(0);
  const page = await pageMatch(readFileSync(join(ROOT, file), 'utf8'), illegal.url, 'random', 2);
  assert.ok(cli.faults.some((f) => /^player 1 \(candidate\) at step 1: \(choose 9\) is not a legal move; played \(choose \d\) for it$/.test(f)), cli.faults.join('\n'));
  assert.deepEqual(page.faults, cli.faults);
  assert.deepEqual(page.results, cli.results);
  // The candidate is told the same turns, own moves and percepts; never where the car was hidden.
  assert.deepEqual(illegal.messages, told);
  assert.ok(told.filter((m) => !m.startsWith('(START')).every((m) => !m.includes('hide')), told.join('\n'));
  // Game 1 seats it at the candidate: its own moves are the record's.
  const own = told.map((m) => /^\((?:PLAY|STOP) ID \d+ (\(\w+ \d+\)|\w+) /.exec(m)?.[1]).filter(Boolean);
  assert.deepEqual(own, cli.record.matches[0].steps.map((s) => s.moves[0]));
});
