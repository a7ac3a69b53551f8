import { describe, expect, it } from 'vitest';
import { some } from './check';

describe('lesson verdicts', () => {
  it('list a few items and say how many more there are', () => {
    expect(some(['a'])).toBe('a');
    expect(some(['a', 'b', 'c', 'd', 'e'])).toBe('a, b, c, d, e');
    const cells = Array.from({ length: 9 }, (_, i) => `(cell ${i})`);
    expect(some(cells)).toBe('(cell 0), (cell 1), (cell 2), (cell 3) and 5 more');
  });
});
