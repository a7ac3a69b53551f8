// Browser test of the lessons on players (web/src/lessons/player-check.ts): for each lesson a
// wrong player (the lesson's starter, or the random player) fails with the reason in core's
// words, and a reference solution, pasted into My players, passes: Check plays real matches,
// the player in its sandbox refereed by core. The reference solutions live here only.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, shot, useBrowser } from './lib.mjs';

const env = useBrowser();

const FIRST_LEGAL = 'function play(game) {\n  return game.legal(game.current(), game.role)[0];\n}\n';

const RANDOM = `function play(game) {
  const moves = game.legal(game.current(), game.role);
  return moves[game.random(moves.length)];
}
`;

const LOOKAHEAD = `// A move that wins at once, else a random one.
function play(game) {
  const state = game.current();
  const moves = game.legal(state, game.role);
  for (const move of moves) {
    const joint = game.roles.map((r) => (r === game.role ? move : game.legal(state, r)[0]));
    if (game.goal(game.next(state, joint), game.role) === 100) return move;
  }
  return moves[game.random(moves.length)];
}
`;

const MINIMAX = `// Minimax with alpha-beta; the exact values of states are kept (states are numbers).
// The table holds within one match (for one role): start empties it.
const exact = new Map();
function start(game) {
  exact.clear();
}
function value(game, state, me, alpha, beta) {
  if (game.terminal(state)) return game.goal(state, me);
  if (exact.has(state)) return exact.get(state);
  const joints = game.roles.map((r) => game.legal(state, r));
  const mover = Math.max(0, joints.findIndex((ms) => ms.length > 1));
  const mine = game.roles[mover] === me;
  let best = mine ? -1 : 101;
  const [a0, b0] = [alpha, beta];
  for (const move of joints[mover]) {
    const v = value(game, game.next(state, joints.map((ms, r) => (r === mover ? move : ms[0]))), me, alpha, beta);
    if (mine) { best = Math.max(best, v); alpha = Math.max(alpha, v); } else { best = Math.min(best, v); beta = Math.min(beta, v); }
    if (alpha >= beta) break;
  }
  // Only a value found inside the window it was searched with is exact.
  if (best > a0 && best < b0) exact.set(state, best);
  return best;
}
function play(game) {
  const state = game.current(), me = game.role;
  let choice = null, alpha = -1;
  for (const move of game.legal(state, me)) {
    const next = game.next(state, game.roles.map((r) => (r === me ? move : game.legal(state, r)[0])));
    const v = value(game, next, me, alpha, 101);
    if (choice === null || v > alpha) [choice, alpha] = [move, v];
  }
  return choice;
}
`;

const HEURISTIC = `// Alpha-beta 3 moves deep; a state not over is valued by its discs, those near the centre
// column counting more.
function centre(game, state, me) {
  let score = 0;
  for (const f of game.fluents(state)) {
    const m = /^\\(cell (\\d) \\d (\\w+)\\)$/.exec(f);
    if (m && game.roles.includes(m[2])) score += (m[2] === me ? 1 : -1) * (4 - Math.abs(4 - Number(m[1])));
  }
  return Math.max(1, Math.min(99, 50 + score));
}
function search(game, state, me, depth, alpha, beta) {
  if (game.terminal(state)) return game.goal(state, me);
  if (depth === 0) return centre(game, state, me);
  const joints = game.roles.map((r) => game.legal(state, r));
  const mover = Math.max(0, joints.findIndex((ms) => ms.length > 1));
  const mine = game.roles[mover] === me;
  let best = mine ? -1 : 101;
  for (const move of joints[mover]) {
    const v = search(game, game.next(state, joints.map((ms, r) => (r === mover ? move : ms[0]))), me, depth - 1, alpha, beta);
    if (mine) { best = Math.max(best, v); alpha = Math.max(alpha, v); } else { best = Math.min(best, v); beta = Math.min(beta, v); }
    if (alpha >= beta) break;
  }
  return best;
}
function play(game) {
  const state = game.current(), me = game.role;
  let choice = null, alpha = -1;
  for (const move of game.legal(state, me)) {
    const next = game.next(state, game.roles.map((r) => (r === me ? move : game.legal(state, r)[0])));
    const v = search(game, next, me, 2, alpha, 101);
    if (choice === null || v > alpha) [choice, alpha] = [move, v];
  }
  return choice;
}
`;

