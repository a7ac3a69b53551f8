// Browser tests of the page as a referee (web/src/players/remote*.ts): remote players at the
// seats of the Play pane and of the Match tab, called over the GGP protocol — our `gdl player`
// directly (it sends CORS headers), Jocular (Java, no CORS headers) through the relay of
// web/serve.mjs —, a player that never answers replaced by random moves with the referee's
// words, and the relay refusing anything but this machine. Loopback only.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED, javaMissing, openPage, setRules, shot, startGdlPlayer, startJocular, useBrowser } from './lib.mjs';

const env = useBrowser();
const stops = [];
after(() => stops.forEach((stop) => stop()));

/** Sets role `role`'s seat to a remote player at `url` with these clocks, and waits for its check. */
async function remoteSeat(page, role, url, { start = 10, play = 2 } = {}) {
  await page.locator(`select.seat-kind[data-role="${role}"]`).selectOption('remote');
  await page.locator(`input[aria-label="start clock of ${role}"]`).fill(String(start));
  await page.locator(`input[aria-label="start clock of ${role}"]`).dispatchEvent('change');
  await page.locator(`input[aria-label="play clock of ${role}"]`).fill(String(play));
  await page.locator(`input[aria-label="play clock of ${role}"]`).dispatchEvent('change');
  const address = page.locator(`input[aria-label="Address of the remote player for ${role}"]`);
  await address.fill(url);
  await address.dispatchEvent('change');
  const status = `.seat:has(select[data-role="${role}"]) .remote-status`;
  await page.waitForFunction((s) => !['checking…', 'give its address'].includes(document.querySelector(s)?.textContent), status, { timeout: 15_000 });
  return page.locator(status).textContent();
}

/** In the Match tab, sets player A to a remote player at `url`, and waits until it is found reachable. */
async function remotePlayerA(page, url) {
  await page.locator('#ma-a').selectOption('remote');
  const address = page.locator('input[aria-label="Address of player A"]');
  await address.fill(url);
  await address.dispatchEvent('change');
  await page.waitForFunction(() => document.querySelector('#ma-remote .remote-status')?.dataset.reachable === 'true', null, { timeout: 15_000 });
}

/** The message log's entries: exchanges and faults, as text. */
const logOf = (page, id) => page.locator(`#${id} li`).allTextContents();

