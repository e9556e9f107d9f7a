"""A real strict build: pre-rendered figures, assets, embed pages, and nothing from a CDN."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import nbformat
import pytest

from pycore import figures, i18n
from pycore.experiments import lr_sweep, reproduce_table, train_chart, train_runs, train_statements
from pycore.figures import saturation
from pycore.params import from_json
from pycore.sitegen.catalogs import scripts_module
from pycore.sitegen.pack import MESSAGES_MODULE, archive_name, catalog_files, runtime_files
from tests.conftest import ROOT, article_pages, build_site, shipped_archives
from tests.unit.test_predict import BODY

FIGURE_RE = re.compile(r'<figure class="sq-figure"[^>]*data-figure="([^"]+)"[^>]*data-state="([^"]*)"')
EXTERNAL = re.compile(r"""<(?:script|link|img|source|iframe)\b[^>]*(?:src|href)=["']?(?:https?:)?//[^>]*>""", re.I)
NOT_LOADED = re.compile(r"""rel=["']?(?:canonical|alternate)""", re.I)  # links that name the page, fetch nothing


def pages(site_dir: Path) -> list[Path]:
    return sorted(site_dir.rglob("*.html"))


def test_every_page_with_a_figure_holds_its_prerendered_svg(site_dir):
    seen = set()
    for page in pages(site_dir):
        text = page.read_text(encoding="utf-8")
        lang = "zh" if page.relative_to(site_dir).parts[0] == "zh" else "en"
        for figure_id, state in FIGURE_RE.findall(text):
            module = figures.get(figure_id)
            with i18n.using(lang):
                svg = module.render(module.parse(from_json(json.loads(html.unescape(state)))))
            assert svg in text, f"{page}: {figure_id} is not pre-rendered for its state"
            seen.add(figure_id)
    assert seen == set(figures.FIGURES)


def test_nothing_is_loaded_from_another_host(site_dir):
    for page in pages(site_dir):
        text = page.read_text(encoding="utf-8")
        loads = [tag for tag in EXTERNAL.findall(text) if not NOT_LOADED.search(tag)]
        assert loads == [], f"{page} loads something from another host"
        assert "fonts.googleapis" not in text and "cdn.jsdelivr" not in text
    for asset in [*site_dir.rglob("*.css"), *site_dir.glob("assets/sqrt-dk/*.js"), site_dir / "sw.js"]:
        text = asset.read_text(encoding="utf-8", errors="replace")
        assert not re.search(r"""url\(["']?https?://|import[^;]*["']https?://""", text), asset


def test_assets_are_self_hosted(site_dir):
    assets = site_dir / "assets/sqrt-dk"
    named = shipped_archives(site_dir)
    assert re.fullmatch(r"core-[0-9a-f]{12}\.zip", named["CORE"])
    assert re.fullmatch(r"python_stdlib-[0-9a-f]{12}\.zip", named["STDLIB"])
    assert sorted(p.name for p in assets.glob("*.zip")) == sorted(named.values()), "an older archive was left behind"
    assert sorted(p.name for p in (site_dir / "assets/vendor/pyodide").iterdir()) == [
        "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide.mjs"], "only what the runtime loads is shipped"
    assert not (site_dir / "assets/vendor/katex").exists(), "math is typeset at build time, as MathML"
    assert (assets / "noto-sans-math.woff2").is_file()


def drawn_math(page: str) -> str:
    """The characters a page's formulas draw: the text of its <math> elements, without the TeX annotation."""
    formulas = re.findall(r"<math\b.*?</math>", page, re.S)
    return "".join(html.unescape(re.sub(r"<[^>]+>", "", re.sub(r"<annotation\b.*?</annotation>", "", f, flags=re.S)))
                   for f in formulas)


