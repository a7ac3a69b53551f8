import { describe, expect, it } from 'vitest';
import { Heights } from './vlist';

describe("the virtual list's row heights", () => {
  it('give the offset of each row and the row at each offset, as heights are measured', () => {
    const h = new Heights(10, 20);
    expect(h.top(0)).toBe(0);
    expect(h.top(10)).toBe(200);
    expect(h.at(0)).toBe(0);
    expect(h.at(39.9)).toBe(1);
    expect(h.at(40)).toBe(2);
    // Row 3 wraps onto three lines, row 7 is shorter.
    h.set(3, 60);
    h.set(7, 10);
    expect(h.top(4)).toBe(120);
    expect(h.top(10)).toBe(230);
    expect(h.at(61)).toBe(3);
    expect(h.at(119)).toBe(3);
    expect(h.at(120)).toBe(4);
    expect(h.at(185)).toBe(7);
    expect(h.at(190)).toBe(8);
    expect(h.at(210)).toBe(9);
    // Past the end: the last row.
    expect(h.at(10_000)).toBe(9);
  });

  it('agree with plain sums on a long list of mixed heights', () => {
    const n = 1234;
    const h = new Heights(n, 24);
    const plain = new Array<number>(n).fill(24);
    for (let i = 0; i < n; i += 7) {
      const height = 24 * (1 + (i % 3));
      h.set(i, height);
      plain[i] = height;
    }
    let sum = 0;
    for (let i = 0; i < n; i++) {
      expect(h.top(i)).toBe(sum);
      expect(h.at(sum)).toBe(i);
      expect(h.at(sum + plain[i] - 1)).toBe(i);
      sum += plain[i];
    }
  });
});
