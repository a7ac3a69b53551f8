// The student's players kept in this browser by name (localStorage), exported as a file, and
// carried by a share link only when the user asks (`#p1.` + deflated JSON, the game link's
// encoding). A player that arrives by link is held apart (`pending`) until the user has seen
// its code and pressed Run: only then is it kept, and offered at the seats.

import { deflateSync, strFromU8, strToU8 } from 'fflate';
import { download } from '../dom';
import { fromBase64url, inflateCapped, toBase64url } from '../storage/share';

const KEY = 'gdl-playground-players';
/** The prefix of a link that carries a player. */
export const LINK_PREFIX = '#p1.';

/** A player: its name and code. */
export interface StudentPlayer {
  name: string;
  code: string;
}

/** The players kept, by name. */
export function listPlayers(): StudentPlayer[] {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Record<string, string>;
    return Object.entries(kept).filter(([, code]) => typeof code === 'string').map(([name, code]) => ({ name, code }));
  } catch {
    return [];
  }
}

export function findPlayer(name: string): StudentPlayer | null {
  return listPlayers().find((p) => p.name === name) ?? null;
}

/** Keeps `player` (replacing one of the same name). */
export function savePlayer(player: StudentPlayer): void {
  const kept = Object.fromEntries(listPlayers().map((p) => [p.name, p.code]));
  kept[player.name] = player.code;
  localStorage.setItem(KEY, JSON.stringify(kept));
  changed();
}

export function removePlayer(name: string): void {
  localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(listPlayers().filter((p) => p.name !== name).map((p) => [p.name, p.code]))));
  changed();
}

/** Tells the page that the players kept changed (the seats' menus follow). */
function changed(): void {
  dispatchEvent(new Event('student-players'));
}

/** A link to this page that carries `player`. */
export function playerLink(player: StudentPlayer): string {
  return `${location.origin}${location.pathname}${LINK_PREFIX}${toBase64url(deflateSync(strToU8(JSON.stringify(player)), { level: 9 }))}`;
}

/** The player a link's hash carries, or null when it carries none; throws when it is damaged. */
export function readPlayerLink(hash: string): StudentPlayer | null {
  if (!hash.startsWith(LINK_PREFIX)) return null;
  const damaged = 'The link to a player is damaged or incomplete: ask for it again.';
  try {
    const p = JSON.parse(strFromU8(inflateCapped(fromBase64url(hash.slice(LINK_PREFIX.length))))) as StudentPlayer;
    if (typeof p.name !== 'string' || typeof p.code !== 'string') throw new Error(damaged);
    return { name: p.name.slice(0, 60), code: p.code };
  } catch {
    throw new Error(damaged);
  }
}

/** The player that came by link and waits for Run. */
let pending: StudentPlayer | null = null;

/** Takes a player link from the address (and clears it), to wait for Run: whether there was one. */
export function takePlayerLink(hash: string): boolean {
  if (!hash.startsWith(LINK_PREFIX)) return false;
  pending = readPlayerLink(hash);
  history.replaceState(null, '', location.pathname + location.search);
  dispatchEvent(new Event('student-link'));
  return true;
}

export function pendingPlayer(): StudentPlayer | null {
  return pending;
}

/** Run: the player from the link has been seen, and is kept. */
export function acceptPending(player: StudentPlayer): void {
  pending = null;
  savePlayer(player);
}

/** Downloads `player` as a JavaScript file. */
export function exportPlayer(player: StudentPlayer): void {
  download(`${player.name.replace(/[^\w-]+/g, '_') || 'player'}.js`, `// GDL Playground player: ${player.name}\n${player.code}`, 'text/javascript');
}
