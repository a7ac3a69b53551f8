// The Share dialog: a link that carries the rules, the moves and the board view, with its
// length (and a warning when chat programs may cut it, or browsers refuse it) and Copy.

import { byId } from '../dom';
import { LONG_LINK, MAX_LINK, encodeShare, type Shared } from './share';

/** Wires the dialog's Copy button. */
export function wireShareDialog(): void {
  byId('share-copy').addEventListener('click', () => {
    const input = byId<HTMLInputElement>('share-link');
    input.select();
    navigator.clipboard?.writeText(input.value).then(
      () => (byId('share-note').textContent = 'Copied to the clipboard.'),
      () => (byId('share-note').textContent = 'Select the link and copy it (Ctrl+C).'),
    );
  });
}

/** Opens the dialog with the link to `shared`. */
export function openShareDialog(shared: Shared): void {
  const hash = encodeShare(shared);
  const link = `${location.origin}${location.pathname}#${hash}`;
  const input = byId<HTMLInputElement>('share-link');
  input.value = link.length > MAX_LINK ? '' : link;
  byId('share-note').textContent =
    link.length > MAX_LINK
      ? `These rules are too large for a link (${Math.round(link.length / 1e6)} million characters, more than browsers accept). Share the rules as a file instead.`
      : link.length > LONG_LINK
      ? `This link is long (${Math.round(link.length / 1000)} thousand characters): some chat and mail programs cut long links. Test it before sending.`
      : `${link.length.toLocaleString('en')} characters.`;
  byId<HTMLDialogElement>('share-dialog').showModal();
  input.select();
}
