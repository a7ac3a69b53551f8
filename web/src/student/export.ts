// "Download as a GGP player": one node script that serves the GGP protocol with a student's
// player, on the page's own engine (ggp-node.ts, bundled, after one line that hands it the
// engine's bytes and the player's code). Run it with `node NAME.mjs` (README, "Your own
// player"); node 20.16 or later, nothing to install.

import wasmUrl from '../../pkg/gdl_wasm_bg.wasm?url';
import { download } from '../dom';
import scriptUrl from './ggp-node.ts?worker&url';
import type { StudentPlayer } from './store';

/** Base64 of `bytes`, in pieces (one call to btoa per 32 KB). */
function base64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** The file name a player downloads as. */
export const scriptName = (player: StudentPlayer) => `${player.name.replace(/[^\w-]+/g, '_') || 'player'}.mjs`;

/** The node script of `player`. */
export async function ggpPlayerScript(player: StudentPlayer): Promise<string> {
  const [script, bytes] = await Promise.all([fetch(scriptUrl).then((r) => r.text()), fetch(wasmUrl).then((r) => r.arrayBuffer())]);
  const given = { name: player.name, code: player.code, wasm: base64(new Uint8Array(bytes)) };
  const head = [
    `// ${player.name}: a GGP player written in GDL Playground.`,
    `// Run it with node (20.16 or later): node ${scriptName(player)} [--port 9147] [--host 127.0.0.1]`,
    `// then give http://127.0.0.1:9147 to a referee. The player's code is PLAYER_CODE below.`,
    `const PLAYER_CODE = ${JSON.stringify(player.code)};`,
    `globalThis.GDL_PLAYER = { name: ${JSON.stringify(given.name)}, code: PLAYER_CODE, wasm: ${JSON.stringify(given.wasm)} };`,
  ];
  return `${head.join('\n')}\n${script}`;
}

/** Downloads `player` as a node GGP player. */
export async function downloadGgpPlayer(player: StudentPlayer): Promise<void> {
  download(scriptName(player), await ggpPlayerScript(player), 'text/javascript');
}
