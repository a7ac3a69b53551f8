// Keeps the whole board in view: the height the Play pane has left below what stands above
// the board (outcome, seats, thinking line, board tools) becomes the board's `--board-height`,
// from which style.css sizes it. Kept up to date as the pane or those parts change size.

/** Watches `pane` and the parts above `board`, and sets the board's `--board-height`. */
export function fitBoard(pane: HTMLElement, board: HTMLElement, above: HTMLElement[]): void {
  const update = () => {
    const top = board.getBoundingClientRect().top - pane.getBoundingClientRect().top + pane.scrollTop;
    const bottom = parseFloat(getComputedStyle(pane).paddingBottom) || 0;
    board.style.setProperty('--board-height', `${Math.max(0, pane.clientHeight - top - bottom)}px`);
  };
  const watch = new ResizeObserver(update);
  for (const el of [pane, ...above]) watch.observe(el);
}
