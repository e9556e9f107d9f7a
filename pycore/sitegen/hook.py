"""MkDocs hook: markers become pre-rendered figures, cards and generated parts; assets and embed pages are written.

An unknown figure id, a bad parameter, an unknown generated part or an old comment marker
raises PluginError naming the page, so ``mkdocs build --strict`` fails instead of shipping a hole.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

# MkDocs loads this file by its path, outside any package: put the repository root on sys.path
# so that `pycore` imports. Everything else takes the root from pycore.sitegen.paths.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pycore.experiments import fixes, lr_sweep, reproduce, reproduce_table, train_grid, train_runs  # noqa: E402
from pycore.sitegen import (  # noqa: E402
    cards, claims, embed, glossary, live_spans, markers, math, notebooks, oembed, offline, pack, stdlib,
)
from pycore.cache import CACHE, write_whole  # noqa: E402
from pycore.sitegen.reference import reference  # noqa: E402
from pycore.sitegen.render import ENV, render_marker, render_predict, render_row_menu, state_json  # noqa: E402

log = logging.getLogger("mkdocs.hooks.sqrt_dk")
_rendered: dict[str, list[str]] = {}
_runtime: list[Future[pack.Runtime]] = []
"""The compiled core and library (pack.Runtime), traced under Node in a thread while the pages' Markdown
is rendered: on a first build the two overlap."""
_site_url: list[str | None] = [None]
"""The address the site is published at (``SITE_URL``), or None: then no file holds an absolute address."""
_serving = False
_deck: list[cards.Card] = []
_titles: dict[str, str] = {}
_glossary: list[glossary.Glossary] = []
DECK = "cards.tsv"
CARD_LIST = "cards.json"
"""Every card's id, page and question, which the page's review script reads (review.js)."""
_card_html: dict[str, list[str]] = {}
"""Each page's cards as the page shows them, typeset, for the embed pages of cards."""
GLOSSARY = "glossary.yml"
"""The glossary's data file, in the docs folder (kept out of the site by ``exclude_docs``)."""


def _nav_pages(nav) -> list[tuple[str, str]]:
    """(title, source path) of every page in the configured nav, in order."""
    out = []
    for item in nav or []:
        for title, target in item.items():
            if isinstance(target, list):
                out.extend(_nav_pages(target))
            else:
                out.append((title, target))
    return out


STEP = re.compile(r"step-(\d)\.md")


def step_indicator(current: int) -> str:
    """A small "step n of 7" bar linking every step, the current one marked for screen readers."""
    steps = sorted((int(m.group(1)), title) for src, title in _titles.items() if (m := STEP.fullmatch(src)))
    return ENV.get_template("steps.html.j2").render(current=current, steps=steps)


def on_startup(command, dirty):
    """Remember whether this is ``mkdocs serve``: its pages change while a browser has them open."""
    global _serving
    _serving = command == "serve"


def on_config(config):
    """Note the published address, if any; load the glossary and append its tooltips to every page;
    start packing the core and tracing the standard library, once per build: pages name both in their
    preload hints (runtime())."""
    _site_url[0] = config["site_url"] or None
    try:
        terms = glossary.load(Path(config["docs_dir"]) / GLOSSARY)
    except (OSError, glossary.GlossaryError) as err:
        raise PluginError(f"the glossary cannot be read: {err}") from None
    _glossary[:] = [terms]
    text = glossary.abbreviations(terms)
    CACHE.mkdir(exist_ok=True)
    abbr = CACHE / f"glossary-{hashlib.sha256(text.encode()).hexdigest()[:12]}.md"
    if not abbr.is_file():  # named by its content, so a file already there is the same text
        write_whole(abbr, text.encode("utf-8"))
    config["mdx_configs"]["pymdownx.snippets"] = {"base_path": [str(CACHE)], "auto_append": [abbr.name],
                                                  "check_paths": True}
    pool = ThreadPoolExecutor(1)
    _runtime[:] = [pool.submit(lambda: pack.Runtime(*stdlib.compiled_archives()))]
    pool.shutdown(wait=False)  # the trace runs on; runtime() waits for it
    return config


