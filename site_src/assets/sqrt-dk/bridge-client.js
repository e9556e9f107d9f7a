//# allFunctionsCalledOnLoad
// The page's end of the bridge to Python: starts the worker, watches it start (or stall, or
// fail), and carries requests to pycore.bridge and answers back. The message types are listed
// in runtime.js. It knows nothing of figures. Every request carries the page's language (lang), so that
// Python answers in it.
import { asked, t } from "./i18n.js";

// A frame sandboxed without allow-same-origin has an opaque origin and cannot start a worker
// from the site; Python then runs on the page itself, behind the same message interface
// (the site must answer with Access-Control-Allow-Origin for its files to load at all).
function makeWorker() {
  if (self.origin !== "null") {
    // A page with figures started it from its head (head.js); this is for one swapped in by the theme.
    const url = new URL("./worker.js", import.meta.url);
    if (window.top !== window) url.search = "framed"; // no 12 MB snapshot of Python in every host site's storage
    return new Worker(url, { type: "module" });
  }
  const fake = { onmessage: null, onerror: null, postMessage: null };
  const post = (data) => setTimeout(() => fake.onmessage && fake.onmessage({ data }));
  const queued = [];
  fake.postMessage = (message) => queued.push(message);
  import("./runtime.js").then(({ createRuntime }) => {
    const onMessage = createRuntime(new URL("./", import.meta.url), post, { snapshots: false });
    fake.postMessage = onMessage;
    queued.forEach(onMessage);
  }, (err) => fake.onerror && fake.onerror({ message: err.message }));
  return fake;
}

export class BridgeClient {
  /**
   * @param {number} stallMs how long Python may take to start before the page gives up on it
   * @param {{loading(detail: string): void, ready(): void, failed(reason: string): void}} listener
   *   told when Python starts loading (detail "") and how far it got, when it is ready, and why it failed
   */
  constructor(stallMs, listener) {
    this.stallMs = stallMs;
    this.listener = listener;
    this.phase = "idle"; // idle | loading | ready | failed
    this.problem = "";
    this.worker = null;
    this.waiting = new Map();
    this.seq = 0;
    this.whenReady = new Promise((resolve, reject) => { this.resolveReady = resolve; this.rejectReady = reject; });
    this.whenReady.catch(() => {}); // a failure is reported through the listener; callers of request() see it too
  }

  start() {
    if (this.worker || this.phase === "failed") return;
    this.phase = "loading";
    this.listener.loading("");
    this.stall = setTimeout(() => this.fail(t("Python did not start within {seconds} s (a Content-Security-Policy without 'wasm-unsafe-eval' can cause this)", { seconds: this.stallMs / 1000 })), this.stallMs);
    const early = window.sqrtDkWorker; // started by head.js, with the events it has had so far
    delete window.sqrtDkWorker;
    try {
      this.worker = early ? early.worker : makeWorker();
    } catch (err) {
      this.fail(t("the worker could not start ({message})", { message: err.message }));
      return;
    }
    this.worker.onerror = (e) => this.fail(e.message ? t("the worker failed ({message})", { message: e.message }) : t("the worker failed (script error)"));
    this.worker.onmessage = ({ data }) => this.receive(data);
    if (early) early.said.forEach((event) => (event.type === "error" ? this.worker.onerror : this.worker.onmessage)(event));
    this.worker.postMessage({ type: "begin" }); // the figures are bound: a first start of Python may take the processor
  }

  receive(message) {
    switch (message.type) {
      case "progress": this.listener.loading(message.text); break;
      case "ready":
        clearTimeout(this.stall);
        this.phase = "ready";
        this.startedFrom = message.from; // "snapshot" or "start"
        this.resolveReady();
        this.listener.ready();
        break;
      case "failed": this.fail(t("Python failed to load ({reason})", { reason: message.reason })); break;
      case "answer": this.settle(message.id, (w) => w.resolve(message.answer)); break;
      case "error": this.settle(message.id, (w) => w.reject(new Error(message.reason))); break;
    }
  }

  settle(id, how) {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    how(w);
  }

  fail(reason) {
    clearTimeout(this.stall);
    if (this.phase === "failed") return;
    this.phase = "failed";
    this.problem = reason;
    this.listener.failed(reason);
    this.rejectReady(new Error(reason));
    this.waiting.forEach((w) => w.reject(new Error(reason)));
    this.waiting.clear();
  }

  /** One request to pycore.bridge, in the page's language; Python must be ready. */
  call(request) {
    return new Promise((resolve, reject) => {
      const id = ++this.seq;
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ type: "request", id, request: { ...request, lang: asked() } });
    });
  }

  /** One request, starting Python first if need be (for tests and the console). */
  request(request) {
    this.start();
    return this.whenReady.then(() => this.call(request));
  }
}

// Events that set an absolute value (a tip's position, a field's value) carry all there is to
// know, so a newer one replaces a queued one for the same handle or field. Other events (keys,
// buttons) are relative and each one counts. A queued "continue" (more work on a busy state)
// gives way to any newer event: the reader has moved on.
const ABSOLUTE = ["drag", "set"];

const supersedes = (event, last) => Boolean(last) && (last.type === "continue"
  || (event.type === last.type && ABSOLUTE.includes(event.type) && event.handle === last.handle && event.field === last.field));

// One request in flight per figure. The browser already delivers pointer moves once per frame;
// while a request is in flight, newer moves replace the queued one, so each figure costs at most
// one request per frame.
export class RequestQueue {
  /**
   * @param {BridgeClient} client
   * @param {{request(event): object, answer(answer): void, error(err: Error): void}} handlers
   *   request turns an event into a bridge request when it is sent (so it sees the latest state)
   */
  constructor(client, handlers) {
    this.client = client;
    this.handlers = handlers;
    this.events = [];
    this.busy = false;
  }

  /** Nothing is waiting to be sent. */
  get empty() { return !this.events.length; }

  /** Nothing is waiting and nothing is in flight. */
  get idle() { return !this.busy && this.empty; }

  send(event) {
    if (supersedes(event, this.events[this.events.length - 1])) this.events[this.events.length - 1] = event;
    else this.events.push(event);
    this.pump();
  }

  pump() {
    if (this.busy || this.empty || this.client.phase !== "ready") return;
    this.busy = true;
    const { request, answer, error } = this.handlers;
    this.client.call(request(this.events.shift())).then(answer, error)
      .finally(() => { this.busy = false; this.pump(); });
  }
}
