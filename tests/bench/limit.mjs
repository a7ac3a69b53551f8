// Our propositional network against the hand-coded limit (../shared/limit: bitboard playouts
// of the same games), natively and as wasm under node, measured in one run (a benchmark, not
// a test):   node tests/bench/limit.mjs [--seconds 3] [--rounds 3]
// Builds what it needs (gdl, the limit native and wasm; the page's wasm must be built:
// scripts/serve or scripts/test do it), runs every measurement --rounds times interleaved,
// and writes the medians of playouts per CPU second to tests/bench/LIMIT.md.
// Targets: native at least 1/4 of the limit on all three games (issue 39); our wasm at
// least 0.7 of our native rate.

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initSync, Session } from '../../web/pkg/gdl_wasm.js';

const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const SECONDS = arg('--seconds', 3);
const ROUNDS = arg('--rounds', 3);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LIMIT = join(ROOT, '../shared/limit');
const CORPUS = join(ROOT, '../shared/corpus/ggp-base');
const GAMES = [
  { name: 'tictactoe', file: 'tictactoe.kif', target: 1 / 4 },
  { name: 'connectfour', file: 'connectFour.kif', target: 1 / 4 },
  { name: 'breakthrough', file: 'breakthrough.kif', target: 1 / 4 },
];

const run = (cmd, args) => execFileSync(cmd, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** On-CPU seconds of this thread (Linux), else wall time. */
function cpuSeconds() {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e9;
  } catch {
    return performance.now() / 1000;
  }
}

function build() {
  run('cargo', ['build', '--release', '--quiet', '-p', 'gdl-cli']);
  const limit = ['--manifest-path', join(LIMIT, 'Cargo.toml'), '--target-dir', 'target/limit'];
  run('cargo', ['build', '--release', '--quiet', ...limit]);
  run('cargo', ['build', '--release', '--quiet', '--lib', '--target', 'wasm32-unknown-unknown', ...limit]);
  initSync({ module: readFileSync(join(ROOT, 'web/pkg/gdl_wasm_bg.wasm')) });
}

const ours = {
  native(g) {
    const out = run(join(ROOT, 'target/release/gdl'), ['bench', join(CORPUS, g.file), '--engine', 'propnet',
      '--seconds', String(SECONDS), '--threads', '1', '--json']);
    return JSON.parse(out).playouts_per_cpu_sec;
  },
  /** The page's wasm (web/pkg) in node, the propnet, batches as the page's worker makes them. */
  wasm(g) {
    const s = new Session();
    if (!s.load(readFileSync(join(CORPUS, g.file), 'utf8')).ok) throw new Error(`${g.file} does not load`);
    s.setEngine('propnet');
    s.seed(1);
    let n = 0;
    const [t0, c0] = [performance.now(), cpuSeconds()];
    while (performance.now() - t0 < SECONDS * 1000) n += s.playouts(4096, 1000).playouts;
    const rate = n / (cpuSeconds() - c0);
    s.free();
    return rate;
  },
};

const limit = {
  native: (g) => JSON.parse(run(join(ROOT, 'target/limit/release/limit-native'), [g.name, String(SECONDS)])).playouts_per_cpu_sec,
  wasm: (g) => JSON.parse(run('node', [join(LIMIT, 'run_wasm.mjs'), g.name, String(SECONDS), '',
    join(ROOT, 'target/limit/wasm32-unknown-unknown/release/limit.wasm')])).playouts_per_cpu_sec,
};

build();
const rows = [];
for (const g of GAMES) {
  const m = { ours: { native: [], wasm: [] }, limit: { native: [], wasm: [] } };
  for (let r = 0; r < ROUNDS; r++) {
    for (const target of ['native', 'wasm']) {
      m.ours[target].push(ours[target](g));
      m.limit[target].push(limit[target](g));
    }
  }
  const row = { game: g.name, target: g.target };
  for (const who of ['ours', 'limit']) for (const t of ['native', 'wasm']) row[`${who}_${t}`] = median(m[who][t]);
  rows.push(row);
  console.log(JSON.stringify(row));
}

const k = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)} M` : `${(x / 1e3).toFixed(1)} k`);
const frac = (x) => `1/${(1 / x).toFixed(1)}`;
const ok = (b) => (b ? 'yes' : '**no**');
const L = [
  '# Propositional network against the hand-coded limit', '',
  `- Date: ${new Date().toISOString()}`,
  `- Command: \`node tests/bench/limit.mjs --seconds ${SECONDS} --rounds ${ROUNDS}\` (medians of ${ROUNDS} interleaved rounds of ${SECONDS} s)`,
  '- Games: the corpus versions (`../shared/corpus/ggp-base/{tictactoe,connectFour,breakthrough}.kif`), `--engine propnet`; '
    + 'the limit: `../shared/limit` (bitboards written for each game), its native binary and its wasm under node.',
  '- Figures are playouts per CPU second of the measuring thread (the machine is shared); both builds are plain '
    + '`--release` for baseline x86-64 (ours picks popcnt/bmi1 at run time when the processor has them).',
  '- Ours in wasm: the page\'s build (`web/pkg`) in node, `Session.playouts` in batches of 4096 as the page\'s worker calls it.', '',
  '| game | ours native | limit native | ours / limit | target | met | ours wasm | limit wasm | ours wasm / native | met (≥ 0.7) |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map((r) => {
    const ratio = r.ours_native / r.limit_native;
    const wasm = r.ours_wasm / r.ours_native;
    return `| ${r.game} | ${k(r.ours_native)} | ${k(r.limit_native)} | ${frac(ratio)} | ${frac(r.target)} | ${ok(ratio >= r.target)} | ${k(r.ours_wasm)} | ${k(r.limit_wasm)} | ${wasm.toFixed(2)} | ${ok(wasm >= 0.7)} |`;
  }),
];
writeFileSync(join(ROOT, 'tests/bench/LIMIT.md'), L.join('\n') + '\n');
console.log(L.join('\n'));
