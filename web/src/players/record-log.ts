// A refereed game's log as its record keeps it: what the players said (a student's `log`)
// and the referee's faults, both in core's words, in the order of the steps. Shown under a
// game of the Match tab's and the tournament's lists, and in the Play pane's message log
// when the game is opened there.

import { h } from '../dom';
import type { MatchRecord } from '../engine/engine';

/** One line of a game's log: a player's note or a fault. */
export interface LogLine {
  kind: 'note' | 'fault';
  text: string;
}

/** The lines of `record`, step by step (at a step, what was said before the faults). */
export function recordLines(record: MatchRecord | null | undefined): LogLine[] {
  if (!record) return [];
  const lines = [
    ...(record.said ?? []).map((s) => ({ step: s.step, kind: 'note' as const, text: s.text })),
    ...record.faults.map((f) => ({ step: f.step, kind: 'fault' as const, text: f.message })),
  ];
  // Stable: each list keeps its own order within a step.
  return lines.sort((a, b) => a.step - b.step).map(({ kind, text }) => ({ kind, text }));
}

/** The log of a game under its line in a list of games (nothing when it has none). */
export function gameLog(record: MatchRecord | null | undefined): HTMLElement | '' {
  const lines = recordLines(record);
  if (lines.length === 0) return '';
  return h(
    'details',
    { class: 'game-log' },
    h('summary', {}, `Log (${lines.length})`),
    h('ol', { class: 'message-list' }, ...lines.map((l) => h('li', { class: l.kind === 'fault' ? 'fault warn' : 'player-said' }, l.text))),
  );
}
