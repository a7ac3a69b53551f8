import { describe, expect, it } from 'vitest';
import { verdict } from './play';

describe('verdicts', () => {
  it('name the winner, a draw, shared wins and one-player scores', () => {
    expect(verdict(['x', 'o'], [[100], [0]])).toBe('x wins');
    expect(verdict(['x', 'o'], [[50], [50]])).toBe('Draw');
    expect(verdict(['a', 'b', 'c'], [[100], [100], [0]])).toBe('a and b win');
    expect(verdict(['player'], [[0]])).toBe('player scores 0');
    expect(verdict(['x', 'o'], [['high'], [0]])).toBe('Game over');
  });
});
