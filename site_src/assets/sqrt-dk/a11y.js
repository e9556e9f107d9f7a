// Two accessibility fixes to Material's own markup, applied after every page swap: the search
// dialog gets a name, and a scrolling table wrapper can be reached and scrolled by keyboard.
(function () {
  function fix() {
    document.querySelectorAll(".md-search[role='dialog']:not([aria-label])").forEach(function (dialog) {
      dialog.setAttribute("aria-label", "Search");
    });
    document.querySelectorAll(".md-typeset__scrollwrap:not([tabindex])").forEach(function (wrap) {
      wrap.setAttribute("tabindex", "0");
      wrap.setAttribute("role", "region");
      wrap.setAttribute("aria-label", "Table, scrolls sideways");
    });
  }
  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(fix);
  else document.addEventListener("DOMContentLoaded", fix);
})();
