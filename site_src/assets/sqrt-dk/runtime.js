// Pyodide plus the packed pycore, behind one message handler. The worker uses it, and so does
// the page itself where no worker can be started (a frame sandboxed without allow-same-origin).
//
// Every message names its type. The page sends {type: "request", id, request}. This side posts
// {type: "progress", text} while Python starts, then {type: "ready"} or {type: "failed", reason};
// and for each request {type: "answer", id, answer} or {type: "error", id, reason}.
import { loadPyodide } from "../vendor/pyodide/pyodide.mjs";
import { CORE, LOCK, STDLIB } from "./runtime-files.js";

const reason = (err) => String((err && err.message) || err);

export function createRuntime(base, post) {
  let handle = null;

  async function fetchCore() {
    const archive = await fetch(new URL(CORE, base));
    if (!archive.ok) throw new Error(`the core archive answered HTTP ${archive.status}`);
    return archive.arrayBuffer();
  }

  async function start() {
    post({ type: "progress", text: "loading the Python runtime" });
    const core = fetchCore(); // downloads while Pyodide starts
    core.catch(() => {}); // its failure is reported when awaited below
    // The standard library is the site's trimmed one; the lock file lists no packages, as none are loaded.
    const pyodide = await loadPyodide({ indexURL: new URL("../vendor/pyodide/", base).href,
                                        stdLibURL: new URL(STDLIB, base).href, lockFileContents: LOCK });
    post({ type: "progress", text: "loading the figures' code" });
    pyodide.unpackArchive(await core, "zip");
    handle = pyodide.pyimport("pycore.bridge").handle;
  }

  const ready = start();
  ready.then(() => post({ type: "ready" }), (err) => post({ type: "failed", reason: reason(err) }));

  return async ({ type, id, request }) => {
    try {
      if (type !== "request") throw new Error(`unknown message type '${type}'`);
      await ready;
      post({ type: "answer", id, answer: JSON.parse(handle(JSON.stringify(request))) });
    } catch (err) {
      post({ type: "error", id, reason: reason(err) });
    }
  };
}
