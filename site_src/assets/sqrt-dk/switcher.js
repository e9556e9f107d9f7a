// Material's language switcher takes the reader to the same page in the other language, with the figure they last
// changed in its state: a language link gets the page's own alternate in that language (the head's, which instant
// navigation keeps current while the header stays), the address's query, and as fragment that figure's state
// (the article keeps it, figure-view.js) or else the section the address names: ids are the same in every
// language. A click that opens the link elsewhere (a new tab) is left to the browser.
document.addEventListener("click", function (event) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  var link = event.target.closest && event.target.closest("a.md-select__link[hreflang]");
  var lang = link && link.getAttribute("hreflang");
  var alternate = lang && document.head.querySelector('link[rel="alternate"][hreflang="' + lang + '"]');
  if (!alternate) return;
  var target = new URL(alternate.href);
  target.search = location.search;
  var linked = document.querySelector("article[data-sq-linked]");
  target.hash = linked ? linked.dataset.sqLinked : location.hash;
  // Material's own handler would go to the other language's address without the fragment: this click is ours.
  event.preventDefault();
  event.stopImmediatePropagation();
  location.href = target.href;
}, true);
