"""One standalone page per registered figure at ``embed/<figure-id>/``, for iframes, in every language
(``zh/embed/<figure-id>/`` in Chinese), and for a site with a published address its oEmbed response beside it and
``embed/figures.json`` listing them all; and one page of recall cards per page that has them,
``embed/cards/<step>/`` (``step-4``, ``train``), graded in the frame."""

from __future__ import annotations

from pathlib import Path

from .. import figures, i18n
from . import oembed
from .page_markdown import site_root
from .render import ENV, figure_context


def alternates(path: str) -> list[tuple[str, str]]:
    """Every language's version of the page at ``path`` (a path under the default language's root) as (hreflang,
    its path under the site root): ``embed/x/`` and ``zh/embed/x/``."""
    return [(i18n.HTML_LANG[lang], ("" if lang == i18n.DEFAULT else f"{lang}/") + path) for lang in i18n.LANGUAGES]


def _addressed(where: str, path: str, site_url: str | None) -> list[tuple[str, str]]:
    """The alternates of ``path`` for the page at ``where + path``: by absolute address under ``site_url``, as search
    engines want a hreflang link (Lighthouse's SEO audit fails a relative one), or, for a build that knows no
    address of its own, relative to the page."""
    up = site_url or site_root(where + path)
    return [(lang, up + href) for lang, href in alternates(path)]


def page_html(figure_id: str, where: str, site_url: str | None, start_links: str) -> str:
    """The embed page of one figure in its default state, in the current language (``where`` is that language's
    folder: "" or ``zh/``); the query string is applied in the browser. With ``site_url`` its head names the
    figure's oEmbed response by absolute address, which oEmbed discovery expects; without one, there is no
    response to name."""
    module = figures.get(figure_id)
    root = site_root(f"{where}embed/{figure_id}/")
    title = figures.title(module)
    figure = ENV.get_template("figure.html.j2").render(figure_context(
        figure_id, module.State(), anchor=f"fig-{figure_id}", caption=title, controls=None,
        embed_url="./", page_url=f"{root}{where}{module.PAGE}"))
    return ENV.get_template("embed.html.j2").render(
        title=title, figure=figure, start_links=start_links, root=root, html_lang=i18n.HTML_LANG[i18n.language()],
        alternates=_addressed(where, f"embed/{figure_id}/", site_url),
        oembed=site_url and oembed.oembed_url(site_url + where, figure_id))


def write_pages(site: Path, where: str, site_url: str | None, site_name: str, start_links: str) -> None:
    """Write every figure's embed page in the current language into ``site/where`` (``start_links``: what its head
    asks for to start Python); with ``site_url``, each one's oEmbed response and the list of figures too."""
    for figure_id in figures.FIGURES:
        folder = site / where / "embed" / figure_id
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "index.html").write_text(page_html(figure_id, where, site_url, start_links), encoding="utf-8")
        if site_url:
            (folder / "oembed.json").write_text(
                oembed.dumps(oembed.response(figure_id, site_url + where, site_name)), encoding="utf-8")
    if site_url:
        (site / where / oembed.LIST).write_text(oembed.dumps(oembed.figure_list(site_url + where, site_name)),
                                                encoding="utf-8")


CARDS = "cards"
"""The folder under ``embed/`` of the card pages: ``embed/cards/step-4/``."""


def write_card_pages(site: Path, where: str, site_url: str | None, rendered: dict[str, list[str]],
                     titles: dict[str, str], start_links: str) -> None:
    """Write ``embed/cards/<page>/`` under ``site/where`` for each page's cards, as that page shows them
    (``rendered``, by source path), in the current language."""
    for src, cards in rendered.items():
        slug = src.removesuffix(".md")
        path = f"embed/{CARDS}/{slug}/"
        folder = site / where / path
        folder.mkdir(parents=True, exist_ok=True)
        root = site_root(where + path)
        html = ENV.get_template("embed-cards.html.j2").render(
            title=titles.get(src, slug), cards=cards, page_url=f"{root}{where}{slug}/", start_links=start_links, root=root,
            html_lang=i18n.HTML_LANG[i18n.language()], alternates=_addressed(where, path, site_url))
        (folder / "index.html").write_text(html, encoding="utf-8")
