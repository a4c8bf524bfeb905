// The service worker: keeps every page and file of the current version so that a page opens
// without a network. The server lists them in /assets.json: {version, pages, assets}, where the
// assets' names carry the version (v/<version>/css/app.css) and never change, and the pages
// are served `no-cache`. One cache per version; an old version's cache goes once a new one is
// complete. Nothing under /api/ is ever cached: games, moves and scores are the server's.

const PREFIX = 'guesswork-';
// How often a page visit may look for a new version (sw.js itself stays the same across versions,
// so the browser's own update check would never see one).
const CHECK_EVERY_MS = 5 * 60 * 1000;
let lastCheck = 0;

async function manifest() {
  const response = await fetch('/assets.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`/assets.json answered ${response.status}`);
  return response.json();
}

/** Caches a version's pages and assets, unless that version is cached already. */
async function store({ version, pages, assets }) {
  const name = PREFIX + version;
  const cache = await caches.open(name);
  if ((await cache.keys()).length) return name;
  try {
    // All or nothing: one missing file and the version is not cached at all.
    await cache.addAll([...pages, ...assets].map((path) => new URL(path, self.registration.scope).href));
  } catch (error) {
    await caches.delete(name);
    throw error;
  }
  return name;
}

/** Deletes every cache but `keep`. */
async function prune(keep) {
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX) && name !== keep) await caches.delete(name);
  }
}

/** Looks for a new version (at most every few minutes) and moves to it once it is cached. */
async function update() {
  if (Date.now() - lastCheck < CHECK_EVERY_MS) return;
  lastCheck = Date.now();
  try {
    await prune(await store(await manifest()));
  } catch {
    // The network went away midway: the version cached before stays in use.
  }
}

self.addEventListener('install', (event) => {
  lastCheck = Date.now();
  event.waitUntil(manifest().then(store).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    // Caches are listed oldest first, and only a complete one is left behind: the last is the
    // version install just stored.
    // The open pages are taken first, so that a failed clean-up cannot leave them uncontrolled.
    await self.clients.claim();
    const names = (await caches.keys()).filter((name) => name.startsWith(PREFIX));
    await prune(names[names.length - 1]);
  })());
});

/** A page: the network first (pages are `no-cache`, so this is the newest), else the cached
    copy (whatever its ?game=), else home, else a plain note. */
async function page(event) {
  try {
    const response = await fetch(event.request);
    event.waitUntil(update());
    return response;
  } catch {
    const cached = await caches.match(event.request, { ignoreSearch: true })
      || await caches.match(new URL('index.html', self.registration.scope).href);
    return cached || offlineNote();
  }
}

// The note's words in English, or from the cached catalog of the device's language.
const OFFLINE_NOTE = {
  'offline.page.title': 'Offline · Guesswork',
  'offline.page.heading': 'You are offline',
  'offline.page.text': 'This page was not saved on this device yet. Connect to the server and try again.',
};

const escapeHTML = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** A plain page saying that this page cannot be had offline, in the device's language when its
    catalog is cached. */
async function offlineNote() {
  const languages = (self.navigator.languages || [self.navigator.language || 'en'])
    .map((tag) => String(tag).toLowerCase().split(/[-_]/)[0]);
  const code = languages.find((c) => ['en', 'es', 'ru'].includes(c)) || 'en';
  let words = OFFLINE_NOTE;
  try {
    const cached = await caches.match(new URL(`i18n/${code}.json`, self.registration.scope).href);
    if (cached) words = { ...OFFLINE_NOTE, ...(await cached.json()) };
  } catch { /* English, then */ }
  const say = (key) => escapeHTML(typeof words[key] === 'string' ? words[key] : OFFLINE_NOTE[key]);
  return new Response(
    `<!doctype html><html lang="${code}"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
    + `<title>${say('offline.page.title')}</title><main><h1>${say('offline.page.heading')}</h1><p>${say('offline.page.text')}</p></main></html>`,
    { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}

/** A versioned asset never changes: the cache first, else the network. */
async function asset(request) {
  return (await caches.match(request)) || fetch(request);
}

/** Anything else (the favicon, the manifest, icons): the network, else the cached copy. */
async function other(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const cached = await caches.match(request);
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  const root = new URL(self.registration.scope);
  // Other origins, other methods and the API go straight to the network, untouched.
  if (request.method !== 'GET' || url.origin !== root.origin) return;
  const path = url.pathname.slice(root.pathname.length);
  if (path.startsWith('api/') || path === 'assets.json') return;
  if (request.mode === 'navigate') event.respondWith(page(event));
  else if (path.startsWith('v/')) event.respondWith(asset(request));
  else event.respondWith(other(request));
});
