// A small static server for the built page (web/dist): right MIME types (application/wasm),
// gzip when the browser asks for it, no caching surprises. Used by scripts/serve and by the
// browser tests and benchmark (`startServer`).
//
//   node web/serve.mjs [--port 8080] [--host 127.0.0.1] [--base /sub/path/]
//
// `--base` serves the page under a folder, as a static host such as GitHub Pages does.

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

export const DIST = resolve(fileURLToPath(new URL('./dist', import.meta.url)));

/** Starts serving `root` at `base` (a folder, `/` by default); resolves to `{url, server}`
 * once listening, `url` ending in `base`. Port 0 picks a free one. */
export function startServer({ root = DIST, port = 0, host = '127.0.0.1', base = '/' } = {}) {
  const gz = new Map();
  const folder = `/${base.replace(/^\/+|\/+$/g, '')}/`.replace('//', '/');
  const server = createServer(async (req, res) => {
    try {
      const whole = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      if (whole === folder.slice(0, -1)) {
        res.writeHead(301, { location: folder }).end();
        return;
      }
      if (!whole.startsWith(folder)) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const path = whole.slice(folder.length - 1);
      let file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) {
        res.writeHead(403).end('forbidden');
        return;
      }
      if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file).catch(() => null);
      if (body === null) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      const headers = { 'content-type': type, 'cache-control': 'no-cache' };
      if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '') && !type.startsWith('image/png')) {
        if (!gz.has(file)) gz.set(file, gzipSync(body, { level: 9 }));
        res.writeHead(200, { ...headers, 'content-encoding': 'gzip', vary: 'accept-encoding' }).end(gz.get(file));
      } else {
        res.writeHead(200, headers).end(body);
      }
    } catch (e) {
      res.writeHead(500).end(String(e));
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      const addr = server.address();
      ok({ url: `http://${host === '0.0.0.0' ? 'localhost' : host}:${addr.port}${folder}`, server });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name, def) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : def;
  };
  const host = arg('--host', '127.0.0.1');
  const base = arg('--base', '/');
  let port = Number(arg('--port', '8080'));
  for (let tries = 0; ; tries++) {
    try {
      const { url } = await startServer({ port, host, base });
      console.log(`GDL Playground is ready at ${url}  (Ctrl+C stops it)`);
      break;
    } catch (e) {
      if (e.code !== 'EADDRINUSE' || tries > 20) throw e;
      port++;
    }
  }
}
