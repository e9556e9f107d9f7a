//# allFunctionsCalledOnLoad
// Embedding, both sides of the frame: the <iframe> code a host page pastes, and the embed
// page's own glue (theme and starting state from its query string, its height told to the host).

/** The page is a standalone embed page (embed/<figure-id>/), not a page of the article. */
export const isEmbedPage = () => document.body.classList.contains("sq-embed");

const attr = (text) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

export function iframeCode(src, title, height) {
  return `<iframe src="${attr(src)}" title="${attr(title)}" loading="lazy" width="100%" height="${height}" style="border:0" allow="clipboard-write"></iframe>`;
}

// The teachers' page shows snippets with this site's own address once it is known.
export function fillSnippets() {
  document.querySelectorAll("code[data-sq-snippet]").forEach((code) => {
    const src = new URL(code.dataset.sqSnippet, location.href);
    code.textContent = iframeCode(src.href, code.dataset.title, code.dataset.height);
  });
}

/** The figure's starting parameters from the embed page's query string (but its theme and language), or null for its
 * default. */
export function embedParams() {
  const p = new URLSearchParams(location.search);
  p.delete("theme");
  p.delete("lang");
  return [...p.keys()].length ? Object.fromEntries(p) : null;
}

function embedTheme() {
  const theme = new URLSearchParams(location.search).get("theme");
  if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
}

// Tell the host page our height whenever it changes (a frame not yet laid out reports 0: skip it).
function postHeight() {
  if (window.parent === window) return;
  let last = 0;
  const send = () => {
    const height = Math.ceil(document.documentElement.scrollHeight);
    if (height > 0 && height !== last) {
      last = height;
      window.parent.postMessage({ type: "sqrt-dk:height", height }, "*");
    }
  };
  new ResizeObserver(send).observe(document.body);
  send();
}

/** Set up an embed page: its theme, and its height for the host. */
export function startEmbedPage() {
  embedTheme();
  postHeight();
}
