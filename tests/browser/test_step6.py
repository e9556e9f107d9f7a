"""Step 6 in the browser: the variance rule's slider, the interactive histogram's fixed axis, where each divisor
leaves softmax across dₖ, and what an even row hands on, against CPython."""

from __future__ import annotations

import re

from pycore.figures import operating_point, values
from tests.browser.conftest import drag
from tests.browser.test_softmax_pages import act, check
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


def test_the_operating_point_follows_dk_and_n_and_reads_out_at_the_marker(watched):
    watched.open("/step-6/")
    fig, fid = "[data-figure='operating-point']", "operating-point"
    dk = next(c for c in operating_point.CONTROLS if c.name == "dk")
    n = next(c for c in operating_point.CONTROLS if c.name == "n")
    state, r = act(watched, fig, fid, lambda f: f.locator("input[data-field='dk']").fill(str(len(dk.stops) - 1)))
    assert state["dk"] == 512 and r["dk"] == "512"
    assert float(r["max-weight-none"]) > 0.99 and float(r["moved-dk"]) * 10 < float(r["moved-sqrt"])
    state, r = act(watched, fig, fid, lambda f: f.locator("input[data-field='n']").fill(str(n.stops.index(128))))
    assert state["n"] == 128 and r["one-over-n"] == "0.00781"
    assert "n = 128 keys" in watched.page.locator(f"{fig} [data-caption]").text_content()
    assert watched.errors == []


def test_at_an_eighth_the_output_stays_near_the_plain_average_whatever_the_scores(watched):
    page = watched.open("/step-6/")
    fig, fid = "[data-figure='values']", "values"
    start = watched.state(fig)
    page.locator(f"{fig} [data-handle='s1']").focus()
    page.keyboard.press("Shift+ArrowUp")
    state, r = check(watched, fig, fid, start)
    assert abs(state["scores"][1] - start["scores"][1] - 0.5) < 1e-9 and abs(float(r["output"]) - float(r["average"])) < 0.05
    before = state
    drag(page, fig, "s4", 0, -80)
    state, r = check(watched, fig, fid, before)
    assert state["scores"][4] > before["scores"][4] and abs(float(r["output"]) - float(r["average"])) < 0.05
    state, r = act(watched, fig, fid, lambda f: f.locator("button[data-set='stretch'][data-value='8']").click())
    top = max(range(len(state["scores"])), key=lambda i: state["scores"][i])
    assert abs(float(r["output"]) - state["values"][top]) < 0.1
    assert values.caption(values.parse({k: ",".join(map(str, v)) if isinstance(v, list) else str(v)
                                        for k, v in state.items()})) == page.locator(f"{fig} [data-caption]").text_content()
    assert watched.errors == []
