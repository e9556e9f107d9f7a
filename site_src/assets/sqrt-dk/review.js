//# allFunctionsCalledOnLoad
// The recall cards' spaced review, the page's side. Every card ([data-card]) can be graded where it stands
// (Again, Hard, Good, Easy: by mouse, touch or keyboard, and the keys 1 to 4 inside an open card); the header
// shows how many cards are due; the review page's session ([data-review-session]) walks the due cards in
// FSRS's order, and exports, imports and clears the history. Events in, state out: every due time, order,
// interval and sentence about them comes from pycore/review.py through the bridge; the records are kept by
// review-store.js. A card shows its controls only once Python has read the history: without JavaScript (or
// Python) a card is a question that opens on its answer.
import * as store from "./review-store.js";
import { save } from "./export.js";
import { t } from "./i18n.js";

const ROOT = new URL("../../", import.meta.url); // this file is assets/sqrt-dk/review.js
const REFRESH_MS = 60_000; // "due in 5 minutes" becomes "due now" without a reload

let client = null;
let latest = null; // the last review-due answer
let deck = null; // the site's card ids, from cards.json
const reported = new Set();

const now = () => new Date().toISOString();

function cardIds() {
  deck ||= fetch(new URL("cards.json", ROOT)).then((response) => {
    if (!response.ok) throw new Error(t("the list of cards answered HTTP {status}", { status: response.status }));
    return response.json();
  }).then((list) => list.cards.map((card) => card.id));
  deck.catch(() => { deck = null; }); // asked again at the next refresh
  return deck;
}

const cardsOf = (id) => [...document.querySelectorAll(`[data-card="${id}"]`)];

/** Say something about the history where the reader will see it: the cards it concerns, the review page's
 * message line, or else the first card's line; and in the console. */
function report(text, id = null) {
  const places = [...(id ? cardsOf(id).map((el) => el.querySelector("[data-said]")) : []),
                  ...document.querySelectorAll("[data-review-message]")];
  const first = document.querySelector("[data-card] [data-said]");
  (places.length ? places : first ? [first] : []).forEach((place) => { place.textContent = text; });
  console.warn(text);
}

function reportOnce(text, id = null) {
  if (reported.has(text)) return;
  reported.add(text);
  report(text, id);
}

/** The header's small "N due" link to the review page (article pages only; an embed page has no header). */
function badge() {
  const title = document.querySelector(".md-header__inner .md-header__title");
  if (!title || document.body.classList.contains("sq-embed")) return null;
  let link = title.parentElement.querySelector(".sq-due");
  if (!link) {
    link = document.createElement("a");
    link.className = "sq-due";
    link.href = new URL("review/", ROOT).href;
    link.hidden = true;
    title.after(link);
  }
  return link;
}

function patchCard(el, status) {
  el.dataset.due = status.due || "";
  el.dataset.reviews = String(status.reviews);
  el.dataset.reviewState = status.new ? "new" : status.is_due ? "due" : "scheduled";
  const controls = el.querySelector("[data-review]");
  controls.querySelector("[data-due]").textContent = status.new
    ? t("New: answer it, open it, and grade yourself to add it to your reviews.")
    : status.is_due ? t("Due now.") : t("Next due {when}.", { when: status.when });
  controls.querySelectorAll("[data-grade]").forEach((button) => {
    button.querySelector("[data-interval]").textContent = status.preview[button.dataset.grade];
  });
  controls.hidden = false;
  el.dataset.ready = "true";
}

function patch(answer) {
  latest = answer;
  document.querySelectorAll("[data-card]").forEach((el) => {
    const status = answer.cards[el.dataset.card];
    if (status) patchCard(el, status);
  });
  document.querySelectorAll("[data-review-count]").forEach((line) => { line.textContent = answer.summary; });
  const link = badge();
  if (link) {
    link.hidden = answer.count === 0;
    link.textContent = t("{count} due", { count: answer.count });
    link.setAttribute("aria-label", answer.summary + " " + t("Review them"));
  }
  document.querySelectorAll("[data-review-session]").forEach((section) => {
    section.hidden = false;
    const idle = section.querySelector("[data-review-current]").hidden;
    section.querySelector("[data-review-start]").hidden = !idle || (!answer.due.length && !answer.new.length);
  });
}

