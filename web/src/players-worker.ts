// The computer players' worker: a move for one role in a position ("think"), or games of a
// match. The game is loaded into a session of its own on the fastest engine (auto) and the
// moves replayed; Stop terminates the worker. Each game of a match is posted as it ends.

import { Session, api, errorMessage, startEngineSync } from './engine';
import type { MatchGame, PlayersReply, PlayersRequest, Thought } from './players-protocol';

let started = false;

onmessage = (e: MessageEvent<PlayersRequest>) => {
  const { module, rules, moves, task } = e.data;
  const post = (m: PlayersReply) => postMessage(m);
  try {
    if (!started) {
      startEngineSync(module);
      started = true;
    }
    const session = new Session();
    if (!api.load(session, rules).ok) throw new Error('the rules have errors');
    session.setEngine('auto');
    if (task.kind === 'think') {
      session.replay(moves);
      post({ type: 'thought', thought: session.think(task.player, task.role, task.seed) as Thought });
      return;
    }
    for (const g of task.games) {
      post({ type: 'game', index: g, game: session.matchGame(task.players, task.seed, g, task.maxSteps) as MatchGame });
    }
    post({ type: 'done' });
  } catch (err) {
    post({ type: 'error', message: errorMessage(err) });
  }
};
