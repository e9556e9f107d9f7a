"""MkDocs hook: markers become pre-rendered figures, cards and generated parts; assets and embed pages are written.

An unknown figure id, a bad parameter, an unknown generated part or an old comment marker
raises PluginError naming the page, so ``mkdocs build --strict`` fails instead of shipping a hole.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

# MkDocs loads this file by its path, outside any package: put the repository root on sys.path
# so that `pycore` imports. Everything else takes the root from pycore.sitegen.paths.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pycore.experiments import lr_sweep, reproduce, train_grid  # noqa: E402
from pycore.sitegen import cards, claims, embed, markers, math, notebooks, offline, pack, stdlib  # noqa: E402
from pycore.sitegen.reference import reference  # noqa: E402
from pycore.sitegen.render import ENV, render_marker  # noqa: E402

_rendered: dict[str, list[str]] = {}
_runtime: list[pack.Runtime] = []
_serving = False
_deck: list[cards.Card] = []
_titles: dict[str, str] = {}
DECK = "cards.tsv"


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
    """Pack the core and trace the standard library once per build: pages name both in their preload hints."""
    try:
        core, library = stdlib.compiled_archives()
        _runtime[:] = [pack.Runtime(core=core, stdlib=library)]
    except stdlib.TraceError as err:
        raise PluginError(f"the figures failed in Pyodide while the standard library was traced: {err}") from None
    return config


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
    files.append(File.generated(config, DECK, content=cards.anki(_deck)))
    site = config["site_url"] or ""
    files.append(File.generated(config, notebooks.REPRODUCE,
                                content=notebooks.text(notebooks.reproduce_notebook(f"{site}reproduce/"))))
    files.append(File.generated(config, notebooks.TRAIN_GRID,
                                content=notebooks.text(notebooks.train_grid_notebook(f"{site}train/"))))
    return files


def _all_cards(root: str) -> str:
    """Every recall card of the article, grouped under its page."""
    return cards.review(_deck, _titles)


def _reproduction(root: str) -> str:
    """The numpy reproduction's settings, verdicts and tables."""
    return reproduce.markdown(reproduce.table())


def _train_grid(root: str) -> str:
    """The numpy training grid: settings, chart, statements computed from its numbers, and its table."""
    return train_grid.markdown(train_grid.grid())


def _lr_sweep(root: str) -> str:
    """The numpy learning-rate sweep: settings, statements computed from its numbers, and its tables."""
    return lr_sweep.markdown(lr_sweep.sweep())


PARTS = {"all-cards": _all_cards, "figure-reference": reference, "lr-sweep": _lr_sweep,
         "reproduction-table": _reproduction, "train-grid": _train_grid}
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
    """Figures become placeholders (their HTML kept for on_page_content), cards collapsed blocks,
    generated blocks their parts, empty claim spans their numbers; a step page gets the step indicator on top."""
    markers.check_no_comments(markdown)
    figures: list[str] = []
    anchors: dict[str, int] = {}

    def figure(match):
        marker = markers.parse_marker(match.group("body"))
        anchors[marker.figure] = anchors.get(marker.figure, 0) + 1
        n = anchors[marker.figure]
        anchor = f"fig-{marker.figure}" + (f"-{n}" if n > 1 else "")
        figures.append(render_marker(marker, anchor=anchor, embed_root=root + "embed/"))
        return f"\n{_placeholder(len(figures) - 1)}\n"

    out = markers.FENCE.sub(figure, markdown)
    _rendered[src] = figures
    out = cards.replace(out, src)
    out = markers.GENERATED.sub(lambda m: markers.indent(
        PARTS[markers.generated_name(m.group("body"), PARTS)](root), m.group("indent")), out)
    out = claims.fill(out)
    if step := STEP.fullmatch(src):
        out = f"{step_indicator(int(step.group(1)))}\n{out}"
    return out


def on_page_content(html, page, config, files):
    """Put the pre-rendered figures where their placeholders landed, and typeset the math."""
    for i, figure in enumerate(_rendered.pop(page.file.src_uri, [])):
        token = _placeholder(i)
        if token not in html:
            raise PluginError(f"{page.file.src_uri}: figure {i + 1} was lost in Markdown conversion")
        html = html.replace(token, figure)
    try:
        return math.typeset(html)
    except math.MathError as err:
        raise PluginError(f"{page.file.src_uri}: {err}") from None


def on_post_page(output, page, config):
    """A page with a figure starts downloading Python's files while it is still parsing."""
    if "data-figure=" not in output:
        return output
    return output.replace("</head>", _runtime[0].preload_links(_site_root(page.url)) + "</head>", 1)


def on_post_build(config):
    """Write the compiled core and library and the module naming them, vendor files, one embed page and
    oEmbed response per figure and the list of figures (the last two need ``site_url``, since they hold
    absolute addresses),
    and last, once every file is there, the service worker with the list of files it keeps offline.
    ``mkdocs serve`` gets no service worker, which would keep showing the pages as they were."""
    if not config["site_url"]:
        raise PluginError("site_url is not set: the oEmbed responses and embed/figures.json need the site's address")
    site = Path(config["site_dir"])
    pack.write_runtime(site, _runtime[0])
    embed.write_pages(site, config["site_url"], config["site_name"], _runtime[0].preload_links("../../"))
    if not _serving:
        offline.write_worker(site)