def test_the_math_font_is_cut_small_and_has_every_character_the_formulas_draw(site_dir):
    """The browser lays the formulas out with this font: it keeps its MATH table, and each character a formula
    shows, with the italic letter MathML draws a one-letter identifier in; cut, it is a fraction of the whole."""
    from fontTools.ttLib import TTFont

    cut = site_dir / "assets/sqrt-dk/noto-sans-math.woff2"
    font = TTFont(cut)
    assert "MATH" in font and font["MATH"].table.MathVariants.VertGlyphCount > 0  # the taller roots and brackets
    whole = ROOT / "node_modules/@fontsource/noto-sans-math/files/noto-sans-math-latin-400-normal.woff2"
    assert cut.stat().st_size < whole.stat().st_size / 3
    drawn = set("".join(drawn_math(p.read_text(encoding="utf-8")) for p in site_dir.rglob("index.html")))
    assert {"∑", "−", "𝔼", "β"} <= drawn
    # Invisible: the space, function application and separator. The font has no spacing macron, so the bar of
    # \bar{k} on Reproduce it is drawn in the browser's fallback font, as are a Chinese formula's words (\text{个}),
    # in the page's Chinese font.
    chinese = {c for c in drawn if "\u4e00" <= c <= "\u9fff"}
    assert chinese, "the Chinese pages' formulas were read too"
    needed = (drawn | {italic(c) for c in drawn}) - {" ", "\u2061", "\u2063", "ˉ"} - chinese
    assert needed <= {chr(c) for c in font.getBestCmap()}


def italic(c: str) -> str:
    """The mathematical italic letter of a Latin or Greek one (Unicode's block of mathematical letters, with
    the italic h it left out as U+210E); any other character as it is."""
    if c == "h":
        return "\u210e"
    for first, last, italic_first in (("A", "Z", 0x1D434), ("a", "z", 0x1D44E), ("α", "ω", 0x1D6FC)):
        if first <= c <= last:
            return chr(italic_first + ord(c) - ord(first))
    return c


def test_a_sign_of_a_number_is_a_prefix_and_blackboard_letters_are_unicode(site_dir):
    """KaTeX's MathML spaces b = -0.5 as a subtraction and asks for a double-struck E by an attribute browsers
    ignore; the build marks the sign a prefix and writes the letter itself (pycore/sitegen/math.py)."""
    html = (site_dir / "step-4/index.html").read_text(encoding="utf-8")
    assert '<mi>b</mi><mo>=</mo><mo form="prefix">−</mo><mn>0.5</mn>' in html
    assert "<mi>𝔼</mi>" in html and 'mathvariant="double-struck"' not in html
    assert re.search(r'<mi>[a-z]</mi><mo>−</mo><mi>[a-z]</mi>', "".join(
        p.read_text(encoding="utf-8") for p in site_dir.glob("*/index.html"))), "a subtraction stays infix"


def test_the_search_index_holds_each_formula_once_as_its_tex(site_dir):
    """Material's index takes the text of a formula's drawn MathML and of its TeX annotation, one after the other;
    the drawn part is kept out (pycore/sitegen/math.py), in both languages: Var(q·k) is there as its TeX, never as
    the drawn text (whose function application sign U+2061 no TeX has), and a radical is not lost: the drawn
    text of sqrt(64) = 8 is "64=8"."""
    for index in ("search/search_index.json", "zh/search/search_index.json"):
        docs = json.loads((site_dir / index).read_text(encoding="utf-8"))["docs"]
        text = " ".join(doc["text"].replace("\u200b", "") for doc in docs)
        assert "\\operatorname{Var}(q \\cdot k)" in text and "\u2061" not in text, index
        assert "\\sqrt{64} = 8" in text and "64=8" not in text, index
    assert '<semantics><mpadded data-search-exclude><mrow><mi>q</mi><mo>⋅</mo><mi>k</mi></mrow></mpadded>' in (
        site_dir / "step-2/index.html").read_text(encoding="utf-8")


