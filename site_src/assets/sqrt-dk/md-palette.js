// The light/dark palette, in place of Material's palette component (partials/palette.html does not ask Material to
// mount it). It runs in the header, right after the palette's form, so the page is painted in its palette from the
// first frame: the reader's saved choice, else the first option whose media query matches (Material's rule; a
// reader who never chose follows the system). Material's component applied the palette a second time once its
// bundle ran, setting and clearing data-md-color-switching on body, and each of those restyled every element of the
// page: two to three full style passes at a phone's speed, the longer the more figures (make bench). A reader's
// switch still sets that attribute, which stops the theme's colour transitions meanwhile, and is saved as
// Material saves it (__md_set: head.js), so Material's storage and this agree.
(function () {
  var form = document.querySelector("[data-sq-palette]");
  if (!form) return;
  var inputs = Array.prototype.slice.call(form.querySelectorAll("input"));
  var current = -1;

  function color(input) {
    var out = {};
    ["media", "scheme", "primary", "accent"].forEach(function (key) { out[key] = input.getAttribute("data-md-color-" + key); });
    return out;
  }

  function chosen() {
    var saved = __md_get("__palette");
    var index = saved && typeof saved.index === "number" ? saved.index : inputs.findIndex(function (input) {
      return matchMedia(input.getAttribute("data-md-color-media")).matches;
    });
    return Math.max(0, Math.min(index, inputs.length - 1));
  }

  // Body's colour attributes, and of the toggles only the one that leads on from this palette shown; the palette.
  function apply(index) {
    current = index;
    var palette = color(inputs[index]);
    for (var key in palette) document.body.setAttribute("data-md-color-" + key, palette[key]);
    inputs.forEach(function (input, i) {
      var toggle = input.nextElementSibling;
      if (toggle instanceof HTMLLabelElement) toggle.hidden = i !== index;
    });
    return palette;
  }

  // The browser's own chrome (its address bar) in the header's colour, as Material did. Read once the page is styled,
  // never in the middle of its start, where reading a computed style restyles the page. (The page's colour scheme
  // comes from figures.css: Material's meta tag for it, written here, restyled every element twice.)
  function tellBrowser() {
    var found = document.head.querySelector('meta[name="theme-color"]');
    var meta = found || document.head.appendChild(Object.assign(document.createElement("meta"), { name: "theme-color" }));
    meta.content = "#" + getComputedStyle(document.querySelector("header")).backgroundColor.match(/\d+/g).slice(0, 3)
      .map(function (c) { return (+c).toString(16).padStart(2, "0"); }).join("");
  }

  // A switch the reader asked for is kept (keep); one that follows the system is not.
  function switchTo(index, keep) {
    document.body.setAttribute("data-md-color-switching", "");
    var palette = apply(index);
    if (keep) __md_set("__palette", { index: index, color: palette });
    setTimeout(function () {
      document.body.removeAttribute("data-md-color-switching");
      tellBrowser();
    });
  }

  apply(chosen());
  form.addEventListener("change", function (event) { switchTo(inputs.indexOf(event.target), true); });
  form.addEventListener("keydown", function (event) {
    if (event.key !== "Enter") return;
    var next = inputs[(current + 1) % inputs.length];
    next.click();
    next.focus();
  });
  // Followed while the reader has not chosen: the system's light or dark mode may change while the page is open.
  matchMedia("(prefers-color-scheme: light)").addEventListener("change", function () {
    if (!__md_get("__palette")) switchTo(chosen(), false);
  });
  addEventListener("load", function () { setTimeout(tellBrowser); });
})();
