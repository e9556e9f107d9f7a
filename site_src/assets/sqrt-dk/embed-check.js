// A classic script, so it runs before the page is drawn, and even where the module cannot load.
// An embed page asked for another language the site has (lang=zh, lang=en) goes to that language's embed page,
// its link rel="alternate", with the address's settings: before anything is drawn, so the frame shows one page.
(function () {
  var asked = new URLSearchParams(location.search).get("lang");
  if (!asked || !/^[a-z]{2}$/.test(asked) || document.documentElement.lang.toLowerCase().indexOf(asked) === 0) return;
  var other = document.querySelector('link[rel="alternate"][hreflang^="' + asked + '"]');
  if (other) location.replace(new URL(other.getAttribute("href"), location.href).href + location.search + location.hash);
})();
// In a frame sandboxed without
// allow-same-origin the page's origin is opaque, and the figure can only become interactive if
// the site answers with Access-Control-Allow-Origin. Say so, and if the address asks for a state
// (any parameter but theme), mark the figure pending: what is drawn is the default. figures.js
// replaces the message if it runs.
if (self.origin === "null") {
  document.addEventListener("DOMContentLoaded", function () {
    var asked = new URLSearchParams(location.search);
    asked.delete("theme");
    asked.delete("lang");
    var pending = Array.from(asked.keys()).length > 0;
    document.querySelectorAll("[data-figure]").forEach(function (figure) {
      if (pending) figure.dataset.pending = "true";
      figure.querySelector("[data-status]").textContent = "This frame is sandboxed without allow-same-origin: it becomes interactive only if the site sends Access-Control-Allow-Origin (see the page for teachers)."
        + (pending ? " Showing the default figure, not the settings in this link." : "");
    });
  });
}