def test_the_lock_file_the_runtime_passes_lists_no_packages_for_this_pyodide(site_dir):
    text = (site_dir / "assets/sqrt-dk/runtime-files.js").read_text()
    lock = json.loads(re.search(r"export const LOCK = (.*);", text).group(1))
    stock = json.loads((ROOT / "node_modules/pyodide/pyodide-lock.json").read_text())
    assert lock == {"info": stock["info"], "packages": {}}


def test_the_standard_library_is_trimmed_and_compiled(site_dir):
    name = shipped_archives(site_dir)["STDLIB"]
    members = zipfile.ZipFile(site_dir / "assets/sqrt-dk" / name).namelist()
    stock = {m.removesuffix(".py") for m in zipfile.ZipFile(ROOT / "node_modules/pyodide/python_stdlib.zip").namelist()}
    assert all(m.endswith(".pyc") and m.removesuffix(".pyc") in stock for m in members)
    modules = {m.removesuffix(".pyc").removesuffix("/__init__").replace("/", ".") for m in members}
    # What the core imports from the library, and what Pyodide's own start needs, are in; the rest is not.
    assert {"dataclasses", "random", "json", "typing", "hashlib", "_pyodide._base", "pyodide.ffi", "asyncio"} <= modules
    assert not {"argparse", "email", "unittest", "tkinter", "sqlite3", "xml.dom"} & modules
    assert (site_dir / "assets/sqrt-dk" / name).stat().st_size < 0.35 * (ROOT / "node_modules/pyodide/python_stdlib.zip").stat().st_size


def test_the_core_is_shipped_compiled_module_for_module(site_dir):
    members = zipfile.ZipFile(site_dir / "assets/sqrt-dk" / shipped_archives(site_dir)["CORE"]).namelist()
    assert members == [archive_name(p) + "c" for p in runtime_files()] + [archive_name(p) for p in catalog_files()]


def test_figure_pages_start_python_and_prefetch_its_wasm_and_other_pages_do_neither(site_dir):
    """The wasm is prefetched, not preloaded: a preload's end is handled on the page's thread; Python's other files
    have no hint, as the worker head.js starts asks for them as soon (README, Benchmark). Either way the head has
    one script, so a figure page's head asks for no more files than another page's (README, Benchmark)."""
    asked = {}
    for page in [site_dir / "step-2/index.html", site_dir / "embed/dot-product/index.html", site_dir / "references/index.html"]:
        html_text = page.read_text()
        head = html_text.split("</head>")[0]
        asked[page.parent.name] = len(re.findall(r'<script src=|<link rel="(?:stylesheet|preload)"', head))

        def resolved(pattern: str) -> set[str]:
            return {(page.parent / href).resolve().relative_to(site_dir.resolve()).as_posix()
                    for href in re.findall(pattern, head)}
        figures_here = "data-figure=" in html_text
        assert resolved(r'<script src="([^"]+)" data-python></script><link rel="prefetch"') == (
            {"assets/sqrt-dk/head.js"} if figures_here else set()), page
        assert len(re.findall(r'<script src="[^"]*/head\.js"', head)) == 1, page
        assert resolved(r'<link rel="prefetch" href="([^"]+)" crossorigin>') == (
            {"assets/vendor/pyodide/pyodide.asm.wasm"} if figures_here else set()), page
        fonts = re.findall(r'<link rel="preload" href="([^"]+)" as="font" type="font/woff2" crossorigin>', head)
        hints = len(re.findall(r'rel="pre(?:load|fetch)"', html_text))
        assert figures_here + len(fonts) == hints, "every hint sits in the head, and no other file is preloaded"
    assert asked["step-2"] == asked["references"] == 6  # the font, the head's script, four stylesheets