def runtime() -> pack.Runtime:
    """The compiled core and library, once their trace (started by on_config) is done."""
    try:
        return _runtime[0].result()
    except stdlib.TraceError as err:
        raise PluginError(f"the figures failed in Pyodide while the standard library was traced: {err}") from None


def on_files(files, config):
    """Gather every recall card before any page is rendered; add the Anki deck and the Reproduce page's and the
    training grid's notebooks as site files."""
    _deck.clear()
    _titles.clear()
    for title, src in _nav_pages(config["nav"]):
        _titles[src] = title
        file = files.get_file_from_path(src)
        if file is None:
            continue
        try:
            _deck.extend(cards.collect(Path(file.abs_src_path).read_text(encoding="utf-8"), src))
        except cards.CardError as err:
            raise PluginError(str(err)) from None
    try:
        cards.check_unique(_deck)
    except cards.CardError as err:
        raise PluginError(str(err)) from None
    files.append(File.generated(config, DECK, content=cards.anki(_deck)))
    files.append(File.generated(config, CARD_LIST, content=cards.listing(_deck)))
    site = config["site_url"] or ""
    files.append(File.generated(config, notebooks.REPRODUCE,
                                content=notebooks.text(notebooks.reproduce_notebook(f"{site}reproduce/"))))
    files.append(File.generated(config, notebooks.TRAIN_GRID,
                                content=notebooks.text(notebooks.train_grid_notebook(f"{site}train/"))))
    return files


def _all_cards(root: str) -> str:
    """Every recall card of the article, grouped under its page."""
    return cards.review(_deck, _titles)


def _review_session(root: str) -> str:
    """The review page's session: the count of due cards, the session itself, export, import and clearing."""
    return ENV.get_template("review-session.html.j2").render(root=root).strip() + "\n"


def _reproduction(root: str) -> str:
    """The numpy reproduction's settings, verdicts and tables."""
    return reproduce.markdown(reproduce_table.table())


def _glossary_table(root: str) -> str:
    """Every term of the glossary, what it means and where it is introduced."""
    return glossary.page_markdown(_glossary[0], _titles)


def _train_grid(root: str) -> str:
    """The numpy training grid: settings, chart, statements computed from its numbers, and its table."""
    return train_grid.markdown(train_runs.grid())


def _lr_sweep(root: str) -> str:
    """The numpy learning-rate sweep: settings, statements computed from its numbers, and its tables."""
    return lr_sweep.markdown(lr_sweep.sweep())


def _length_factors(root: str) -> str:
    """Long rows: what each rule multiplies the scores by as the row grows, as a static chart."""
    return fixes.picture(fixes.length_factors())


def _score_ceilings(root: str) -> str:
    """Long rows: the largest score as training grows q and k, under each fix that bounds it, as a static chart."""
    return fixes.picture(fixes.score_ceilings())


def _figure_reference(root: str) -> str:
    """Every figure's parameters, snippet and live example, for the teachers' page."""
    return reference(root, _site_url[0])


def _machine_readable(root: str) -> str:
    """The teachers' sections on oEmbed and the figure list: their addresses, or how to get them."""
    example = "score-histogram"
    first = oembed.entry(example, _site_url[0] or "/")["parameters"][0]
    return ENV.get_template("machine-readable.md.j2").render(
        root=root, site_url=_site_url[0] and oembed.base(_site_url[0]), example=example,
        parameter=json.dumps(first, ensure_ascii=False))


PARTS = {"all-cards": _all_cards, "figure-reference": _figure_reference, "glossary": _glossary_table,
         "lr-sweep": _lr_sweep, "machine-readable": _machine_readable, "reproduction-table": _reproduction,
         "review-session": _review_session, "train-grid": _train_grid, "length-factors": _length_factors,
         "score-ceilings": _score_ceilings}
"""Each generated part by its name in a ```generated block; each takes the path up to the site root."""


def _placeholder(index: int) -> str:
    """The token that holds a figure's place through Markdown conversion; it never reaches the site."""
    return f'<div data-sq-placeholder="{index}"></div>'


def _site_root(page_url: str) -> str:
    """The path from a page up to the site root, relative so the site works under any prefix."""
    depth = page_url.strip("/").count("/") + 1 if page_url.strip("/") else 0
    return "../" * depth


