// The match worker: the games of a match, or a move for one role in a position ("think", for
// a computer at a seat of the Play pane). The game is loaded into a session of its own on the
// engine the page chose (auto while it has not) and the moves replayed; Stop terminates the
// The match worker: the games of a match, or a move for one role in a position ("think", for
// a computer at a seat of the Play pane). The game is loaded into a session of its own on the
// engine the page chose (auto while it has not) and the moves replayed; Stop terminates the
// worker. A search posts its progress (playouts, best move so far) as it goes; each game of a
// match is posted as it ends. A seat's worker loads the game when the seat is chosen (`load`)
// and keeps it for every move it is asked for.
// A `post` task sends one GGP message to a remote player and waits for its reply; a `referee`
// task plays games refereed by core, remote players reached the same way (synchronous HTTP,
// which a worker may use: the clock is the request's timeout).
// A `tournament` task plays one game of a tournament's schedule, refereed by core the same way.
// An `upgrade` task grounds the game in full; when the network is measured faster, the
// worker keeps that session and plays its next task on the same rules with it.

import { type NoReply, type Session, type Thought } from '../engine/engine';
import { openSession, serve, startOnce } from '../engine/worker-kit';
import type { Exchange, PlayersReply, PlayersRequest } from './protocol';

/** The session kept for the next task on the same rules: the one an upgrade moved to the
 * network, or a seat's (loaded once, for all its moves). */
let kept: { rules: string; engine: string; session: Session } | null = null;

/** POSTs `message` to `url` and returns its reply within `clock` ms; throws a `NoReply`
 * saying why there is none (core words it). */
function send(url: string, message: string, clock: number): string {
  const xhr = new XMLHttpRequest();
  xhr.open('POST', url, false);
  xhr.timeout = Math.max(1, Math.ceil(clock));
  // A type that needs no preflight (OPTIONS), which older players (Jocular) do not survive.
  xhr.setRequestHeader('Content-Type', 'text/plain');
  try {
    xhr.send(message);
  } catch (e) {
    const failure: NoReply =
      e instanceof DOMException && e.name === 'TimeoutError'
        ? { kind: 'timeout', millis: clock }
        : { kind: 'unreachable', detail: 'the player cannot be reached (it is not running, or it sends no CORS headers and this page has no relay to it)' };
    throw failure;
  }
  if (xhr.status !== 200) throw { kind: 'status', code: xhr.status, body: xhr.responseText } satisfies NoReply;
  return xhr.responseText;
}

/** `send`, timed, as an exchange for the message logs (`to`: how the log names the player). */
function exchange(to: string, url: string, message: string, clock: number): Exchange {
  const at = Date.now();
  const t = performance.now();
  try {
    const reply = send(url, message, clock);
    return { to, message, reply, failure: null, millis: performance.now() - t, at };
  } catch (e) {
    return { to, message, reply: null, failure: e as NoReply, millis: performance.now() - t, at };
  }
}

serve<PlayersRequest>(({ module, rules, engine, moves, task }) => {
  const post = (m: PlayersReply) => postMessage(m);
  startOnce(module);
  if (task.kind === 'post') {
    post({ type: 'posted', exchange: exchange(task.url, task.url, task.message, task.clock) });
    return;
  }
  const session = kept?.rules === rules && kept.engine === engine ? kept.session : openSession(rules, engine).session;
  if (task.kind === 'upgrade') {
    const { moved, note } = session.upgrade();
    if (moved) kept = { rules, engine, session };
    post({ type: 'upgraded', moved, note });
    return;
  }
  if (task.kind === 'load') {
    kept = { rules, engine, session };
    post({ type: 'ready' });
    return;
  }
  if (task.kind === 'think') {
    session.replay(moves);
    const progress = (soFar: Thought) => post({ type: 'progress', soFar });
    post({ type: 'thought', thought: session.think(task.player, task.role, task.seed, progress, Date.now() - task.requestedAt) });
    return;
  }
  const remote = (targets: Record<string, string>) => (url: string, message: string, clock: number) => {
    const sent = exchange(url, targets[url] ?? url, message, clock);
    post({ type: 'exchange', exchange: sent });
    if (sent.failure !== null) throw sent.failure;
    return sent.reply as string;
  };
  const fault = (message: string) => post({ type: 'fault', message });
  if (task.kind === 'tournament') {
    // The next game may be on the same rules: the session is kept for it.
    kept = { rules, engine, session };
    post({ type: 'finished', game: task.game, finished: session.tournamentGame(task.plan, task.game, remote(task.targets), fault) });
    return;
  }
  if (task.kind === 'referee') {
    for (const g of task.games) {
      const { game, record, line } = session.refereeGame(task.players, g, task.terms, remote(task.targets), fault);
      post({ type: 'result', line });
      post({ type: 'game', index: g, game, record });
    }
    post({ type: 'done' });
    return;
  }
  for (const g of task.games) {
    post({ type: 'game', index: g, game: session.matchGame(task.players, task.seed, g, task.maxSteps) });
  }
  post({ type: 'done' });
}, (message): PlayersReply => ({ type: 'error', message }));
