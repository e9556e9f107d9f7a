//# allFunctionsCalledOnLoad
// The page's entry: finds the figures and recall cards after every page swap, starts Python when there are any,
// tells the figures how Python's start is going, and offers the site offline once it has.
// Views, the bridge, embedding and the service worker have their own modules; all math is in pycore.
import { BridgeClient } from "./bridge-client.js";
import { FigureView } from "./figure-view.js";
import { embedParams, fillSnippets, isEmbedPage, startEmbedPage } from "./embed.js";
import { offerOffline } from "./offline.js";
import "./menu.js";
import "./panels.js";
import { bindPredictions } from "./predict.js";
import { t } from "./i18n.js";
import { bindReview } from "./review.js";
import { task, wakeInOrder } from "./wake.js";

const STALL_MS = window.sqrtDkStallMs || 20000; // tests may shorten it before the page loads
const views = new Set();

/** Tell every figure that is not interactive yet how Python's start is going. */
function notReady(tell) {
  views.forEach((view) => { if (!view.el.dataset.ready) tell(view); });
}

const activate = (view) => view.activate(isEmbedPage() ? embedParams() : view.linkedParams());

/** How far Python's start has got, in words: runtime.js names each step ("" before the first). */
function loading(detail) {
  if (detail === "the runtime") return t("Loading Python: the runtime…");
  if (detail === "the figures' code") return t("Loading Python: the figures' code…");
  return t("Loading Python in your browser…");
}

const client = new BridgeClient(STALL_MS, {
  loading: (detail) => notReady((view) => view.status(loading(detail))),
  ready: () => wakeInOrder([...views], activate),
  failed: (reason) => notReady((view) => view.unavailable(reason)),
});

/** Make one figure a view that follows Python's start, once; its view. Python wakes it (wake.js). */
function bind(el) {
  if (el.dataset.bound) return [...views].find((view) => view.el === el);
  el.dataset.bound = "true";
  const view = new FigureView(el, client, isEmbedPage());
  if (isEmbedPage() && embedParams()) view.pend();
  views.add(view);
  if (client.phase === "failed") view.unavailable(client.problem);
  else if (client.phase === "loading") view.status(loading(""));
  return view;
}

function init() {
  fillSnippets();
  for (const view of views) if (!document.contains(view.el)) views.delete(view);
  const found = [...document.querySelectorAll("[data-figure]")].filter((el) => !el.dataset.bound);
  const cards = bindReview(client); // recall cards are graded through Python too
  if (!found.length && !cards) return;
  // Every figure is bound at once. Binding them as they came near the viewport was tried (make bench,
  // issue 22) and not kept: a far figure's controls stayed disabled until it was scrolled to.
  const bound = found.map(bind);
  bindPredictions(client, bind);
  if (client.phase === "ready") wakeInOrder(bound, activate); // a page swap with Python already running
  // Python starts at once, in a worker, off the thread that paints: on a page loaded with figures, head.js
  // started it from the head, and this adopts it and lets a first start begin. (Waiting for the first paint, or
  // for a figure to come near, measured slower in make bench and painted no sooner.)
  client.start();
}

// For tests and the console: send one request to pycore's bridge once Python is up, and say how it
// started ("snapshot" or "start").
window.sqrtDk = { request: (request) => client.request(request), startedFrom: () => client.startedFrom };

if (isEmbedPage()) startEmbedPage();
// The service worker's install comes after Python's start, so it finds Pyodide's files in the
// HTTP cache instead of downloading them a second time; a page without figures offers it at once.
offerOffline(document.querySelector("[data-figure], [data-card]") ? client.whenReady : Promise.resolve());
// Material announces each page (document$) from its DOMContentLoaded handler; binding the figures in a task of
// their own keeps that handler's task, long on a big page at a phone's speed, from growing by ours (make bench).
if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(() => task(init));
else init();
