// The page side of the figures: events in, state out, DOM patched. All math is in pycore.
const STALL_MS = window.sqrtDkStallMs || 20000; // tests may shorten it before the page loads
const figures = new Set();
const waiting = new Map();
let worker = null;
let seq = 0;
let phase = "idle"; // idle | loading | ready | failed
let problem = "";

function status(fig, text, isError = false) {
  const line = fig.el.querySelector("[data-status]");
  if (!line) return;
  line.textContent = text;
  line.classList.toggle("sq-figure__status--error", isError);
}

function everyStatus(text, isError) {
  figures.forEach((fig) => { if (!fig.el.dataset.ready) status(fig, text, isError); });
}

function fail(reason) {
  if (phase === "failed") return;
  phase = "failed";
  problem = reason;
  everyStatus(`Interactivity is unavailable: ${reason}. The figure shows its starting state.`, true);
  waiting.forEach((w) => w.reject(new Error(reason)));
  waiting.clear();
}

// A frame sandboxed without allow-same-origin has an opaque origin and cannot start a worker
// from the site; Python then runs on the page itself, behind the same message interface
// (the site must answer with Access-Control-Allow-Origin for its files to load at all).
function makeWorker() {
  if (self.origin !== "null") return new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  const fake = { onmessage: null, onerror: null, postMessage: null };
  const post = (data) => setTimeout(() => fake.onmessage && fake.onmessage({ data }));
  const queued = [];
  fake.postMessage = (message) => queued.push(message);
  import("./runtime.js").then(({ createRuntime }) => {
    const onMessage = createRuntime(new URL("./", import.meta.url), post);
    fake.postMessage = onMessage;
    queued.forEach(onMessage);
  }, (err) => fake.onerror && fake.onerror({ message: err.message }));
  return fake;
}

function startWorker() {
  if (worker || phase === "failed") return;
  phase = "loading";
  everyStatus("Loading Python in your browser…");
  const stall = setTimeout(() => fail(`Python did not start within ${STALL_MS / 1000} s (a Content-Security-Policy without 'wasm-unsafe-eval' can cause this)`), STALL_MS);
  try {
    worker = makeWorker();
  } catch (err) {
    clearTimeout(stall);
    fail(`the worker could not start (${err.message})`);
    return;
  }
  worker.onerror = (e) => { clearTimeout(stall); fail(`the worker failed (${e.message || "script error"})`); };
  // The message types are listed in runtime.js.
  worker.onmessage = ({ data }) => {
    const w = waiting.get(data.id);
    switch (data.type) {
      case "progress": everyStatus(`Loading Python in your browser: ${data.text}…`); break;
      case "ready": clearTimeout(stall); phase = "ready"; figures.forEach(activate); break;
      case "failed": clearTimeout(stall); fail(`Python failed to load (${data.reason})`); break;
      case "answer": if (w) { waiting.delete(data.id); w.resolve(data.answer); } break;
      case "error": if (w) { waiting.delete(data.id); w.reject(new Error(data.reason)); } break;
    }
  };
}

function call(request) {
  return new Promise((resolve, reject) => {
    const id = ++seq;
    waiting.set(id, { resolve, reject });
    worker.postMessage({ type: "request", id, request });
  });
}

// One request in flight per figure; a newer drag or slider value replaces a queued one.
function send(fig, event) {
  const last = fig.queue[fig.queue.length - 1];
  const replaceable = last && event.type === last.type && ["drag", "set", "swing"].includes(event.type)
    && last.handle === event.handle && last.field === event.field;
  if (replaceable) fig.queue[fig.queue.length - 1] = event; else fig.queue.push(event);
  pump(fig);
}

// The browser already delivers pointer moves once per frame; while a request is in flight,
// newer moves replace the queued one, so each figure costs at most one request per frame.
function pump(fig) {
  if (fig.busy || !fig.queue.length || phase !== "ready") return;
  fig.busy = true;
  const event = fig.queue.shift();
  const request = event.type === "render"
    ? { op: "render", figure: fig.id, params: event.params }
    : { op: "update", figure: fig.id, state: fig.state, event };
  call(request).then((answer) => show(fig, answer), (err) => status(fig, `This figure stopped working: ${err.message}`, true))
    .finally(() => { fig.busy = false; pump(fig); });
}

