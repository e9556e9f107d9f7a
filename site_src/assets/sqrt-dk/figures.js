// The page's entry: finds the figures after every page swap, starts Python when one comes near,
// and tells the figures how Python's start is going. Views, the bridge and embedding have their
// own modules; all math is in pycore.
import { BridgeClient } from "./bridge-client.js";
import { FigureView } from "./figure-view.js";
import { embedParams, fillSnippets, isEmbedPage, startEmbedPage } from "./embed.js";

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
  failed: (reason) => notReady((view) => view.unavailable(reason)),
});

// Nothing of Pyodide is fetched before the page has painted once. A frame scrolled out of
// view gets no animation frames, so a timer stands in for the paint there.
function afterPaint(callback) {
  let done = false;
  const once = () => { if (!done) { done = true; callback(); } };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 1000);
}

function init() {
  fillSnippets();
  const found = [...document.querySelectorAll("[data-figure]")];
  for (const view of views) if (!document.contains(view.el)) views.delete(view);
  const fresh = found.filter((el) => !el.dataset.bound).map((el) => {
    el.dataset.bound = "true";
    const view = new FigureView(el, client, isEmbedPage());
    if (isEmbedPage() && embedParams()) view.pend();
    views.add(view);
    return view;
  });
  if (!fresh.length) return;
  if (client.phase === "ready") fresh.forEach(activate);
  else if (client.phase === "failed") fresh.forEach((view) => view.unavailable(client.problem));
  else if (client.phase === "loading") fresh.forEach((view) => view.status("Loading Python in your browser…"));
  else afterPaint(() => {
    // Python starts when a figure comes near the viewport, or when the browser is idle.
    const near = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) { near.disconnect(); client.start(); }
    }, { rootMargin: "800px" });
    fresh.forEach((view) => near.observe(view.el));
    const idle = window.requestIdleCallback || ((f) => setTimeout(f, 1500));
    idle(() => client.start(), { timeout: 4000 });
  });
}

// For tests and the console: send one request to pycore's bridge once Python is up.
window.sqrtDk = { request: (request) => client.request(request) };

if (isEmbedPage()) startEmbedPage();
if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(init);
else init();
