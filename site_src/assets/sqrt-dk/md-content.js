// Material's content snippet (its partials/javascripts/content.html): check the tab named in the address.
(function () {
  var target = document.getElementById(location.hash.slice(1));
  if (target && target.name) target.checked = target.name.startsWith("__tabbed_");
})();
