// The My players box of the Play tab: the player editor is loaded the first time it opens
// (or when a link brings a player, which it shows, waiting for Run).

import { byId } from '../dom';
import { showBanner } from '../notices';
import type { PlayerEditor } from './player-editor';
import { takePlayerLink } from './store';

/** Takes a player link from the address, if any: whether there was one (the game's link
 * reader then leaves the address alone). */
export function openPlayerLink(hash: string): boolean {
  try {
    if (!takePlayerLink(hash)) return false;
  } catch (e) {
    history.replaceState(null, '', location.pathname + location.search);
    showBanner((e as Error).message);
    return true;
  }
  showMyPlayers();
  return true;
}

/** Opens the My players box and brings it into view. */
export function showMyPlayers(): void {
  const box = byId<HTMLDetailsElement>('my-players');
  box.open = true;
  void loadEditor(box).then(() => box.scrollIntoView({ block: 'nearest' }));
}

let loaded: Promise<PlayerEditor> | null = null;
function loadEditor(box: HTMLDetailsElement): Promise<PlayerEditor> {
  loaded ??= import('./player-editor').then(({ PlayerEditor }) => new PlayerEditor(box.querySelector<HTMLElement>('.my-players-body') as HTMLElement));
  return loaded;
}

/** Opens My players with `code` as a new player named `name`, not saved (a lesson's starter). */
export async function draftPlayer(name: string, code: string): Promise<void> {
  const box = byId<HTMLDetailsElement>('my-players');
  box.open = true;
  (await loadEditor(box)).draft(name, code);
}

/** The code in the player editor now (null when it was never opened). */
export async function editedPlayer(): Promise<string | null> {
  return loaded && (await loaded).code();
}

/** Loads the editor when the box is first opened. */
export function wireMyPlayers(): void {
  const box = byId<HTMLDetailsElement>('my-players');
  box.addEventListener('toggle', () => {
    if (box.open) void loadEditor(box);
  });
}
