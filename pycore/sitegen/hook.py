"""MkDocs hook: MkDocs' events, each handing its work to the glue module that does it.

``state`` holds what one build gathers (``Build``); ``site_files`` writes the files beside the pages;
``page_markdown`` fills a page's markers (with ``parts``, the generated parts) and ``page_html`` finishes its
HTML; ``pack``, ``embed`` and ``offline`` write the runtime, the embed pages and the service worker. An unknown
figure id, a bad parameter, an unknown generated part or an old comment marker raises PluginError naming the
page, so ``mkdocs build --strict`` fails instead of shipping a hole.

mkdocs-static-i18n builds the default language and then, from its own ``on_post_build``, every other language
with the same configuration and these same events, each under ``<lang>/``. So the builds nest: each
``on_config`` pushes the build it starts and switches ``pycore.i18n`` to its language, each ``on_post_build``
pops it and switches back, and every event in between works for the build on top, in its language. The file
events run after the plugin's (it renames a Chinese page's files first) and ``on_post_build`` after its own, so
that the default language's, which comes last, sees every file of the site.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

# MkDocs loads this file by its path, outside any package: put the repository root on sys.path
# so that `pycore` imports. Everything else takes the root from pycore.sitegen.paths.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pycore import i18n  # noqa: E402
from pycore.sitegen import (  # noqa: E402
    cards, claims, embed, glossary, languages, markers, offline, pack, page_html, page_markdown, segmenter, site_files,
    state,
)

log = logging.getLogger("mkdocs.hooks.sqrt_dk")
_serving = False
_builds: list[state.Build] = []
"""The builds under way, innermost last: the default language's, and while it runs another language's."""
UNPUBLISHED = ("No SITE_URL: this build names no address, so it has no oEmbed responses, no embed/figures.json "
               "and no pages in sitemap.xml; to publish, build with SITE_URL set to the site's address, "
               "e.g. SITE_URL=https://example.org/course/ make site")
"""The one line a build without ``SITE_URL`` prints (information, not a warning: --strict must pass)."""


def on_startup(command, dirty):
    """Remember whether this is ``mkdocs serve``: its pages change while a browser has them open. Date the
    sitemap's pages by the last commit unless the caller set SOURCE_DATE_EPOCH: one commit, one site."""
    global _serving
    _serving = command == "serve"
    epoch = state.source_date()
    if epoch is not None:
        os.environ.setdefault("SOURCE_DATE_EPOCH", epoch)


def on_config(config):
    """Note the published address, if any, and the language; load the glossary in it and append its tooltips to
    every page; start packing the core and tracing the standard library, once for all languages."""
    lang, folder = state.language(config)
    try:
        terms = glossary.load(Path(config["docs_dir"]) / state.GLOSSARY, lang)
    except (OSError, glossary.GlossaryError) as err:
        raise PluginError(f"the glossary cannot be read: {err}") from None
    # Markdown's abbreviations match whole words, which Chinese does not separate: page_html places those tooltips.
    config["mdx_configs"]["pymdownx.snippets"] = state.abbreviations(terms) if lang in page_html.SPACED else {}
    if not state.nested(config):  # a new build of the site (mkdocs serve builds it again on every change)
        while _builds:  # what a failed build left
            i18n.back(_builds.pop().language)
        segmenter.keep_in_cache()
    packing = _builds[0].packing if _builds else state.start_packing()
    _builds.append(state.Build(config["site_url"] or None, lang, folder, terms, packing, i18n.switch(lang),
                               languages.site_name(config)))
    return config


def on_env(env, config, files):
    """The theme's templates (the 404 page) say their words through the catalog too, and know their language's
    folder."""
    env.globals["_"] = i18n._
    env.globals["language_folder"] = _builds[-1].folder
    return env


@event_priority(-150)
def on_files(files, config):
    """Gather every page's title (in the build's language) and recall card before any page is rendered; check
    that the language has every page; add its Anki deck, card list and notebooks as site files."""
    build = _builds[-1]
    try:
        languages.check_pages(files, config, build.lang)
        build.titles, build.deck = site_files.gather(config["nav"], files, languages.nav_titles(config, build.lang))
    except (cards.CardError, languages.LanguageError) as err:
        raise PluginError(str(err)) from None
    pages = (config["site_url"] or "") + build.folder
    for path, content in site_files.generated(build.deck, pages).items():
        file = File.generated(config, languages.translated(path, build.lang), content=content)
        file.dest_uri = build.folder + path  # as the i18n plugin places a language's files
        files.append(file)
    return files


def on_page_markdown(markdown, page, config, files):
    """Fill in the page's markers, keeping its figures' HTML for on_page_content; any problem fails the build
    with the page's name."""
    build, src = _builds[-1], state.source(page.file)
    try:
        out, build.rendered[src] = page_markdown.fill(markdown, src, page_markdown.site_root(page.url), build)
    except (markers.MarkerError, claims.ClaimError) as err:
        raise PluginError(f"{page.file.src_uri}: {err}") from None
    except cards.CardError as err:
        raise PluginError(str(err)) from None
    return out


def on_page_content(html, page, config, files):
    """Put the page's figures back, check it, typeset its math, and keep its cards for their embed pages."""
    build, src = _builds[-1], state.source(page.file)
    try:
        html = page_html.finish(html, src, build.rendered.pop(src, []), build)
    except page_html.PageError as err:
        raise PluginError(f"{page.file.src_uri}: {err}") from None
    if src != "review.md":
        build.card_html[src] = cards.rendered(html)
    return html


def on_post_page(output, page, config):
    """The page's download hints: the math font, and Python's files on a page with figures or cards; and a
    language's pages take its own folder as their base, so that Material reads its search index and sitemap."""
    root = page_markdown.site_root(page.url)
    output = page_html.download_hints(output, root)
    output = languages.own_base(output, _builds[-1].folder)
    return languages.alternates(output, page.url, _builds[-1].folder, state.folders(config))


def on_post_template(output_content, template_name, config):
    """Keep each language's theme files (the sitemap, the 404 page): every build writes them at the site root,
    so the default language's build, which ends last, puts each where it belongs."""
    _builds[0].theme_files[_builds[-1].folder + template_name] = output_content
    return output_content


@event_priority(-200)
def on_post_build(config):
    """Write this language's embed pages of figures and cards; the default language's build, which ends last,
    also writes the compiled core and library and the module naming them, vendor files, with ``site_url``
    each figure's oEmbed response and the list of figures (they hold absolute addresses, so a build without it
    leaves them out and says so in one line), keeps English search to the English pages, and last, once every
    file is there, writes the service worker with the list of files it keeps offline. ``mkdocs serve`` gets no
    service worker, which would keep showing the pages as they were."""
    build = _builds[-1]
    site, packed = Path(config["site_dir"]), build.runtime()
    where = build.folder
    embed.write_pages(site, where, build.site_url, build.site_name,
                      pack.start_links(page_markdown.site_root(f"{where}embed/x/")))
    embed.write_card_pages(site, where, build.site_url, {src: html for src, html in build.card_html.items() if html},
                           build.titles, pack.start_links(page_markdown.site_root(f"{where}embed/cards/x/")))
    _builds.pop()
    i18n.back(build.language)
    if _builds:  # another language's build, inside the default language's
        return
    pack.write_runtime(site, packed)
    languages.write_theme_files(site, build.theme_files)
    languages.split_search(site)
    if build.site_url is None:
        log.info(UNPUBLISHED)
    if not _serving:
        offline.write_worker(site)
