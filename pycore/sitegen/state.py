"""One build's state, which its first events gather and its later events read (``Build``), and the two things
a build starts with: the glossary's tooltips appended to every page, and the core packed in a thread."""

from __future__ import annotations

import hashlib
import subprocess
from concurrent.futures import Future, ThreadPoolExecutor
from contextvars import Token
from dataclasses import dataclass, field

from mkdocs.exceptions import PluginError

from .. import i18n
from ..cache import CACHE, write_whole
from . import glossary, pack, stdlib
from .cards import Card
from .glossary import Glossary
from .paths import ROOT

GLOSSARY = "glossary.yml"
"""The glossary's data file, in the docs folder (kept out of the site by ``exclude_docs``)."""


def language(config) -> tuple[str, str]:
    """The language this build writes and the folder its files go in: mkdocs-static-i18n builds its default
    language at the site root, then each other one with the same configuration and hooks under ``<lang>/``."""
    plugin = config["plugins"].get("i18n")
    if plugin is None:
        return i18n.DEFAULT, ""
    lang = plugin.current_language or plugin.default_language
    return lang, "" if lang == plugin.default_language else f"{lang}/"


def folders(config) -> dict[str, str]:
    """Every language this site builds, by the code its switcher names it with, and the folder its pages go in."""
    plugin = config["plugins"].get("i18n")
    if plugin is None:
        return {}
    return {lang: "" if lang == plugin.default_language else f"{lang}/" for lang in plugin.build_languages}


def source_date() -> str | None:
    """The last commit's time in seconds since 1970, as SOURCE_DATE_EPOCH wants it, or None outside a git
    checkout. MkDocs dates every page in the sitemap with that variable, or else with the day it builds, so two
    builds of one commit on either side of midnight wrote different sitemaps, and so a different ``sw.js``."""
    try:
        done = subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%ct"], capture_output=True, text=True)
    except OSError:  # no git on this machine
        return None
    stamp = done.stdout.strip()
    return stamp if done.returncode == 0 and stamp.isdigit() else None


def nested(config) -> bool:
    """Whether this build runs inside another: the i18n plugin builds every other language from its own
    ``on_post_build``."""
    plugin = config["plugins"].get("i18n")
    return bool(plugin and plugin.building)


def source(file) -> str:
    """A page's source path without its language suffix (``step-4.zh.md`` is ``step-4.md``): the name the
    glossary, the claims and the cards know it by in every language."""
    return getattr(file, "norm_src_uri", None) or file.src_uri


@dataclass
class Build:
    """What one build knows: set in on_config and on_files, filled page by page, read by the later events."""

    site_url: str | None
    """The address the site is published at (``SITE_URL``), or None: then no file holds an absolute address."""
    lang: str
    """The language of this build's pages (``language``)."""
    folder: str
    """Where its files go under the site root: "" for the default language, ``zh/`` for Chinese."""
    terms: Glossary
    packing: Future[pack.Runtime] | None = None
    """The compiled core and library (pack.Runtime), traced under Node in a thread while the pages' Markdown
    is rendered: on a first build the two overlap."""
    language: Token[str] | None = None
    """What switched ``pycore.i18n`` to this build's language, to switch it back when the build ends."""
    site_name: str = ""
    """The site's name in this build's language (the i18n plugin leaves the config's at the last language built)."""
    theme_files: dict[str, str] = field(default_factory=dict)
    """The theme's files of every language (sitemap.xml, 404.html) by their path in the site."""
    deck: list[Card] = field(default_factory=list)
    """Every recall card of the article, in the nav's order."""
    titles: dict[str, str] = field(default_factory=dict)
    """Each page's title by its source path, in the nav's order."""
    rendered: dict[str, list[str]] = field(default_factory=dict)
    """Each page's figures, row menus and prediction prompts as HTML, from its Markdown until its HTML."""
    card_html: dict[str, list[str]] = field(default_factory=dict)
    """Each page's cards as the page shows them, typeset, for the embed pages of cards."""

    def runtime(self) -> pack.Runtime:
        """The compiled core and library, once their trace (``start_packing``) is done."""
        try:
            return self.packing.result()
        except stdlib.TraceError as err:
            raise PluginError(f"the figures failed in Pyodide while the standard library was traced: {err}") from None


def abbreviations(terms: Glossary) -> dict:
    """pymdownx.snippets' settings that append the glossary's abbreviations to every page, from a file in the
    cache named by its content."""
    text = glossary.abbreviations(terms)
    CACHE.mkdir(parents=True, exist_ok=True)
    abbr = CACHE / f"glossary-{hashlib.sha256(text.encode()).hexdigest()[:12]}.md"
    if not abbr.is_file():  # named by its content, so a file already there is the same text
        write_whole(abbr, text.encode("utf-8"))
    return {"base_path": [str(CACHE)], "auto_append": [abbr.name], "check_paths": True}


def start_packing() -> Future[pack.Runtime]:
    """Start packing the core and tracing the standard library in a thread, once per build, while the pages are
    rendered (``Build.runtime`` waits for it)."""
    pool = ThreadPoolExecutor(1)
    job = pool.submit(lambda: pack.Runtime(*stdlib.compiled_archives()))
    pool.shutdown(wait=False)  # the trace runs on; Build.runtime waits for it
    return job
