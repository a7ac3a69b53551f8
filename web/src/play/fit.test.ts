import { describe, expect, it } from 'vitest';
import { SIDE_WIDTH, besideFits } from './fit';

describe('where the moves stand', () => {
  it('beside the board where the area is clearly wider than tall, below it otherwise', () => {
    // The projector (1280×720, text enlarged twice): about 620 px wide, 470 px left for the board.
    expect(besideFits(620, 470)).toBe(true);
    // A tablet upright: as wide as tall; a board stacked there uses the whole width.
    expect(besideFits(720, 730)).toBe(false);
    // A wide but very short area: the board would keep less than half the height.
    expect(besideFits(SIDE_WIDTH + 100, 250)).toBe(false);
  });
  it('never where the column would leave the board narrower than it was with smaller text', () => {
    // 1024×768, text enlarged: the column would leave 208 px, the board had 325 px.
    expect(besideFits(510, 390)).toBe(true);
    expect(besideFits(510, 390, 325)).toBe(false);
    expect(besideFits(620, 470, 300)).toBe(true);
  });
});
