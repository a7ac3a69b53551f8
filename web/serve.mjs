// A small static server for the built page (web/dist): right MIME types (application/wasm),
// gzip when the browser asks for it, no caching surprises. Used by scripts/serve and by the
// browser tests and benchmark (`startServer`).
//
//   node web/serve.mjs [--port 8080] [--host 127.0.0.1] [--base /sub/path/]
//
// `--base` serves the page under a folder, as a static host such as GitHub Pages does.
//
// It also relays the page's GGP messages to players on this machine that send no CORS
// headers (Jocular): `POST <base>relay?to=http://127.0.0.1:9147/` forwards the body and
// answers the player's reply. Only to loopback addresses, only for this page (a request from
// another site's page is refused), bodies and replies bounded, each exchange bounded in time:
// never an open relay.

import { createServer, request as httpRequest } from 'node:http';
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

/** Most bytes relayed either way (the player's own limit), and longest one exchange may take. */
const RELAY_MAX_BYTES = 4 << 20;
const RELAY_MAX_MILLIS = 120_000;

/** Whether `hostname` (as a URL gives it) is this machine: 127.0.0.0/8, localhost, [::1]. */
export function isLoopback(hostname) {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** Relays one POST to the loopback player named by `?to=`; refuses every other target. */
function relay(req, res, target) {
  const say = (status, text) => {
    if (!res.headersSent) res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
    res.end(text);
  };
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${req.headers.host}`) {
    return say(403, `error: the relay serves the page at http://${req.headers.host} only, not ${origin}`);
  }
  if (req.method !== 'POST') return say(405, 'error: POST a GGP message to relay it');
  let to;
  try {
    to = new URL(target ?? '');
  } catch {
    return say(400, `error: relay?to= needs a player's address, such as http://127.0.0.1:9147 (got '${target ?? ''}')`);
  }
  if (to.protocol !== 'http:' || !isLoopback(to.hostname)) {
    return say(403, `error: the relay reaches players on this machine only (127.0.0.1, localhost, [::1]), and ${to.host || target} is not one: a player elsewhere must send CORS headers (Access-Control-Allow-Origin) to be called from the page`);
  }
  const chunks = [];
  let size = 0;
  let upstream = null;
  const timer = setTimeout(() => {
    upstream?.destroy();
    say(504, `error: the player at ${to.host} took more than ${RELAY_MAX_MILLIS / 1000} s`);
    req.destroy();
  }, RELAY_MAX_MILLIS);
  res.on('close', () => {
    clearTimeout(timer);
    upstream?.destroy();
  });
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size > RELAY_MAX_BYTES) {
      say(413, `error: a message may have ${RELAY_MAX_BYTES >> 20} MB at most`);
      req.destroy();
    } else chunks.push(chunk);
  });
  req.on('end', () => {
    if (res.writableEnded) return;
    const body = Buffer.concat(chunks);
    // Header names as GGP referees write them, and a reading that accepts bare line feeds:
    // older players (Jocular) need both.
    const hostname = to.hostname.replace(/^\[|\]$/g, '');
    upstream = httpRequest({ hostname, port: to.port || 80, path: to.pathname + to.search, method: 'POST', agent: false, insecureHTTPParser: true, headers: { 'Content-Type': 'text/acl', 'Content-Length': body.length } }, (reply) => {
      const back = [];
      let got = 0;
      reply.on('data', (chunk) => {
        got += chunk.length;
        if (got > RELAY_MAX_BYTES) {
          upstream.destroy();
          say(502, `error: the reply of the player at ${to.host} is longer than ${RELAY_MAX_BYTES >> 20} MB`);
        } else back.push(chunk);
      });
      reply.on('end', () => {
        if (res.writableEnded) return;
        res.writeHead(reply.statusCode ?? 502, { 'content-type': 'text/plain; charset=utf-8' }).end(Buffer.concat(back));
      });
      reply.on('error', () => say(502, `error: the player at ${to.host} broke off its reply`));
    });
    upstream.on('error', (e) => say(502, `error: the player at ${to.host} cannot be reached: ${e.code ?? e.message}`));
    upstream.end(body);
  });
}

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
      if (path === '/relay') return relay(req, res, new URL(req.url ?? '/', 'http://x').searchParams.get('to'));
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
