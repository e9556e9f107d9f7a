// A classic script, so it runs even where the module cannot load: in a frame sandboxed without
// allow-same-origin the page's origin is opaque, and the figure can only become interactive if
// the site answers with Access-Control-Allow-Origin. Say so; figures.js replaces it if it runs.
if (self.origin === "null") {
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-status]").forEach(function (line) {
      line.textContent = "This frame is sandboxed without allow-same-origin: it becomes interactive only if the site sends Access-Control-Allow-Origin (see the page for teachers).";
    });
  });
}
