// A Vite plugin (build only) that writes dist/sw.js: the offline service worker of ./sw.js
// preceded by the list of every built file and a version, a hash of their names and
// contents, so each deploy gets a cache of its own. The page registers it (src/offline.ts).

import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Plugin } from 'vite';

const TEMPLATE = new URL('./sw.js', import.meta.url);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

export function offline(): Plugin {
  let outDir = 'dist';
  return {
    name: 'gdl-offline',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle() {
      const files = filesUnder(outDir)
        .map((f) => relative(outDir, f).split(sep).join('/'))
        .filter((f) => f !== 'sw.js' && !f.endsWith('.map'))
        .sort();
      const hash = createHash('sha256');
      for (const f of files) hash.update(f).update('\0').update(readFileSync(join(outDir, f))).update('\0');
      const config = { version: hash.digest('hex').slice(0, 16), files };
      writeFileSync(join(outDir, 'sw.js'), `const OFFLINE = ${JSON.stringify(config)};\n\n${readFileSync(TEMPLATE, 'utf8')}`);
    },
  };
}
