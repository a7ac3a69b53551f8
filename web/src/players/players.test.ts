import { describe, expect, it } from 'vitest';
import { playerSpec, seatLabel, share } from './protocol';
import { shareCount } from '../playouts/playouts';

describe('players on the page', () => {
  it('names seats as the engine reads them', () => {
    expect(playerSpec('human')).toBeNull();
    expect(playerSpec('random')).toBe('random');
    expect(playerSpec('perfect')).toBe('perfect');
    expect(playerSpec({ mcts: 2 })).toBe('uct:5000');
    expect(playerSpec({ mcts: 99 })).toBe('uct:100000');
    expect(seatLabel({ mcts: 0 })).toBe('MCTS (100 playouts a move)');
  });

  it('shares games and playouts between workers without gaps or overlaps', () => {
    const games = [0, 1, 2].flatMap((w) => share(10, w, 3)).sort((a, b) => a - b);
    expect(games).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect([0, 1, 2, 3].map((w) => shareCount(10, w, 4))).toEqual([3, 3, 2, 2]);
    expect(share(2, 3, 4)).toEqual([]);
  });
});
