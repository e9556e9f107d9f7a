//# allFunctionsCalledOnLoad
// A figure's events in: pointer drags and arrow keys on its handles, its controls and its buttons become
// requests of its view (figure-view.js), which sends them to Python and shows the answers. No math here.

/** The pointer in user units of the stage's SVG at this index (an answer replaces the SVG element, not its place). */
function svgPoint(view, event, index) {
  const svg = view.stage.querySelectorAll("svg")[index];
  const m = svg.getScreenCTM().inverse();
  return { x: m.a * event.clientX + m.c * event.clientY + m.e, y: m.b * event.clientX + m.d * event.clientY + m.f };
}

/**
 * Turn the figure's events into requests: drags and arrow keys on its handles, its sliders, radios and text
 * fields, and its buttons (set, events, Play, and the actions menu: embed, reset, Python).
 * @param {import("./figure-view.js").FigureView} view
 */
export function bindEvents(view) {
  const stage = view.stage;
  stage.addEventListener("pointerdown", (e) => {
    const h = e.target.closest("[data-handle]");
    if (!h || !view.ready) return;
    e.preventDefault();
    // The tip keeps the offset at which it was grabbed (anywhere in its hit circle) rather than
    // jumping to the pointer, so pressing alone sends nothing.
    const svg = [...stage.querySelectorAll("svg")].indexOf(h.closest("svg"));
    const pointer = svgPoint(view, e, svg);
    const dot = h.querySelector(".sq-dot");
    view.drag = { handle: h.dataset.handle, svg, offset: { x: pointer.x - dot.cx.baseVal.value, y: pointer.y - dot.cy.baseVal.value } };
    stage.setPointerCapture(e.pointerId);
    h.focus({ preventScroll: true });
  });
  stage.addEventListener("pointermove", (e) => {
    if (!view.drag) return;
    const { handle, svg, offset } = view.drag;
    const pointer = svgPoint(view, e, svg);
    view.queue.send({ type: "drag", handle, x: pointer.x - offset.x, y: pointer.y - offset.y });
  });
  const end = () => {
    if (!view.drag) return;
    view.drag = null;
    view.track = true;
    if (view.queue.idle) { view.speak(); view.remember(); } else view.announce = true;
  };
  stage.addEventListener("pointerup", end);
  stage.addEventListener("pointercancel", end);
  stage.addEventListener("keydown", (e) => {
    const h = e.target.closest("[data-handle]");
    const keys = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "PageUp", "PageDown"];
    if (!h || !keys.includes(e.key) || !view.ready) return;
    e.preventDefault();
    view.announce = true; view.track = true;
    view.queue.send({ type: "key", handle: h.dataset.handle, key: e.key, shift: e.shiftKey });
  });
  view.el.addEventListener("input", (e) => {
    const input = e.target.closest("[data-field]");
    if (!input || input.type === "text") return; // text is sent whole, on change
    sendField(view, input);
  });
  view.el.addEventListener("change", (e) => {
    view.announce = true;
    const input = e.target.closest("input[type='text'][data-field]");
    if (input) sendField(view, input);
  });
  view.python.addEventListener("keydown", (e) => { if (e.key === "Escape") view.closePython(); });
  // "More settings" turns its hidden inputs into text fields as it opens (figure.html.j2 says why): on the click
  // that opens it, before it is drawn open, and on any other opening (find in page, a script).
  view.el.addEventListener("toggle", (e) => unfold(e.target), true);
  view.el.querySelectorAll("details[open]").forEach(unfold); // opened before the figure was bound
  view.el.addEventListener("click", (e) => {
    const summary = e.target.closest("summary");
    if (summary) unfold(summary.parentElement);
    const b = e.target.closest("button, a[data-action]");
    if (b && b.dataset.download) { view.download(b.dataset.download); return; }
    if (!b || !view.ready) return;
    if (b.dataset.set) { view.announce = view.track = true; view.queue.send({ type: "set", field: b.dataset.set, value: b.dataset.value }); }
    else if (b.dataset.event) { view.announce = view.track = true; view.queue.send({ type: b.dataset.event }); }
    else if (b.dataset.play) play(view, b);
    else if (b.dataset.action === "embed") view.copyEmbed(b);
    else if (b.dataset.action === "reset") view.reset();
    else if (b.dataset.action === "python") view.togglePython(b);
    else if (b.dataset.action === "close-python") view.closePython();
  });
}

/** The text fields kept as hidden inputs under these details, made text fields. */
function unfold(details) {
  details.querySelectorAll("input[data-later]").forEach((input) => { input.type = "text"; delete input.dataset.later; });
}

// A log slider sends its position; Python says which value that is, and the answer shows it.
function sendField(view, input) {
  const log = input.dataset.scale === "log";
  const output = view.el.querySelector(`output[data-value="${input.dataset.field}"]`);
  if (output && !log) output.textContent = input.value;
  view.track = true;
  view.queue.send({ type: "set", field: input.dataset.field, [log ? "position" : "value"]: input.value });
}

// Play sweeps a range control from its first stop to its last; with reduced motion it jumps between stops.
function play(view, button) {
  const stop = () => { clearInterval(view.timer); view.timer = null; button.setAttribute("aria-pressed", "false"); };
  if (view.timer) { stop(); return; }
  const name = button.dataset.play;
  const stops = button.dataset.stops.split(",").map(Number);
  const reduced = matchMedia("(prefers-reduced-motion: reduce)").matches;
  const values = reduced ? stops : Array.from({ length: 61 }, (_, i) => stops[0] + (i / 60) * (stops[stops.length - 1] - stops[0]));
  let i = 0;
  button.setAttribute("aria-pressed", "true");
  view.timer = setInterval(() => {
    view.queue.send({ type: "set", field: name, value: String(Math.round(values[i] * 100) / 100) });
    if (++i >= values.length) { stop(); view.announce = true; }
  }, reduced ? 1500 : 50);
}
