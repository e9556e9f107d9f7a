"""One standalone page per registered figure at ``embed/<figure-id>/``, for iframes, and for a site
with a published address its oEmbed response beside it and ``embed/figures.json`` listing them all; and one
page of recall cards per page that has them, ``embed/cards/<step>/`` (``step-4``, ``train``), graded in the frame."""

from __future__ import annotations

from pathlib import Path

from .. import figures
from . import oembed
from .render import ENV, figure_context


def page_html(figure_id: str, site_url: str | None, preloads: str) -> str:
    """The embed page of one figure in its default state; the query string is applied in the browser.
    With ``site_url`` its head names the figure's oEmbed response by absolute address, which oEmbed
    discovery expects; without one, there is no response to name."""
    module = figures.get(figure_id)
    figure = ENV.get_template("figure.html.j2").render(figure_context(
        figure_id, module.State(), anchor=f"fig-{figure_id}", caption=module.TITLE, controls=None,
        embed_url="./", page_url=f"../../{module.PAGE}"))
    return ENV.get_template("embed.html.j2").render(title=module.TITLE, figure=figure, preloads=preloads,
                                                    oembed=site_url and oembed.oembed_url(site_url, figure_id))


def write_pages(site: Path, site_url: str | None, site_name: str, preloads: str) -> None:
    """Write every figure's embed page (``preloads``: its preload hints) into the built site; with
    ``site_url``, each one's oEmbed response and the list of figures too."""
    for figure_id in figures.FIGURES:
        folder = site / "embed" / figure_id
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "index.html").write_text(page_html(figure_id, site_url, preloads), encoding="utf-8")
        if site_url:
            (folder / "oembed.json").write_text(oembed.dumps(oembed.response(figure_id, site_url, site_name)),
                                                encoding="utf-8")
    if site_url:
        (site / oembed.LIST).write_text(oembed.dumps(oembed.figure_list(site_url, site_name)), encoding="utf-8")


CARDS = "cards"
"""The folder under ``embed/`` of the card pages: ``embed/cards/step-4/``."""


def write_card_pages(site: Path, rendered: dict[str, list[str]], titles: dict[str, str], preloads: str) -> None:
    """Write ``embed/cards/<page>/`` for each page's cards, as that page shows them (``rendered``, by source path)."""
    for src, cards in rendered.items():
        slug = src.removesuffix(".md")
        folder = site / "embed" / CARDS / slug
        folder.mkdir(parents=True, exist_ok=True)
        html = ENV.get_template("embed-cards.html.j2").render(
            title=titles.get(src, slug), cards=cards, page_url=f"../../../{slug}/", preloads=preloads)
        (folder / "index.html").write_text(html, encoding="utf-8")
