// pitchside's service worker: keeps the page's own files so that, once loaded, the page opens
// again without the relay (offline, or the relay stopped) and opens logs from the disk.
//
// - Pages (navigations): the network first, so a new build is picked up at once; the cached
//   page when the network fails. Every page of the relay (`/`, `/m/NAME`) is the same app.
// - The app's files (script, WebAssembly, style, icons, manifest): from the cache when there,
//   else fetched and kept. Trunk names them by content hash, so a cached one is never stale.
//   The agents' worker (`agents-worker.js`, `agents-worker_bg.wasm`) is the exception: Trunk
//   cannot hash a worker's name (the page names it), so it is fetched from the network first
//   and the cache is the fallback. They are fetched ahead, when the worker installs and after
//   each page load, by reading the page and its script for the files they name (and the
//   agents' worker): the first visit is enough to work offline.
// - Everything else (the live WebSocket, the relay's API, logs, other sites): not touched.

const CACHE = 'pitchside-app-v1';
const SHELL = '/';
const APP_FILE = /\.(?:js|wasm|css|svg|png|ico|webmanifest)$/;
const HASHED = /-[0-9a-f]{16}/;
// Files the page starts by name, not named by the page's HTML.
const UNNAMED = ['/agents-worker.js', '/agents-worker_bg.wasm'];

// The app's files named by the page, and the modules its scripts import.
async function precache() {
  const cache = await caches.open(CACHE);
  const res = await fetch(SHELL, { cache: 'no-cache' });
  if (!res.ok) return;
  await cache.put(SHELL, res.clone());
  const html = await res.text();
  const base = new URL(SHELL, self.location.origin);
  const wanted = new Set([new URL('/manifest.webmanifest', base).href]);
  for (const f of UNNAMED) wanted.add(new URL(f, base).href);
  for (const m of html.matchAll(/["']([^"'\s]+\.(?:js|wasm|css|svg|png|webmanifest))["']/g)) {
    const url = new URL(m[1], base);
    if (url.origin === self.location.origin) wanted.add(url.href);
  }
  for (const href of [...wanted]) {
    if (!href.endsWith('.js')) continue;
    try {
      const js = await (await fetch(href)).text();
      for (const m of js.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+\.js)["']/g)) {
        wanted.add(new URL(m[1], href).href);
      }
    } catch (e) {
      // Kept as it is fetched instead.
    }
  }
  wanted.delete(new URL('/sw.js', base).href);
  for (const href of wanted) {
    if (!UNNAMED.includes(new URL(href).pathname) && await cache.match(href)) continue;
    try {
      const r = await fetch(href);
      if (r.ok) await cache.put(href, r);
    } catch (e) {
      // Offline or gone: kept when it is next fetched.
    }
  }
  await prune(cache, wanted);
}

// Drops cached app files of an older build (hashed names the page no longer uses).
async function prune(cache, wanted) {
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    if (path === SHELL || wanted.has(request.url)) continue;
    if (HASHED.test(path)) await cache.delete(request);
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil(precache().catch(() => {}).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

async function page(event) {
  try {
    const response = await fetch(event.request);
    if (response.ok) event.waitUntil(precache().catch(() => {}));
    return response;
  } catch (e) {
    const cached = await (await caches.open(CACHE)).match(SHELL);
    if (cached) return cached;
    throw e;
  }
}

async function appFile(request) {
  const cache = await caches.open(CACHE);
  const fresh = UNNAMED.includes(new URL(request.url).pathname);
  const cached = fresh ? null : await cache.match(request);
  if (cached) return cached;
  try {
    const response = await fetch(request);
    if (response.ok && response.type === 'basic') cache.put(request, response.clone());
    return response;
  } catch (e) {
    const kept = await cache.match(request);
    if (kept) return kept;
    throw e;
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(page(event));
  } else if (APP_FILE.test(url.pathname) && !url.pathname.startsWith('/api/') && url.pathname !== '/sw.js') {
    event.respondWith(appFile(request));
  }
});
