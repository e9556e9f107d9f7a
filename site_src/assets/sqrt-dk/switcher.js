// Material's language switcher takes the reader to the same page in the other language, with the figures in the
// state they are in: a language link gets the page's own alternate in that language (the head's, which instant
// navigation keeps current while the header stays) and the address's query and fragment, where figures keep
// their state, as it is followed.
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest("a.md-select__link[hreflang]");
  var lang = link && link.getAttribute("hreflang");
  var alternate = lang && document.head.querySelector('link[rel="alternate"][hreflang="' + lang + '"]');
  if (!alternate) return;
  var target = new URL(alternate.href);
  target.search = location.search;
  target.hash = location.hash;
  link.href = target.href;
}, true);