def test_a_page_with_math_asks_for_the_math_font_before_its_stylesheets(site_dir):
    """So that its formulas are laid out in the font from the first, rather than in a fallback and then again."""
    for page in (site_dir / "step-4/index.html", site_dir / "references/index.html", site_dir / "see-also/index.html"):
        text = page.read_text(encoding="utf-8")
        preload = re.search(r'<link rel="preload" href="([^"]+)" as="font" type="font/woff2" crossorigin>', text)
        assert bool(preload) == ("<math" in text), page
        if preload:
            assert (page.parent / preload.group(1)).resolve() == (site_dir / "assets/sqrt-dk/noto-sans-math.woff2").resolve()
            assert preload.start() < text.index('<link rel="stylesheet"')


def test_every_code_block_takes_keyboard_focus_before_any_script_runs(site_dir):
    """Material sets up code blocks only as they come into view (content.lazy), so the build makes each
    block's scrolling element, the code, focusable, unless its pre already is (the figures' Python)."""
    blocks = 0
    for page in sorted(site_dir.rglob("*.html")):
        for pre, code in re.findall(r"<pre\b([^>]*)>(?:<span></span>)?<code\b([^>]*)>", page.read_text(encoding="utf-8")):
            blocks += 1
            assert 'tabindex="0"' in pre + code, (page.relative_to(site_dir).as_posix(), pre, code)
            assert not ('tabindex="0"' in pre and 'tabindex="0"' in code), "two focus stops for one block"
    assert blocks > 20  # the numpy examples, the embed snippets and every figure's Python


def test_no_page_skips_a_heading_level_on_the_way_down(site_dir):
    """A screen reader's outline (and Lighthouse's heading-order audit): after an h1 comes an h2, not an h3."""
    for page in sorted(site_dir.rglob("*.html")):
        article = re.search(r"<article\b.*?</article>", page.read_text(encoding="utf-8"), re.S)
        levels = [int(n) for n in re.findall(r"<h([1-6])\b", article.group(0))] if article else []
        for before, after in zip(levels, levels[1:]):
            assert after <= before + 1, (page.relative_to(site_dir).as_posix(), levels)


def test_one_embed_page_per_registered_figure(site_dir):
    for figure_id, module in figures.FIGURES.items():
        page = site_dir / "embed" / figure_id / "index.html"
        text = page.read_text(encoding="utf-8")
        assert module.render(module.State()) in text
        assert 'class="md-header' not in text, "embed pages carry no site chrome"
        description = re.search(r'<meta name="description" content="([^"]+)">', text)
        assert description and html.unescape(description.group(1)).startswith(f"{module.TITLE}: an interactive figure")


EMPTY_GLOSSARY = "main_path: [index.md, bad.md]\nterms: []\n"
GLOSSARY = """main_path: [index.md, bad.md]
terms:
  - term: widget
    page: bad.md
    anchor: widget
    definition: A thing the second page introduces.
    patterns: ['\\bwidgets?\\b']
    abbr: [widget]
"""
"""A one-term glossary for the copies: 'widget' is introduced on bad.md, after index.md."""


def _site_copy(tmp_path: Path, page: str, home: str = "# Home\n", glossary_yml: str = EMPTY_GLOSSARY,
               languages: bool = False) -> Path:
    """The real configuration with a two-page docs folder (index.md, then bad.md) and a glossary
    (by default one without terms), in English alone unless ``languages``; the config sits beside mkdocs.yml so
    every relative path in it (hook, theme overrides, watch) means what it means there."""
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "site_src" / "assets", docs / "assets")
    (docs / "index.md").write_text(home, encoding="utf-8")
    (docs / "bad.md").write_text(page, encoding="utf-8")
    (docs / "glossary.yml").write_text(glossary_yml, encoding="utf-8")
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    text = re.sub(r"(?ms)^nav:.*?\n\n", "nav:\n  - Home: index.md\n  - Bad: bad.md\n\n", text)
    text = text.replace("docs_dir: site_src", f"docs_dir: {docs}")
    if not languages:
        text = re.sub(r"(?ms)^  # One build of both languages.*?(?=^\S)", "", text)
    config = ROOT / f".test-mkdocs-{tmp_path.name}.yml"
    config.write_text(text, encoding="utf-8")
    return config


