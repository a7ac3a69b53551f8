// A student's player leaves the page: "Download as a GGP player" writes one node script
// (web/src/student/export.ts) that serves the GGP protocol with the player's code on the
// page's engine. The Dresden GameController referees it to the end of tic-tac-toe and of
// Monty Hall (GDL-II) with no late or illegal move, and it plays `gdl player` in `gdl match`.
// The npm package (scripts/npm-package) installs from its file with no network and serves a
// player file the same way (`gdl-ggp-player`), and its engine loads in node.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHARED, gdlBinary, javaMissing, openPage, startGdlPlayer, useBrowser } from './lib.mjs';

const env = useBrowser();
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A player that works in both kinds of game: in GDL-II it plays from a guessed state. */
const PLAYER = `function play(game) {
  const state = game.hidden ? game.guesses(1)[0] : game.current();
  const moves = game.legal(state, game.role);
  game.log('choosing', { among: moves.length });
  return moves[moves.length - 1];
}
`;

/** Starts a GGP player command (`node FILE.mjs --port 0`, or the package's bin) and waits for
 * its address: `{url, port, stop, said}`. */
async function startNode(args, cwd = ROOT) {
  const child = spawn(process.execPath, [...args, '--port', '0'], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  const url = await new Promise((ok, fail) => {
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      said += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(said);
      if (m) ok(m[1]);
    });
    child.on('exit', () => fail(new Error(`the player stopped before it listened:\n${said}`)));
  });
  return { url, port: new URL(url).port, stop: () => child.kill(), said: () => said };
}

/** Runs a command to its end without blocking this process (the players it talks to are
 * children whose output is read meanwhile): `{status, out}`, stdout and stderr together. */
function run(command, args) {
  return new Promise((ok) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const timer = setTimeout(() => child.kill(), 120_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      ok({ status, out });
    });
  });
}

/** The Dresden GameController referees `game` (a file of ../shared) with the player at `port`
 * as the first role and its random player as the second; returns its log. */
async function dresden(game, port, version) {
  const args = ['-jar', join(SHARED, 'ggp-referee/gamecontroller-cli.jar'), 'm1', join(SHARED, game), '10', '3', version];
  const { status, out } = await run('java', [...args, '-remote', '1', 'ours', '127.0.0.1', port, version, '-random', '2']);
  assert.equal(status, 0, out);
  return out;
}

/** The log shows a finished match where our player was never late nor illegal. */
function clean(log) {
  assert.match(log, /Game over! results:/);
  for (const line of log.toLowerCase().split('\n')) {
    for (const bad of ['illegal', 'timeout', 'timed out']) assert.ok(!(line.includes(bad) && line.includes('ours')), `the referee says ${bad}:\n${log}`);
    for (const bad of ['io error', 'exception']) assert.ok(!line.includes(bad), `the referee says ${bad}:\n${log}`);
  }
  assert.ok(log.split('\n').filter((l) => l.includes('reply from ours:')).length >= 2, log);
}

/** `gdl match` on tic-tac-toe between `players`: the record's one match, which must end with no fault. */
async function refereed(players) {
  const record = join(mkdtempSync(join(tmpdir(), 'gdl-export-')), 'record.json');
  const { status, out } = await run(gdlBinary(), ['match', join(ROOT, 'games/tictactoe.kif'), '--players', players, '--games', '1', '--start-clock', '5', '--play-clock', '2', '--record', record]);
  assert.equal(status, 0, out);
  const [m] = JSON.parse(readFileSync(record, 'utf8')).matches;
  assert.ok(Array.isArray(m.goals), JSON.stringify(m));
  assert.deepEqual(m.faults, [], JSON.stringify(m));
  return m;
}

test('the page downloads a player as one node script that the Dresden GameController and gdl match referee to the end', { timeout: 400_000 }, async (t) => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await page.locator('#my-players > summary').click();
  await page.waitForSelector('.player-code .cm-content');
  await page.locator('button:has-text("New")').click();
  await page.locator('.player-name').fill('last move');
  await page.locator('.player-code .cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(PLAYER);
  await page.locator('.player-save').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('button.player-ggp').click()]);
  assert.equal(download.suggestedFilename(), 'last_move.mjs');
  const file = join(mkdtempSync(join(tmpdir(), 'gdl-export-')), 'last_move.mjs');
  writeFileSync(file, readFileSync(await download.path()));
  assert.deepEqual(errors, []);
  await context.close();
  // The script carries the player's code as written.
  assert.ok(readFileSync(file, 'utf8').includes(JSON.stringify(PLAYER)));

  // Bad options are refused in words, before anything listens.
  const bad = spawnSync(process.execPath, [file, '--port', 'nine'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--port takes a whole number, not 'nine'/);

  const player = await startNode([file]);
  try {
    // It answers INFO, and refuses what is not a POST.
    assert.equal(await (await fetch(player.url, { method: 'POST', body: '(INFO)' })).text(), 'available');
    assert.equal((await fetch(player.url)).status, 405);
    const ours = await startGdlPlayer(['--player', 'uct:100']);
    try {
      const m = await refereed(`${player.url},${ours.url}`);
      assert.ok(m.steps.length >= 5, JSON.stringify(m));
    } finally {
      ours.stop();
    }
    // The player's logs reach the terminal, with the step.
    assert.match(player.said(), /step \d+: choosing \{"among":\d+\}/);
    const missing = javaMissing();
    if (missing) return t.skip(missing);
    clean(await dresden('corpus/ggp-base/tictactoe.kif', player.port, '1'));
    const monty = await dresden('corpus-gdl2/montyhall.kif', player.port, '2');
    clean(monty);
    // In GDL-II it was told its percepts, never where nature hid the car.
    const sent = monty.split('\n').filter((l) => l.includes('message to ours sent: ') && !l.includes('(START'));
    assert.ok(sent.length >= 3 && sent.every((l) => !l.includes('HIDE_CAR')), sent.join('\n'));
  } finally {
    player.stop();
  }
});

test('the npm package installs from its file with no network, loads its engine in node and serves a player file', { timeout: 600_000 }, async () => {
  const tgz = execFileSync(join(ROOT, 'scripts/npm-package'), { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').pop();
  const dir = mkdtempSync(join(tmpdir(), 'gdl-npm-'));
  writeFileSync(join(dir, 'package.json'), '{ "name": "a-class", "private": true, "type": "module" }\n');
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', tgz], { cwd: dir, stdio: 'ignore' });
  // The engine, in node: a game's roles and a legal move.
  const probe = `import { Session } from 'gdl-playground';
    import { readFileSync } from 'node:fs';
    const loaded = new Session().load(readFileSync(${JSON.stringify(join(ROOT, 'games/tictactoe.kif'))}, 'utf8'));
    console.log(JSON.stringify(loaded.roles));`;
  const roles = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', probe], { cwd: dir, encoding: 'utf8' }));
  assert.deepEqual(roles, ['x', 'o']);
  // The player API's types are in the package.
  assert.match(readFileSync(join(dir, 'node_modules/gdl-playground/api.d.ts'), 'utf8'), /export interface Game \{/);
  // Its command serves a player file; gdl match referees it.
  writeFileSync(join(dir, 'mine.js'), PLAYER);
  const player = await startNode([join(dir, 'node_modules/.bin/gdl-ggp-player'), 'mine.js'], dir);
  try {
    await refereed(`${player.url},random`);
  } finally {
    player.stop();
  }
});
