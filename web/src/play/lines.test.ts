import { describe, expect, it } from 'vitest';
import { detectLines, segmentKey } from './lines';
import { groupFluents } from './board';

describe('lines between dots', () => {
  it('are found from h/v segments in the state and domain, with the moves that draw them', () => {
    const domain = ['(control red)', '(box 1 1 red)'];
    for (let x = 1; x <= 2; x++) for (let y = 1; y <= 3; y++) domain.push(`(drawn (h ${x} ${y}))`, `(drawn (v ${y} ${x}))`);
    const l = detectLines(['(drawn (h 1 1))', '(control blue)'], domain, [['noop'], ['(draw (v 3 2))', '(draw (h 1 2))']])!;
    expect(l.relation).toBe('drawn');
    expect([l.xs, l.ys]).toEqual([
      ['1', '2', '3'],
      ['1', '2', '3'],
    ]);
    expect(l.segments.size).toBe(12);
    expect([...l.drawn]).toEqual([segmentKey([0, 0, 1, 0])]);
    expect(l.moves.get(segmentKey([2, 1, 2, 2]))).toEqual([{ role: 1, move: '(draw (v 3 2))' }]);
  });

  it('are found from four coordinates in the game\'s own order, and from the moves alone at the start', () => {
    const chain = ['one', 'two', 'three'];
    const legal = [['(draw one one two one)', '(draw two one three one)', '(draw one one one two)', '(draw one two one three)'], ['noop']];
    const l = detectLines(['(line two two two three)', '(count x 0)'], [], legal, [chain])!;
    expect(l.xs).toEqual(chain);
    expect(l.drawn).toEqual(new Set([segmentKey([1, 1, 1, 2])]));
    expect(l.segments.size).toBe(5);
  });

  it('are not found in a grid of cells or among moves that are no neighbours', () => {
    expect(detectLines(['(cell 1 1 x)', '(cell 1 2 b)'], [], [['(mark 1 1)']])).toBeNull();
    expect(detectLines(['(last 1 1 3 3)'], [], [['(move 1 1 1 2)', '(move 1 2 1 3)', '(move 2 2 2 3)', '(move 3 3 2 3)']])).toBeNull();
  });
});

describe('a state that is no grid', () => {
  it('is listed by relation', () => {
    expect(groupFluents(['(heap a 3)', '(control first)', '(heap b 4)', 'over'])).toEqual([
      ['heap', ['a 3', 'b 4'], [1, 1]],
      ['control', ['first'], [1]],
      ['over', [''], [1]],
    ]);
  });
});
