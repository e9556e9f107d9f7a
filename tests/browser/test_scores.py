"""Steps 3, 4 and 6 in the browser: slider and divisor moves agree with CPython and theory."""

from __future__ import annotations

import math

import pytest

from pycore.figures import product_average
from pycore.params import from_json
from pycore.sampling import digest
from tests.browser.conftest import expected, shows

FREE3 = "#fig-score-histogram-4"
FREE6 = "#fig-try-divisors"
TOWER = "[data-figure='variance-tower']"
PAIRS = "#fig-product-average"


def test_pyodide_draws_the_same_100000_normals_as_cpython(watched):
    page = watched.open("/step-3/")
    shown = page.evaluate("() => window.sqrtDk.request({op: 'digest', seed: 42, count: 100000})")
    assert shown["digest"] == digest(42, 100000)


def set_range(page, selector, field, value):
    page.locator(f"{selector} input[data-field='{field}']").fill(str(value))


@pytest.mark.parametrize("dk", [1, 100, 512])
def test_dk_slider_matches_cpython_exactly_and_theory_within_tolerance(watched, dk):
    page = watched.open("/step-3/")
    before = watched.state(FREE3)
    set_range(page, FREE3, "dk", dk)
    watched.wait_state_change(FREE3, before)
    watched.settle(FREE3)
    state = watched.state(FREE3)
    assert state["dk"] == dk
    svg, readouts = expected("score-histogram", state)
    shown = watched.readouts(FREE3)
    assert shown and shown == {name: readouts[name] for name in shown}
    assert watched.svg(FREE3) == svg
    # Sample variance of n scores: standard error sqrt((2 dk^2 + 6 dk) / n); allow 4 of them.
    n = state["n"]
    assert abs(float(readouts["variance"]) - dk) < 4 * math.sqrt((2 * dk * dk + 6 * dk) / n)
    assert watched.errors == []


@pytest.mark.parametrize("divisor,theory", [("sqrt", 1.0), ("dk", 1 / 64), ("none", 64.0)])
def test_divisor_switch_matches_cpython_and_theory(watched, divisor, theory):
    page = watched.open("/step-6/")
    if divisor == "sqrt":
        page.locator(f"{FREE6} input[data-field='divisor'][value='none']").check()
        watched.settle(FREE6)
    before = watched.state(FREE6)
    page.locator(f"{FREE6} input[data-field='divisor'][value='{divisor}']").check()
    watched.wait_state_change(FREE6, before)
    watched.settle(FREE6)
    state = watched.state(FREE6)
    assert state["divisor"] == divisor and state["dk"] == 64
    svg, readouts = expected("score-histogram", state)
    shown = watched.readouts(FREE6)
    assert shown == {name: readouts[name] for name in ("dk", "std")} and watched.svg(FREE6) == svg
    assert float(readouts["theory"]) == pytest.approx(theory, rel=1e-3)
    se = math.sqrt((2 * 64 ** 2 + 6 * 64) / state["n"]) * theory / 64
    assert abs(float(readouts["variance"]) - theory) < 4 * se


def test_resample_draws_new_scores(watched):
    page = watched.open("/step-3/")
    before = watched.state(FREE3)
    page.locator(f"{FREE3} button[data-event='resample']").click()
    watched.wait_state_change(FREE3, before)
    watched.settle(FREE3)
    state = watched.state(FREE3)
    assert state["seed"] != before["seed"]
    assert shows(watched.readouts(FREE3), expected("score-histogram", state)[1])


def test_tower_slider_matches_cpython(watched):
    page = watched.open("/step-4/")
    before = watched.state(TOWER)
    set_range(page, TOWER, "dk", 40)
    watched.wait_state_change(TOWER, before)
    watched.settle(TOWER)
    state = watched.state(TOWER)
    svg, readouts = expected("variance-tower", state)
    assert state["dk"] == 40 and shows(watched.readouts(TOWER), readouts) and watched.svg(TOWER) == svg
    assert abs(float(readouts["total"]) - 40) < 4 * math.sqrt((2 * 40 ** 2 + 6 * 40) / state["n"])


def test_pairs_figure_by_preset_button_keyboard_and_slider_matches_cpython_and_its_caption(watched):
    """Step 4's pairs of independent numbers: a preset, "Add one pair" pressed by keyboard and the centre slider
    each redraw what CPython draws, with the caption's live line saying the readouts' numbers."""
    page = watched.open("/step-4/")
    before = watched.state(PAIRS)
    page.locator(f"{PAIRS} button[data-set='pairs'][data-value='10']").click()
    watched.wait_state_change(PAIRS, before)
    watched.settle(PAIRS)
    assert watched.state(PAIRS)["pairs"] == 10
    before = watched.state(PAIRS)
    page.locator(f"{PAIRS} button[data-event='add']").focus()
    page.keyboard.press("Enter")
    watched.wait_state_change(PAIRS, before)
    watched.settle(PAIRS)
    before = watched.state(PAIRS)
    set_range(page, PAIRS, "centre", 0.5)
    watched.wait_state_change(PAIRS, before)
    watched.settle(PAIRS)
    state = watched.state(PAIRS)
    assert (state["pairs"], state["centre"]) == (11, 0.5)
    svg, readouts = expected("product-average", state)
    assert watched.svg(PAIRS) == svg and shows(watched.readouts(PAIRS), readouts)
    live = page.locator(f"{PAIRS} [data-caption]").text_content()
    assert live == product_average.caption(product_average.parse(from_json(state)))
    assert f"their average, {readouts['average']}," in live and "0.5 × 0.5 = 0.25" in live
    assert watched.errors == []
