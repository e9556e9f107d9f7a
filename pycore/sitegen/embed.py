"""One standalone page per registered figure at ``embed/<figure-id>/``, for iframes."""

from __future__ import annotations

from pathlib import Path

from .. import figures
from .render import ENV, figure_context


def page_html(figure_id: str) -> str:
    """The embed page of one figure in its default state; the query string is applied in the browser."""
    module = figures.get(figure_id)
    figure = ENV.get_template("figure.html.j2").render(figure_context(
        figure_id, module.State(), anchor=f"fig-{figure_id}", caption=module.TITLE, controls=None,
        embed_url="./", page_url=f"../../{module.PAGE}"))
    return ENV.get_template("embed.html.j2").render(title=module.TITLE, figure=figure)


def write_pages(site: Path) -> None:
    """Write every figure's embed page into the built site."""
    for figure_id in figures.FIGURES:
        out = site / "embed" / figure_id / "index.html"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(page_html(figure_id), encoding="utf-8")