def _copy_build(tmp_path: Path, page: str, home: str, glossary: str = GLOSSARY) -> subprocess.CompletedProcess:
    """A strict build of the two-page copy with a one-term glossary."""
    config = _site_copy(tmp_path, page, home, glossary)
    try:
        return build_site(tmp_path / "out", config)
    finally:
        config.unlink()


def _failed_build(tmp_path: Path, page: str) -> str:
    """What a strict build of the copy printed; the build must have failed."""
    config = _site_copy(tmp_path, page)
    try:
        result = build_site(tmp_path / "out", config)
    finally:
        config.unlink()
    assert result.returncode != 0
    return result.stderr + result.stdout


@pytest.mark.parametrize("marker,message", [
    ("id: no-such-figure", "bad.md: figure 'no-such-figure': unknown figure 'no-such-figure'"),
    ("id: query-key\nq: 1,abc", "bad.md: figure 'query-key': q must be 2 comma-separated numbers from -2 to 2, got '1,abc'"),
    ("id: dot-product\nzoom: 2", "bad.md: figure 'dot-product': unknown parameter 'zoom'"),
    ("id: dot-product\ncontrols: dk", "bad.md: figure 'dot-product': unknown control 'dk'"),
])
def test_bad_markers_fail_the_build_naming_page_figure_and_parameter(tmp_path, marker, message):
    assert message in _failed_build(tmp_path, f"# Bad\n\n```figure\n{marker}\n```\n")


PREDICT_NUDGE = f"```predict\n{BODY}```\n"
"""The unit tests' stretched-nudge prompt as a page's block."""


def test_a_prediction_below_the_figure_that_answers_it_fails_the_build(tmp_path):
    output = _failed_build(tmp_path, f"# Bad\n\n```figure\nid: nudge\n```\n\n{PREDICT_NUDGE}")
    assert ("bad.md: predict 'stretched-nudge' stands below its figure 'fig-nudge': a prediction comes before "
            "the figure that answers it") in output


def test_an_unknown_generated_block_fails_the_build_naming_the_page_and_the_known_names(tmp_path):
    output = _failed_build(tmp_path, "# Bad\n\n```generated\nall-card\n```\n")
    assert ("bad.md: unknown generated block 'all-card'; known: all-cards, figure-reference, glossary, "
            "length-factors, lr-sweep, machine-readable, reproduction-table, review-session, score-ceilings, "
            "train-grid") in output


def test_an_unknown_claim_fails_the_build_naming_the_page_and_the_nearest_names(tmp_path):
    output = _failed_build(tmp_path, '# Bad\n\nA share: <span data-claim="reproduce.saturated.none.255"></span>.\n')
    assert "bad.md: unknown claim 'reproduce.saturated.none.255'; did you mean reproduce.saturated.none.256" in output


@pytest.mark.parametrize("span,message", [
    ('<span data-live="fig-nudge:@dk"></span>', "bad.md: live span 'fig-nudge:@dk': no figure 'fig-nudge' on this page; "
                                                "it has: fig-saturation"),
    ('<span data-live="fig-saturation:share"></span>', "bad.md: live span 'fig-saturation:share': 'share' is not a "
                                                       "readout or @field of this figure; it has: saturated"),
])
def test_a_live_span_bound_to_what_the_page_lacks_fails_the_build_saying_what_it_has(tmp_path, span, message):
    assert message in _failed_build(tmp_path, f"# Bad\n\n```figure\nid: saturation\n```\n\nAs set: {span}.\n")


def test_the_built_pages_live_spans_say_their_figures_built_state(site_dir):
    page = (site_dir / "step-5" / "index.html").read_text(encoding="utf-8")
    share = saturation.readouts(saturation.State())["saturated"]
    assert '<span data-live="fig-saturation:@dk">64</span>' in page
    assert '<span data-live="fig-saturation:@divisor">none</span>' in page
    assert f'<span data-live="fig-saturation:saturated|percent">{100 * float(share):g}%</span>' in page