function show(fig, answer) {
  if (answer.failed) { status(fig, `This figure hit a problem: ${answer.error}`, true); return; }
  const stage = fig.el.querySelector(".sq-figure__stage");
  const focused = document.activeElement && document.activeElement.closest("[data-handle]");
  const focusName = focused && stage.contains(focused) ? focused.dataset.handle : null;
  if (fig.svg !== answer.svg) { stage.innerHTML = answer.svg; fig.svg = answer.svg; }
  if (focusName) { const h = stage.querySelector(`[data-handle="${focusName}"]`); if (h) h.focus(); }
  fig.state = answer.state;
  fig.el.dataset.state = JSON.stringify(answer.state);
  for (const [name, text] of Object.entries(answer.readouts)) {
    const out = fig.el.querySelector(`[data-readout="${name}"]`);
    if (out) out.textContent = text;
  }
  for (const [name, value] of Object.entries(answer.values)) {
    fig.el.querySelectorAll(`[data-field="${name}"]`).forEach((input) => {
      if (input.type === "radio") input.checked = input.value === value;
      else if (document.activeElement !== input) input.value = value;
    });
    const output = fig.el.querySelector(`output[data-value="${name}"]`);
    if (output) output.textContent = value;
  }
  status(fig, answer.error ? answer.error : "", Boolean(answer.error));
  if (answer.error) fig.el.dataset.error = answer.error; else delete fig.el.dataset.error;
  if (fig.announce && !fig.queue.length && !fig.drag) { fig.announce = false; announce(fig); }
  if (fig.track) remember(fig);
  if (fig.pendingReady) { fig.pendingReady = false; fig.el.dataset.ready = "true"; }
}

function announce(fig) {
  const parts = [...fig.el.querySelectorAll(".sq-figure__readouts > div")]
    .map((row) => `${row.querySelector("dt").textContent} ${row.querySelector("dd").textContent}`);
  const region = fig.el.querySelector("[data-announce]");
  if (region) region.textContent = parts.join("; ");
}

function query(state) {
  return Object.entries(state).map(([k, v]) => `${k}=${encodeURIComponent(Array.isArray(v) ? v.join(",") : v)}`).join("&");
}

// The address bar follows the last figure the reader changed, without adding history entries.
function remember(fig) {
  if (document.body.classList.contains("sq-embed")) return;
  const url = new URL(location.href);
  url.hash = `${fig.el.id}?${query(fig.state)}`;
  history.replaceState(history.state, "", url);
  const link = fig.el.querySelector('[data-action="permalink"]');
  if (link) link.href = url.href;
}

const attr = (text) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

function iframeCode(src, title, height) {
  return `<iframe src="${attr(src)}" title="${attr(title)}" loading="lazy" width="100%" height="${height}" style="border:0"></iframe>`;
}

function embedCode(fig) {
  const src = new URL(fig.el.dataset.embed, location.href);
  src.search = query(fig.state);
  return iframeCode(src.href, fig.el.dataset.title, fig.el.dataset.embedHeight);
}

// The teachers' page shows snippets with this site's own address once it is known.
function fillSnippets() {
  document.querySelectorAll("code[data-sq-snippet]").forEach((code) => {
    const src = new URL(code.dataset.sqSnippet, location.href);
    code.textContent = iframeCode(src.href, code.dataset.title, code.dataset.height);
  });
}

function svgPoint(fig, event) {
  const svg = fig.el.querySelectorAll(".sq-figure__stage svg")[fig.dragSvg];
  const m = svg.getScreenCTM().inverse();
  return { x: m.a * event.clientX + m.c * event.clientY + m.e, y: m.b * event.clientX + m.d * event.clientY + m.f };
}

function bind(fig) {
  const stage = fig.el.querySelector(".sq-figure__stage");
  stage.addEventListener("pointerdown", (e) => {
    const h = e.target.closest("[data-handle]");
    if (!h || phase !== "ready") return;
    e.preventDefault();
    fig.drag = h.dataset.handle;
    fig.dragSvg = [...stage.querySelectorAll("svg")].indexOf(h.closest("svg"));
    stage.setPointerCapture(e.pointerId);
    h.focus({ preventScroll: true });
    send(fig, { type: "drag", handle: fig.drag, ...svgPoint(fig, e) });
  });
  stage.addEventListener("pointermove", (e) => {
    if (fig.drag) send(fig, { type: "drag", handle: fig.drag, ...svgPoint(fig, e) });
  });
  const end = () => {
    if (!fig.drag) return;
    fig.drag = null;
    fig.track = true;
    if (fig.busy || fig.queue.length) fig.announce = true; else { announce(fig); remember(fig); }
  };
  stage.addEventListener("pointerup", end);
  stage.addEventListener("pointercancel", end);
  stage.addEventListener("keydown", (e) => {
    const h = e.target.closest("[data-handle]");
    const keys = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "PageUp", "PageDown"];
    if (!h || !keys.includes(e.key) || phase !== "ready") return;
    e.preventDefault();
    fig.announce = true; fig.track = true;
    send(fig, { type: "key", handle: h.dataset.handle, key: e.key, shift: e.shiftKey });
  });
  fig.el.addEventListener("input", (e) => {
    const input = e.target.closest("[data-field]");
    if (!input || input.type === "text") return; // text is sent whole, on change
    sendField(fig, input);
  });
  fig.el.addEventListener("change", (e) => {
    fig.announce = true;
    const input = e.target.closest("input[type='text'][data-field]");
    if (input) sendField(fig, input);
  });
  fig.el.addEventListener("click", (e) => {
    const b = e.target.closest("button, a[data-action]");
    if (!b || phase !== "ready") return;
    if (b.dataset.set) { fig.announce = fig.track = true; send(fig, { type: "set", field: b.dataset.set, value: b.dataset.value }); }
    else if (b.dataset.event) { fig.announce = fig.track = true; send(fig, { type: b.dataset.event }); }
    else if (b.dataset.play) play(fig, b);
    else if (b.dataset.action === "embed") copy(b, embedCode(fig));
  });
}

