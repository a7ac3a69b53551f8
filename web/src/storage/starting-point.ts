// Where the page's first rules come from: a share link, else the autosave, else tic-tac-toe.

import { errorMessage } from '../engine/engine';
import { DEFAULT_EXAMPLE, example, examples } from '../editor/examples';
import type { BoardView } from '../play/board';
import { ShareError, decodeShare, type Shared } from './share';
import { loadSaved } from './storage';

export interface StartingPoint {
  start: Shared & { view: BoardView };
  scale: number;
  /** Why the share link in the address could not be opened. */
  linkError: string | null;
  fromLink: boolean;
}

export function startingPoint(): StartingPoint {
  const saved = loadSaved();
  const scale = typeof saved?.scale === 'number' ? saved.scale : 1;
  let linkError: string | null = null;
  if (location.hash.length > 1) {
    try {
      const s = decodeShare(location.hash);
      // The link has been read: a reload now shows the autosaved work, edits included.
      history.replaceState(null, '', location.pathname + location.search);
      return { start: { ...s, view: s.view ?? { swap: false, flip: false } }, scale, linkError, fromLink: true };
    } catch (e) {
      linkError = e instanceof ShareError ? e.message : `The share link could not be opened: ${errorMessage(e)}`;
    }
  }
  if (saved?.rules !== undefined) {
    const moves = Array.isArray(saved.moves) ? saved.moves : [];
    const view = saved.view ?? { swap: false, flip: false };
    return { start: { rules: saved.rules, moves, step: saved.step ?? moves.length, view, as: saved.as ?? undefined }, scale, linkError, fromLink: false };
  }
  const ex = example(DEFAULT_EXAMPLE) ?? examples[0];
  return { start: { rules: ex?.text ?? '', moves: [], step: 0, view: ex?.view ?? { swap: false, flip: false } }, scale, linkError, fromLink: false };
}