def test_a_sweep_in_an_aside_claims_in_the_prose_and_the_page_notebooks_reach_the_site(tmp_path):
    page = ('# Sweep\n\nShare: <span data-claim="reproduce.saturated.none.64.percent"></span>.\n\n'
            '??? info "Going deeper: the sweep"\n    ```generated\n    lr-sweep\n    ```\n')
    config = _site_copy(tmp_path, page)
    try:
        result = build_site(tmp_path / "out", config)
    finally:
        config.unlink()
    assert result.returncode == 0, result.stderr
    out = (tmp_path / "out" / "bad" / "index.html").read_text(encoding="utf-8")
    share = reproduce_table.saturated_shares()[64].value
    assert f'Share: <span data-claim="reproduce.saturated.none.64.percent">{round(100 * share)}%</span>.' in out
    aside = out[out.index('<details class="info">'):out.index("</details>")]
    s = lr_sweep.sweep()
    for statement in lr_sweep.statements(s):
        assert f"<li>{html.escape(statement, quote=False)}</li>" in aside
    assert aside.count("<table>") == 3
    for name in ("reproduce.ipynb", "train-grid.ipynb"):
        nb = nbformat.read(tmp_path / "out" / name, as_version=4)
        nbformat.validate(nb)


def test_the_train_grid_block_puts_its_chart_statements_and_table_on_the_page(tmp_path):
    # Off the main path, as on the Train page: its table and statements are many numbers by design.
    config = _site_copy(tmp_path, "# Training\n\n```generated\ntrain-grid\n```\n",
                        glossary_yml="main_path: [index.md]\nterms: []\n")
    try:
        result = build_site(tmp_path / "out", config)
    finally:
        config.unlink()
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "out" / "bad" / "index.html").read_text(encoding="utf-8")
    g = train_runs.grid()
    assert train_chart.chart(g) in page, "the chart reaches the page as it was drawn"
    for statement in train_statements.statements(g):
        assert f"<li>{html.escape(statement, quote=False)}</li>" in page
    table = page[page.index("<table>"):page.index("</table>")]
    assert table.count("<tr>") == 1 + len(g.runs)


def test_an_old_comment_marker_fails_the_build_naming_the_page(tmp_path):
    output = _failed_build(tmp_path, "# Bad\n\n<!-- sq:all-cards -->\n")
    assert "bad.md: '<!-- sq:all-cards -->' is a comment, which the build no longer reads" in output


def test_teachers_page_lists_every_figure_parameter_and_a_live_example(site_dir):
    text = (site_dir / "teachers" / "index.html").read_text(encoding="utf-8")
    for figure_id, module in figures.FIGURES.items():
        assert f'id="embed-{figure_id}"' in text
        assert f'src="../embed/{figure_id}/"' in text, "live example"
        for name in figures.state_params(module.State()):
            assert f"<code>{name}</code>" in text, (figure_id, name)
    assert "a whole number from 1 to 512" in text and "one of none, sqrt, dk" in text
    assert "sqrt-dk:height" in text


def test_embed_pages_load_the_sandbox_notice_as_a_classic_script(site_dir):
    text = (site_dir / "embed" / "dot-product" / "index.html").read_text(encoding="utf-8")
    assert '<script src="../../assets/sqrt-dk/embed-check.js"></script>' in text
    assert '<script type="module" src="../../assets/sqrt-dk/figures.js"></script>' in text


def test_page_scripts_name_no_figure():
    """The page's JavaScript is generic: a figure's controls reach pycore as drags, keys, sets and buttons.

    A figure's own event (the dot product's swing) is a ``set`` that pycore/bridge.py hands to
    the figure, so no figure id and no such word belongs in a script.
    """
    scripts = sorted((ROOT / "site_src/assets/sqrt-dk").glob("*.js"))
    assert len(scripts) >= 5
    for script in scripts:
        text = script.read_text(encoding="utf-8").lower()
        # In the scripts' strings, where an id or an event's name would sit ("length" is a figure's id and
        # also every array's .length).
        strings = " ".join(m.group(0) for m in re.finditer(r"(['\"`])(?:\\.|(?!\1).)*\1", text))
        named = [word for word in (*figures.FIGURES, "swing") if re.search(rf"(?<![\w.-]){re.escape(word)}(?![\w-])", strings)]
        assert named == [], f"{script.name} names {named}"


