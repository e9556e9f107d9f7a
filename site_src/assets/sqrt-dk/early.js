// Starts Python's worker from the page's head, before the stylesheets and the theme's scripts, so that
// the core and the kept snapshot load, and a kept start is restored, while the page is still parsed and laid
// out (a first start waits for the page's figures: runtime.js). A classic
// script, so it runs in order, before Material's bundle at the end of the body; the build puts it only on
// pages with figures or recall cards (pack.py). bridge-client.js adopts the worker, with what it said meanwhile.
(function () {
  // A frame sandboxed without allow-same-origin cannot start a worker from the site: bridge-client.js runs Python on the page.
  if (self.origin === "null") return;
  var url = new URL("./worker.js", document.currentScript.src);
  if (window.top !== window) url.search = "framed"; // no 12 MB snapshot of Python in every host site's storage
  var worker;
  try {
    worker = new Worker(url, { type: "module" });
  } catch (err) {
    return; // bridge-client.js tries again, and says why it cannot
  }
  var said = [];
  worker.onmessage = worker.onerror = function (event) { said.push(event); };
  window.sqrtDkWorker = { worker: worker, said: said };
})();
