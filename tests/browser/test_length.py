"""The long-rows figure in the browser: every control against CPython, the log slider, and a jump to 4,096 keys
that answers busy with progress instead of freezing."""

from __future__ import annotations

import json

from pycore.figures import length
from pycore.params import from_json
from pycore.svg import fmt
from tests.browser.conftest import READY_MS, expected, shows
from tests.browser.test_slices import WATCH, settled
from tests.browser.test_softmax_pages import act

FIG, FID = "[data-figure='length']", "length"
(N_SLIDER,) = [c for c in length.CONTROLS if c.kind == "range" and c.name == "n"]


def position(n: int) -> str:
    return str(N_SLIDER.stops.index(n))


def test_length_every_control(watched):
    page = watched.open("/long-rows/")
    watched.reveal(FIG)
    n = page.locator(f"{FIG} input[data-field='n']")
    assert n.get_attribute("data-scale") == "log" and n.get_attribute("aria-valuetext") == "1024"
    # The fewest rows first: the curve across n that the other controls redraw then costs a quarter of the default's.
    state, r = act(watched, FIG, FID, lambda f: f.locator("input[data-field='rows']").fill("50"))
    assert state["rows"] == 50
    state, r = act(watched, FIG, FID, lambda f: n.fill(position(16)))
    assert state["n"] == 16 and page.locator(f"{FIG} output[data-value='n']").text_content() == "16"
    assert n.get_attribute("aria-valuetext") == "16" and n.input_value() == position(16)
    says_what_the_readouts_say(page, state, watched.readouts(FIG))
    state, r = act(watched, FIG, FID, lambda f: f.locator("input[data-field='dk']").fill("8"))
    assert state["dk"] == 8
    state, r = act(watched, FIG, FID, lambda f: f.locator("input[data-field='scaling'][value='log-n']").check())
    assert state["scaling"] == "log-n"
    state, r = act(watched, FIG, FID, lambda f: f.locator("input[data-field='s']").fill("1.5"))
    assert state["s"] == 1.5 and float(r["median-max-weight"]) > 0.3
    says_what_the_readouts_say(page, state, watched.readouts(FIG))
    seed = page.locator(f"{FIG} input[data-field='seed']")
    state, r = act(watched, FIG, FID, lambda f: (seed.fill("42"), seed.press("Enter")))
    assert state["seed"] == 42
    state, r = act(watched, FIG, FID, lambda f: f.locator("button[data-event='resample']").click())
    assert state["seed"] != 42
    assert page.locator(f"{FIG} output[data-value='s']").text_content() == "1.5"
    assert watched.errors == []


def says_what_the_readouts_say(page, state, readouts):
    """The caption's live line after a change names the drawn state and the readouts beside it."""
    live = page.locator(f"{FIG} [data-caption]").text_content()
    assert live == length.caption(length.parse(from_json(state)))
    assert f"n = {state['n']} keys" in live and f"the median largest weight is {readouts['median-max-weight']}," in live
    assert f"{fmt(100 * float(readouts['saturated']), 1)}% of rows are above 0.99" in live


def test_a_jump_to_4096_keys_answers_busy_with_progress_and_ends_on_cpythons_drawing(watched):
    page = watched.page
    page.goto(watched.server.url + "/embed/length/?n=16&dk=40&rows=100&seed=31")
    fig = "[data-figure]"
    page.wait_for_selector(f"{fig}[data-ready='true']", timeout=READY_MS)
    page.evaluate(WATCH, fig)
    page.locator("input[data-field='n']").fill(position(4096))
    page.wait_for_function("() => window.sqBusy.some(([b]) => b === 'true')", timeout=20_000)
    # While it works, the page still answers: the status line says how far it is, and the drawing grows.
    page.wait_for_function("() => window.sqBusy.filter(([b]) => b === 'true').length >= 2", timeout=60_000)
    state = settled(page, fig)
    drawn = [s["rows"] for s in page.evaluate("() => window.sqDrawn") if s["n"] == 4096]
    progress = [text for busy, text in page.evaluate("() => window.sqBusy") if busy]
    assert state["n"] == 4096 and drawn[-1] == 100 and drawn == sorted(drawn) and len(set(drawn)) > 1, drawn
    assert any(t.startswith("drawing row ") and t.endswith(" of 100") for t in progress), progress
    svg, readouts = expected("length", state)
    assert shows(watched.readouts(fig), readouts) and watched.svg(fig) == svg
    assert page.locator(fig).get_attribute("data-busy") is None


def test_newer_input_during_a_long_job_wins(watched):
    page = watched.page
    page.goto(watched.server.url + "/embed/length/?n=16&dk=41&seed=32")
    fig = "[data-figure]"
    page.wait_for_selector(f"{fig}[data-ready='true']", timeout=READY_MS)
    # 300 rows, so the job at 4,096 keys works for seconds, in many slices, and is still running when the
    # newer input comes; their curves are drawn first, as a job of their own, so that no single wait holds
    # both Python's start and them. (A thousand rows took over a minute for the curves on a slow host.)
    watched.reveal(fig)
    page.locator("input[data-field='rows']").fill("300")
    page.wait_for_function("(f) => JSON.parse(f.dataset.state).rows === 300 && !f.dataset.busy",
                           arg=page.locator(fig).element_handle(), timeout=READY_MS)
    page.locator("input[data-field='n']").fill(position(4096))
    page.wait_for_function("(sel) => document.querySelector(sel).dataset.busy === 'true'", arg=fig, timeout=READY_MS)
    page.locator("input[data-field='n']").fill(position(64))
    state = settled(page, fig)
    assert state["n"] == 64
    svg, readouts = expected("length", state)
    assert shows(watched.readouts(fig), readouts) and watched.svg(fig) == svg
    assert json.loads(page.locator(fig).get_attribute("data-state"))["n"] == 64
