// Offline mode: registers the service worker (dist/sw.js, written by offline/plugin.mjs) in
// production builds, so that once the page has been opened it keeps working without a
// network. The worker's address is relative: the page works from any folder (/sub/path/).

export function registerOffline(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('./sw.js').catch((e) => console.warn('Offline mode is not available:', e));
}
