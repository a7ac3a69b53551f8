// A student's player as a GGP player of its own: a node script (no browser) that answers a
// referee's messages over HTTP with the player's code, on the page's engine and the page's
// runner (api.ts), so that it plays as it played in the sandbox. The page's "Download as a
// GGP player" writes this bundle after one line that hands it the engine's bytes and the
// code (`globalThis.GDL_PLAYER`); the npm package's `gdl-ggp-player` hands them from files.
// It imports nothing (node's modules come from `process.getBuiltinModule`), so that it
// bundles into one file.
//
// Network input is hostile: loopback unless --host says otherwise, a bounded body, a read
// timeout, POST only; a message that is not one is answered 400 in words.

import { PlayerGame, initSync, messageKind } from '../../pkg/gdl_wasm.js';
import { PlayerRunner, loadPlayer, type PlayerEngine } from './api';

/** What the script is handed: the engine's bytes (or base64) and the player's code. */
interface Given {
  wasm?: string;
  bytes?: Uint8Array;
  code: string;
  name?: string;
  argv?: string[];
}

// The little of node this script uses, typed here (the page's build knows no node types).
interface Proc {
  argv: string[];
  stderr: { write(text: string): void };
  exitCode?: number;
  getBuiltinModule(id: string): unknown;
}
interface Request {
  method?: string;
  on(event: 'data', f: (chunk: Uint8Array) => void): void;
  on(event: 'end', f: () => void): void;
  destroy(): void;
}
interface Response {
  writeHead(status: number, headers: Record<string, string>): void;
  end(body: string): void;
}
interface Server {
  on(event: 'error', f: (e: Error) => void): void;
  listen(port: number, host: string, ready: () => void): void;
  address(): { port: number } | string | null;
}
interface Http {
  createServer(options: { requestTimeout: number; headersTimeout: number }, handle: (req: Request, res: Response) => void): Server;
}

/** The largest message read (a game's rules are tens of kilobytes). */
const MAX_BODY = 4 << 20;
/** How long a request may take to arrive whole. */
const READ_TIMEOUT_MS = 30_000;

const USAGE = `usage: node PLAYER.mjs [--port PORT] [--host HOST] [--seed N]
  Serves the GGP protocol on http://HOST:PORT (default 127.0.0.1:9147; --host 0.0.0.0 opens it
  to other machines). Give the address to a referee (the Dresden GameController, gdl match,
  GDL Playground's Match tab).`;

/** The options, or the reason they are not ones. */
function options(argv: string[]): { port: number; host: string; seed: number } | string {
  const out = { port: 9147, host: '127.0.0.1', seed: 1 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === '--help' || flag === '-h') return USAGE;
    if (!['--port', '--host', '--seed'].includes(flag)) return `unknown option '${flag}'\n${USAGE}`;
    if (value === undefined) return `${flag} needs a value\n${USAGE}`;
    i++;
    if (flag === '--host') out.host = value;
    else {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0 || (flag === '--port' && n > 65535)) return `${flag} takes a whole number, not '${value}'`;
      if (flag === '--port') out.port = n;
      else out.seed = n;
    }
  }
  return out;
}

/** Serves the player; returns when the server listens (the address is printed on stderr). */
export function serve(given: Given): void {
  const proc = (globalThis as unknown as { process: Proc }).process;
  const http = proc.getBuiltinModule('node:http') as Http;
  const say = (line: string) => proc.stderr.write(`${line}\n`);
  const opts = options(given.argv ?? proc.argv.slice(2));
  if (typeof opts === 'string') {
    say(opts);
    proc.exitCode = opts === USAGE ? 0 : 2;
    return;
  }
  const bytes = given.bytes ?? Uint8Array.from(atob(given.wasm ?? ''), (c) => c.charCodeAt(0));
  initSync({ module: bytes });
  const engine: PlayerEngine = { startGame: (start, seed) => new PlayerGame(start, seed), messageKind };
  let runner: PlayerRunner;
  try {
    runner = new PlayerRunner(engine, loadPlayer(given.code), () => performance.now(), opts.seed);
  } catch (e) {
    say(`the player's code does not load: ${e instanceof Error ? e.message : String(e)}`);
    proc.exitCode = 1;
    return;
  }
  const name = given.name ?? 'player';
  const server = http.createServer({ requestTimeout: READ_TIMEOUT_MS, headersTimeout: READ_TIMEOUT_MS }, (req, res) => {
    const send = (status: number, body: string) => {
      res.writeHead(status, {
        'Content-Type': 'text/acl',
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Headers': 'Content-Type',
        'Access-Control-Allow-Methods': 'POST, OPTIONS',
      });
      res.end(body);
    };
    if (req.method === 'OPTIONS') return send(204, '');
    if (req.method !== 'POST') return send(405, 'a GGP player answers POST requests only');
    const chunks: Uint8Array[] = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        send(413, `a message of more than ${MAX_BODY >> 20} MB is not a GGP message`);
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY) return;
      const body = new Uint8Array(size);
      chunks.reduce((at, c) => (body.set(c, at), at + c.length), 0);
      const message = new TextDecoder().decode(body);
      const answer = runner.answer(message);
      const head = message.trim().slice(0, 60).replace(/\s+/g, ' ');
      say(`${head}${message.length > 60 ? '…' : ''} -> ${answer.reply ?? `no reply: ${answer.failed}`}`);
      for (const l of answer.logs) say(`  step ${l.step}: ${l.text}${l.values ? ` ${JSON.stringify(l.values)}` : ''} (${Math.round(l.millis)} ms)`);
      if (answer.reply === null) return send(400, answer.failed ?? 'no reply');
      send(200, answer.reply);
    });
  });
  server.on('error', (e) => {
    say(`cannot serve on ${opts.host}:${opts.port}: ${e.message}`);
    proc.exitCode = 1;
  });
  server.listen(opts.port, opts.host, () => {
    const at = server.address();
    const port = typeof at === 'object' && at ? at.port : opts.port;
    say(`${name}: a GGP player listening on http://${opts.host}:${port}`);
  });
}

const handed = (globalThis as { GDL_PLAYER?: Given }).GDL_PLAYER;
if (handed) serve(handed);
