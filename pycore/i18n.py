"""The language of everything the core says: one gettext catalog (``.po``) per language, read with the standard library.

Every string a reader sees is written in English in the code, wrapped in ``_()`` (or marked with ``N_()`` where it
is defined and translated where it is shown); ``pycore/locale/<lang>/LC_MESSAGES/messages.po`` gives each one's
translation. The language is a context variable, set around a page's build or one bridge request with ``using``,
so the figures stay functions of their state. Numbers are formatted by one rule in every language (``svg.sig``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from functools import lru_cache
from pathlib import Path

LANGUAGES = ("en", "zh")
"""The site's languages, the first the one its code is written in."""
DEFAULT = LANGUAGES[0]
HTML_LANG = {"en": "en", "zh": "zh-Hans"}
"""Each language's tag for ``<html lang>``."""
LOCALE = Path(__file__).parent / "locale"

_language: ContextVar[str] = ContextVar("language", default=DEFAULT)


def language() -> str:
    """The language strings are given in now."""
    return _language.get()


@contextmanager
def using(lang: str) -> Iterator[None]:
    """Give every string in ``lang`` inside the block (a language of LANGUAGES)."""
    token = switch(lang)
    try:
        yield
    finally:
        back(token)


def switch(lang: str) -> Token[str]:
    """Give every string in ``lang`` from now on, until ``back`` with the token this returns: for a span that is
    not one block, as a language's build, whose events come one by one."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language '{lang}'")
    return _language.set(lang)


def back(token: Token[str]) -> None:
    """The language as it was before ``switch`` gave the token."""
    _language.reset(token)


def catalog_path(lang: str) -> Path:
    """Where a language's catalog lives, in gettext's layout (Babel's ``update`` and translators' tools expect it)."""
    return LOCALE / lang / "LC_MESSAGES" / "messages.po"


ENTRY = re.compile(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+"((?:[^"\\]|\\.)*)"\s*$')
CONTINUED = re.compile(r'^"((?:[^"\\]|\\.)*)"\s*$')
ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unquoted(text: str) -> str:
    """A .po string's text: its escapes (\\n, \\t, \\", \\\\) undone."""
    return re.sub(r"\\(.)", lambda m: ESCAPES[m.group(1)], text)


def read_po(text: str) -> dict[str, str]:
    """Every translated message of a ``.po`` file, msgid to msgstr: entries marked fuzzy, left empty, obsolete or
    with a context are left out, so their English shows. A plural entry gives its first form (Chinese has one)."""
    out: dict[str, str] = {}
    entry: dict[str, str] = {}
    flags: set[str] = set()
    key = ""

    def finish() -> None:
        msgid, msgstr = entry.get("msgid"), entry.get("msgstr", entry.get("msgstr[0]", ""))
        if msgid and msgstr and "fuzzy" not in flags and "msgctxt" not in entry:
            out[msgid] = msgstr

    for line in (raw.strip() for raw in text.splitlines()):
        if not line or line.startswith("#~"):
            continue
        if line.startswith("#") or (m := ENTRY.match(line)) and m.group(1) in ("msgctxt", "msgid"):
            if "msgid" in entry:  # a comment or a new msgid after a msgid starts the next entry
                finish()
                entry, flags = {}, set()
        if line.startswith("#"):
            if line.startswith("#,"):
                flags |= {flag.strip() for flag in line[2:].split(",")}
            continue
        if m := ENTRY.match(line):
            key = m.group(1)
            entry[key] = _unquoted(m.group(2))
        elif (m := CONTINUED.match(line)) and key:
            entry[key] += _unquoted(m.group(1))
        else:
            raise ValueError(f"not a line of a .po file: {line[:60]}")
    finish()
    return out


@lru_cache(maxsize=None)
def catalog(lang: str) -> dict[str, str]:
    """A language's translations (none for the language the code is written in)."""
    if lang == DEFAULT:
        return {}
    # Read by the loader that imported this module: from the file at build time, from the core's archive in the
    # browser, where the archive is on Python's path as it is and LOCALE is a path inside it.
    return read_po(__spec__.loader.get_data(str(catalog_path(lang))).decode("utf-8"))


def _(message: str) -> str:
    """``message`` in the current language (itself where the catalog has no translation)."""
    return catalog(_language.get()).get(message, message) if _language.get() != DEFAULT else message


def N_(message: str) -> str:
    """Mark ``message`` for the catalog where it is defined; ``_`` translates it where it is shown."""
    return message


def clauses(items: Iterable[str]) -> str:
    """Clauses of one sentence joined by the language's semicolon ("; " in English, "；" in Chinese)."""
    # i18n: what separates the clauses of one sentence, as in "n = 16: …; n = 128: …".
    return _("; ").join(items)
