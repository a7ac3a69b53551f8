// Playing the board by keyboard: one square of the board is in the tab order (a roving
// tabindex), the arrow keys move it from square to square as they are drawn, and Enter or
// Space plays or selects that square as a click does (the squares are buttons). The square
// and, when the board had it, the focus are kept across redraws.

/** The squares of `board`, in the order drawn (row by row). */
const squares = (board: HTMLElement): HTMLElement[] => [...board.querySelectorAll<HTMLElement>('button.cell')];

const place = (cell: HTMLElement): string => `${cell.dataset.x}\u0000${cell.dataset.y}`;

const STEPS: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

export class BoardKeys {
  /** The square in the tab order (`data-x`, `data-y`), null: none chosen yet. */
  #at: string | null = null;

  constructor(private board: HTMLElement) {
    board.addEventListener('keydown', (e) => this.#move(e));
    board.addEventListener('focusin', (e) => {
      const cell = (e.target as HTMLElement).closest<HTMLElement>('button.cell');
      if (cell) this.#at = place(cell);
    });
  }

  /** Redraws the board with `draw`, keeping its square in the tab order (the first one that
   * plays when it is gone) and the focus on it if the board had it. */
  redraw(draw: () => void): void {
    const had = this.board.contains(document.activeElement);
    draw();
    const cells = squares(this.board);
    const at = cells.find((c) => place(c) === this.#at) ?? cells.find((c) => c.classList.contains('playable')) ?? cells[0];
    if (!at) return;
    for (const c of cells) c.tabIndex = c === at ? 0 : -1;
    if (had) at.focus();
  }

  #move(e: KeyboardEvent): void {
    const step = STEPS[e.key];
    const cell = (e.target as HTMLElement).closest<HTMLElement>('button.cell');
    if (!step || !cell) return;
    const cells = squares(this.board);
    const cols = Number(this.board.style.getPropertyValue('--cols')) || 1;
    const i = cells.indexOf(cell);
    const [row, col] = [Math.floor(i / cols) + step[0], (i % cols) + step[1]];
    e.preventDefault();
    const next = cells[row * cols + col];
    if (row < 0 || col < 0 || col >= cols || !next) return;
    cell.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  }
}
