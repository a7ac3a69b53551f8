// The match worker: the games of a match, or a move for one role in a position ("think", for
// a computer at a seat of the Play pane). The game is loaded into a session of its own on the
// engine the page chose (auto while it has not) and the moves replayed; Stop terminates the
// worker. A search posts its progress (playouts, best move so far) as it goes; each game of a
// match is posted as it ends. A seat's worker loads the game when the seat is chosen (`load`)
// and keeps it for every move it is asked for.
// An `upgrade` task grounds the game in full; when the network is measured faster, the
// worker keeps that session and plays its next task on the same rules with it.

import type { Session, Thought } from '../engine/engine';
import { openSession, serve, startOnce } from '../engine/worker-kit';
import { remainingSpec, type PlayersReply, type PlayersRequest } from './protocol';

/** The session kept for the next task on the same rules: the one an upgrade moved to the
 * network, or a seat's (loaded once, for all its moves). */
let kept: { rules: string; engine: string; session: Session } | null = null;

serve<PlayersRequest>(({ module, rules, engine, moves, task }) => {
  const post = (m: PlayersReply) => postMessage(m);
  startOnce(module);
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
    post({ type: 'thought', thought: session.think(remainingSpec(task.player, Date.now() - task.requestedAt), task.role, task.seed, progress) });
    return;
  }
  for (const g of task.games) {
    post({ type: 'game', index: g, game: session.matchGame(task.players, task.seed, g, task.maxSteps) });
  }
  post({ type: 'done' });
}, (message): PlayersReply => ({ type: 'error', message }));
