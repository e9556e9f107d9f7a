// Module worker: loads Pyodide and the packed pycore once, then answers JSON requests.
import { loadPyodide } from "../vendor/pyodide/pyodide.mjs";

let handle = null;

async function start() {
  self.postMessage({ progress: "loading the Python runtime" });
  const pyodide = await loadPyodide({ indexURL: new URL("../vendor/pyodide/", import.meta.url).href });
  self.postMessage({ progress: "loading the figures' code" });
  const manifest = await fetch(new URL("core.json", import.meta.url), { cache: "no-cache" });
  if (!manifest.ok) throw new Error(`core.json answered HTTP ${manifest.status}`);
  const archive = await fetch(new URL((await manifest.json()).archive, import.meta.url));
  if (!archive.ok) throw new Error(`the core archive answered HTTP ${archive.status}`);
  pyodide.unpackArchive(await archive.arrayBuffer(), "zip");
  handle = pyodide.pyimport("pycore.bridge").handle;
}

const ready = start();
ready.then(
  () => self.postMessage({ progress: "ready", ready: true }),
  (err) => self.postMessage({ fatal: String((err && err.message) || err) }),
);

self.onmessage = async (event) => {
  const { id, request } = event.data;
  try {
    await ready;
    self.postMessage({ id, answer: JSON.parse(handle(JSON.stringify(request))) });
  } catch (err) {
    self.postMessage({ id, fatal: String((err && err.message) || err) });
  }
};
