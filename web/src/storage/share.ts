// Share links: the rules, the move history, the board view and the role viewed as, as JSON compressed with
// deflate (fflate) and written in base64url after `#g1.` in the URL. One payload holds
// everything, so a link cut short fails to inflate instead of opening half a game.
//
// A link comes from anyone: it is read with hard limits (length, inflated size, checked
// while inflating, a slice of input at a time, so a "zip bomb" stops after a few MB) and
// strict decoding (base64url characters only, valid UTF-8, the expected JSON shape); every
// failure is a `ShareError` whose message says what is wrong in plain words.

import { Inflate, deflateSync, strToU8 } from 'fflate';
import type { BoardView } from '../play/board';
import { cleanDisplayMap } from '../play/pieces';

export interface Shared {
  rules: string;
  /** Joint moves from the initial state (one move text per role). */
  moves: string[][];
  /** How many of `moves` are played (the rest is redo history). */
  step: number;
  /** Orientation and the person's value → glyph mapping. */
  view?: BoardView;
  /** GDL-II: the role the Play pane shows the game as (none: the referee, who sees everything). */
  as?: string;
}

export const PREFIX = 'g1.';
/** Longest hash accepted (characters); browsers allow about 2 MB. */
export const MAX_LINK = 2_000_000;
/** Most decompressed bytes accepted (stops "zip bombs"). */
export const MAX_PAYLOAD = 4_000_000;
/** Compressed bytes inflated at a time: each slice can grow at most ~1000-fold. */
const INFLATE_SLICE = 1024;
/** Above this many characters a link is long enough that some apps may cut it. */
export const LONG_LINK = 32_000;

export class ShareError extends Error {}

export function toBase64url(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The hash (without `#`) that encodes `s`. */
export function encodeShare(s: Shared): string {
  const json = JSON.stringify({ r: s.rules, m: s.moves, s: s.step, v: s.view, a: s.as });
  return PREFIX + toBase64url(deflateSync(strToU8(json), { level: 9 }));
}

const DAMAGED = 'The share link is damaged or incomplete — it was probably cut off when it was copied. Ask for the link again.';

export function inflateCapped(data: Uint8Array): Uint8Array {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  const inf = new Inflate((chunk, final) => {
    size += chunk.length;
    if (size > MAX_PAYLOAD) throw new ShareError(`The share link is too large to open: its rules are over ${MAX_PAYLOAD / 1e6} MB.`);
    chunks.push(chunk);
    ended = final;
  });
  try {
    for (let at = 0; at < data.length || at === 0; at += INFLATE_SLICE) {
      inf.push(data.subarray(at, at + INFLATE_SLICE), at + INFLATE_SLICE >= data.length);
    }
  } catch (e) {
    if (e instanceof ShareError) throw e;
    throw new ShareError(DAMAGED);
  }
  if (!ended) throw new ShareError(DAMAGED);
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every((y) => typeof y === 'string');

/** A board view from a link or storage: orientation flags, and only a well-formed mapping. */
export function readBoardView(x: object): BoardView {
  const v = x as { swap?: unknown; flip?: unknown; display?: unknown };
  const display = cleanDisplayMap(v.display);
  return { swap: v.swap === true, flip: v.flip === true, ...(Object.keys(display).length ? { display } : {}) };
}

/** Reads a hash made by `encodeShare`; throws a `ShareError` with a message for people. */
export function decodeShare(hash: string): Shared {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  if (h.length > MAX_LINK) {
    throw new ShareError(`The share link is too large to open (${(h.length / 1e6).toFixed(1)} million characters).`);
  }
  if (!h.startsWith(PREFIX)) {
    if (/^g\d+\./.test(h)) throw new ShareError('This share link was made by a newer version of GDL Playground; it cannot be opened here.');
    throw new ShareError('This address does not hold a GDL Playground share link (it should start with #g1.).');
  }
  const body = h.slice(PREFIX.length);
  if (!/^[A-Za-z0-9_-]*$/.test(body)) {
    throw new ShareError('The share link is damaged: it contains characters that share links never have.');
  }
  let data: Uint8Array;
  try {
    data = fromBase64url(body);
  } catch {
    throw new ShareError(DAMAGED);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(inflateCapped(data));
  } catch (e) {
    if (e instanceof ShareError) throw e;
    throw new ShareError('The share link is damaged: its rules are not valid text (UTF-8). Ask for the link again.');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    throw new ShareError(DAMAGED);
  }
  const p = payload as { r?: unknown; m?: unknown; s?: unknown; v?: unknown; a?: unknown };
  if (typeof p !== 'object' || p === null || typeof p.r !== 'string' || !Array.isArray(p.m) || !p.m.every(isStrings)) {
    throw new ShareError(DAMAGED);
  }
  const step = typeof p.s === 'number' && Number.isInteger(p.s) ? Math.max(0, Math.min(p.s, p.m.length)) : p.m.length;
  const view = p.v && typeof p.v === 'object' ? readBoardView(p.v) : undefined;
  const as = typeof p.a === 'string' ? p.a : undefined;
  return { rules: p.r, moves: p.m, step, view, as };
}
