"""The figure's HTML as the build writes it: advanced settings behind "More settings", the actions in one
menu, one menu for a row of small multiples, and the caption's live line."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from pycore import figures
from pycore.sitegen import page_markdown
from pycore.sitegen.markers import ROW as ROW_BLOCK
from pycore.sitegen.markers import parse_marker
from pycore.sitegen.glossary import Glossary
from pycore.sitegen.render import render_marker
from pycore.sitegen.state import Build


class Outline(HTMLParser):
    """Each element with one of the attributes we look for, with the chain of its ancestors' (tag, class)."""

    WANTED = ("data-field", "data-set", "data-event", "data-action", "data-download", "data-menu", "data-row-menu",
              "data-caption", "data-figure")

    def __init__(self, text: str):
        super().__init__()
        self.stack: list[tuple[str, dict]] = []
        self.found: list[tuple[str, dict, list[tuple[str, dict]]]] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if any(name in a for name in self.WANTED):
            self.found.append((tag, a, list(self.stack)))
        if tag not in ("input", "br", "img", "meta", "link", "path", "line", "rect", "circle", "polyline", "polygon"):
            self.stack.append((tag, a))

    def handle_startendtag(self, tag, attrs):
        a = dict(attrs)
        if any(name in a for name in self.WANTED):
            self.found.append((tag, a, list(self.stack)))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def with_attr(self, name: str):
        return [(tag, a, up) for tag, a, up in self.found if name in a]


def in_more_settings(up) -> bool:
    return any(tag == "details" and "sq-figure__more" in a.get("class", "") for tag, a in up)


def figure_html(figure_id: str, menu: bool = True) -> str:
    return render_marker(parse_marker(f"id: {figure_id}"), anchor=f"fig-{figure_id}", embed_root="embed/", menu=menu)


@pytest.mark.parametrize("figure_id", list(figures.FIGURES))
def test_advanced_parameters_and_only_they_sit_behind_more_settings(figure_id):
    module = figures.get(figure_id)
    advanced = {p.name for p in module.PARAMS if p.advanced}
    html = figure_html(figure_id)
    outline = Outline(html)
    fields = [(a.get("data-field") or a.get("data-set"), up) for _, a, up in outline.found
              if "data-field" in a or "data-set" in a]
    assert fields or not [c for c in module.CONTROLS if c.kind != "button"]
    for name, up in fields:
        assert in_more_settings(up) == (name in advanced), name
    for _, a, up in outline.with_attr("data-event"):
        assert not in_more_settings(up), "buttons such as Resample stay on the main path"
    has_more = any(c.name in advanced for c in module.CONTROLS)
    assert html.count('<details class="sq-figure__more">') == int(has_more)
    if has_more:  # closed by default, opened by its summary (a native control: keyboard-operable)
        assert "<details class=\"sq-figure__more\"><summary data-action=\"more\">More settings</summary>" in html


def test_seeds_rows_samples_bins_and_axes_are_advanced_where_a_figure_has_them():
    kinds = {"seed", "rows", "bins", "xmax", "ymax"}
    for module in figures.FIGURES.values():
        for p in module.PARAMS:
            if p.name in kinds:
                assert p.advanced, (module.TITLE, p.name)
    hist = {p.name: p.advanced for p in figures.get("score-histogram").PARAMS}
    assert hist["n"] and not hist["dk"] and not hist["divisor"]


@pytest.mark.parametrize("figure_id", ["dot-product", "saturation", "train"])
def test_every_action_is_in_the_one_menu_which_starts_closed(figure_id):
    outline = Outline(figure_html(figure_id))
    menus = outline.with_attr("data-menu")
    assert len(menus) == 1
    buttons = [a for tag, a, up in outline.found if tag == "button" and a.get("data-action") == "menu"]
    assert len(buttons) == 1 and buttons[0]["aria-expanded"] == "false"
    actions = [(a["data-action"], a.get("data-download"), up) for tag, a, up in outline.found
               if "data-action" in a and a["data-action"] not in ("menu", "more", "close-python")]
    assert [(act, kind) for act, kind, _ in actions] == [
        ("reset", None), ("python", None), ("download", "svg"), ("download", "png"), ("download", "ipynb"),
        ("embed", None), ("permalink", None)]
    for _, _, up in actions:
        lists = [a for _, a in up if a.get("id") == buttons[0]["aria-controls"]]
        assert lists and "hidden" in lists[0] and lists[0].get("role") == "group"


def test_a_panel_of_a_row_has_no_menu_of_its_own():
    outline = Outline(figure_html("score-histogram", menu=False))
    assert not outline.with_attr("data-menu") and not outline.with_attr("data-download")


ROW = """Before.

```figure
id: score-histogram
controls: none
```

<div class="sq-row" markdown>

```figure
id: score-histogram
dk: 1
controls: none
```

```figure
id: score-histogram
dk: 8
controls: none
```

</div>

```figure
id: dot-product
```
"""


def test_a_row_of_small_multiples_gets_one_menu_after_its_panels():
    out, parts = page_markdown.fill(ROW, "row.md", "../", Build(None, "en", "", Glossary((), (), ())))
    # Anchors follow the page's order, rows included; the row's menu comes last, placed inside the row.
    ids = [Outline(p).with_attr("data-figure")[0][1]["id"] for p in parts if "data-figure=" in p]
    assert ids == ["fig-score-histogram", "fig-score-histogram-2", "fig-score-histogram-3", "fig-dot-product"]
    menus = [Outline(p).with_attr("data-menu") for p in parts]
    assert [len(m) for m in menus] == [1, 0, 0, 1, 1]
    row_menu = Outline(parts[4])
    assert row_menu.with_attr("data-row-menu")
    links = [a["href"] for _, a, _ in row_menu.with_attr("data-action") if a["data-action"] == "permalink"]
    assert links == ["#fig-score-histogram-2"]
    assert [a.get("data-download") for _, a, _ in row_menu.with_attr("data-download")] == ["svg", "png"]
    row = ROW_BLOCK.search(out).group("body")
    placeholder = page_markdown.placeholder
    assert row.index(placeholder(1)) < row.index(placeholder(2)) < row.index(placeholder(4))
    assert placeholder(3) not in row and placeholder(0) not in row


def test_the_caption_starts_with_the_live_line_of_the_state_drawn():
    module = figures.get("saturation")
    html = render_marker(parse_marker("id: saturation\ndivisor: sqrt\ncaption: Move dₖ."), anchor="s",
                         embed_root="embed/")
    live = module.caption(module.State(divisor="sqrt"))
    assert f'<figcaption><span class="sq-figure__live" data-caption>{live}</span> Move dₖ.' in html
    assert "data-caption" not in figure_html("dot-product")
