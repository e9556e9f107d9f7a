//# allFunctionsCalledOnLoad
// One figure on the page: its requests to pycore (its events come in through figure-events.js), and each
// answer shown (SVG, readouts, control values, status line, announcement, permalink). All math is in pycore.
//
// Long work comes in slices: every request lets Python work about SLICE_MS before it answers.
// A "busy" answer shows what is drawn so far (data-state is that drawn state), marks the figure
// data-busy and puts the progress in the status line; the view then asks to continue, unless the
// reader has already asked for something newer, which replaces the continuation.
//
// On an embed page whose address asks for a state, the figure is marked data-pending (dimmed by
// figures.css) from the moment it is bound until Python has drawn that state, so the default it
// was built with is never passed off as the requested one.
import { RequestQueue } from "./bridge-client.js";
import { iframeCode } from "./embed.js";
import { fileStem, pngFrom, save, standaloneSvg } from "./export.js";
import { bindEvents } from "./figure-events.js";
import { lang, t } from "./i18n.js";
import { nextFrame } from "./wake.js";

/** A state as URL parameters, the form permalinks and embed addresses share. */
export function query(state) {
  return Object.entries(state).map(([k, v]) => `${k}=${encodeURIComponent(Array.isArray(v) ? v.join(",") : v)}`).join("&");
}

/** The page's spans bound to the figure whose anchor is ``id``, by bound name (the part after "<id>:"). */
function boundSpans(id) {
  const spans = new Map();
  if (!id) return spans;
  for (const span of document.querySelectorAll(`[data-live^="${id}:"]`)) {
    const name = span.dataset.live.slice(id.length + 1);
    spans.set(name, [...(spans.get(name) || []), span]);
  }
  return spans;
}

/** Mark an element's number as the drawn-so-far state's while its figure is busy, and unmark it after. */
function mark(element, busy) {
  if (busy) { element.dataset.busy = "true"; element.setAttribute("aria-busy", "true"); }
  else { delete element.dataset.busy; element.removeAttribute("aria-busy"); }
}

/** A state as the parameters a render request takes. */
const params = (state) => Object.fromEntries(Object.entries(state).map(([k, v]) => [k, Array.isArray(v) ? v.join(",") : String(v)]));

/** Copy text; the button says so for two seconds. Without a clipboard, the embed code is offered in a prompt. */
export function copy(button, text, copied, fallback) {
  const label = button.textContent;
  const done = () => { button.textContent = copied; setTimeout(() => { button.textContent = label; }, 2000); };
  if (navigator.clipboard) navigator.clipboard.writeText(text).then(done, fallback); else fallback();
}

const SLICE_MS = 50;
const pending = () => t("Drawing your settings…");

export class FigureView {
  /**
   * @param {HTMLElement} el the [data-figure] element, already drawn in its starting state
   * @param {import("./bridge-client.js").BridgeClient} client
   * @param {boolean} onEmbedPage the address bar is the host's business there: leave it alone
   */
  constructor(el, client, onEmbedPage) {
    this.el = el;
    this.id = el.dataset.figure;
    this.state = JSON.parse(el.dataset.state);
    this.client = client;
    this.onEmbedPage = onEmbedPage;
    this.stage = el.querySelector(".sq-figure__stage");
    this.svg = null; // the SVG shown: the built one (read when the first answer comes), then the last answer's
    this.drag = null; // while dragging: {handle, svg: the index of the SVG that holds it, offset: pointer - centre}
    this.announce = false; // read the readouts out once the figure settles
    this.track = false; // the reader changed this figure: the address follows it
    this.pendingReady = false; // data-ready waits for the first answer
    this.timer = null; // Play's interval
    this.initial = this.state; // what Reset goes back to: the built state, or the one the address asked for
    this.awaitInitial = false;
    this.carried = ""; // a message from the request whose work is being continued
    this.python = el.querySelector("[data-snippet]");
    this.bound = boundSpans(el.id); // the page's prose bound to this figure (data-live="<id>:<name>")
    this.queue = new RequestQueue(client, {
      request: (event) => {
        if (event.type !== "continue") this.carried = ""; // a message belongs to the request that caused it
        const base = { figure: this.id, slice_ms: SLICE_MS, ...(this.bound.size ? { live: [...this.bound.keys()] } : {}) };
        if (event.type === "render") return { ...base, op: "render", params: event.params };
        if (event.type === "continue") return { ...base, op: "continue", state: this.state };
        return { ...base, op: "update", state: this.state, event };
      },
      answer: (answer) => nextFrame().then(() => this.show(answer)), // one patch per frame (wake.js)
      error: (err) => this.status(t("This figure stopped working: {message}", { message: err.message }), true),
    });
    bindEvents(this);
  }

  get ready() { return this.client.phase === "ready"; }

  /** The address asked for a state that is not drawn yet. */
  get pending() { return this.el.dataset.pending === "true"; }

