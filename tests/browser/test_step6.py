"""Step 6 in the browser: the variance rule's slider, and the interactive histogram's fixed axis, against CPython."""

from __future__ import annotations

import re

from tests.browser.test_softmax_pages import act
from tests.unit.test_variance_rule import drawn_width, ticks


def test_variance_rule_slider_divides_the_variance_by_c_squared(watched):
    watched.open("/step-6/")
    fig, fid = "[data-figure='variance-rule']", "variance-rule"
    for c in ("8", "1", "3.5"):
        state, r = act(watched, fig, fid, lambda f, c=c: f.locator("input[data-field='c']").fill(c))
        assert state["c"] == float(c) and r["ratio"] == r["c-squared"]
    assert watched.errors == []


def test_the_interactive_histogram_keeps_its_axis_while_the_divisor_changes(watched):
    page = watched.open("/step-6/")
    fig, fid = "#fig-try-divisors", "score-histogram"
    widths, axes = {}, {}
    for divisor in ("none", "dk", "sqrt"):
        state, _ = act(watched, fig, fid, lambda f, d=divisor: f.locator(f"input[value='{d}']").check())
        svg = watched.svg(fig)
        assert state["divisor"] == divisor and state["xmax"] == "8"
        widths[divisor], axes[divisor] = drawn_width(svg), ticks(svg)
    assert axes["none"] == axes["sqrt"] == axes["dk"] != []
    assert widths["none"] > 2 * widths["sqrt"] > 4 * widths["dk"]
    assert re.search("cut off", page.locator("#fig-score-histogram-6").inner_html())
    assert watched.errors == []
