"""The service worker the build writes: what it keeps offline, and how a change reaches it."""

from __future__ import annotations

import hashlib
import json
import re
import shutil

from pycore import figures
from pycore.sitegen import offline, site_files
from tests.conftest import ROOT, article_pages, shipped_archives


def written(site_dir) -> dict:
    """The precache written at the top of the built sw.js."""
    text = (site_dir / "sw.js").read_text(encoding="utf-8")
    first, rest = text.split("\n", 1)
    assert rest == (ROOT / "templates" / "sw.js").read_text(encoding="utf-8")
    return json.loads(re.fullmatch(r"const PRECACHE = (.*);", first).group(1))


def test_the_worker_keeps_every_page_figure_and_pyodide_file(site_dir):
    files = written(site_dir)["files"]
    pages = {path.lstrip("/") for path in article_pages()}
    embeds = {f"embed/{figure_id}/" for figure_id in figures.FIGURES}
    pyodide = {p.relative_to(site_dir).as_posix() for p in (site_dir / "assets/vendor/pyodide").rglob("*") if p.is_file()}
    fonts = {"assets/sqrt-dk/noto-sans-math.woff2"}
    archives = {f"assets/sqrt-dk/{name}" for name in shipped_archives(site_dir).values()}
    assert len(archives) == 2 and pages | embeds | pyodide | fonts | archives <= set(files)
    assert {"assets/sqrt-dk/runtime-files.js", "assets/sqrt-dk/figures.css", "search/search_index.json",
            "sitemap.xml", "assets/sqrt-dk/figures.js"} <= set(files)
    for path, digest in files.items():
        on_disk = site_dir / (path + "index.html" if path == "" or path.endswith("/") else path)
        assert hashlib.sha256(on_disk.read_bytes()).hexdigest()[:16] == digest, path


def test_what_a_reader_never_needs_is_left_out(site_dir):
    files = written(site_dir)["files"]
    assert not [path for path in files if path.endswith((".map", ".gz", ".woff", ".ttf", "oembed.json"))]
    assert not [path for path in files if path.startswith("assets/javascripts/lunr/") or path.endswith("index.html")]
    assert "sw.js" not in files and "embed/figures.json" not in files
    assert "zh/404.html" not in files and "zh/sitemap.xml" in files, "each language's folder is kept like the root"


def test_the_chinese_pages_and_embed_pages_are_kept_offline_with_the_chinese_cards(site_dir):
    kept = written(site_dir)
    assert {"zh/", "zh/step-4/", "zh/embed/variance-tower/", "zh/embed/cards/step-4/"} <= set(kept["files"])
    assert {"cards.json", "zh/cards.json"} <= set(kept["embed"])


def test_a_changed_file_gives_a_new_version_and_a_different_worker(site_dir, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(site_dir, site)
    before = offline.precache(site)
    assert written(site) == before, "sw.js is written last, from the finished site"
    css = site / "assets/sqrt-dk/figures.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    old = (site / "sw.js").read_bytes()
    offline.write_worker(site)
    after = written(site)
    assert after["version"] != before["version"] and (site / "sw.js").read_bytes() != old
    assert {p for p in after["files"] if after["files"][p] != before["files"].get(p)} == {"assets/sqrt-dk/figures.css"}


IMPORTS = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(\s*|new URL\(\s*)["'](\.{1,2}/[^"']+)["']""")


def loaded_by(site_dir, page) -> set[str]:
    """The site's files a page loads: its scripts, styles, icon and preloads, and what its scripts import
    or start (workers), followed from module to module."""
    text = page.read_text(encoding="utf-8")
    refs = re.findall(r'<(?:script[^>]*\bsrc|link(?![^>]*rel="(?:alternate|canonical)")[^>]*\bhref)="([^"#?]+)"', text)
    todo = [(page.parent / ref).resolve() for ref in refs if "//" not in ref and not ref.endswith("/")]
    seen = set()
    while todo:
        path = todo.pop()
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        if path.suffix in (".js", ".mjs"):
            todo += [(path.parent / ref).resolve() for ref in IMPORTS.findall(path.read_text(encoding="utf-8"))]
    return {p.relative_to(site_dir.resolve()).as_posix() for p in seen}


def test_an_embed_in_another_site_keeps_what_every_embed_page_loads_and_no_article_page(site_dir):
    precache = written(site_dir)
    embed = set(precache["embed"])
    assert embed <= set(precache["files"])
    for figure_id in figures.FIGURES:
        loads = loaded_by(site_dir, site_dir / "embed" / figure_id / "index.html")
        assert {"assets/sqrt-dk/figures.js", "assets/sqrt-dk/worker.js", "assets/vendor/pyodide/pyodide.asm.wasm"} <= loads
        assert loads <= embed, figure_id
    assert not [path for path in embed if path.endswith("/") or path.endswith(".html") or "katex" in path
                or path.startswith(("assets/javascripts/", "assets/stylesheets/", "search/"))]


def test_an_embed_in_another_site_keeps_what_a_page_of_recall_cards_loads_and_reads(site_dir):
    """Besides what it loads, a page of recall cards sets its formulas in the math font (figures.css) and reads the
    site's list of cards (review.js), without which it cannot schedule them: a frame on another site keeps all of it."""
    embed = set(written(site_dir)["embed"])
    pages = sorted((site_dir / "embed/cards").glob("*/index.html"))
    assert pages
    for page in pages:
        assert {"assets/sqrt-dk/review.js", "assets/sqrt-dk/review.css"} <= loaded_by(site_dir, page) <= embed, page
    assert {"assets/sqrt-dk/noto-sans-math.woff2", site_files.CARD_LIST} <= embed
