import { describe, expect, it } from 'vitest';
import { MAX_PAYLOAD, PREFIX, decodeShare, encodeShare } from './share';

const game = { rules: '; Tic-tac-toe ✓ 😀\n(role x)\n(role o)\n', moves: [['(mark 1 1)', 'noop']], step: 1, view: { swap: false, flip: true } };

describe('share links', () => {
  it('round-trip rules, moves, step and view, in URL-safe characters', () => {
    const hash = encodeShare(game);
    expect(hash.startsWith(PREFIX)).toBe(true);
    expect(hash).toMatch(/^g1\.[A-Za-z0-9_-]+$/);
    expect(decodeShare('#' + hash)).toEqual(game);
  });

  it('report truncated, altered, foreign and future links', () => {
    const hash = encodeShare({ ...game, rules: game.rules.repeat(50) });
    expect(() => decodeShare(hash.slice(0, hash.length - 10))).toThrow(/damaged or incomplete/);
    expect(() => decodeShare(hash.slice(0, 12))).toThrow(/damaged or incomplete/);
    expect(() => decodeShare(hash.replace(/.$/, '!'))).toThrow(/characters that share links never have/);
    expect(() => decodeShare('#g1.AAAA')).toThrow(/damaged or incomplete/);
    expect(() => decodeShare('#section-2')).toThrow(/does not hold a GDL Playground share link/);
    expect(() => decodeShare('#g2.abc')).toThrow(/newer version/);
  });

  it('refuse payloads that inflate past the limit', () => {
    const hash = encodeShare({ rules: 'a'.repeat(MAX_PAYLOAD + 10), moves: [], step: 0 });
    expect(hash.length).toBeLessThan(20_000);
    expect(() => decodeShare(hash)).toThrow(/too large/);
  });

  it('clamp the step to the moves given', () => {
    const hash = encodeShare({ ...game, step: 7 });
    expect(decodeShare(hash).step).toBe(1);
  });
});
