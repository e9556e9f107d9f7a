"""The service worker's precache: every file of the built site a reader needs, by content hash,
written into ``sw.js`` at the site root.

The list is whatever the build wrote (Pyodide's files included, under any names), so nothing
here names a file of the site. A changed file changes its hash, the list and so ``sw.js`` byte
for byte, and that is what makes a browser install the new version.
"""

from __future__ import annotations

import hashlib
import json
from fnmatch import fnmatchcase
from pathlib import Path
from urllib.parse import quote

from .. import i18n
from .paths import TEMPLATES
from .site_files import CARD_LIST

WORKER = "sw.js"
"""The service worker, at the site root so that its scope is the whole site."""

SKIPPED = (
    "sw.js",  # the worker itself; the browser keeps it
    "*.map",  # source maps, for developer tools
    "sitemap.xml.gz",  # for search engines (Material's instant navigation reads sitemap.xml, which stays)
    "assets/javascripts/lunr/*",  # Material's search loads these only for languages other than English
    "embed/*/oembed.json",  # oEmbed responses and the list of figures are read by programs elsewhere
    "embed/figures.json",
    "404.html",  # the worker answers only for pages that exist
)
"""Files a reader never needs offline, as patterns on the path under the site root or under a language's folder."""

EMBED_NEEDS = (
    "assets/sqrt-dk/*",  # the page side's scripts, styles and math font, and the two Python archives
    "assets/vendor/pyodide/*",  # Pyodide's files
    "assets/favicon.svg",
    CARD_LIST,  # the site's cards, which a page of recall cards (embed/cards/<page>/) reads to schedule them
)
"""What the embed pages need besides themselves, as patterns: all that a frame on another site keeps offline."""

FOLDERS = tuple(f"{lang}/" for lang in i18n.LANGUAGES if lang != i18n.DEFAULT)
"""The folders of the languages other than the default, each with its own pages, embed pages, cards and 404 page."""


def matches(relative: str, patterns: tuple[str, ...]) -> bool:
    """Whether a path under the site root, or under a language's folder, matches one of the patterns."""
    inner = next((relative[len(folder):] for folder in FOLDERS if relative.startswith(folder)), relative)
    return any(fnmatchcase(inner, pattern) for pattern in patterns)


def _digest(data: bytes, size: int) -> str:
    return hashlib.sha256(data).hexdigest()[:size]


def address(relative: str) -> str:
    """The address a reader uses for a file, relative to the site root: a page is its folder ("", "step-2/")."""
    folder, _, name = relative.rpartition("/")
    if name == "index.html":
        relative = f"{folder}/" if folder else ""
    return quote(relative)


def manifest(site: Path) -> dict[str, str]:
    """Every file a reader needs, by its address under the site root, with a hash of its content."""
    files = {}
    for path in sorted(site.rglob("*")):
        relative = path.relative_to(site).as_posix()
        if path.is_file() and not matches(relative, SKIPPED):
            files[address(relative)] = _digest(path.read_bytes(), 16)
    return files


def precache(site: Path) -> dict:
    """The version (a hash of the file list and of the worker's own code), the file list, and the part of it
    that embed pages need besides themselves."""
    files = manifest(site)
    source = (TEMPLATES / WORKER).read_bytes()
    version = _digest(json.dumps(files, sort_keys=True).encode() + source, 12)
    embed = [path for path in files if matches(path, EMBED_NEEDS)]
    return {"version": version, "files": files, "embed": embed}


def write_worker(site: Path) -> None:
    """Write ``sw.js`` into the built site: the precache list, then the worker's code from ``templates/sw.js``."""
    data = json.dumps(precache(site), separators=(",", ":"))
    source = (TEMPLATES / WORKER).read_text(encoding="utf-8")
    (site / WORKER).write_text(f"const PRECACHE = {data};\n{source}", encoding="utf-8")