def on_page_markdown(markdown, page, config, files):
    """Fill in the page's markers; any problem fails the build with the page's name."""
    src = page.file.src_uri
    try:
        return _fill_markers(markdown, src, _site_root(page.url))
    except markers.MarkerError as err:
        raise PluginError(f"{src}: {err}") from None
    except cards.CardError as err:
        raise PluginError(str(err)) from None
    except claims.ClaimError as err:
        raise PluginError(f"{src}: {err}") from None


def _fill_markers(markdown: str, src: str, root: str) -> str:
    """Figures and prediction prompts become placeholders (their HTML kept for on_page_content), cards
    collapsed blocks, generated blocks their parts, empty claim spans their numbers; a step page gets
    the step indicator on top. The panels of a row have no menus of their own: the row gets one after them."""
    markers.check_no_comments(markdown)
    figures: list[str] = []
    anchors: dict[str, int] = {}
    placed: dict[str, tuple[str, dict]] = {}
    starts: dict[str, int] = {}
    prompts = [m.start() for m in markers.PREDICT.finditer(markdown)]
    rows = [(m.start(), m.end(), []) for m in markers.ROW.finditer(markdown)]

    def figure(match):
        marker = markers.parse_marker(match.group("body"))
        anchors[marker.figure] = anchors.get(marker.figure, 0) + 1
        n = anchors[marker.figure]
        anchor = marker.anchor or f"fig-{marker.figure}" + (f"-{n}" if n > 1 else "")
        row = next((panels for start, end, panels in rows if start <= match.start() < end), None)
        if row is not None:
            row.append(anchor)
        figures.append(render_marker(marker, anchor=anchor, embed_root=root + "embed/", menu=row is None))
        placed[anchor] = (marker.figure, state_json(marker))
        starts[anchor] = match.start()
        return f"\n{match.group('indent')}{_placeholder(len(figures) - 1)}\n"

    def row_menu(match):
        panels = rows.pop(0)[2]
        if not panels:
            return match.group(0)
        figures.append(render_row_menu(panels))
        head, _, tail = match.group(0).rpartition("</div>")
        return f"{head}{_placeholder(len(figures) - 1)}\n</div>{tail}"

    def prediction(match):
        at = prompts.pop(0)
        above = tuple(anchor for anchor, start in starts.items() if start < at)
        figures.append(render_predict(markers.parse_predict(match.group("body")), placed, above))
        return f"\n{_placeholder(len(figures) - 1)}\n"

    out = markers.ROW.sub(row_menu, markers.FENCE.sub(figure, markdown))
    out = markers.PREDICT.sub(prediction, out)
    _rendered[src] = figures
    out = cards.replace(out, src)
    out = markers.GENERATED.sub(lambda m: markers.indent(
        PARTS[markers.generated_name(m.group("body"), PARTS)](root), m.group("indent")), out)
    out = claims.fill(out)
    out = live_spans.fill(out, placed)
    if step := STEP.fullmatch(src):
        out = f"{step_indicator(int(step.group(1)))}\n{out}"
    return out


def on_page_content(html, page, config, files):
    """Put the pre-rendered figures where their placeholders landed, check the glossary's order and the
    main path's budget on what the reader will see, and typeset the math."""
    src = page.file.src_uri
    for i, figure in enumerate(_rendered.pop(src, [])):
        token = _placeholder(i)
        if token not in html:
            raise PluginError(f"{src}: figure {i + 1} was lost in Markdown conversion")
        html = html.replace(token, figure)
    terms = _glossary[0]
    try:
        problems = glossary.uses(html, src, terms, list(_titles)) + glossary.missing_anchors(html, src, terms)
    except glossary.GlossaryError as err:
        raise PluginError(f"{src}: {err}") from None
    if src in terms.main_path:
        problems += glossary.budget(html)
    if problems:
        raise PluginError(f"{src}: " + "\n  ".join(problems))
    html = _focusable_code(_tooltips_once(html))
    try:
        html = math.typeset(html)
    except math.MathError as err:
        raise PluginError(f"{page.file.src_uri}: {err}") from None
    if src != "review.md":
        _card_html[src] = cards.rendered(html)
    return html


