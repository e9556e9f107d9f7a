// The one script in a page's head. Material's storage helpers (its partials/javascripts/base.html), as a file so
// that a strict Content-Security-Policy needs no inline script; the scope is the site root, two levels above this
// file, and storage access is guarded (in a sandboxed frame localStorage throws). On a page with figures or recall
// cards (its tag marked data-python by the build, pack.py) it also starts Python's worker, before the stylesheets
// and the theme's scripts, and holds the theme's search index back until Python has started. One file for it all,
// as a figure page's head asked for one more file than Chromium's six connections to an HTTP/1.1 host carry at
// once, and its first paint waited for it (README, Benchmark).
var __md_scope = new URL("../../", document.currentScript.src);
var __md_hash = function (value) {
  return [...value].reduce(function (hash, c) { return (hash << 5) - hash + c.charCodeAt(0); }, 0);
};
var __md_get = function (key, storage, scope) {
  try {
    storage = storage || localStorage;
    scope = scope || __md_scope;
    return JSON.parse(storage.getItem(scope.pathname + "." + key));
  } catch (err) {
    return null;
  }
};
var __md_set = function (key, value, storage, scope) {
  try {
    storage = storage || localStorage;
    scope = scope || __md_scope;
    storage.setItem(scope.pathname + "." + key, JSON.stringify(value));
  } catch (err) {
    /* storage unavailable: the preference is simply not remembered */
  }
};
// Python's worker starts while the page is parsed, so the core and the kept snapshot load, and a kept start is
// restored, while the page is still laid out (a first start waits for the page's figures: runtime.js);
// bridge-client.js adopts it, with what it said meanwhile.
(function () {
  if (!document.currentScript.hasAttribute("data-python")) return;
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
  holdSearch(worker);

  // Material's search builds its index in a worker of its own as soon as the page has loaded: on a figure page,
  // a core for 0.6 s while Python started on the other (a return visit to Step 2, traced, on this 2-core host).
  // So the index it is handed waits until Python's worker has answered (ready or failed), or the reader opens search.
  function holdSearch(python) {
    var held = [];
    function release() {
      if (!held) return;
      var sends = held;
      held = null;
      sends.forEach(function (send) { send(); });
    }
    python.addEventListener("message", function (event) {
      if (event.data.type === "ready" || event.data.type === "failed") release();
    });
    python.addEventListener("error", release);
    document.addEventListener("change", function (event) {
      if (event.target.getAttribute("data-md-toggle") === "search") release();
    });
    var Native = window.Worker;
    function Worker(url, options) {
      var worker = new Native(url, options);
      if (/\/workers\/search\.[^/]*\.js$/.test(new URL(url, location.href).pathname)) {
        var post = worker.postMessage;
        worker.postMessage = function (message) {
          var send = function () { post.call(worker, message); };
          if (held) held.push(send); else send();
        };
      }
      return worker;
    }
    Worker.prototype = Native.prototype;
    window.Worker = Worker;
  }
})();
