// Messages to the person at the page: a toast for what just happened (gone after a few
// seconds) and a banner for what went wrong at the start (closed by hand).

import { byId } from './dom';

export function showBanner(text: string): void {
  byId('banner-text').textContent = text;
  byId('banner').hidden = false;
}

let toastTimer = 0;

export function toast(text: string): void {
  const t = byId('toast');
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => (t.hidden = true), 6000);
}
