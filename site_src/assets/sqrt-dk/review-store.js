//# allFunctionsCalledOnLoad
// The reader's review history on this device: one localStorage entry per recall card, its key the site's
// path and the card's id ("sqrt-dk review /course/ step-4-variance-is-dk"), its value the text
// pycore/review.py wrote (a versioned JSON record). Nothing here reads a record: Python does, and says
// which ones cannot be read. Where the browser refuses storage (a sandboxed frame, storage blocked), the
// history lives in memory for as long as the page is open, and `persistent` says so.

const ROOT = new URL("../../", import.meta.url); // this file is assets/sqrt-dk/review-store.js
export const PREFIX = `sqrt-dk review ${ROOT.pathname} `;

const memory = new Map();

function storage() {
  try {
    const probe = PREFIX + "probe";
    window.localStorage.setItem(probe, "1");
    window.localStorage.removeItem(probe);
    return window.localStorage;
  } catch {
    return null;
  }
}

const local = storage();

/** Whether the history outlives the page. */
export const persistent = Boolean(local);

function keys() {
  if (!local) return [...memory.keys()];
  return Array.from({ length: local.length }, (_, i) => local.key(i)).filter((key) => key && key.startsWith(PREFIX));
}

/** Every stored record by card id, as text. */
export function readAll() {
  return Object.fromEntries(keys().map((key) => [key.slice(PREFIX.length), local ? local.getItem(key) : memory.get(key)]));
}

/** One card's record, or null. */
export function read(id) {
  return local ? local.getItem(PREFIX + id) : memory.get(PREFIX + id) ?? null;
}

/** Keep one card's record (throws if the browser's quota is full). */
export function write(id, text) {
  if (local) local.setItem(PREFIX + id, text);
  else memory.set(PREFIX + id, text);
}

export function remove(id) {
  if (local) local.removeItem(PREFIX + id);
  else memory.delete(PREFIX + id);
}

/** Remove every record of this site; what was removed, by card id, so that it can be put back. */
export function clear() {
  const removed = readAll();
  Object.keys(removed).forEach(remove);
  return removed;
}
