// The offline service worker (written to dist/sw.js by ./plugin.ts, which puts the
// `OFFLINE` constant, {version, files}, in front of this file). It caches the app shell, the
// wasm engine and the workers when installed, so a classroom without a network keeps
// working; each deploy has its own cache, named after a hash of every file, and the old
// one is deleted when the new worker takes over.
//
// Pages (navigations) come from the network first, so a new deploy is seen as soon as the
// server answers, and from the cache when it does not; every other file from the cache first
// (their names carry a content hash).

/* global OFFLINE */
const CACHE = `gdl-playground-${OFFLINE.version}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(['./', ...OFFLINE.files]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('gdl-playground-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(
      fetch(request).catch(() => caches.open(CACHE).then((cache) => cache.match('./', { ignoreSearch: true }))),
    );
    return;
  }
  event.respondWith(caches.open(CACHE).then((cache) => cache.match(request, { ignoreSearch: true }).then((hit) => hit ?? fetch(request))));
});
