// Pyodide's 1 MB module, run once from the service worker's cache on the visit that filled it, and nothing more:
// Chromium compiles a script it serves from there and keeps the compiled code beside it, so the next visit's
// Python worker takes it compiled instead of compiling it on its way to the first figure (offline.js).
import "../vendor/pyodide/pyodide.asm.mjs";

self.postMessage("compiled");
