// The page on narrow screens (phones, tablets upright): the rules and the game cannot share
// the width without shrinking to slivers, so one shows at a time, chosen in the header
// (`body[data-view]`; style.css shows both side by side on wider screens, whatever it says).

import { byId } from './dom';

export type View = 'rules' | 'game';

/** Shows `view` on narrow screens. */
export function showView(view: View): void {
  document.body.dataset.view = view;
  byId('show-rules').setAttribute('aria-pressed', String(view === 'rules'));
  byId('show-game').setAttribute('aria-pressed', String(view === 'game'));
}

/** The header's Rules / Game switch; the game shows first. */
export function initLayout(): void {
  showView('game');
  byId('show-rules').addEventListener('click', () => showView('rules'));
  byId('show-game').addEventListener('click', () => showView('game'));
  hintScrolling(byId('toolbar'));
}

/** Marks `row` with `data-more` while part of it lies beyond its right edge (style.css fades
 * that edge, so that a phone's row of tools shows that it scrolls). */
function hintScrolling(row: HTMLElement): void {
  const update = () => {
    row.dataset.more = String(row.scrollLeft + row.clientWidth < row.scrollWidth - 1);
  };
  row.addEventListener('scroll', update, { passive: true });
  new ResizeObserver(update).observe(row);
}
