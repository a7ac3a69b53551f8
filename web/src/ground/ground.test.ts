import { describe, expect, it } from 'vitest';
import { relationOf } from './atom-view';
import { Program } from './client';
import type { GroundProgramData } from './protocol';

/** (p) :- (true (a)), not (does r m);  (q) :- (p);  (q) :- (true (a)). */
function tiny(syntax: 'prefix' | 'infix'): Program {
  const atoms = syntax === 'prefix' ? ['p', '(true a)', '(does r m)', 'q'] : ['p', 'true(a)', 'does(r, m)', 'q'];
  const data: GroundProgramData = {
    summary: { rules: 3, atoms: 4, relations: [['q/0', 2], ['p/0', 1]], stages: [], engine: 'propnet', engineNote: '', engineMs: 0, network: null, warnings: [] },
    atoms,
    keys: syntax === 'prefix' ? null : ['p', '(true a)', '(does r m)', 'q'],
    texts: syntax === 'prefix' ? ['(<= p (true a) (not (does r m)))', '(<= q p)', '(<= q (true a))'] : ['p :- true(a) & ~does(r, m)', 'q :- p', 'q :- true(a)'],
    heads: Uint32Array.from([0, 3, 3]),
    starts: Uint32Array.from([0, 2, 3, 4]),
    literals: Uint32Array.from([1 * 2, 2 * 2 + 1, 0 * 2, 1 * 2]),
    ruleRelations: Uint32Array.from([1, 0, 0]),
    ms: 0,
  };
  return new Program(data, syntax);
}

describe('the ground program on the page', () => {
  it('indexes the rules defining and using each atom', () => {
    const p = tiny('prefix');
    expect([...p.definedBy(3)]).toEqual([1, 2]);
    expect([...p.definedBy(1)]).toEqual([]);
    expect([...p.usedBy(1)]).toEqual([0, 2]);
    expect([...p.usedBy(0)]).toEqual([1]);
    expect(p.relation(0)).toBe('p/0');
    expect(p.find('(does r m)')).toBe(2);
    expect(p.find('(does r n)')).toBe(-1);
  });

  it('finds atoms by canonical text in either syntax', () => {
    const infix = tiny('infix');
    expect(infix.find('(true a)')).toBe(1);
    expect(infix.atom(1)).toBe('true(a)');
    expect(infix.key(2)).toBe('(does r m)');
  });

  it('names the relation of an atom', () => {
    expect(relationOf('terminal')).toBe('terminal/0');
    expect(relationOf('(legal x (mark 1 1))')).toBe('legal/2');
    expect(relationOf('(next (cell 1 1 b))')).toBe('next/1');
    expect(relationOf('(cell 1 1 b)')).toBe('cell/3');
  });
});
