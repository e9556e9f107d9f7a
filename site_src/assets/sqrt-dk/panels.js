//# allFunctionsCalledOnLoad
// Small multiples: a row of figures (.sq-row) shares one actions menu (templates/row-menu.html.j2).
// Its downloads put every panel in one file, side by side; its embed code is one <iframe> per panel,
// each in the state it shows.
import { iframeCode } from "./embed.js";
import { pngFrom, save, standaloneSvg } from "./export.js";
import { copy, query } from "./figure-view.js";
import { t } from "./i18n.js";

const panels = (row) => [...row.querySelectorAll("[data-figure]")];
const state = (el) => JSON.parse(el.dataset.state);

async function download(row, kind) {
  const figs = panels(row);
  const description = figs.map((el, i) => t("Panel {number}: {caption} State: {state}.", { number: i + 1, caption: el.querySelector("figcaption").textContent, state: query(state(el)) }));
  const svg = await standaloneSvg(row, figs[0].dataset.title, description.join(" "));
  const blob = kind === "png" ? await pngFrom(svg) : new Blob([svg.text], { type: "image/svg+xml" });
  save(blob, `${figs[0].dataset.figure}_${figs.length}-panels.${kind}`);
  return t("Saved the {count} panels as one {format}.", { count: figs.length, format: kind.toUpperCase() });
}

function embedCode(row) {
  return panels(row).map((el) => {
    const src = new URL(el.dataset.embed, location.href);
    src.search = query(state(el));
    return iframeCode(src.href, el.dataset.title, el.dataset.embedHeight);
  }).join("\n");
}

document.addEventListener("click", async (e) => {
  const b = e.target.closest("[data-row-menu] button[data-action]");
  const row = b && b.closest(".sq-row");
  if (!row) return;
  const say = (text) => { row.querySelector(":scope > [data-announce]").textContent = text; };
  if (b.dataset.download) say(await download(row, b.dataset.download));
  else if (b.dataset.action === "embed") {
    const code = embedCode(row);
    copy(b, code, t("Embed code copied"), () => window.prompt(t("Copy this embed code:"), code));
  }
});