  /** Mark the figure as waiting for the state its embed address asks for. */
  pend() {
    this.el.dataset.pending = "true";
    this.status("");
    this.say(pending());
  }

  /** The status line; while pending, a message that is not an error is shown after the pending one.
   * Errors are also read out (progress is not: it changes every slice). */
  status(text, isError = false) {
    const line = this.el.querySelector("[data-status]");
    if (!line) return;
    line.textContent = this.pending && !isError ? (text ? t("Drawing your settings… ({progress})", { progress: text }) : pending()) : text;
    line.classList.toggle("sq-figure__status--error", isError);
    if (isError && text) this.say(text);
  }

  /** Python will not start: the figure stays as it was built, and says whether that is what was asked for. */
  unavailable(reason) {
    this.status(this.pending ? t("Interactivity is unavailable: {reason}. Showing the default figure, not the settings in this link.", { reason })
      : t("Interactivity is unavailable: {reason}. The figure shows its starting state.", { reason }), true);
  }

  /** Python is up: enable the controls and, if the address asks for a state, draw it. */
  activate(params) {
    this.el.querySelectorAll("input, button").forEach((c) => { c.disabled = false; });
    this.status("");
    if (params) {
      this.pendingReady = this.awaitInitial = true;
      this.queue.send({ type: "render", params });
    } else { this.el.dataset.ready = "true"; this.drawn(); }
  }

  /** A state asked for by the article's address, "#<figure-anchor>?...", or null. */
  linkedParams() {
    const [anchor, search] = decodeURIComponent(location.hash.slice(1)).split("?");
    if (anchor !== this.el.id || search === undefined) return null;
    this.linked(location.hash);
    requestAnimationFrame(() => this.el.scrollIntoView());
    return Object.fromEntries(new URLSearchParams(search.replace(/,/g, "%2C")));
  }

  show(answer) {
    if (answer.failed) { this.status(t("This figure hit a problem: {message}", { message: answer.error }), true); return; }
    const focused = document.activeElement && document.activeElement.closest("[data-handle]");
    const focusName = focused && this.stage.contains(focused) ? focused.dataset.handle : null;
    if (this.svg === null) this.svg = this.stage.innerHTML; // an answer that draws the built state redraws nothing
    if (answer.svg !== undefined && this.svg !== answer.svg) { this.stage.innerHTML = answer.svg; this.svg = answer.svg; }
    if (focusName) { const h = this.stage.querySelector(`[data-handle="${focusName}"]`); if (h) h.focus({ preventScroll: true }); }
    this.state = answer.state;
    if (!answer.busy) this.el.dataset.state = JSON.stringify(answer.state);
    else if (answer.drawn) this.el.dataset.state = JSON.stringify(answer.drawn);
    for (const [name, text] of Object.entries(answer.readouts || {})) {
      const out = this.el.querySelector(`[data-readout="${name}"]`);
      if (out) out.textContent = text;
    }
    const live = this.el.querySelector("[data-caption]");
    if (live && answer.caption !== undefined) live.textContent = answer.caption;
    // A busy answer draws a smaller state: its numbers are marked as so far, and the stage says how far.
    const soFar = (name) => answer.busy && (!answer.live_partial || answer.live_partial.includes(name));
    for (const [name, spans] of this.bound) {
      spans.forEach((span) => {
        if (answer.live && name in answer.live) span.textContent = answer.live[name];
        mark(span, soFar(name));
      });
    }
    this.el.querySelectorAll("[data-readout], [data-caption]").forEach((element) => mark(element, answer.busy));
    if (answer.busy && answer.progress) this.stage.dataset.progress = answer.progress;
    else delete this.stage.dataset.progress;
    for (const [name, value] of Object.entries(answer.values)) {
      this.el.querySelectorAll(`[data-field="${name}"]`).forEach((input) => {
        if (input.type === "radio") input.checked = input.value === value;
        else if (input.dataset.scale === "log") {
          input.setAttribute("aria-valuetext", value); // the thumb is at a position; the value is what is heard
          if (document.activeElement !== input) input.value = answer.values[`${name}@position`];
        } else if (document.activeElement !== input) input.value = value;
      });
      const output = this.el.querySelector(`output[data-value="${name}"]`);
      if (output) output.textContent = value;
    }
    // Drawn: the address's state (or the default, and the message why), or a newer one the reader asked for.
    if (!answer.busy) delete this.el.dataset.pending;
    if (answer.error) this.carried = answer.error;
    const error = answer.error || this.carried;
    this.status(error || answer.progress || "", Boolean(error));
    if (error) this.el.dataset.error = error; else delete this.el.dataset.error;
    if (answer.busy) {
      this.el.dataset.busy = "true";
      if (this.queue.empty) this.queue.send({ type: "continue" });
    } else delete this.el.dataset.busy;
    if (this.announce && !answer.busy && this.queue.empty && !this.drag) {
      this.announce = false;
      this.speak(this.lead || "");
      this.lead = "";
    }
    if (this.track) this.remember();
    if (answer.busy) return;
    if (this.pendingReady) { this.pendingReady = false; this.el.dataset.ready = "true"; }
    if (this.awaitInitial) { this.awaitInitial = false; this.initial = answer.state; }
    this.drawn();
  }

