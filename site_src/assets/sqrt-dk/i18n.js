//# allFunctionsCalledOnLoad
// The page scripts' words in the page's language. Every message a reader sees or hears is written in English
// as t("…", {name: value}), one message per phrase or sentence with named {name} placeholders ({{ and }} for
// literal braces, as Python's str.format reads them); Babel extracts them into the catalogs with the core's
// (pycore/sitegen/catalogs.py), and the build writes each language's translations into messages.js beside
// this file. Developers' console messages stay in English.
import { MESSAGES } from "./messages.js";

/** The page's language: "zh" when its <html lang> starts with "zh", else "en" (what pycore.i18n calls it). */
export function lang() {
  return document.documentElement.lang.toLowerCase().startsWith("zh") ? "zh" : "en";
}

/** ``message`` in the page's language (itself where there is no translation), its {name} placeholders filled
 * from ``vars``. */
export function t(message, vars = {}) {
  const text = (MESSAGES[lang()] || {})[message] || message;
  return text.replace(/\{\{|\}\}|\{(\w+)\}/g, (whole, name) => {
    if (name === undefined) return whole[0];
    return name in vars ? String(vars[name]) : whole;
  });
}

/** The language Python is asked to answer in: the page's, or on an embed page the one its address names with lang
 * (a language the site has sent the frame to its own page before; any other gets Python's one-line message beside
 * the English figure). */
export function asked() {
  const named = document.body.classList.contains("sq-embed") && new URLSearchParams(location.search).get("lang");
  return named || lang();
}
