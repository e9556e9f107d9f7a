//# allFunctionsCalledOnLoad
// Downloads of a figure as it is drawn now: one stand-alone SVG (its panels side by side, the
// site's figure styles inlined with the light palette's colours written out, a title and a
// description), or a PNG at twice its size made from that SVG.

const SVG_NS = "http://www.w3.org/2000/svg";
const COLUMNS = 3; // panels per row in the file, as a wide screen shows them

/** The light palette: the first :root block's custom properties (their fallbacks where they point at Material's). */
function lightColours(css) {
  const block = css.match(/:root\s*{([^}]*)}/);
  const colours = {};
  for (const [, name, value] of (block ? block[1] : "").matchAll(/(--sq-[\w-]+)\s*:\s*([^;]+);/g)) {
    colours[name] = value.trim().replace(/^var\([^,]+,\s*([^)]+)\)$/, "$1");
  }
  return colours;
}

/** The drawings' styles with every var(--sq-*) written out: no page layout, no dark palette, nothing that loads a file. */
function standaloneCss(css) {
  const colours = lightColours(css);
  const rules = css.replace(/\/\*[\s\S]*?\*\//g, "").replace(/@media[^{]*{(?:[^{}]*{[^}]*})*\s*}/g, "")
    .match(/[^{}]+{[^}]*}/g) || [];
  const page = /sq-figure|sq-steps|sq-row|sq-control|sq-visually|md-|body|:root|data-theme/;
  return rules
    .filter((rule) => rule.includes(".sq-") && !page.test(rule.slice(0, rule.indexOf("{"))))
    .map((rule) => rule.trim().replace(/var\((--sq-[\w-]+)[^)]*\)/g, (_, name) => colours[name] || "currentColor"))
    .filter((rule) => !rule.includes("var(") && !rule.includes("url("))
    .join("\n");
}

async function figureCss() {
  const link = [...document.querySelectorAll("link[rel='stylesheet']")].find((l) => /sqrt-dk\/figures\.css/.test(l.href));
  if (!link) return "";
  const response = await fetch(link.href);
  return response.ok ? standaloneCss(await response.text()) : "";
}

/** One SVG document of the panels drawn in ``where`` (a figure's stage, or a row of figures), in rows of COLUMNS. */
export async function standaloneSvg(where, title, description) {
  const panels = [...where.querySelectorAll(".sq-figure__stage > svg")];
  const boxes = panels.map((svg) => svg.viewBox.baseVal);
  const rows = [];
  for (let i = 0; i < panels.length; i += COLUMNS) rows.push(boxes.slice(i, i + COLUMNS));
  const width = Math.max(...rows.map((row) => row.reduce((w, b) => w + b.width, 0)));
  const height = rows.reduce((h, row) => h + Math.max(...row.map((b) => b.height)), 0);
  const doc = document.implementation.createDocument(SVG_NS, "svg", null);
  const root = doc.documentElement;
  for (const [name, value] of [["viewBox", `0 0 ${width} ${height}`], ["width", width], ["height", height],
    ["class", "sq-svg"], ["role", "img"], ["aria-label", title]]) root.setAttribute(name, String(value));
  const add = (tag, text) => { const el = doc.createElementNS(SVG_NS, tag); el.textContent = text; root.append(el); return el; };
  add("title", title);
  add("desc", description);
  add("style", `svg { background: #ffffff; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1b1f; }\n${await figureCss()}`);
  const back = doc.createElementNS(SVG_NS, "rect");
  for (const [name, value] of [["width", width], ["height", height], ["fill", "#ffffff"]]) back.setAttribute(name, String(value));
  root.append(back);
  let y = 0;
  rows.forEach((row, r) => {
    let x = 0;
    row.forEach((box, c) => {
      const g = doc.createElementNS(SVG_NS, "g");
      g.setAttribute("transform", `translate(${x} ${y})`);
      const panel = doc.importNode(panels[r * COLUMNS + c], true);
      panel.setAttribute("x", "0");
      panel.setAttribute("y", "0");
      panel.setAttribute("width", String(box.width));
      panel.setAttribute("height", String(box.height));
      g.append(panel);
      root.append(g);
      x += box.width;
    });
    y += Math.max(...row.map((b) => b.height));
  });
  return { text: new XMLSerializer().serializeToString(doc), width, height };
}

/** A PNG at ``scale`` times the SVG's size. */
export function pngFrom(svg, scale = 2) {
  return new Promise((resolve, reject) => {
    const image = new Image();
    const url = URL.createObjectURL(new Blob([svg.text], { type: "image/svg+xml" }));
    image.onload = () => {
      const canvas = document.createElement("canvas");
      canvas.width = Math.round(svg.width * scale);
      canvas.height = Math.round(svg.height * scale);
      canvas.getContext("2d").drawImage(image, 0, 0, canvas.width, canvas.height);
      URL.revokeObjectURL(url);
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("the browser made no PNG"))), "image/png");
    };
    image.onerror = () => { URL.revokeObjectURL(url); reject(new Error("the drawing could not be rasterised")); };
    image.src = url;
  });
}

/** Save a blob under a file name, as the browser's download. */
export function save(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** "<figure-id>_<name>-<value>_..." from the state, safe as a file name everywhere. */
export function fileStem(id, state) {
  const parts = Object.entries(state).map(([k, v]) => `${k}-${Array.isArray(v) ? v.join("~") : v}`);
  return [id, ...parts].join("_").replace(/[^\w.~-]+/g, "-");
}
