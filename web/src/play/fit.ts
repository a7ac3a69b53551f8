// Keeps the whole board in view and as large as the Play pane allows. The height the pane
// has left below what stands above the board area (outcome, seats, thinking line) decides
// the layout: when the area is wide enough for a board of that height with a column beside
// it, the board takes the whole height and its tools, the history buttons and the legal
// moves stand in that column (`data-beside`, style.css); otherwise they stand above and
// below it, the board keeping room for the history buttons. The board's `--board-height`
// is what style.css sizes it from. Kept up to date as the pane or those parts change size.
//
// Larger text (A+) never shrinks the board: the text around it grows and takes room, so the
// board's squares are kept at least as large as they are with the text one step (A+ steps
// by tenths, app.ts) smaller (`--board-min`), measured by laying the page out at each size
// from the normal one up for a moment (nothing is painted in between); the board then takes
// room from what lies below it instead.

/** The column beside the board, in CSS pixels: fixed, so that larger text never narrows
 * the board (the moves in it wrap instead). */
export const SIDE_WIDTH = 270;

/** The gap between the board and that column, in CSS pixels. */
const SIDE_GAP = 16;

/** Whether the moves go beside the board in an area `width` wide with `height` left for the
 * board: when the area is clearly wider than tall (a board stacked there would leave room
 * unused beside it), the board keeps at least half that height, and it is no narrower than
 * `least` (the board's width with the text at its normal size). */
export function besideFits(width: number, height: number, least = 0): boolean {
  return width >= 1.2 * height && width - SIDE_WIDTH >= 0.5 * height && width - SIDE_WIDTH - SIDE_GAP >= least;
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

/** Watches `pane` and the `parts`, and sets `data-beside` on the area and the board's
 * `--board-height` and `--board-min`. */
export function fitBoard(pane: HTMLElement, { area, board, display, below, above }: BoardParts): void {
  /** Lays the pane out for the text as it is now; `least`: the board's least width. */
  const fit = (least: number) => {
    const paneTop = pane.getBoundingClientRect().top - pane.scrollTop;
    const bottom = parseFloat(getComputedStyle(pane).paddingBottom) || 0;
    const room = pane.clientHeight - bottom;
    const areaHeight = room - (area.getBoundingClientRect().top - paneTop);
    const beside = display.hidden ? besideFits(area.clientWidth, areaHeight, least) : false;
    if ((area.dataset.beside === 'true') !== beside) area.dataset.beside = String(beside);
    const boardTop = board.getBoundingClientRect().top - paneTop;
    const under = beside ? 0 : below.getBoundingClientRect().height + parseFloat(getComputedStyle(below).marginTop || '0');
    const height = Math.max(0, room - boardTop - under);
    board.style.setProperty('--board-height', `${height}px`);
    // style.css sizes the board from an estimate of its labels and gaps; the squares take
    // what the estimate left over (a taller board grows as much as its squares do), unless
    // that makes it taller than the room.
    const short = height - board.getBoundingClientRect().height;
    if (short > 1) {
      board.style.setProperty('--board-height', `${height + short}px`);
      if (board.getBoundingClientRect().height > height + 1) board.style.setProperty('--board-height', `${height}px`);
    }
  };
  /** The board's least squares (0: none) and what they were measured for: the window, the
   * pane, the text size and the board's shape. Measuring lays the whole page out once per
   * text size, so it is done again only when one of those changes (not at every move). */
  let least = { squares: 0, for: '' };
  /** The width of the column of row names (it grows with the text). */
  const names = () => parseFloat(getComputedStyle(board).gridTemplateColumns) || 0;
  const leastSquares = (scale: string): number => {
    const shape = ['--rows', '--cols', '--label'].map((v) => board.style.getPropertyValue(v)).join(' ');
    const key = `${innerWidth}×${innerHeight} ${pane.clientWidth}×${pane.clientHeight} ${scale} ${shape} ${display.hidden}`;
    if (key === least.for) return least.squares;
    const root = document.documentElement;
    board.style.removeProperty('--board-min');
    let squares = 0;
    if (parseFloat(scale) > 1 && pane.clientHeight > 0) {
      // The text sizes A+ steps through from the normal one: at each the board's squares
      // are at least as wide as at the one before.
      for (let t = 1; t < parseFloat(scale) - 1e-6; t = Math.round(t * 10 + 1) / 10) {
        root.style.setProperty('--scale', String(t));
        fit(squares && squares + names());
        const width = board.getBoundingClientRect().width;
        if (width > 0) {
          squares = width - names();
          board.style.setProperty('--board-min', `calc(${squares}px + var(--label, 1.6rem))`);
        }
      }
      root.style.setProperty('--scale', scale);
    }
    least = { squares, for: key };
    return squares;
  };
  const update = () => {
    const squares = leastSquares(document.documentElement.style.getPropertyValue('--scale'));
    fit(squares && squares + names());
  };
  area.style.setProperty('--side', `${SIDE_WIDTH}px`);
  area.style.setProperty('--side-gap', `${SIDE_GAP}px`);
  const watch = new ResizeObserver(update);
  for (const el of [pane, area, display, below, ...above]) watch.observe(el);
}
