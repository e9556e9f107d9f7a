"""MkDocs hook: MkDocs' events, each handing its work to the glue module that does it.

``state`` holds what one build gathers (``Build``); ``site_files`` writes the files beside the pages;
``page_markdown`` fills a page's markers (with ``parts``, the generated parts) and ``page_html`` finishes its
HTML; ``pack``, ``embed`` and ``offline`` write the runtime, the embed pages and the service worker. An unknown
figure id, a bad parameter, an unknown generated part or an old comment marker raises PluginError naming the
page, so ``mkdocs build --strict`` fails instead of shipping a hole.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

# MkDocs loads this file by its path, outside any package: put the repository root on sys.path
# so that `pycore` imports. Everything else takes the root from pycore.sitegen.paths.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pycore.sitegen import (  # noqa: E402
    cards, claims, embed, glossary, markers, offline, pack, page_html, page_markdown, site_files, state,
)

log = logging.getLogger("mkdocs.hooks.sqrt_dk")
_serving = False
_build: state.Build
"""This build's state, made by on_config."""
UNPUBLISHED = ("No SITE_URL: this build names no address, so it has no oEmbed responses, no embed/figures.json "
               "and no pages in sitemap.xml; to publish, build with SITE_URL set to the site's address, "
               "e.g. SITE_URL=https://example.org/course/ make site")
"""The one line a build without ``SITE_URL`` prints (information, not a warning: --strict must pass)."""


def on_startup(command, dirty):
    """Remember whether this is ``mkdocs serve``: its pages change while a browser has them open."""
    global _serving
    _serving = command == "serve"


def on_config(config):
    """Note the published address, if any; load the glossary and append its tooltips to every page;
    start packing the core and tracing the standard library, once per build: pages name both in their
    preload hints."""
    global _build
    try:
        terms = glossary.load(Path(config["docs_dir"]) / state.GLOSSARY)
    except (OSError, glossary.GlossaryError) as err:
        raise PluginError(f"the glossary cannot be read: {err}") from None
    config["mdx_configs"]["pymdownx.snippets"] = state.abbreviations(terms)
    _build = state.Build(config["site_url"] or None, terms, state.start_packing())
    return config


def on_files(files, config):
    """Gather every page's title and recall card before any page is rendered; add the Anki deck, the card list
    and the Reproduce page's and the training grid's notebooks as site files."""
    try:
        _build.titles, _build.deck = site_files.gather(config["nav"], files)
    except cards.CardError as err:
        raise PluginError(str(err)) from None
    for path, content in site_files.generated(_build.deck, config["site_url"] or "").items():
        files.append(File.generated(config, path, content=content))
    return files


def on_page_markdown(markdown, page, config, files):
    """Fill in the page's markers, keeping its figures' HTML for on_page_content; any problem fails the build
    with the page's name."""
    src = page.file.src_uri
    try:
        out, _build.rendered[src] = page_markdown.fill(markdown, src, page_markdown.site_root(page.url), _build)
    except (markers.MarkerError, claims.ClaimError) as err:
        raise PluginError(f"{src}: {err}") from None
    except cards.CardError as err:
        raise PluginError(str(err)) from None
    return out


def on_page_content(html, page, config, files):
    """Put the page's figures back, check it, typeset its math, and keep its cards for their embed pages."""
    src = page.file.src_uri
    try:
        html = page_html.finish(html, src, _build.rendered.pop(src, []), _build)
    except page_html.PageError as err:
        raise PluginError(f"{src}: {err}") from None
    if src != "review.md":
        _build.card_html[src] = cards.rendered(html)
    return html


def on_post_page(output, page, config):
    """The page's download hints: the math font, and Python's files on a page with figures or cards."""
    return page_html.download_hints(output, page_markdown.site_root(page.url), _build.runtime)


def on_post_build(config):
    """Write the compiled core and library and the module naming them, vendor files, one embed page per
    figure, with ``site_url`` also each figure's oEmbed response and the list of figures (they hold
    absolute addresses, so a build without it leaves them out and says so in one line),
    and last, once every file is there, the service worker with the list of files it keeps offline.
    ``mkdocs serve`` gets no service worker, which would keep showing the pages as they were."""
    site, packed = Path(config["site_dir"]), _build.runtime()
    pack.write_runtime(site, packed)
    embed.write_pages(site, _build.site_url, config["site_name"], packed.preload_links("../../"))
    embed.write_card_pages(site, {src: html for src, html in _build.card_html.items() if html}, _build.titles,
                           packed.preload_links("../../../"))
    if _build.site_url is None:
        log.info(UNPUBLISHED)
    if not _serving:
        offline.write_worker(site)
