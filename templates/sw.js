// The service worker: the whole site from a cache, so a repeat visit starts from it and works with
// the network off. The build writes PRECACHE above this text (pycore/sitegen/offline.py): this
// version's name, and every file a reader needs by its address under the site root ("" and
// "step-2/" for pages) with a hash of its content.
//
// Each version has a cache of its own. Install fills it, taking unchanged files from an older
// version's cache and fetching only the rest. There is no skipWaiting: a new version waits until
// no page of the old one is open, so a page and everything it loads come from one version.
// Activate then deletes the other versions' caches.
//
// Registered as sw.js?embed, by an embed page framed by another site (whose storage the browser keeps
// apart, per host site), it keeps only what embed pages need: PRECACHE.embed, the embed pages open
// when it installs, and each other listed embed page the first time it is loaded.

const SCOPE = new URL(self.registration.scope);
const PREFIX = `sqrt-dk ${SCOPE.pathname} `; // another site may share the origin, under another path
const CACHE = PREFIX + PRECACHE.version;
const EMBED = new URL(self.location.href).searchParams.has("embed");
// Every page under embed/: a figure's (embed/score-histogram/) and a page's recall cards (embed/cards/step-7/).
const isEmbedPage = (path) => /^embed\/.+\/$/.test(path);

// A file's cache entry is named by its address and its hash, so versions agree on unchanged files.
const entry = (path) => new URL(`${path}?sha256=${PRECACHE.files[path]}`, SCOPE).href;

// Revalidated with the host ("no-cache"): a file the page has just loaded comes back as a 304 from
// the HTTP cache instead of a second download, and a stale copy cannot slip into this version.
async function download(path) {
  const response = await fetch(new URL(path, SCOPE), { cache: "no-cache" });
  if (!response.ok) throw new Error(`${path} answered HTTP ${response.status}`);
  return response;
}

// What this install keeps: every listed file, or in a host site's frame, what embed pages need and the open ones.
async function wanted() {
  if (!EMBED) return Object.keys(PRECACHE.files);
  const open = (await self.clients.matchAll({ type: "window", includeUncontrolled: true })).map((c) => precached(c))
    .filter((path) => path !== null && isEmbedPage(path));
  return [...PRECACHE.embed, ...open];
}

async function fill() {
  const cache = await caches.open(CACHE);
  await Promise.all((await wanted()).map(async (path) => {
    const name = entry(path);
    if (await cache.match(name)) return; // an interrupted install got it already
    await cache.put(name, (await caches.match(name)) || (await download(path)));
  }));
}

async function activate() {
  const older = (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE);
  await Promise.all(older.map((name) => caches.delete(name)));
  // The first version takes the open pages at once: the network just served them this version.
  if (!older.length) await self.clients.claim();
}

// The file a request asks for, if precached: the query is ignored, a page's index.html is its folder.
function precached(request) { // a Request or a Client: anything with a url (and a method for requests)
  const url = new URL(request.url);
  if ((request.method || "GET") !== "GET" || url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return null;
  const path = url.pathname.slice(SCOPE.pathname.length).replace(/(^|\/)index\.html$/, "$1");
  return Object.hasOwn(PRECACHE.files, path) ? path : null;
}

async function answer(path, request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(entry(path));
  if (kept) return kept;
  const response = await fetch(request);
  if (EMBED && isEmbedPage(path) && response.ok) await cache.put(entry(path), response.clone());
  return response;
}

self.addEventListener("install", (event) => event.waitUntil(fill()));
self.addEventListener("activate", (event) => event.waitUntil(activate()));
self.addEventListener("fetch", (event) => {
  const path = precached(event.request);
  if (path !== null) event.respondWith(answer(path, event.request));
});