def _focusable_code(html: str) -> str:
    """Every code block can take keyboard focus, so a reader can scroll a wide one by keyboard before
    Material has set it up (with content.lazy it does so only when the block comes into view, and then
    keeps the focus stop only where the block scrolls)."""
    def focusable(match: re.Match[str]) -> str:
        opening, attributes = match.groups()
        return match.group(0) if "tabindex=" in attributes else f'{opening}{attributes} tabindex="0">'

    return re.sub(r"(<pre>(?:<span></span>)?<code)((?:\s[^>]*)?)>", focusable, html)


TOOLTIP_PARTS = re.compile(r'<h2\b|<details\b|</details>|<div\b[^>]*\bdata-card="|<div\b|</div>'
                           r'|<abbr( title="[^"]*")>([^<]*)</abbr>')
"""What _tooltips_once reads: section headings, asides, recall cards (and the divs that close them), and the
glossary's abbreviations."""


def _tooltips_once(html: str) -> str:
    """A glossary term keeps its tooltip at its first use in each section, aside and recall card, and reads as
    plain text after that (as an encyclopedia links a term once a section); its first use on the page can
    take keyboard focus, so its definition shows on focus too. Material sets up every tooltip as the page
    starts, and on Train it yourself, with 299 of them, that was most of its longest task (README, Benchmark)."""
    scopes: list[set[str]] = [set()]
    cards: list[int] = []  # the div depth of each recall card we are in
    on_page: set[str] = set()
    depth = 0

    def part(match: re.Match[str]) -> str:
        nonlocal depth
        tag = match.group(0)
        if match.group(2) is not None:
            word = match.group(2)
            if word in scopes[-1]:
                return word
            scopes[-1].add(word)
            if word in on_page:
                return tag
            on_page.add(word)
            return f'<abbr tabindex="0"{match.group(1)}>{word}</abbr>'
        if tag == "<h2" and len(scopes) == 1:
            scopes[0] = set()
        elif tag == "<details":
            scopes.append(set())
        elif tag == "</details>" and len(scopes) > 1:
            scopes.pop()
        elif tag.startswith("<div"):
            depth += 1
            if "data-card=" in tag:
                cards.append(depth)
                scopes.append(set())
        elif tag == "</div>":
            if cards and cards[-1] == depth:
                cards.pop()
                scopes.pop()
            depth -= 1
        return tag

    return TOOLTIP_PARTS.sub(part, html)


def on_post_page(output, page, config):
    """A page with math asks for the math font before its stylesheets, so that the first layout of its formulas
    is already in it (drawn first in a fallback font and then again, a formula changes width and the lines
    below it move); a page with a figure or a recall card starts downloading Python's files while it is
    still parsing."""
    root = _site_root(page.url)
    if 'class="arithmatex"' in output:
        output = output.replace('<link rel="stylesheet"', pack.font_preload(root) + '<link rel="stylesheet"', 1)
    if "data-figure=" not in output and "data-card=" not in output:
        return output
    return output.replace("</head>", runtime().preload_links(root) + "</head>", 1)


UNPUBLISHED = ("No SITE_URL: this build names no address, so it has no oEmbed responses, no embed/figures.json "
               "and no pages in sitemap.xml; to publish, build with SITE_URL set to the site's address, "
               "e.g. SITE_URL=https://example.org/course/ make site")
"""The one line a build without ``SITE_URL`` prints (information, not a warning: --strict must pass)."""


def on_post_build(config):
    """Write the compiled core and library and the module naming them, vendor files, one embed page per
    figure, with ``site_url`` also each figure's oEmbed response and the list of figures (they hold
    absolute addresses, so a build without it leaves them out and says so in one line),
    and last, once every file is there, the service worker with the list of files it keeps offline.
    ``mkdocs serve`` gets no service worker, which would keep showing the pages as they were."""
    site, packed = Path(config["site_dir"]), runtime()
    pack.write_runtime(site, packed)
    embed.write_pages(site, _site_url[0], config["site_name"], packed.preload_links("../../"))
    embed.write_card_pages(site, {src: html for src, html in _card_html.items() if html}, _titles,
                           packed.preload_links("../../../"))
    if _site_url[0] is None:
        log.info(UNPUBLISHED)
    if not _serving:
        offline.write_worker(site)