/** Ask Python for every card's status from the stored records; remove the records it cannot read. */
async function refresh() {
  try {
    const answer = await client.call({ op: "review-due", cards: await cardIds(), records: store.readAll(), now: now() });
    if (answer.failed) throw new Error(answer.error);
    // A record that cannot be read is reported and replaced where the reader sees it: on its card's page, or on
    // a page with a message line (the review page); elsewhere it waits.
    for (const problem of answer.problems) {
      if (!cardsOf(problem.card).length && !document.querySelector("[data-review-message]")) continue;
      if (problem.replace) store.remove(problem.card);
      reportOnce(problem.message, problem.card);
    }
    if (!store.persistent) {
      reportOnce(t("This browser does not let this page keep your grades (storage is blocked here, or the frame is "
                 + "sandboxed), so they last only while the page is open."));
    }
    patch(answer);
  } catch (err) {
    reportOnce(t("The review schedule is unavailable: {message}", { message: err.message }));
  }
}

async function grade(el, button) {
  const id = el.dataset.card;
  const copies = cardsOf(id);
  copies.forEach((c) => c.querySelectorAll("[data-grade]").forEach((b) => { b.disabled = true; }));
  const said = el.querySelector("[data-said]");
  try {
    const answer = await client.call({ op: "review-grade", card: id, record: store.read(id), grade: button.dataset.grade, now: now() });
    if (answer.failed) throw new Error(answer.error);
    store.write(id, answer.record);
    const words = button.firstChild.textContent.trim();
    const saved = t("Saved “{words}”: next due {when}.", { words, when: answer.status.when });
    said.textContent = answer.replaced ? `${answer.replaced} ${saved}` : saved;
    await refresh();
    el.dispatchEvent(new CustomEvent("sq:graded", { bubbles: true, detail: { card: id, words, when: answer.status.when } }));
  } catch (err) {
    said.textContent = t("This grade was not saved: {message}", { message: err.message });
  } finally {
    copies.forEach((c) => c.querySelectorAll("[data-grade]").forEach((b) => { b.disabled = false; }));
  }
}

function bindCard(el) {
  if (el.dataset.bound) return;
  el.dataset.bound = "true";
  el.querySelectorAll("[data-grade]").forEach((button) => button.addEventListener("click", () => grade(el, button)));
  el.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || !el.querySelector("details").open) return;
    const button = el.querySelector(`[data-grade][aria-keyshortcuts="${event.key}"]`);
    if (!button || button.disabled || el.querySelector("[data-review]").hidden) return;
    event.preventDefault();
    button.click();
  });
}

