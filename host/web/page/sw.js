// The page's service worker: every file of this build is kept in the
// browser's cache when the page first loads, so the page works offline.
// Online, files come from the network (a new build is seen at once) and
// refresh the cache; offline, from the cache. okgin web fills in the
// build's version and its list of files.
const VERSION = "__VERSION__";
const FILES = __FILES__;
const PREFIX = "okgin " + self.registration.scope + " ";
const CACHE = PREFIX + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  // older builds of this same site go; other sites on this origin stay
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE)
      .map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET" || !req.url.startsWith(self.registration.scope)) return;
  event.respondWith(fetch(req).then((resp) => {
    if (resp.ok) {
      const copy = resp.clone();
      caches.open(CACHE).then((c) => c.put(req, copy));
    }
    return resp;
  }).catch(() => caches.match(req, { ignoreSearch: true }).then((hit) => hit || Response.error())));
});
