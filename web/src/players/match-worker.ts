// The match worker: the games of a match, or a move for one role in a position ("think", for
// a computer at a seat of the Play pane). The game is loaded into a session of its own on the
// fastest engine (auto) and the moves replayed; Stop terminates the worker. Each game of a match is posted as it ends.
// An `upgrade` task grounds the game in full; when the network is measured faster, the
// worker keeps that session and plays its next task on the same rules with it.

import type { Session } from '../engine/engine';
import { openSession, serve, startOnce } from '../engine/worker-kit';
import type { PlayersReply, PlayersRequest } from './protocol';

/** The session an upgrade moved to the network, and its rules. */
let upgraded: { rules: string; session: Session } | null = null;

serve<PlayersRequest>(({ module, rules, moves, task }) => {
  const post = (m: PlayersReply) => postMessage(m);
  startOnce(module);
  const session = upgraded?.rules === rules ? upgraded.session : openSession(rules, 'auto').session;
  if (task.kind === 'upgrade') {
    const { moved, note } = session.upgrade();
    if (moved) upgraded = { rules, session };
    post({ type: 'upgraded', moved, note });
    return;
  }
  if (task.kind === 'think') {
    session.replay(moves);
    post({ type: 'thought', thought: session.think(task.player, task.role, task.seed) });
    return;
  }
  for (const g of task.games) {
    post({ type: 'game', index: g, game: session.matchGame(task.players, task.seed, g, task.maxSteps) });
  }
  post({ type: 'done' });
}, (message): PlayersReply => ({ type: 'error', message }));
