// The engine for node: the browser build's module, started from its wasm file on disk.
import { readFileSync } from 'node:fs';
import { initSync } from './web/gdl_wasm.js';

initSync({ module: readFileSync(new URL('./web/gdl_wasm_bg.wasm', import.meta.url)) });
export * from './web/gdl_wasm.js';
