// The page's entry: finds the figures after every page swap, starts Python when there are any,
// tells the figures how Python's start is going, and offers the site offline once it has.
// Views, the bridge, embedding and the service worker have their own modules; all math is in pycore.
import { BridgeClient } from "./bridge-client.js";
import { FigureView } from "./figure-view.js";
import { embedParams, fillSnippets, isEmbedPage, startEmbedPage } from "./embed.js";
import { offerOffline } from "./offline.js";
import "./menu.js";
import "./panels.js";
import { bindPredictions } from "./predict.js";

const STALL_MS = window.sqrtDkStallMs || 20000; // tests may shorten it before the page loads
const views = new Set();

/** Tell every figure that is not interactive yet how Python's start is going. */
function notReady(tell) {
  views.forEach((view) => { if (!view.el.dataset.ready) tell(view); });
}

const activate = (view) => view.activate(isEmbedPage() ? embedParams() : view.linkedParams());

const client = new BridgeClient(STALL_MS, {
  loading: (detail) => notReady((view) => view.status(detail ? `Loading Python in your browser: ${detail}…` : "Loading Python in your browser…")),
  ready: () => views.forEach(activate),
  failed: (reason) => { // every figure says why, scrolled to or not
    notReady((view) => view.unavailable(reason));
    document.querySelectorAll("[data-figure]:not([data-bound])").forEach(bind);
  },
});

/** Make one figure a view that follows Python's start, once; its view. */
function bind(el) {
  if (el.dataset.bound) return [...views].find((view) => view.el === el);
  el.dataset.bound = "true";
  near.unobserve(el);
  const view = new FigureView(el, client, isEmbedPage());
  if (isEmbedPage() && embedParams()) view.pend();
  views.add(view);
  if (client.phase === "ready") activate(view);
  else if (client.phase === "failed") view.unavailable(client.problem);
  else if (client.phase === "loading") view.status("Loading Python in your browser…");
  return view;
}

// The first figure (and the one a permalink names) is bound at once; the others as they come within
// two screens of the viewport, or as the keyboard's focus comes next to one.
const near = new IntersectionObserver((entries) => entries.forEach((e) => { if (e.isIntersecting) bind(e.target); }),
  { rootMargin: "200% 0px" });

// Focus can outrun scrolling: the figures on either side of the focused element are bound at once, so
// that Tab and Shift+Tab find their controls enabled.
document.addEventListener("focusin", ({ target }) => {
  const unbound = [...document.querySelectorAll("[data-figure]:not([data-bound])")];
  let next = unbound.findIndex((el) => el.contains(target) || target.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
  if (next < 0) next = unbound.length;
  [unbound[next - 1], unbound[next]].forEach((el) => el && bind(el));
});

function init() {
  fillSnippets();
  for (const view of views) if (!document.contains(view.el)) views.delete(view);
  const found = [...document.querySelectorAll("[data-figure]")].filter((el) => !el.dataset.bound);
  if (!found.length) return;
  const linked = decodeURIComponent(location.hash.slice(1)).split("?")[0]; // a permalink's figure draws its state at once
  for (const el of found) {
    if (el === found[0] || el.id === linked) bind(el);
    else near.observe(el);
  }
  bindPredictions(client, bind); // a prediction's figure is bound with it, so "Show me" can set it
  // Python starts at once: the page's preload hints are already downloading its files, and it
  // runs in a worker, off the thread that paints. (Waiting for the first paint, or for a figure
  // to come near, measured slower in make bench and painted no sooner.)
  client.start();
}

// For tests and the console: send one request to pycore's bridge once Python is up, and say how it
// started ("snapshot" or "start").
window.sqrtDk = { request: (request) => client.request(request), startedFrom: () => client.startedFrom };

if (isEmbedPage()) startEmbedPage();
// The service worker's install comes after Python's start, so it finds Pyodide's files in the
// HTTP cache instead of downloading them a second time; a page without figures offers it at once.
offerOffline(document.querySelector("[data-figure]") ? client.whenReady : Promise.resolve());
if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(init);
else init();
