import { describe, expect, it } from 'vitest';
import { share } from './protocol';
import { shareCount } from '../playouts/playouts';

// The players themselves (their names, budgets, labels, time left and refusals) are core's
// player catalogue, tested in Rust (core/src/players/tests.rs) and through wasm (wasm/tests/api.rs).
describe('players on the page', () => {
  it('shares games and playouts between workers without gaps or overlaps', () => {
    const games = [0, 1, 2].flatMap((w) => share(10, w, 3)).sort((a, b) => a - b);
    expect(games).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect([0, 1, 2, 3].map((w) => shareCount(10, w, 4))).toEqual([3, 3, 2, 2]);
    expect(share(2, 3, 4)).toEqual([]);
  });
});