function sendField(fig, input) {
  const output = fig.el.querySelector(`output[data-value="${input.dataset.field}"]`);
  if (output) output.textContent = input.value;
  fig.track = true;
  send(fig, { type: "set", field: input.dataset.field, value: input.value });
}

function copy(button, text) {
  const done = () => { button.textContent = "Embed code copied"; setTimeout(() => { button.textContent = "Copy embed code"; }, 2000); };
  const fallback = () => window.prompt("Copy this embed code:", text);
  if (navigator.clipboard) navigator.clipboard.writeText(text).then(done, fallback); else fallback();
}

// Play sweeps a range control from its first stop to its last; with reduced motion it jumps between stops.
function play(fig, button) {
  if (fig.timer) { clearInterval(fig.timer); fig.timer = null; button.setAttribute("aria-pressed", "false"); return; }
  const name = button.dataset.play;
  const stops = button.dataset.stops.split(",").map(Number);
  const reduced = matchMedia("(prefers-reduced-motion: reduce)").matches;
  const values = reduced ? stops : Array.from({ length: 61 }, (_, i) => stops[0] + (i / 60) * (stops[stops.length - 1] - stops[0]));
  let i = 0;
  button.setAttribute("aria-pressed", "true");
  fig.timer = setInterval(() => {
    send(fig, { type: "set", field: name, value: String(Math.round(values[i] * 100) / 100) });
    if (++i >= values.length) { clearInterval(fig.timer); fig.timer = null; button.setAttribute("aria-pressed", "false"); fig.announce = true; }
  }, reduced ? 1500 : 50);
}

function activate(fig) {
  fig.el.querySelectorAll("input, button").forEach((c) => { c.disabled = false; });
  status(fig, "");
  const params = initialParams(fig);
  if (params) { fig.pendingReady = true; send(fig, { type: "render", params }); } else fig.el.dataset.ready = "true";
}

// A state from the address: the embed page's query string, or "#<figure-anchor>?..." in the article.
function initialParams(fig) {
  if (document.body.classList.contains("sq-embed")) {
    const p = new URLSearchParams(location.search);
    p.delete("theme");
    return [...p.keys()].length ? Object.fromEntries(p) : null;
  }
  const [anchor, search] = decodeURIComponent(location.hash.slice(1)).split("?");
  if (anchor !== fig.el.id || search === undefined) return null;
  requestAnimationFrame(() => fig.el.scrollIntoView());
  return Object.fromEntries(new URLSearchParams(search.replace(/,/g, "%2C")));
}

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
  for (const fig of figures) if (!document.contains(fig.el)) figures.delete(fig);
  const fresh = found.filter((el) => !el.dataset.bound).map((el) => {
    el.dataset.bound = "true";
    const fig = { el, id: el.dataset.figure, state: JSON.parse(el.dataset.state), queue: [], busy: false };
    figures.add(fig);
    bind(fig);
    return fig;
  });
  if (!fresh.length) return;
  if (phase === "ready") fresh.forEach(activate);
  else if (phase === "failed") fresh.forEach((fig) => status(fig, `Interactivity is unavailable: ${problem}.`, true));
  else if (phase === "loading") fresh.forEach((fig) => status(fig, "Loading Python in your browser…"));
  else afterPaint(() => {
    // Python starts when a figure comes near the viewport, or when the browser is idle.
    const near = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) { near.disconnect(); startWorker(); }
    }, { rootMargin: "800px" });
    fresh.forEach((fig) => near.observe(fig.el));
    const idle = window.requestIdleCallback || ((f) => setTimeout(f, 1500));
    idle(() => startWorker(), { timeout: 4000 });
  });
}

function embedTheme() {
  const theme = new URLSearchParams(location.search).get("theme");
  if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
}

// Tell the host page our height whenever it changes (a frame not yet laid out reports 0: skip it).
function postHeight() {
  if (window.parent === window) return;
  let last = 0;
  const send = () => {
    const height = Math.ceil(document.documentElement.scrollHeight);
    if (height > 0 && height !== last) {
      last = height;
      window.parent.postMessage({ type: "sqrt-dk:height", height }, "*");
    }
  };
  new ResizeObserver(send).observe(document.body);
  send();
}

// For tests and the console: send one request to pycore's bridge once Python is up.
window.sqrtDk = {
  request(request) {
    startWorker();
    return new Promise((resolve, reject) => {
      const wait = () => (phase === "ready" ? call(request).then(resolve, reject)
        : phase === "failed" ? reject(new Error(problem)) : setTimeout(wait, 50));
      wait();
    });
  },
};

if (document.body.classList.contains("sq-embed")) { embedTheme(); postHeight(); }
if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(init);
else init();