const MONTE_CARLO = `// Flat Monte Carlo: playouts after each move, in rounds, while the clock allows.
function play(game) {
  const state = game.current(), me = game.role;
  const mine = game.roles.indexOf(me);
  const moves = game.legal(state, me);
  const nexts = moves.map((move) => game.next(state, game.roles.map((r) => (r === me ? move : game.legal(state, r)[0]))));
  const totals = moves.map(() => 0);
  let rounds = 0;
  while (game.timeLeft() > 700 || rounds === 0) {
    nexts.forEach((next, i) => (totals[i] += game.terminal(next) ? 1000 * game.goal(next, me) : game.playouts(next, 10)[mine]));
    rounds++;
  }
  game.log('monte carlo', { rounds });
  return moves[totals.indexOf(Math.max(...totals))];
}
`;

/** The minimax above over the factors that decide the game: the moves of a factor that
 * neither the end nor a goal reads (a lamp) are left out, unless nothing else is legal. */
const FACTORED = MINIMAX.replace('const exact = new Map();', 'const exact = new Map();\nlet ignored = new Set();')
  .replace('  exact.clear();', '  exact.clear();\n  ignored = new Set(game.factors().filter((f) => !f.relevant).flatMap((f) => Object.values(f.moves).flat()));')
  .replace('const joints = game.roles.map((r) => game.legal(state, r));', 'const joints = game.roles.map((r) => kept(game.legal(state, r)));')
  .replace('for (const move of game.legal(state, me)) {', 'for (const move of kept(game.legal(state, me))) {')
  .concat('function kept(moves) {\n  const k = moves.filter((m) => !ignored.has(m));\n  return k.length > 0 ? k : moves;\n}\n');

/** Puts `code` into the player editor (beside the lesson on a wide screen). */
async function paste(page, code) {
  await page.locator('.player-code .cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
}

/** Presses Check and waits for the matches' verdict: the failures' texts. */
async function check(page) {
  await page.locator('#lesson-check').click();
  await page.waitForFunction(() => /Playing game \d+ of \d+/.test(document.querySelector('#lesson-status')?.textContent ?? '') || document.querySelector('#lesson-results[data-state="checked"]'));
  await page.locator('#lesson-results[data-state="checked"]').waitFor({ timeout: 240_000 });
  return page.locator('#lesson-results li.fail').allTextContents();
}

const LESSONS = [
  { id: 'player-legal', wrong: null, why: /— game \d+: player \d \((x|o)\) at step \d+: \(mark 1 1\) is not a legal move; played \S+ for it\.$/, right: FIRST_LEGAL },
  { id: 'player-random', wrong: null, why: /— it played only [12] different first moves? in 10 games, not 3 or more\./, right: RANDOM },
  { id: 'player-lookahead', wrong: null, why: /— it won [0-4] of 5 games within 1 move, not 5 or more: game \d+ \(x\): /, right: LOOKAHEAD },
  { id: 'player-minimax', wrong: RANDOM, why: /— game \d+ \((x|o)\): (x|o) wins\.$/, right: MINIMAX },
  { id: 'player-heuristic', wrong: RANDOM, why: /— it won [0-8] of 10 games, not 9 or more: game \d+ \((red|yellow)\): /, right: HEURISTIC },
  { id: 'player-montecarlo', wrong: RANDOM, why: /— it won [0-2] of 4 games, not 3 or more: game \d+ \((red|yellow)\): /, right: MONTE_CARLO },
  // The starter searches the whole game: its first move takes the clock, and the check stops there.
  { id: 'player-factoring', wrong: null, why: /— game 1: player 1 \(x\) at step 1: no reply in 3 s; played .+ for it\.$/, right: FACTORED },
];

test('each lesson on players fails a wrong player with the reason and passes its solution, by real matches', { timeout: 900_000 }, async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  const ids = await page.locator('#lessons option').evaluateAll((os) => os.map((o) => o.value).filter((v) => v.startsWith('player-')));
  assert.deepEqual(ids, LESSONS.map((l) => l.id));
  for (const lesson of LESSONS) {
    await page.locator('#lessons').selectOption(lesson.id);
    await page.waitForSelector('.player-code .cm-content', { state: 'attached' });
    // The starter is in the editor; a wrong player, when given, replaces it.
    if (lesson.wrong) await paste(page, lesson.wrong);
    let failed = await check(page);
    // Check plays real matches on a new seed each time: a random player wins 9 of 10 games
    // of connect four against random about once in a hundred checks. Once more, then.
    if (failed.length === 0 && lesson.wrong === RANDOM) failed = await check(page);
    assert.equal(failed.length, 1, `${lesson.id}: the wrong player should fail: ${await page.locator('#lesson-results').textContent()}`);
    assert.match(failed[0], lesson.why, lesson.id);
    await paste(page, lesson.right);
    const passed = await check(page);
    assert.deepEqual(passed, [], `${lesson.id}: the solution should pass`);
    assert.match(await page.locator('#lesson-status').textContent(), /Done/);
    if (lesson.id === 'player-minimax') await shot(page, 'player-lesson-passed');
  }
  assert.deepEqual(errors, []);
  await context.close();
});