def _module_text(name: str) -> str:
    """A page module's source: the one the build writes (messages.js, from the catalogs), or the file's."""
    if name == MESSAGES_MODULE:
        return scripts_module()
    return (ROOT / "site_src/assets/sqrt-dk" / name).read_text(encoding="utf-8")


def _page_modules(name: str = "figures.js", seen: set[str] | None = None) -> set[str]:
    """The page's module graph from its entry, by the relative imports each module names."""
    seen = set() if seen is None else seen
    seen.add(name)
    text = _module_text(name)
    for imported in re.findall(r'^(?:import|export)\b[^;]*?"\./([\w-]+\.js)"', text, flags=re.M):
        if imported not in seen:
            _page_modules(imported, seen)
    return seen


def test_every_module_of_the_page_is_compiled_before_python_is_ready():
    """Each module the page's entry loads opens with V8's compile hint, so its functions are compiled as it
    loads rather than on their first call, which came in one task once Python was ready (make bench)."""
    modules = _page_modules()
    assert {"figures.js", "figure-view.js", "review.js", "bridge-client.js", "wake.js", "export.js", "i18n.js",
            MESSAGES_MODULE} <= modules
    assert "runtime.js" not in modules  # the worker's, off the page's thread
    for name in sorted(modules):
        first = _module_text(name).splitlines()[0]
        assert first == "//# allFunctionsCalledOnLoad", name


def test_every_page_of_the_article_is_built(site_dir):
    pages = article_pages()
    assert {"/assumptions/", "/references/"} <= set(pages)
    for page in pages:
        assert (site_dir / page.strip("/") / "index.html").is_file(), page
    for n in range(1, 8):
        text = (site_dir / f"step-{n}" / "index.html").read_text(encoding="utf-8")
        assert f"<span>Step {n} of 7</span>" in text and f'<a href="../step-{n}/" ' in text
        assert text.count('aria-current="step"') == 1


def _source_cards():
    from pycore.sitegen import cards

    out = []
    for path in article_pages():
        src = "index.md" if path == "/" else path.strip("/") + ".md"
        out += cards.collect((ROOT / "site_src" / src).read_text(encoding="utf-8"), src)
    return out


def test_every_step_has_cards_and_the_review_page_holds_them_all(site_dir):
    deck = _source_cards()
    assert {f"step-{n}.md" for n in range(1, 8)} | {"assumptions.md", "train.md", "long-rows.md"} == {c.page for c in deck}
    assert len(deck) >= 3 + 8
    assert len({c.question for c in deck}) == len(deck), "no two cards ask the same question"
    review = (site_dir / "review" / "index.html").read_text(encoding="utf-8")
    assert review.count('class="question sq-card"') == len(deck)
    for src in {c.page for c in deck}:
        page = (site_dir / src.removesuffix(".md") / "index.html").read_text(encoding="utf-8")
        assert page.count('class="question sq-card"') == sum(c.page == src for c in deck)


def test_anki_deck_parses_and_holds_every_card(site_dir):
    import csv

    text = (site_dir / "cards.tsv").read_text(encoding="utf-8")
    rows = list(csv.reader(text.splitlines(), delimiter="\t", quoting=csv.QUOTE_NONE))
    deck = _source_cards()
    assert len(rows) == len(deck) and all(len(r) == 2 for r in rows)
    assert [r[0] for r in rows] == [c.question.replace("*", "") for c in deck]
    assert [r[1] for r in rows] == [c.answer.replace("*", "") for c in deck]
    assert 'href="../cards.tsv"' in (site_dir / "review" / "index.html").read_text(encoding="utf-8")


