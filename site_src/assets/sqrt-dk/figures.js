// The page's entry: finds the figures after every page swap, starts Python when one comes near,
// tells the figures how Python's start is going, and offers the site offline once it has.
// Views, the bridge, embedding and the service worker have their own modules; all math is in pycore.
import { BridgeClient } from "./bridge-client.js";
import { FigureView } from "./figure-view.js";
import { embedParams, fillSnippets, isEmbedPage, startEmbedPage } from "./embed.js";
import { offerOffline } from "./offline.js";

const STALL_MS = window.sqrtDkStallMs || 20000; // tests may shorten it before the page loads
const views = new Set();

function everyStatus(text, isError) {
  views.forEach((view) => { if (!view.el.dataset.ready) view.status(text, isError); });
}

const activate = (view) => view.activate(isEmbedPage() ? embedParams() : view.linkedParams());

const client = new BridgeClient(STALL_MS, {
  loading: (detail) => everyStatus(detail ? `Loading Python in your browser: ${detail}…` : "Loading Python in your browser…"),
  ready: () => views.forEach(activate),
  failed: (reason) => everyStatus(`Interactivity is unavailable: ${reason}. The figure shows its starting state.`, true),
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
    views.add(view);
    return view;
  });
  if (!fresh.length) return;
  if (client.phase === "ready") fresh.forEach(activate);
  else if (client.phase === "failed") fresh.forEach((view) => view.status(`Interactivity is unavailable: ${client.problem}.`, true));
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
// The service worker's install comes after Python's start, so it finds Pyodide's files in the
// HTTP cache instead of downloading them a second time; a page without figures offers it at once.
offerOffline(document.querySelector("[data-figure]") ? client.whenReady : Promise.resolve());
if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(init);
else init();
