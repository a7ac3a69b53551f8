// The moves side of the Grounded rules pane: the legal moves of the position to choose from
// and what the chosen ones change (in the pane), and the same summary with the rules they
// light up in the Play pane's preview.

import { byId, h } from '../dom';
import type { Program } from './client';
import type { Position } from './position';

/** Move buttons drawn per role at most. */
const MOVE_BUTTONS = 120;
/** Rules listed in the Play pane's preview at most. */
const PREVIEWED = 12;

export interface MoveActions {
  choose(role: number, move: string): void;
  play(joint: string[]): void;
  /** Opens the Grounded rules pane listing the rules the chosen moves switch. */
  openChanges(): void;
}

/** The legal moves to choose from, and what the chosen ones change (into #gv-position). */
export function renderPosition(p: Program | null, position: Position, actions: MoveActions): void {
  const box = document.getElementById('gv-position');
  const view = position.view;
  if (!box || !p) return;
  if (!view) {
    const why = position.hiddenFor
      ? `The game is viewed as ${position.hiddenFor}, who does not know the true state: no rule is lit against it until the game ends. View it as the referee to see them.`
      : 'No position: the game is not loaded.';
    box.replaceChildren(h('p', { class: 'muted', id: 'gv-hidden' }, why));
    return;
  }
  const head = h('p', {}, h('strong', {}, `Position after ${view.step} move${view.step === 1 ? '' : 's'}`), view.terminal ? ' · the game is over' : ' · choose a move to see which rules it switches:');
  const roles = view.terminal
    ? []
    : view.roles.map((role, r) => {
        const ms = view.legal[r];
        return h(
          'div',
          { class: 'gv-role', 'data-gv-role': role },
          h('span', { class: 'muted' }, `${role}: `),
          ...ms.slice(0, MOVE_BUTTONS).map((m) =>
            h('button', { type: 'button', class: `gv-move small${position.chosen[r] === m ? ' chosen' : ''}`, 'aria-pressed': String(position.chosen[r] === m), 'data-move': m, onclick: () => actions.choose(r, m) }, m),
          ),
          ms.length > MOVE_BUTTONS ? h('span', { class: 'muted' }, ` … ${ms.length - MOVE_BUTTONS} more (choose them in Play)`) : '',
        );
      });
  const joint = position.joint();
  const complete = joint.length > 0 && joint.every((m) => m !== null);
  const change = position.changes(p);
  const seen = position.percepts(p);
  box.replaceChildren(
    head,
    ...roles,
    change
      ? h(
          'p',
          { id: 'gv-changes-list', class: 'gv-diff' },
          h('strong', {}, complete ? 'Playing it changes: ' : 'With the moves chosen so far: '),
          ...change.gained.map((f) => h('span', { class: 'gain' }, `+ ${f}`)),
          ...change.lost.map((f) => h('span', { class: 'loss' }, `− ${f}`)),
          change.gained.length + change.lost.length === 0 ? h('span', { class: 'muted' }, 'nothing') : '',
          complete ? h('button', { type: 'button', id: 'gv-play', class: 'small primary', onclick: () => actions.play(joint as string[]) }, 'Play it') : '',
        )
      : '',
    seen && seen.length ? h('p', { id: 'gv-percepts-list', class: 'gv-diff' }, h('strong', {}, 'Percepts: '), ...seen.map((f) => h('span', { class: 'percept' }, f))) : '',
  );
}

/** The Play pane's preview: what the chosen moves change and the rules they light up. */
export function renderPreview(p: Program, position: Position, actions: MoveActions): void {
  const box = byId('preview-box');
  const change = position.changes(p);
  if (!change) {
    box.replaceChildren(h('p', { class: 'muted' }, 'Preview: choose a move (button or board) to see the ground rules it fires before playing it.'));
    return;
  }
  const lit: number[] = [];
  for (let r = 0; r < p.rules && lit.length < PREVIEWED; r++) if (position.makesLegal(p, r) || position.switched(r) !== 0) lit.push(r);
  const joint = position.joint();
  const complete = joint.every((m) => m !== null);
  box.replaceChildren(
    h('p', {}, h('strong', {}, 'Changes: '), ...change.gained.map((f) => h('span', { class: 'gain' }, `+ ${f} `)), ...change.lost.map((f) => h('span', { class: 'loss' }, `− ${f} `))),
    h(
      'ul',
      { class: 'gv-rules', id: 'preview-rules' },
      ...lit.map((r) => h('li', { class: position.switched(r) < 0 ? 'loss' : 'gain' }, `${position.switched(r) < 0 ? 'stops: ' : position.makesLegal(p, r) ? 'legal: ' : 'fires: '}${p.text(r)}`)),
    ),
    h(
      'div',
      { class: 'controls' },
      complete ? h('button', { type: 'button', class: 'small primary', id: 'preview-play', onclick: () => actions.play(joint as string[]) }, 'Play it') : '',
      h('button', { type: 'button', class: 'small', id: 'preview-open', onclick: () => actions.openChanges() }, 'All its rules in Grounded rules'),
    ),
  );
}
