#!/usr/bin/env node
// gdl-ggp-player PLAYER.js [--port 9147] [--host 127.0.0.1] [--seed N]: serves the GGP
// protocol with the player written in PLAYER.js (a file that defines play(game), as GDL
// Playground's player editor writes and exports it), on this package's engine.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

const [file, ...argv] = process.argv.slice(2);
if (!file || file.startsWith('-')) {
  process.stderr.write('usage: gdl-ggp-player PLAYER.js [--port 9147] [--host 127.0.0.1] [--seed N]\n');
  process.exit(2);
}
let code;
try {
  code = readFileSync(file, 'utf8');
} catch (e) {
  process.stderr.write(`cannot read the player ${file}: ${e.message}\n`);
  process.exit(1);
}
const bytes = readFileSync(new URL('../web/gdl_wasm_bg.wasm', import.meta.url));
globalThis.GDL_PLAYER = { name: basename(file).replace(/\.m?js$/, ''), code, bytes, argv };
await import('../player.mjs');