test('the Play pane referees Jocular (through the relay) against our gdl player (directly) to the end of tic-tac-toe', { skip: javaMissing() ?? false, timeout: 120_000 }, async () => {
  const jocular = await startJocular();
  stops.push(jocular.stop);
  const ours = await startGdlPlayer(['--player', 'uct:300ms']);
  stops.push(ours.stop);
  const { context, page, errors } = await openPage(env.browser, env.url);
  assert.equal(await remoteSeat(page, 'o', ours.url), 'available');
  assert.equal(await remoteSeat(page, 'x', jocular.url), 'called through the relay: it took the connection but does not answer (INFO), as older players such as Jocular do not');
  await page.waitForSelector('#outcome.over', { timeout: 90_000 }).catch(async (e) => {
    console.log((await logOf(page, 'play-log')).map((l) => l.slice(0, 200)).join('\n'), await page.locator('#seats').textContent(), await page.locator('#outcome').textContent());
    throw e;
  });
  // Each player is told the end: (STOP …) and its reply.
  await page.waitForFunction(() => [...document.querySelectorAll('#play-log li.exchange')].filter((li) => li.textContent.includes('(STOP ') && li.querySelector('.reply')).length === 2, null, { timeout: 10_000 });
  const log = await logOf(page, 'play-log');
  await shot(page, 'remote-play-jocular');
  assert.deepEqual(log.filter((l) => /^player \d/.test(l)), [], 'no fault');
  for (const [role, url] of [['x', jocular.url], ['o', ours.url]]) {
    const mine = log.filter((l) => l.includes(`to ${role} (${url})`));
    assert.match(mine[0], /\(START playground\.\d+ [xo] \(\(role x\)/, role);
    assert.match(mine[0], /→ ready/i, role);
    assert.match(mine[1], /\(PLAY playground\.\d+ NIL\)/, role);
    assert.match(mine.at(-1), /\(STOP playground\.\d+ \(/, role);
    assert.match(mine.at(-1), /→ done/i, role);
  }
  // Jocular's moves carry (explanation …) and (taunt …) after the move: read all the same.
  const moves = (await page.locator('#history li').count());
  assert.ok(moves >= 5, `${moves} moves`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the Match tab referees our gdl player against MCTS', { timeout: 120_000 }, async () => {
  const ours = await startGdlPlayer(['--player', 'uct:200ms']);
  stops.push(ours.stop);
  const { context, page, errors } = await openPage(env.browser, env.url);
  await page.locator('#tab-match').click();
  // Play before the address is checked: the tab asks for the check, and the request goes
  // once the check has answered.
  await page.locator('#ma-a').selectOption('remote');
  await page.locator('#ma-run').click();
  assert.match(await page.locator('#ma-results .warn').textContent(), /wait for its check/);
  await remotePlayerA(page, ours.url);
  assert.equal(await page.locator('#ma-results .warn').count(), 0, 'the request for a check is gone once it answered');
  await page.locator('input[aria-label="play clock of the match"]').fill('1');
  await page.locator('input[aria-label="play clock of the match"]').dispatchEvent('change');
  await page.locator('#ma-b').selectOption('uct:100');
  await page.locator('#ma-games').fill('2');
  await page.locator('#ma-run').click();
  await page.waitForFunction(() => document.querySelector('#ma-where')?.textContent.startsWith('2 of 2 games'), null, { timeout: 60_000 });
  const rows = await page.locator('#ma-results > .match-table tbody tr td:first-child').allTextContents();
  assert.deepEqual(rows.sort(), ['MCTS, 100 playouts a move', `remote player at ${ours.url}`]);
  const log = await logOf(page, 'ma-log');
  assert.equal(log.filter((l) => l.includes('(START ')).length, 2, 'one match per game');
  assert.equal(log.filter((l) => /^player \d/.test(l)).length, 0, 'no fault');
  await shot(page, 'remote-match');

  assert.deepEqual(errors, []);
  await context.close();
});

/** Our gdl player playing `player`, and a page with Monty Hall (GDL-II) loaded. */
async function montyHall(player) {
  const ours = await startGdlPlayer(['--player', player]);
  stops.push(ours.stop);
  const { context, page, errors } = await openPage(env.browser, env.url);
  await setRules(page, readFileSync(join(SHARED, 'corpus-gdl2/montyhall.kif'), 'utf8'));
  await page.locator('#view-as-role').waitFor();
  return { ours, context, page, errors };
}

test('the Match tab referees our gdl player at Monty Hall (GDL-II): it is told only its own move and percepts', { timeout: 120_000 }, async () => {
  const { ours, context, page, errors } = await montyHall('uct:300ms');
  await page.locator('#tab-match').click();
  await remotePlayerA(page, ours.url);
  await page.locator('#ma-b').selectOption('honest:100');
  await page.locator('#ma-games').fill('2');
  await page.locator('#ma-run').click();
  await page.waitForFunction(() => document.querySelector('#ma-where')?.textContent.startsWith('2 of 2 games'), null, { timeout: 60_000 });
  const log = await logOf(page, 'ma-log');
  assert.equal(log.filter((l) => /^player \d/.test(l)).length, 0, 'no fault');
  const plays = log.filter((l) => l.includes('(PLAY '));
  // The candidate (our player, in one of the two games) hears its turn, own move and percepts:
  assert.ok(plays.some((l) => /\(PLAY playground\.\d+\.\d 1 \(choose \d\) \(\(does candidate \(choose \d\)\)\)\)/.test(l)), plays.join('\n'));
  // never where nature hid the car.
  assert.ok(log.every((l) => l.includes('(START ') || !l.includes('hide_car')), log.join('\n'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('the Play pane referees our gdl player at Monty Hall (GDL-II): it is told only its turn, own move and percepts', { timeout: 120_000 }, async () => {
  const { ours, context, page, errors } = await montyHall('honest:100');
  // Nature (random) is no seat; the candidate may be a remote player.
  assert.equal(await page.locator('select.seat-kind[data-role="random"]').count(), 0);
  assert.equal(await remoteSeat(page, 'candidate', ours.url), 'available');
  await page.waitForSelector('#outcome.over', { timeout: 60_000 });
  await page.waitForFunction(() => [...document.querySelectorAll('#play-log li.exchange')].some((li) => li.textContent.includes('(STOP ') && li.querySelector('.reply')), null, { timeout: 10_000 });
  const log = await logOf(page, 'play-log');
  await shot(page, 'remote-play-montyhall');
  assert.deepEqual(log.filter((l) => /^player \d/.test(l)), [], 'no fault');
  const mine = log.filter((l) => l.includes(`to candidate (${ours.url})`));
  assert.match(mine[0], /\(START playground\.\d+ candidate \(/);
  const plays = mine.filter((l) => l.includes('(PLAY '));
  assert.equal(plays.length, 3, plays.join('\n'));
  assert.match(plays[0], /\(PLAY playground\.\d+ NIL\)/);
  // Its turn, its own move and its percepts: its own move, then the door the host opened.
  assert.match(plays[1], /\(PLAY playground\.\d+ 1 \(choose (\d)\) \(\(does candidate \(choose \1\)\)\)\)/);
  assert.match(plays[2], /\(PLAY playground\.\d+ 2 noop \(\(does candidate noop\) \(open_door \d\)\)\)/);
  // Never nature's moves, nor where it hid the car: only the end may show it (the rules aside).
  assert.ok(plays.every((l) => !/hide_car|\(car /.test(l)), plays.join('\n'));
  assert.match(mine.at(-1), /\(STOP playground\.\d+ 3 (switch|noop) \((\(car \d\) )?\(does candidate \1\)\)\)/);
  assert.match(mine.at(-1), /→ done/i);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a remote seat that never answers in time loses its moves to random ones, with the reason', { timeout: 60_000 }, async () => {
  // Answers (INFO) at once, and every other message after 2 s: past the 0.5 s clocks.
  const slow = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const reply = () => res.writeHead(200, { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type' }).end(body.startsWith('(INFO') ? 'available' : body.startsWith('(START') ? 'ready' : 'done');
      if (req.method === 'OPTIONS' || body.startsWith('(INFO')) reply();
      else setTimeout(reply, 2000);
    });
  }).listen(0, '127.0.0.1');
  await new Promise((ok) => slow.once('listening', ok));
  stops.push(() => slow.closeAllConnections() || slow.close());
  const { context, page, errors } = await openPage(env.browser, env.url);
  assert.equal(await remoteSeat(page, 'x', `http://127.0.0.1:${slow.address().port}`, { start: 0.5, play: 0.5 }), 'available');
  // x's first move comes from the referee: the start and step 1 are faults.
  await page.waitForFunction(() => [...document.querySelectorAll('#play-log li.fault')].some((li) => li.textContent.includes('at step 1')), null, { timeout: 15_000 });
  const faults = (await logOf(page, "play-log")).filter((l) => /^player \d/.test(l));
  assert.match(faults[0], /^player 1 \(x\) at the start: no reply in 0\.5 s$/);
  assert.match(faults[1], /^player 1 \(x\) at step 1: no reply in 0\.5 s; played \(mark \d \d\) for it$/);
  // The move stands in the game as a person's would: o to move.
  await page.waitForFunction(() => /o to move/.test(document.querySelector('#outcome')?.textContent), null, { timeout: 5_000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test("a remote player is freed of its match when the Match tab's Stop is clicked", { timeout: 90_000 }, async () => {
  const ours = await startGdlPlayer(['--player', 'uct:300ms']);
  stops.push(ours.stop);
  const info = async () => (await fetch(ours.url, { method: 'POST', body: '(INFO)' })).text();
  const freed = async () => {
    for (let k = 0; k < 40 && (await info()) !== 'available'; k++) await new Promise((ok) => setTimeout(ok, 100));
    const now = await info();
    if (now !== 'available') console.log(ours.said());
    return now;
  };
  // Stop, in the middle of a match.
  const { context, page } = await openPage(env.browser, env.url);
  await page.locator('#tab-match').click();
  await remotePlayerA(page, ours.url);
  await page.locator('#ma-games').fill('20');
  await page.locator('#ma-run').click();
  await page.waitForFunction(() => [...document.querySelectorAll('#ma-log li')].some((li) => li.textContent.includes('(PLAY ')), null, { timeout: 15_000 });
  assert.equal(await info(), 'busy');
  await page.locator('#ma-stop').click();
  assert.equal(await freed(), 'available');
  await context.close();
  // (Leaving the page sends its remote seats' ABORT as a beacon too, which headless Chromium
  // does not always deliver when the page goes: not checked here.)
});

test('the relay reaches players on this machine only, for this page only', async () => {
  const relay = (to, headers = {}) => fetch(new URL(`relay?to=${encodeURIComponent(to)}`, env.url), { method: 'POST', body: '(INFO)', headers });
  // Refused before any connection is tried.
  for (const to of ['http://192.0.2.1:9147/', 'http://example.invalid:9147/', 'https://127.0.0.1:9147/', 'file:///etc/passwd']) {
    const r = await relay(to);
    assert.equal(r.status, 403, to);
    assert.match(await r.text(), /the relay reaches players on this machine only \(127\.0\.0\.1, localhost, \[::1\]\)/, to);
  }
  const foreign = await relay('http://127.0.0.1:9/', { origin: 'http://evil.example' });
  assert.equal(foreign.status, 403);
  assert.match(await foreign.text(), /the relay serves the page at http:\/\/127\.0\.0\.1:\d+ only, not http:\/\/evil\.example/);
  const closed = await relay('http://127.0.0.1:9/');
  assert.equal(closed.status, 502);
  assert.match(await closed.text(), /the player at 127\.0\.0\.1:9 cannot be reached: ECONNREFUSED/);
  const big = await fetch(new URL('relay?to=http%3A%2F%2F127.0.0.1%3A9%2F', env.url), { method: 'POST', body: 'x'.repeat(5 << 20) }).catch((e) => e);
  assert.ok(big instanceof Error || big.status === 413, 'a body over 4 MB is refused');
});
