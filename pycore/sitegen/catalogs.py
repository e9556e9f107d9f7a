"""The translators' catalogs: every message the core, the templates and the page scripts show, extracted with Babel
into ``pycore/locale/messages.pot`` and merged into each language's ``.po``; and the page scripts' share of a
catalog, which the build writes beside them (``messages.js``).

``python -m pycore.sitegen.catalogs`` (``make messages``) extracts and merges: a new message arrives in every
``.po`` with an empty translation, a changed one is marked fuzzy, a removed one is kept as obsolete (``#~``), and
until a translator fills them in the page shows them in English and the catalog test fails.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from datetime import datetime, timezone

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from .. import i18n
from .paths import ROOT

TEMPLATE = i18n.LOCALE / "messages.pot"
SOURCES = (("pycore", {"**.py": "python"}),
           ("templates", {"**.j2": "jinja2", "material/*.html": "jinja2"}),
           ("site_src/assets/sqrt-dk", {"**.js": "javascript"}))
"""Where messages are found, and how each kind of file is read."""
KEYWORDS = {"_": None, "N_": None, "t": None}
"""The functions that mark a message: ``_`` and ``N_`` in Python and the templates, ``t`` in the page scripts."""
SCRIPTS = "site_src/assets/sqrt-dk"
DATE = datetime(2026, 1, 1, tzinfo=timezone.utc)
"""The catalogs' fixed creation date: extracting twice writes the same file."""


HEADER = {"project": "sqrt-dk", "version": "1", "copyright_holder": "the sqrt-dk authors",
          "msgid_bugs_address": "the project's issue tracker", "creation_date": DATE, "revision_date": DATE,
          "last_translator": "the sqrt-dk authors", "language_team": "the sqrt-dk authors", "fuzzy": False,
          "header_comment": "# The site's messages: see the README's section Languages for how to update them."}
"""The catalogs' header, fixed, so that extracting twice writes the same file."""


def _method_map(patterns: dict[str, str]) -> list[tuple[str, str]]:
    return [(pattern, "jinja2.ext:babel_extract" if method == "jinja2" else method)
            for pattern, method in patterns.items()]


def extract() -> Catalog:
    """Every message of the sources, with where it stands, in the order the files and lines give."""
    catalog = Catalog(**HEADER)
    for folder, patterns in SOURCES:
        found = extract_from_dir(ROOT / folder, _method_map(patterns), keywords=KEYWORDS, comment_tags=("i18n:",),
                                 strip_comment_tags=True,
                                 options_map={pattern: {"extensions": "jinja2.ext.i18n", "trimmed": "true"}
                                              for pattern, method in patterns.items() if method == "jinja2"})
        for filename, lineno, message, comments, context in found:
            if isinstance(message, tuple):
                message = message[0]
            if message:
                catalog.add(message, None, [(f"{folder}/{filename}", lineno)], auto_comments=comments,
                            context=context)
    return catalog


def script_messages() -> set[str]:
    """The messages the page scripts show: the only ones ``messages.js`` needs."""
    return {message.id for message in extract() if any(path.startswith(SCRIPTS) for path, _ in message.locations)}


def _po_text(catalog: Catalog) -> str:
    out = io.BytesIO()
    write_po(out, catalog, width=120, sort_output=False, include_previous=False)
    return out.getvalue().decode("utf-8")


def update() -> list[str]:
    """Write the template and merge it into every language's catalog; the paths written."""
    template = extract()
    i18n.LOCALE.mkdir(parents=True, exist_ok=True)
    TEMPLATE.write_text(_po_text(template), encoding="utf-8")
    written = [str(TEMPLATE.relative_to(ROOT))]
    for lang in i18n.LANGUAGES[1:]:
        path = i18n.catalog_path(lang)
        if path.is_file():
            catalog = read_po(io.StringIO(path.read_text(encoding="utf-8")), locale=lang)
        else:
            catalog = Catalog(locale=lang, **HEADER)
        catalog.update(template, no_fuzzy_matching=True)
        for name, value in HEADER.items():
            setattr(catalog, name, value)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_po_text(catalog), encoding="utf-8")
        written.append(str(path.relative_to(ROOT)))
    return written


def scripts_module(languages: Iterable[str] = i18n.LANGUAGES[1:]) -> str:
    """``messages.js``: for each language, the page scripts' messages and their translations."""
    wanted = script_messages()
    table = {lang: {m: t for m, t in sorted(i18n.catalog(lang).items()) if m in wanted} for lang in languages}
    return ("//# allFunctionsCalledOnLoad\n"
            "// The page scripts' messages in each language, from pycore/locale (pycore/sitegen/catalogs.py).\n"
            f"export const MESSAGES = {json.dumps(table, ensure_ascii=False, sort_keys=True)};\n")


if __name__ == "__main__":
    for written in update():
        print("wrote", written)
