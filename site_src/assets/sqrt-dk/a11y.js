// Accessibility fixes to Material's own markup, applied after every page swap: the search dialog gets a
// name, a scrolling table wrapper can be reached and scrolled by keyboard, and so can a display formula
// while it is wider than the column (Material scrolls it, div.arithmatex { overflow: auto }; it takes
// focus only then, as Material's own code blocks do, so a formula that fits is no extra Tab stop).
// The names are in the page's language: i18n.js is a module, so this classic script imports it first (and names
// them in English if it cannot).
(function () {
  let t = function (message) { return message; };
  const formulas = new ResizeObserver(function (entries) {
    entries.forEach(function (entry) {
      const block = entry.target.closest("div.arithmatex");
      if (block.scrollWidth > block.clientWidth) block.setAttribute("tabindex", "0");
      else block.removeAttribute("tabindex");
    });
  });
  function fix() {
    document.querySelectorAll(".md-search[role='dialog']:not([aria-label])").forEach(function (dialog) {
      dialog.setAttribute("aria-label", t("Search"));
    });
    document.querySelectorAll(".md-typeset__scrollwrap:not([tabindex])").forEach(function (wrap) {
      wrap.setAttribute("tabindex", "0");
      wrap.setAttribute("role", "region");
      wrap.setAttribute("aria-label", t("Table, scrolls sideways"));
    });
    // The block's width follows the column's, its formula's follows the font: either can make it scroll.
    formulas.disconnect();
    document.querySelectorAll("div.arithmatex").forEach(function (block) {
      formulas.observe(block);
      if (block.firstElementChild) formulas.observe(block.firstElementChild);
    });
  }
  function start() {
    if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(fix);
    else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fix);
    else fix();
  }
  import("./i18n.js").then(function (i18n) { t = i18n.t; }, function () {}).then(start);
})();
