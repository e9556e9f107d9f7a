// Pyodide plus the packed pycore, behind one message handler. The worker uses it, and so does
// the page itself where no worker can be started (a frame sandboxed without allow-same-origin).
//
// Every message names its type. The page sends {type: "begin"} once it has bound its figures, then
// {type: "request", id, request}. This side posts
// {type: "progress", text} while Python starts (figures.js words each text in the page's language), then {type: "ready", from} ("snapshot" or "start")
// or {type: "failed", reason}; and for each request {type: "answer", id, answer} or {type: "error", id, reason}.
//
// A repeat visit starts from a memory snapshot of the interpreter with the core imported, made on
// this machine after a normal start and kept in Cache Storage under the names of this build's
// archives and Pyodide's version, so a site whose runtime changed never starts from an old one.
// Whatever goes wrong with a snapshot, Python starts the normal way.
//
// Two User Timing marks time the start for make bench (and DevTools): "sqrt-dk:pyodide" when Pyodide
// is up (its wasm compiled and instantiated, the snapshot restored), "sqrt-dk:core" when the bridge is imported.
import { loadPyodide, version } from "../vendor/pyodide/pyodide.mjs";
import { CORE, CORE_PATH, LOCK, STDLIB } from "./runtime-files.js";
import { packed, unpacked } from "./snapshot.js";

const reason = (err) => String((err && err.message) || err);
const SNAPSHOTS = "sqrt-dk python snapshot";

export function createRuntime(base, post, { snapshots = true } = {}) {
  let handle = null;
  // Started from the page's head, the worker fetches the core and restores a kept snapshot at once, but a first
  // start (compiling the wasm, starting the interpreter: seconds of a phone's processor) waits for the page's
  // "begin": beside the page's own start, it made the page's long tasks a third longer (make bench, against the twin).
  let begin;
  const begun = new Promise((resolve) => { begin = resolve; });
  const key = new URL(`python-snapshot?pyodide=${version}&stdlib=${STDLIB}&core=${CORE}`, base).href;
  const store = () => (snapshots && self.caches ? caches.open(SNAPSHOTS + " " + new URL("../../", base).pathname)
    : Promise.reject(new Error("no Cache Storage")));

  async function fetchCore() {
    const archive = await fetch(new URL(CORE, base));
    if (!archive.ok) throw new Error(`the core archive answered HTTP ${archive.status}`);
    return archive.arrayBuffer();
  }

  // The kept snapshot as {bytes}, a promise of them (null if none is kept): Pyodide awaits it only once its own
  // files are loaded, so reading it from Cache Storage (snapshot.js: 12 of its 31 MB) overlaps loading them.
  async function savedSnapshot() {
    try {
      const found = await (await store()).match(key);
      if (!found) return null;
      const bytes = unpacked(found);
      bytes.catch(() => {}); // a failed read fails the start that awaits it, which then starts anew
      return { bytes };
    } catch {
      return null;
    }
  }

  // Keep this start's snapshot as the only one (an older build's goes), once the figures have what they asked for.
  function keepSnapshot(pyodide) {
    setTimeout(async () => {
      try {
        const snapshot = pyodide.makeMemorySnapshot();
        const cache = await store();
        await Promise.all((await cache.keys()).map((old) => cache.delete(old)));
        await cache.put(key, packed(snapshot));
      } catch (err) {
        console.warn(`Python's start could not be kept for the next visit: ${reason(err)}`);
      }
    }, 1000);
  }

  // The standard library is the site's trimmed one; the lock file lists no packages, as none are loaded.
  async function boot(core, snapshot) {
    const pyodide = await loadPyodide({ indexURL: new URL("../vendor/pyodide/", base).href,
                                        stdLibURL: new URL(STDLIB, base).href, lockFileContents: LOCK,
                                        ...(snapshot ? { _loadSnapshot: snapshot } : { _makeSnapshot: snapshots }) });
    performance.mark("sqrt-dk:pyodide");
    post({ type: "progress", text: "the figures' code" });
    // The core's archive goes on Python's path as it is, not unpacked (unpacking its files took Python 50 ms of each
    // start). A snapshot holds no files, so every start writes it; a kept start's sys.path names it already.
    pyodide.FS.writeFile(CORE_PATH, new Uint8Array(await core));
    if (!snapshot) pyodide.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(CORE_PATH)})`);
    handle = pyodide.pyimport("pycore.bridge").handle;
    performance.mark("sqrt-dk:core");
    return pyodide;
  }

  async function start() {
    post({ type: "progress", text: "the runtime" });
    const core = fetchCore(); // downloads while Pyodide starts
    core.catch(() => {}); // its failure is reported when awaited below
    const snapshot = await savedSnapshot();
    if (snapshot) {
      try {
        await boot(core, snapshot.bytes);
        return "snapshot";
      } catch (err) {
        console.warn(`Python's kept start failed (${reason(err)}); starting it anew`);
      }
    }
    await begun;
    const pyodide = await boot(core, null);
    if (snapshots) keepSnapshot(pyodide);
    return "start";
  }

  const ready = start();
  ready.then((from) => post({ type: "ready", from }), (err) => post({ type: "failed", reason: reason(err) }));

  return async ({ type, id, request }) => {
    if (type === "begin") return begin();
    try {
      if (type !== "request") throw new Error(`unknown message type '${type}'`);
      await ready;
      post({ type: "answer", id, answer: JSON.parse(handle(JSON.stringify(request))) });
    } catch (err) {
      post({ type: "error", id, reason: reason(err) });
    }
  };
}
