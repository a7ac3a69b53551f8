// A game's log as the page shows it where a student looks for why a player lost: what the
// players said and their faults, in core's order and words (`recordLog`, from the game's
// record), under each game of the Match tab and of the tournament, and in the Play pane
// after "Open in Play", where the lines of the position shown are marked.

import { h } from '../dom';
import { recordLog, type Logged, type MatchRecord } from '../engine/engine';

/** The lines of a game's log: when (core's words), the role, the text; faults marked. */
function lines(log: Logged[]): HTMLElement {
  return h(
    'ol',
    { class: 'game-log-lines' },
    ...log.map((l) => h('li', { class: l.fault ? 'fault' : 'said', 'data-position': l.position }, h('span', { class: 'muted' }, `${l.when} · ${l.role} · `), l.text)),
  );
}

/** A game's log, folded under its line in a list of games; nothing when the record has none. */
export function gameLog(record: MatchRecord): HTMLElement | null {
  const log = recordLog(record);
  return log.length === 0 ? null : h('details', { class: 'game-log' }, h('summary', {}, `Log (${log.length} line${log.length > 1 ? 's' : ''})`), lines(log));
}

/** The Play pane's log of the game last opened from a match or a tournament. It shows while
 * the moves shown are that game's; the lines said at the position shown are marked. */
export class OpenedLog {
  #moves: string[][] = [];
  #log: Logged[] = [];

  constructor(private box: HTMLElement) {}

  /** The game opened (its moves), and its record if it has one. */
  open(moves: string[][], record: MatchRecord | null): void {
    this.#moves = moves;
    this.#log = record ? recordLog(record) : [];
    this.box.replaceChildren(h('h2', {}, 'Log of the game opened'), lines(this.#log));
  }

  /** The position shown: `step` joint moves of `history` from the start. */
  show(history: string[][], step: number): void {
    const same = step <= this.#moves.length && this.#moves.slice(0, step).every((joint, k) => joint.join(' ') === history[k]?.join(' '));
    this.box.hidden = this.#log.length === 0 || !same;
    for (const li of this.box.querySelectorAll<HTMLElement>('li')) {
      const here = Number(li.dataset.position) === step;
      li.classList.toggle('here', here);
      if (here) li.setAttribute('aria-current', 'step');
      else li.removeAttribute('aria-current');
    }
  }
}
