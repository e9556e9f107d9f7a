//# allFunctionsCalledOnLoad
// Offline after the first visit: registers the service worker (sw.js at the site root) once the
// page has what it came for, has Pyodide's module compiled from its cache for the next visit, and says
// discreetly when the whole site is kept offline, or when a new version waits for the next visit. Where
// service workers are unavailable, nothing happens.
import { t } from "./i18n.js";

const ROOT = new URL("../../", import.meta.url); // this file is assets/sqrt-dk/offline.js
const SHOWN_MS = 8000;
const OFFLINE = () => t("Available offline: this site now works without a network.");
const UPDATE = () => t("A new version is ready; it loads on your next visit.");

const said = new Set();

// A small status line that fades after a few seconds, each text once per page; inside a host's
// frame the figure stays alone. figures.css places it where it covers nothing: under Material's
// header, above the page's first line (a page without that header, such as an embed page opened
// alone, gets it at its end).
function say(text) {
  if (window.top !== window || said.has(text)) return;
  said.add(text);
  const note = document.createElement("p");
  note.className = "sq-offline";
  note.setAttribute("role", "status");
  document.body.append(note);
  setTimeout(() => {
    note.textContent = text; // a live region is read when its text changes, not when it appears
    setTimeout(() => note.remove(), SHOWN_MS);
  }, 100);
}

// Pyodide's module run once from the service worker's cache (warm.js), in a worker that then ends: the next visit's
// Python worker finds it compiled, and its start skips about 190 ms of compiling and keeping the code (a return
// visit to Step 2, traced, on this 2-core host). Settles either way; a failure only costs the next visit that time.
function compileForNextVisit() {
  return new Promise((resolve) => {
    let worker;
    const done = () => { worker.terminate(); resolve(); };
    try {
      worker = new Worker(new URL("./warm.js", import.meta.url), { type: "module" });
      worker.onmessage = worker.onerror = done;
    } catch {
      resolve();
    }
  });
}

// When the first version has cached the whole site and controls the page, compile Pyodide's module from there and
// say OFFLINE; say UPDATE when a newer version waits.
function watch(registration) {
  const worker = registration.installing;
  if (!worker) return;
  const update = Boolean(registration.active);
  let told = false;
  const check = () => {
    if (told || worker.state !== (update ? "installed" : "activated")) return;
    told = true;
    if (update) say(UPDATE());
    else compileForNextVisit().then(() => say(OFFLINE()));
  };
  worker.addEventListener("statechange", check);
  check();
}

// A frame whose host page is on another origin: the browser keeps its storage apart, per host site.
function framedByAnotherSite() {
  if (window.top === window) return false;
  try {
    return window.top.location.origin !== location.origin;
  } catch {
    return true; // another origin's window may not even be asked
  }
}

async function register() {
  // Framed by another site, only what embed pages need is kept there (see sw.js), not the whole site.
  const worker = new URL(framedByAnotherSite() ? "sw.js?embed" : "sw.js", ROOT);
  const registration = await navigator.serviceWorker.register(worker);
  if (!registration) return; // automation that blocks service workers answers with nothing
  registration.addEventListener("updatefound", () => watch(registration));
  watch(registration);
  if (registration.waiting && registration.active) say(UPDATE());
}

const loaded = () => new Promise((resolve) => {
  if (document.readyState === "complete") resolve();
  else window.addEventListener("load", resolve, { once: true });
});
const idle = () => new Promise((resolve) => (window.requestIdleCallback || setTimeout)(resolve));

/**
 * Register the service worker once `settled` is over (Python loaded or failed) and the page has
 * loaded and gone idle, so that its install finds Pyodide's files in the HTTP cache.
 * @param {Promise<unknown>} settled
 */
export function offerOffline(settled) {
  // A frame sandboxed without allow-same-origin may not even look at navigator.serviceWorker.
  if (self.origin === "null" || !("serviceWorker" in navigator)) return;
  Promise.allSettled([settled, loaded()]).then(idle).then(register)
    .catch((err) => console.warn(`This site cannot be kept offline here: ${err.message}`));
}
