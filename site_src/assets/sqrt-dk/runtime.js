// Pyodide plus the packed pycore, behind one message handler. The worker uses it, and so does
// the page itself where no worker can be started (a frame sandboxed without allow-same-origin).
import { loadPyodide } from "../vendor/pyodide/pyodide.mjs";

export function createRuntime(base, post) {
  let handle = null;

  async function fetchCore() {
    const manifest = await fetch(new URL("core.json", base), { cache: "no-cache" });
    if (!manifest.ok) throw new Error(`core.json answered HTTP ${manifest.status}`);
    const archive = await fetch(new URL((await manifest.json()).archive, base));
    if (!archive.ok) throw new Error(`the core archive answered HTTP ${archive.status}`);
    return archive.arrayBuffer();
  }

  async function start() {
    post({ progress: "loading the Python runtime" });
    const core = fetchCore(); // downloads while Pyodide starts
    core.catch(() => {}); // its failure is reported when awaited below
    const pyodide = await loadPyodide({ indexURL: new URL("../vendor/pyodide/", base).href });
    post({ progress: "loading the figures' code" });
    pyodide.unpackArchive(await core, "zip");
    handle = pyodide.pyimport("pycore.bridge").handle;
  }

  const ready = start();
  ready.then(
    () => post({ progress: "ready", ready: true }),
    (err) => post({ fatal: String((err && err.message) || err) }),
  );

  return async ({ id, request }) => {
    try {
      await ready;
      post({ id, answer: JSON.parse(handle(JSON.stringify(request))) });
    } catch (err) {
      post({ id, fatal: String((err && err.message) || err) });
    }
  };
}
