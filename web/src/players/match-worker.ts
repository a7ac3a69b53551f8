// The computer players' worker: a move for one role in a position ("think"), or games of a
// match. The game is loaded into a session of its own on the fastest engine (auto) and the
// moves replayed; Stop terminates the worker. Each game of a match is posted as it ends.
// An `upgrade` task grounds the game in full; when the network is measured faster, the
// worker keeps that session and plays its next task on the same rules with it.

import { Session, api, errorMessage, startEngineSync } from '../engine/engine';
import type { MatchGame, PlayersReply, PlayersRequest, Thought } from './protocol';

let started = false;
/** The session an upgrade moved to the network, and its rules. */
let upgraded: { rules: string; session: Session } | null = null;

function load(rules: string): Session {
  if (upgraded?.rules === rules) return upgraded.session;
  const session = new Session();
  if (!api.load(session, rules).ok) throw new Error('the rules have errors');
  session.setEngine('auto');
  return session;
}

onmessage = (e: MessageEvent<PlayersRequest>) => {
  const { module, rules, moves, task } = e.data;
  const post = (m: PlayersReply) => postMessage(m);
  try {
    if (!started) {
      startEngineSync(module);
      started = true;
    }
    const session = load(rules);
    if (task.kind === 'upgrade') {
      const { moved, note } = api.upgrade(session);
      if (moved) upgraded = { rules, session };
      post({ type: 'upgraded', moved, note });
      return;
    }
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
