// Material's storage helpers (its partials/javascripts/base.html), as a file so that a strict
// Content-Security-Policy needs no inline script. The scope is the site root, two levels above
// this file. Storage access is guarded: in a sandboxed frame localStorage throws.
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
