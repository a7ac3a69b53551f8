import { Inflate, deflateSync } from 'fflate';
import { createDeflateRaw } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { MAX_LINK, MAX_PAYLOAD, PREFIX, decodeShare, encodeShare } from './share';

const game = { rules: '; Tic-tac-toe ✓ 😀\n(role x)\n(role o)\n', moves: [['(mark 1 1)', 'noop']], step: 1, view: { swap: false, flip: true } };

describe('share links', () => {
  it('round-trip rules, moves, step and view, in URL-safe characters', () => {
    const hash = encodeShare(game);
    expect(hash.startsWith(PREFIX)).toBe(true);
    expect(hash).toMatch(/^g1\.[A-Za-z0-9_-]+$/);
    expect(decodeShare('#' + hash)).toEqual(game);
  });

  it('carry the role viewed as (GDL-II), and ignore one that is not text', () => {
    const shared = { ...game, as: 'xplayer' };
    expect(decodeShare(encodeShare(shared))).toEqual(shared);
    expect(decodeShare(encodeShare({ ...game, as: 7 } as never)).as).toBeUndefined();
  });

  it('carry the display mapping, and drop what is malformed in it', () => {
    const display = { b: { shape: 'blank' as const }, wk: { shape: 'text' as const, text: '♔', colour: '#112233' } };
    const shared = { ...game, view: { swap: true, flip: false, display } };
    expect(decodeShare(encodeShare(shared))).toEqual(shared);
    const evil = { ...game, view: { swap: false, flip: false, display: { x: { shape: 'stone', colour: 'url(javascript:1)' }, y: { shape: 'svg' } } } };
    expect(decodeShare(encodeShare(evil as never)).view).toEqual({ swap: false, flip: false, display: { x: { shape: 'stone' } } });
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

  it('stop a zip bomb while inflating, after a few MB', async () => {
    // 256 MB of zeros deflate to about 250 KB: the link is accepted by length, then must
    // stop early instead of inflating it all.
    const bomb = await deflatedZeros(1 << 28);
    const hash = toHash(bomb);
    expect(hash.length).toBeLessThan(MAX_LINK);
    const push = vi.spyOn(Inflate.prototype, 'push');
    expect(() => decodeShare(hash)).toThrow(/too large to open/);
    const read = push.mock.calls.reduce((n, [chunk]) => n + chunk.length, 0);
    push.mockRestore();
    // Each compressed byte of zeros inflates to about 1000: 4 MB needs about 4 KB of input.
    expect(read).toBeLessThan(bomb.length / 10);
  }, 30_000);

  it('report rules that are not valid UTF-8', () => {
    const hash = toHash(deflateSync(new Uint8Array([0x7b, 0x22, 0x72, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])));
    expect(() => decodeShare(hash)).toThrow(/not valid text \(UTF-8\)/);
  });

  it('report payloads that are not the expected JSON', () => {
    expect(() => decodeShare(toHash(deflateSync(new TextEncoder().encode('{"r": 5}'))))).toThrow(/damaged/);
    expect(() => decodeShare(toHash(deflateSync(new TextEncoder().encode('not json'))))).toThrow(/damaged/);
  });

  it('clamp the step to the moves given', () => {
    const hash = encodeShare({ ...game, step: 7 });
    expect(decodeShare(hash).step).toBe(1);
  });
});

/** A share hash holding these compressed bytes. */
function toHash(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return PREFIX + btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** `size` zero bytes, raw-deflated, made a slice at a time. */
function deflatedZeros(size: number): Promise<Uint8Array> {
  return new Promise((ok, fail) => {
    const z = createDeflateRaw({ level: 9 });
    const out: Buffer[] = [];
    z.on('data', (c: Buffer) => out.push(c));
    z.on('end', () => ok(new Uint8Array(Buffer.concat(out))));
    z.on('error', fail);
    const slice = Buffer.alloc(1 << 24);
    for (let i = 0; i < size / slice.length; i++) z.write(slice);
    z.end();
  });
}