  /** Tell listeners (a prediction prompt) which state is drawn now. */
  drawn() { this.el.dispatchEvent(new CustomEvent("sq:drawn", { detail: this.state })); }

  /** Draw a state asked for from outside the figure (a prediction's "Show me"); the address follows. */
  showState(state) {
    this.track = true;
    this.queue.send({ type: "render", params: params(state) });
  }

  /** Read the readouts out through the live region, after ``lead`` if given. */
  speak(lead = "") {
    const parts = [...this.el.querySelectorAll(".sq-figure__readouts > div")]
      .map((row) => `${row.querySelector("dt").textContent} ${row.querySelector("dd").textContent}`);
    // i18n: what separates the readouts read out one after another, as the clauses of one sentence.
    this.say(lead + parts.join(t("; ")));
  }

  say(text) {
    const region = this.el.querySelector("[data-announce]");
    if (region) region.textContent = text;
  }

  /** Back to the state the page started with. */
  reset() {
    this.announce = this.track = true;
    this.lead = t("Reset to the starting state.") + " ";
    this.queue.send({ type: "render", params: params(this.initial) });
  }

  /** Show the numpy script for the current state in the panel and copy it; a second press closes the panel. */
  async togglePython(button) {
    if (!this.python.hidden) { this.closePython(); return; }
    const answer = await this.client.call({ op: "snippet", figure: this.id, state: this.state });
    if (answer.failed) { this.status(t("This figure hit a problem: {message}", { message: answer.error }), true); return; }
    this.python.querySelector("code").textContent = answer.snippet;
    this.python.hidden = false;
    button.setAttribute("aria-expanded", "true");
    copy(button, answer.snippet, t("Python copied"), () => this.python.querySelector("pre").focus());
    this.say(t("The Python script is shown below the figure and copied to the clipboard."));
  }

  closePython() {
    this.python.hidden = true;
    const button = this.el.querySelector('[data-action="python"]');
    button.setAttribute("aria-expanded", "false");
    button.focus();
  }

  /** Save the drawing as shown now, as SVG or as a PNG at twice its size, or the current state's notebook. */
  async download(kind) {
    if (kind === "ipynb") {
      const link = this.el.querySelector('[data-action="permalink"]');
      const url = link ? link.href : location.href;
      const answer = await this.client.call({ op: "notebook", figure: this.id, state: this.state, url });
      if (answer.failed) { this.status(t("This figure hit a problem: {message}", { message: answer.error }), true); return; }
      save(new Blob([answer.notebook], { type: "application/x-ipynb+json" }), `${fileStem(this.id, this.state)}.ipynb`);
      this.say(t("Saved the figure's Jupyter notebook."));
      return;
    }
    const caption = this.el.querySelector("figcaption");
    const description = t("{caption} State: {state}.", { caption: caption ? caption.textContent : "", state: query(this.state) });
    const svg = await standaloneSvg(this.stage, this.el.dataset.title, description);
    const blob = kind === "png" ? await pngFrom(svg) : new Blob([svg.text], { type: "image/svg+xml" });
    save(blob, `${fileStem(this.id, this.state)}.${kind}`);
    this.say(t("Saved the figure as {format}.", { format: kind.toUpperCase() }));
  }

  // The address bar follows the last figure the reader changed, without adding history entries, and so does the
  // article (data-sq-linked), which keeps it when Material's tracking puts the section in the address instead: the
  // language switcher carries it (switcher.js).
  remember() {
    if (this.onEmbedPage) return;
    const url = new URL(location.href);
    url.hash = `${this.el.id}?${query(this.state)}`;
    history.replaceState(history.state, "", url);
    this.linked(url.hash);
    const link = this.el.querySelector('[data-action="permalink"]');
    if (link) link.href = url.href;
  }

  linked(hash) {
    const article = this.el.closest("article");
    if (article) article.dataset.sqLinked = hash;
  }

  /** Copy the embed code for the current state; without a clipboard it is offered in a prompt. */
  copyEmbed(button) {
    const code = this.embedCode();
    copy(button, code, t("Embed code copied"), () => window.prompt(t("Copy this embed code:"), code));
  }

  embedCode() {
    const src = new URL(this.el.dataset.embed, location.href);
    src.search = query(this.state);
    if (lang() !== "en") src.searchParams.set("lang", lang());  // a Chinese page's code keeps its language
    return iframeCode(src.href, this.el.dataset.title, this.el.dataset.embedHeight);
  }
}
