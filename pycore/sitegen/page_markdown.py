"""A page's Markdown before conversion: its figure, row, prediction, card, generated and claim markers filled
in, and a step page's step indicator on top.

Figures, row menus and prediction prompts become placeholders, their HTML handed back beside the Markdown,
so that Markdown conversion never touches it; ``page_html`` puts it where the placeholders landed."""

from __future__ import annotations

import re

from . import cards, claims, live_spans, markers
from .parts import PARTS
from .render import ENV, render_marker, render_predict, render_row_menu, state_json
from .state import Build

STEP = re.compile(r"step-(\d)\.md")


def step_indicator(current: int, titles: dict[str, str]) -> str:
    """A small "step n of 7" bar linking every step, the current one marked for screen readers."""
    steps = sorted((int(m.group(1)), title) for src, title in titles.items() if (m := STEP.fullmatch(src)))
    return ENV.get_template("steps.html.j2").render(current=current, steps=steps)


def placeholder(index: int) -> str:
    """The token that holds a figure's place through Markdown conversion; it never reaches the site."""
    return f'<div data-sq-placeholder="{index}"></div>'


def site_root(page_url: str) -> str:
    """The path from a page up to the site root, relative so the site works under any prefix."""
    depth = page_url.strip("/").count("/") + 1 if page_url.strip("/") else 0
    return "../" * depth


def fill(markdown: str, src: str, root: str, build: Build) -> tuple[str, list[str]]:
    """The page's Markdown with its markers filled in, and the HTML of each placeholder in it, by index.

    Figures and prediction prompts become placeholders, cards collapsed blocks, generated blocks their parts,
    empty claim spans their numbers; a step page gets the step indicator on top. The panels of a row have no
    menus of their own: the row gets one after them. A MarkerError, CardError or ClaimError says what is wrong.
    """
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
        figures.append(render_marker(marker, anchor=anchor, embed_root=root + build.folder + "embed/",
                                   menu=row is None))
        placed[anchor] = (marker.figure, state_json(marker))
        starts[anchor] = match.start()
        return f"\n{match.group('indent')}{placeholder(len(figures) - 1)}\n"

    def row_menu(match):
        panels = rows.pop(0)[2]
        if not panels:
            return match.group(0)
        figures.append(render_row_menu(panels))
        head, _, tail = match.group(0).rpartition("</div>")
        return f"{head}{placeholder(len(figures) - 1)}\n</div>{tail}"

    def prediction(match):
        at = prompts.pop(0)
        above = tuple(anchor for anchor, start in starts.items() if start < at)
        figures.append(render_predict(markers.parse_predict(match.group("body")), placed, above))
        return f"\n{placeholder(len(figures) - 1)}\n"

    out = markers.ROW.sub(row_menu, markers.FENCE.sub(figure, markdown))
    out = markers.PREDICT.sub(prediction, out)
    out = cards.replace(out, src)
    out = markers.GENERATED.sub(lambda m: markers.indent(
        PARTS[markers.generated_name(m.group("body"), PARTS)](root, build), m.group("indent")), out)
    out = claims.fill(out)
    out = live_spans.fill(out, placed)
    if step := STEP.fullmatch(src):
        out = f"{step_indicator(int(step.group(1)), build.titles)}\n{out}"
    return out, figures