// The review page: a session over the cards due now in FSRS's order, then the new ones; export, import, clear.
function bindSession(section) {
  if (section.dataset.bound) return;
  section.dataset.bound = "true";
  const current = section.querySelector("[data-review-current]");
  const slot = section.querySelector("[data-review-slot]");
  const progress = section.querySelector("[data-review-progress]");
  const start = section.querySelector("[data-review-start]");
  const message = (text) => { section.querySelector("[data-review-message]").textContent = text; };
  let queue = [];
  let index = 0;

  function show(said) {
    const original = queue[index] && document.querySelector(`.sq-recall[data-card="${queue[index]}"]:not([data-copy])`);
    if (!original) {
      current.hidden = true;
      start.hidden = !latest.due.length && !latest.new.length;
      slot.replaceChildren();
      progress.textContent = "";
      const done = index === 1 ? t("Done: you went through {count} card.", { count: index })
        : t("Done: you went through {count} cards.", { count: index });
      message(said + done + " " + latest.summary);
      (start.hidden ? section.querySelector("[data-review-export]") : start).focus();
      return;
    }
    const copy = original.cloneNode(true);
    copy.dataset.copy = "true";
    delete copy.dataset.bound;
    copy.querySelector("details").open = false;
    copy.querySelector("[data-said]").textContent = "";
    slot.replaceChildren(copy);
    bindCard(copy);
    patchCard(copy, latest.cards[queue[index]]);
    current.hidden = false;
    start.hidden = true;
    progress.textContent = said + t("Card {number} of {count}.", { number: index + 1, count: queue.length });
    copy.querySelector("summary").focus();
  }

  start.addEventListener("click", () => {
    queue = [...latest.due, ...latest.new];
    index = 0;
    message("");
    show("");
  });
  slot.addEventListener("sq:graded", (event) => {
    index += 1;
    show(t("Saved “{words}”: next due {when}.", { words: event.detail.words, when: event.detail.when }) + " ");
  });

  section.querySelector("[data-review-export]").addEventListener("click", async () => {
    const answer = await client.call({ op: "review-export", cards: await cardIds(), records: store.readAll(), now: now() });
    if (answer.failed) message(t("The history could not be exported: {message}", { message: answer.error }));
    else if (!answer.count) message(t("There is no history to export yet: grade a card first."));
    else {
      save(new Blob([answer.text], { type: "application/json" }), answer.filename);
      message(answer.count === 1 ? t("Exported the history of {count} card as {file}.", { count: 1, file: answer.filename })
        : t("Exported the history of {count} cards as {file}.", { count: answer.count, file: answer.filename }));
    }
  });

  const input = section.querySelector("[data-review-import]");
  input.addEventListener("change", async () => {
    const file = input.files[0];
    if (!file) return;
    const text = await file.text();
    input.value = "";
    const answer = await client.call({ op: "review-import", cards: await cardIds(), records: store.readAll(), text, now: now() });
    if (answer.failed) {
      message(t("The file could not be imported: {message}. Nothing was changed.", { message: answer.error }));
      return;
    }
    try {
      Object.entries(answer.records).forEach(([id, record]) => store.write(id, record));
      message(answer.message);
    } catch (err) {
      message(t("The browser refused to keep part of the imported history ({message}); what was stored before is still there.", { message: err.message }));
    }
    await refresh();
  });

  let cleared = {};
  const undo = section.querySelector("[data-review-undo]");
  section.querySelector("[data-review-clear]").addEventListener("click", async () => {
    cleared = store.clear();
    const n = Object.keys(cleared).length;
    undo.hidden = n === 0;
    message(n === 1 ? t("Cleared the history of {count} card from this device. Undo puts it back while this page is open.", { count: n })
      : n ? t("Cleared the history of {count} cards from this device. Undo puts it back while this page is open.", { count: n })
        : t("There was no history on this device to clear."));
    await refresh();
  });
  undo.addEventListener("click", async () => {
    Object.entries(cleared).forEach(([id, record]) => store.write(id, record));
    message(t("Put back the history of {count} cards.", { count: Object.keys(cleared).length }));
    cleared = {};
    undo.hidden = true;
    await refresh();
  });
}

/**
 * Bind the page's cards and review session to Python's review (once it is ready); the header's due count
 * follows on any page where Python runs. Whether the page has cards, so that Python must start for them.
 * @param {import("./bridge-client.js").BridgeClient} bridge
 */
export function bindReview(bridge) {
  const first = !client;
  client = bridge;
  document.querySelectorAll("[data-card]").forEach(bindCard);
  document.querySelectorAll("[data-review-session]").forEach(bindSession);
  client.whenReady.then(refresh, () => {});
  if (first) {
    setInterval(() => { if (client.phase === "ready" && document.visibilityState === "visible") refresh(); }, REFRESH_MS);
    document.addEventListener("visibilitychange", () => { if (client.phase === "ready" && document.visibilityState === "visible") refresh(); });
  }
  return Boolean(document.querySelector("[data-card]"));
}
