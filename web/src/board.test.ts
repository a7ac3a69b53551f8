import { describe, expect, it } from 'vitest';
import { cellKey, detectGrid, layout, mapMoves } from './board';
import { parseTerm } from './terms';

describe('terms', () => {
  it('read canonical ground terms and refuse others', () => {
    expect(parseTerm('(cell 1 (f a) x)')).toEqual({ name: 'cell', args: ['1', { name: 'f', args: ['a'] }, 'x'] });
    expect(parseTerm('noop')).toBe('noop');
    expect(parseTerm('(cell 1')).toBeNull();
    expect(parseTerm('a b')).toBeNull();
  });
});

describe('grids', () => {
  const ttt = ['(cell 1 1 x)', '(cell 1 2 b)', '(cell 2 1 b)', '(cell 2 2 o)', '(cell 3 3 b)', '(control o)'];

  it('find a 3-argument coordinate relation and fill numeric gaps', () => {
    const g = detectGrid(ttt)!;
    expect(g.relation).toBe('cell');
    expect(g.xs).toEqual(['1', '2', '3']);
    expect(g.ys).toEqual(['1', '2', '3']);
    expect(g.pieces.get(cellKey('2', '2'))).toEqual(['o']);
    expect(g.others).toEqual(['(control o)']);
  });

  it('take empty rows from the domain and letters as coordinates', () => {
    const g = detectGrid(['(at a 1 wp)'], ['(at a 1 wp)', '(at b 4 bp)', '(at c 2 wp)'])!;
    expect(g.xs).toEqual(['a', 'b', 'c']);
    expect(g.ys).toEqual(['1', '2', '3', '4']);
  });

  it('find no grid where there is none', () => {
    expect(detectGrid(['(heap a 3)', '(heap b 4)', '(control first)'])).toBeNull();
    expect(detectGrid(['(cell 1 1 x)'])).toBeNull();
  });

  it('map cell moves, from-to moves and column moves to cells', () => {
    const g = detectGrid(ttt)!;
    const m = mapMoves(g, [['(mark 1 2)', '(move 1 1 2 1)', '(drop 3)', 'noop'], ['noop']]);
    expect(m.targets.get(cellKey('1', '2'))).toEqual([{ role: 0, move: '(mark 1 2)' }]);
    expect(m.sources.get(cellKey('1', '1'))).toEqual([{ role: 0, move: '(move 1 1 2 1)', to: cellKey('2', '1') }]);
    expect(m.targets.get(cellKey('3', '2'))).toEqual([{ role: 0, move: '(drop 3)' }]);
    expect([...m.targets.values()].flat().some((b) => b.move === 'noop')).toBe(false);
  });

  it('lay out rows and columns as oriented', () => {
    const g = detectGrid(ttt)!;
    const plain = layout(g, { swap: false, flip: false });
    expect(plain.rows).toEqual(['1', '2', '3']);
    expect(plain.key('3', '1')).toBe(cellKey('1', '3'));
    const turned = layout(g, { swap: true, flip: true });
    expect(turned.rows).toEqual(['3', '2', '1']);
    expect(turned.key('3', '1')).toBe(cellKey('3', '1'));
  });
});