def test_reproduction_page_shows_the_numpy_table(site_dir):
    from pycore.experiments import reproduce, reproduce_verdicts

    text = (site_dir / "reproduce" / "index.html").read_text(encoding="utf-8")
    text = re.sub(r"</?abbr\b[^>]*>", "", text.replace(' style="text-align: right;"', ""))  # the glossary's tooltips
    t = reproduce_table.table()
    for cell in t.cells:
        assert "\n".join(f"<td>{html.escape(v, quote=False)}</td>" for v in reproduce.values(cell)) in text, cell
    for v in reproduce_verdicts.verdicts(t):
        outcome = "Holds." if v.holds else "Does not hold."
        claim, evidence = html.escape(v.claim, quote=False), html.escape(v.evidence, quote=False)
        assert f"{claim} <strong>{outcome}</strong> {evidence}" in text, v.claim
    assert html.escape(reproduce.settings(t), quote=False) in text and "pycore.experiments.reproduce" in text


def test_no_inline_script_so_a_strict_csp_works(site_dir):
    inline = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
    handlers = re.compile(r"<[^>]+\son[a-z]+=", re.I)
    for page in pages(site_dir):
        text = page.read_text(encoding="utf-8")
        assert not inline.search(text), f"{page} has an inline script"
        assert not handlers.search(text), f"{page} has an inline event handler"


WIDGET_PAGE = "# Bad\n\nA **widget**{ #widget } is introduced here.\n"


def test_a_term_used_before_the_page_that_introduces_it_fails_the_build(tmp_path):
    result = _copy_build(tmp_path, WIDGET_PAGE, "# Home\n\nThe widget comes early.\n")
    assert result.returncode != 0
    assert "index.md: 'widget' (introduced on bad.md) is used before it: …" in result.stderr


def test_an_aside_or_a_forward_link_may_name_a_later_term_its_entry_lists_and_a_term_keeps_its_tooltip(tmp_path):
    home = ("# Home\n\nYou will meet the [widget](bad.md#widget) soon.\n\n"
            '??? info "Going deeper: early"\n    A widget, for the expert.\n')
    later = ("\nA widget again.\n\n## Later\n\nThe widget once more, and again a widget.\n\n"
             '??? info "Going deeper: the widget"\n    A widget inside an aside.\n')
    listed = GLOSSARY.replace("    abbr: [widget]\n", "    abbr: [widget]\n    earlier: [index.md]\n")
    (tmp_path / "unlisted").mkdir()
    unlisted = _copy_build(tmp_path / "unlisted", WIDGET_PAGE + later, home)
    assert unlisted.returncode != 0, "an aside's early use is told on the glossary page, so its entry lists it"
    assert "its glossary entry does not list index.md under earlier" in unlisted.stderr
    result = _copy_build(tmp_path, WIDGET_PAGE + later, home, listed)
    assert result.returncode == 0, result.stderr
    bad = (tmp_path / "out" / "bad" / "index.html").read_text(encoding="utf-8")
    tip = '<abbr title="A thing the second page introduces.">widget</abbr>'
    assert re.findall(r"<abbr[^>]*>widget</abbr>", bad) == [tip.replace("<abbr", '<abbr tabindex="0"'), tip, tip]
    assert "A widget again." in bad and "and again a widget." in bad
    assert bad.index(tip) < bad.index("and again a widget.") < bad.index(tip, bad.index(tip) + 1)
    home_html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert '<details class="info">' in home_html and "open" not in home_html.split('<details class="info"')[1][:20]


def test_a_main_path_page_over_its_word_budget_fails_the_build(tmp_path):
    output = _failed_build(tmp_path, "# Bad\n\n" + " ".join(["word"] * 460) + "\n")
    assert "bad.md: 461 words of main-path prose, more than 450" in output
