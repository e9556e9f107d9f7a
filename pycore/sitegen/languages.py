"""The site in each of its languages: every page translated, each language's page titles, and each language's
search kept to its own pages."""

from __future__ import annotations

import gzip
import json
import logging
import re
from pathlib import Path


from .. import i18n
from .page_markdown import site_root
from .site_files import nav_pages

SEARCH_INDEX = Path("search") / "search_index.json"


class LanguageError(ValueError):
    """A page the navigation names has no version in the language being built."""


def translated(src: str, lang: str) -> str:
    """The source path of a file's version in ``lang``: ``step-4.zh.md`` for ``step-4.md``, ``cards.zh.tsv``
    for ``cards.tsv``."""
    if lang == i18n.DEFAULT:
        return src
    stem, dot, extension = src.rpartition(".")
    return f"{stem}.{lang}.{extension}" if dot else f"{src}.{lang}"


class SwitcherWarning(logging.Filter):
    """Drops the i18n plugin's warning that Material's language switcher cannot follow instant navigation: Material
    follows it itself (it maps the page's path into the other language through that language's sitemap.xml
    when the switcher is clicked), and a warning fails the strict build."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "not compatible with theme.features = navigation.instant" not in record.getMessage()


logging.getLogger("mkdocs.plugins.mkdocs_static_i18n.reconfigure").addFilter(SwitcherWarning())


def check_pages(files, config, lang: str) -> None:
    """Every page of the navigation exists in ``lang``: a missing one fails the build (the i18n plugin would
    otherwise leave it out of that language's site, or, with a fallback, serve the English page there)."""
    docs = Path(config["docs_dir"])
    missing = [translated(src, lang) for _, src in nav_pages(config["nav"]) if not (docs / translated(src, lang)).is_file()]
    if missing:
        raise LanguageError(f"the {lang} site lacks {', '.join(missing)}: every page of the navigation needs its "
                            f"version in every language (README, Languages)")


def nav_titles(config, lang: str) -> dict[str, str]:
    """The navigation's titles in ``lang``, from the i18n plugin's ``nav_translations`` (English title to its
    translation); empty for the default language."""
    plugin = config["plugins"].get("i18n")
    if plugin is None or lang == i18n.DEFAULT:
        return {}
    return dict(plugin.current_language_config.nav_translations or {})


def site_name(config) -> str:
    """The site's name in the language being built: the i18n plugin's for it, if it gives one."""
    plugin = config["plugins"].get("i18n")
    own = plugin and plugin.current_language and plugin.current_language_config.site_name
    return own or config["site_name"]


SEPARATORS = {"zh": "[\\s\\u200b\\u3000\\-、。，．？！；]+"}
"""How a language's search index splits text into words, where it differs from English: Material's own separator
for Chinese, which splits where the search plugin's jieba put a zero-width space between words."""


def split_search(site: Path) -> None:
    """Each language its own search index: the i18n plugin merges every language's pages into the site root's,
    which keeps the default language's (an English reader searches the English pages, as before); each other
    language's pages go to ``<lang>/search/search_index.json``, which its pages read (``own_base``), their
    addresses relative to that folder."""
    path = site / SEARCH_INDEX
    if not path.is_file():
        return
    index = json.loads(path.read_text(encoding="utf-8"))
    for lang in i18n.LANGUAGES[1:]:
        folder = f"{lang}/"
        docs = [{**doc, "location": doc["location"].removeprefix(folder)} for doc in index["docs"]
                if doc["location"].startswith(folder)]
        config = {**index["config"], "separator": SEPARATORS.get(lang, index["config"]["separator"])}
        own = site / folder / SEARCH_INDEX
        own.parent.mkdir(parents=True, exist_ok=True)
        own.write_text(json.dumps({"config": config, "docs": docs}, ensure_ascii=False, separators=(",", ":")),
                       encoding="utf-8")
    others = tuple(f"{lang}/" for lang in i18n.LANGUAGES[1:])
    index["docs"] = [doc for doc in index["docs"] if not doc["location"].startswith(others)]
    path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


BASE = re.compile(r'("base": ")([^"]*)(")')


def own_base(html: str, prefix: str) -> str:
    """A page of another language than the default takes its language's folder as the base Material's scripts
    read its search index and sitemap from (``"base": "../.."`` becomes ``"../../zh/"``, the slash so that addresses
    resolve inside the folder); links and assets keep
    their own addresses, so the pages still share the site's assets."""
    if not prefix:
        return html
    return BASE.sub(lambda m: f"{m.group(1)}{m.group(2)}/{prefix}{m.group(3)}", html, count=1)


ALTERNATE = re.compile(r'(<(?:link rel="alternate"|a\b)[^>]*?\bhref=")[^"]*("[^>]*\bhreflang="([\w-]+)")')


def alternates(html: str, page_url: str, folder: str, folders: dict[str, str]) -> str:
    """The page's alternates, the head's hreflang links and the language switcher's, each the same page in that
    language (``folders``: each built language's folder), relative, so that they hold under any sub-path; the
    i18n plugin gives a home page the languages' absolute roots, and the Chinese home an English link to itself.
    Without their trailing slash: Material fetches ``sitemap.xml`` beside every alternate to map pages between
    languages, and beside ``zh/step-4/`` there is none (a 404 on every page), while beside ``zh/step-4`` it
    finds the language's own; the server adds the slash back, and switcher.js goes to the page itself. And with
    an empty fragment, which crawlers ignore: Material takes each alternate it has seen for a language's root and
    sends a click on any link under it to that root, so ``step-4`` would catch a later click on
    ``step-4/#variance`` and drop its fragment (and offline, ask for an address the service worker does not
    keep), while ``step-4#`` is the start of no link."""
    up, path = site_root(page_url), page_url.removeprefix(folder)

    def relative(m: re.Match[str]) -> str:
        if m.group(3) not in folders:
            return m.group(0)
        return f"{m.group(1)}{(up + folders[m.group(3)] + path).rstrip('/') or '.'}#{m.group(2)}"

    return ALTERNATE.sub(relative, html)


def write_theme_files(site: Path, files: dict[str, str]) -> None:
    """Write each language's theme files where they belong (every build wrote its own at the site root), and the
    sitemap's gzip copy beside each sitemap, as MkDocs does (with time 0 in its header, so that the same pages
    give the same bytes)."""
    for path, content in files.items():
        target = site / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
        if target.name == "sitemap.xml":
            with open(target.with_name("sitemap.xml.gz"), "wb") as out, \
                    gzip.GzipFile(fileobj=out, filename="sitemap.xml.gz", mode="wb", mtime=0) as gz:
                gz.write(content.encode("utf-8"))
