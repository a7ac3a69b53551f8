import { defineConfig } from 'vitest/config';
import { offline } from './offline/plugin.ts';

// Static output in dist/, relative URLs so the page works from any folder.
// The games (../games/*.kif) are bundled at build time; the wasm package is in pkg/
// (built by scripts/setup.sh `build_web`). The offline plugin writes dist/sw.js.
export default defineConfig({
  base: './',
  plugins: [offline()],
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 800,
    rolldownOptions: { checks: { pluginTimings: false } },
  },
  worker: { format: 'es' },
  server: { fs: { allow: ['..'] } },
  test: { include: ['src/**/*.test.ts'] },
});
