// The page's load time for every corpus game (a benchmark, not a test):
//   node tests/bench/pageload.mjs [--runs 2] [--games NAME ...]
// after the page is built (scripts/serve or scripts/test build web/pkg). For each game of
// ../shared/corpus, what the page's main thread does when rules are pasted: a wasm Session
// with the main thread's time limit (web/src/app.ts, MAIN_THREAD_MILLIS) loads them (the
// reasoner, its program chosen by measurement) and computes the first view (legal moves,
// goals). The grounding runs meanwhile in a worker and swaps in the propositional network
// when it is ready, so this is the wait before the game can be played. Node runs the same
// V8 engine as Chromium. Best of --runs, wall clock. Writes tests/bench/PAGELOAD.md.

import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { initSync, Session } from '../../web/pkg/gdl_wasm.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CORPUS = join(ROOT, '../shared/corpus');
const TARGET_MS = 1000;
const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const RUNS = arg('--runs', 2);
const chosen = process.argv.includes('--games') ? process.argv.slice(process.argv.indexOf('--games') + 1) : null;

const mainThreadMillis = () => {
  const m = readFileSync(join(ROOT, 'web/src/app.ts'), 'utf8').match(/const MAIN_THREAD_MILLIS = (\d+);/);
  if (!m) throw new Error('MAIN_THREAD_MILLIS not found in web/src/app.ts');
  return Number(m[1]);
};
const MILLIS = mainThreadMillis();

initSync({ module: readFileSync(join(ROOT, 'web/pkg/gdl_wasm_bg.wasm')) });

/** Loads `text` as the page does and computes the first view: `{ms, ok, engine, error}`. */
function loadOnce(text) {
  const s = new Session(MILLIS);
  const t0 = performance.now();
  try {
    const res = s.load(text);
    if (!res.ok) return { ms: performance.now() - t0, ok: false, error: `${res.errors} errors` };
    const view = s.view();
    return { ms: performance.now() - t0, ok: true, engine: view.engineNote };
  } catch (e) {
    return { ms: performance.now() - t0, ok: false, error: String(e.message ?? e).split('\n')[0] };
  } finally {
    s.free();
  }
}

const games = readdirSync(CORPUS, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) =>
    readdirSync(join(CORPUS, d.name))
      .filter((f) => f.endsWith('.kif'))
      .map((f) => `${d.name}/${basename(f, '.kif')}`),
  )
  .filter((g) => !chosen || chosen.some((c) => g === c || g.endsWith(`/${c}`)))
  .sort();

const rows = [];
for (const game of games) {
  const text = readFileSync(join(CORPUS, `${game}.kif`), 'utf8');
  const runs = Array.from({ length: RUNS }, () => loadOnce(text));
  const best = runs.reduce((a, b) => (b.ms < a.ms ? b : a));
  rows.push({ game, ...best, ms: Math.round(best.ms) });
  process.stdout.write(`${String(Math.round(best.ms)).padStart(6)} ms  ${game}${best.ok ? '' : `  (${best.error})`}\n`);
}

const played = rows.filter((r) => r.ok);
const sorted = played.map((r) => r.ms).sort((a, b) => a - b);
const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const over = played.filter((r) => r.ms >= TARGET_MS);
const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
  } catch {
    return '?';
  }
})();
const lines = [
  '# Page load: every corpus game in the page\'s engine (wasm)',
  '',
  `- Date: ${new Date().toISOString().slice(0, 19).replace('T', ' ')}; repository ${commit}; node ${process.version}`,
  `- Command: \`node tests/bench/pageload.mjs --runs ${RUNS}\` (after web/pkg is built)`,
  `- Per game: what the page's main thread does when the rules are pasted: a wasm \`Session\` with the main thread's time limit (${MILLIS} ms) loads them (the reasoner, its program chosen by measurement, which ends once a program passed and 300 ms have gone) and computes the first view. The grounding runs meanwhile in a worker and swaps the propositional network in when it is ready; the playout workers choose without a clock. Best of ${RUNS} runs, wall clock, one game at a time.`,
  '',
  '| figure | value | target |',
  '| --- | --- | --- |',
  `| games | ${rows.length} files; ${played.length} play | |`,
  `| load, median | ${q(0.5)} ms | |`,
  `| load, 95th percentile | ${q(0.95)} ms | |`,
  `| load, max | ${sorted[sorted.length - 1]} ms (${played.find((r) => r.ms === sorted[sorted.length - 1])?.game}) | |`,
  `| games over ${TARGET_MS} ms | ${over.length}${over.length ? `: ${over.map((r) => r.game).join(', ')}` : ''} | none: ${over.length ? 'not met' : 'met'} |`,
  '',
  'Slowest 20:',
  '',
  '| game | ms | engine |',
  '| --- | --- | --- |',
  ...[...played].sort((a, b) => b.ms - a.ms).slice(0, 20).map((r) => `| ${r.game} | ${r.ms} | ${r.engine} |`),
  '',
  'Not playable (refused or failed to load, as in the page):',
  '',
  ...rows.filter((r) => !r.ok).map((r) => `- ${r.game}: ${r.error}`),
  '',
];
if (!chosen) writeFileSync(join(ROOT, 'tests/bench/PAGELOAD.md'), lines.join('\n'));
else console.log(lines.slice(6, 13).join('\n'));
