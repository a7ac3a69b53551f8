// Keeps the whole board in view and as large as the Play pane allows. The height the pane
// has left below what stands above the board area (outcome, seats, thinking line) decides
// the layout: when the area is wide enough for a board of that height with a column beside
// it, the board takes the whole height and its tools, the history buttons and the legal
// moves stand in that column (`data-beside`, style.css); otherwise they stand above and
// below it, the board keeping room for the history buttons. The board's `--board-height`
// is what style.css sizes it from. Kept up to date as the pane or those parts change size.

/** The column beside the board, in CSS pixels: fixed, so that larger text never narrows
 * the board (the moves in it wrap instead). */
export const SIDE_WIDTH = 270;

/** Whether the moves go beside the board in an area `width` wide with `height` left for the
 * board: when the area is clearly wider than tall (a board stacked there would leave room
 * unused beside it) and the board keeps at least half that height. */
export function besideFits(width: number, height: number): boolean {
  return width >= 1.2 * height && width - SIDE_WIDTH >= 0.5 * height;
}

/** The parts of the Play pane `fitBoard` arranges. */
export interface BoardParts {
  /** The board area: the board, its tools, the history buttons, the legal moves. */
  area: HTMLElement;
  board: HTMLElement;
  /** The Pieces table: while it is open the board stands below it (it needs the width). */
  display: HTMLElement;
  /** What stays under the board when stacked (the history buttons). */
  below: HTMLElement;
  /** What stands above the area and changes size. */
  above: HTMLElement[];
}

/** Watches `pane` and the `parts`, and sets `data-beside` on the area and the board's `--board-height`. */
export function fitBoard(pane: HTMLElement, { area, board, display, below, above }: BoardParts): void {
  const update = () => {
    const paneTop = pane.getBoundingClientRect().top - pane.scrollTop;
    const bottom = parseFloat(getComputedStyle(pane).paddingBottom) || 0;
    const room = pane.clientHeight - bottom;
    const areaHeight = room - (area.getBoundingClientRect().top - paneTop);
    const beside = display.hidden ? besideFits(area.clientWidth, areaHeight) : false;
    if ((area.dataset.beside === 'true') !== beside) area.dataset.beside = String(beside);
    const boardTop = board.getBoundingClientRect().top - paneTop;
    const under = beside ? 0 : below.getBoundingClientRect().height + parseFloat(getComputedStyle(below).marginTop || '0');
    board.style.setProperty('--board-height', `${Math.max(0, room - boardTop - under)}px`);
  };
  area.style.setProperty('--side', `${SIDE_WIDTH}px`);
  const watch = new ResizeObserver(update);
  for (const el of [pane, area, display, below, ...above]) watch.observe(el);
}
