import { describe, expect, it } from 'vitest';
import { budgetMillis, playerLabel, playerSpec, remainingSpec, seatLabel, share } from './protocol';
import { shareCount } from '../playouts/playouts';

describe('players on the page', () => {
  it('names seats as the engine reads them', () => {
    expect(playerSpec('human')).toBeNull();
    expect(playerSpec('random')).toBe('random');
    expect(playerSpec('perfect')).toBe('perfect');
    expect(playerSpec({ mcts: '5000' })).toBe('uct:5000');
    expect(playerSpec({ mcts: '1s' })).toBe('uct:1s');
    expect(seatLabel({ mcts: '100' })).toBe('MCTS, 100 playouts a move');
    expect(seatLabel({ mcts: '500ms' })).toBe('MCTS, 0.5 s a move');
    expect(playerLabel('uct:10000')).toBe('MCTS, 10,000 playouts a move');
    expect(playerLabel('random')).toBe('random');
    // A remote player is no computer of ours: named by its address.
    const remote = { url: 'http://127.0.0.1:9147', target: null, status: '', startClock: 10, playClock: 3 };
    expect(playerSpec({ remote })).toBeNull();
    expect(seatLabel({ remote })).toBe('remote player at http://127.0.0.1:9147');
    expect([budgetMillis('1s'), budgetMillis('500ms'), budgetMillis('1000')]).toEqual([1000, 500, null]);
    // A budget in time counts from the request: what the worker's start took comes out of it.
    expect(remainingSpec('uct:1s', 180)).toBe('uct:820ms');
    expect(remainingSpec('uct:1s', 5000)).toBe('uct:1ms');
    expect(remainingSpec('uct:1000', 180)).toBe('uct:1000');
    expect(remainingSpec('random', 180)).toBe('random');
  });

  it('shares games and playouts between workers without gaps or overlaps', () => {
    const games = [0, 1, 2].flatMap((w) => share(10, w, 3)).sort((a, b) => a - b);
    expect(games).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect([0, 1, 2, 3].map((w) => shareCount(10, w, 4))).toEqual([3, 3, 2, 2]);
    expect(share(2, 3, 4)).toEqual([]);
  });
});
