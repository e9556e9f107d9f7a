"""Steps 5 and 7 and the summary in the browser: every control, compared with CPython."""

from __future__ import annotations

from pycore.figures import nudge
from tests.browser.conftest import drag, expected, shows


def check(watched, selector, figure_id, before):
    watched.wait_state_change(selector, before)
    watched.settle(selector)
    state = watched.state(selector)
    watched.page.evaluate("() => document.activeElement && document.activeElement.blur()")
    svg, readouts = expected(figure_id, state)
    assert shows(watched.readouts(selector), readouts)
    assert watched.svg(selector) == svg
    return state, readouts


def act(watched, selector, figure_id, action):
    before = watched.state(selector)
    action(watched.page.locator(selector))
    return check(watched, selector, figure_id, before)


def test_softmax_spike_every_control(watched):
    page = watched.open("/step-5/")
    fig, fid = "[data-figure='softmax-spike']", "softmax-spike"
    state, r = act(watched, fig, fid, lambda f: f.locator("input[data-field='stretch']").fill("20"))
    assert state["stretch"] == 20 and float(r["max-weight"]) > 0.99
    state, r = act(watched, fig, fid, lambda f: f.locator("button[data-set='stretch'][data-value='1']").click())
    assert state["stretch"] == 1 and float(r["max-weight"]) < 0.6
    before = watched.state(fig)
    drag(page, fig, "s2", 0, 60)
    state, _ = check(watched, fig, fid, before)
    assert state["scores"][2] < before["scores"][2] and state["scores"][0] == before["scores"][0]
    before = watched.state(fig)
    page.locator(f"{fig} [data-handle='s0']").focus()
    page.keyboard.press("ArrowUp")
    state, _ = check(watched, fig, fid, before)
    assert round(state["scores"][0] - before["scores"][0], 6) == 0.1
    assert watched.errors == []


def test_nudge_every_control_and_key(watched):
    page = watched.open("/step-5/")
    fig, fid = "#fig-nudge", "nudge"
    stops = nudge.STRETCH_SLIDER.stops
    spike = watched.readouts(fig)
    state, gentle = act(watched, fig, fid, lambda f: f.locator("button[data-set='stretch'][data-value='1']").click())
    assert state["stretch"] == 1 and float(gentle["weight-change"]) > 30 * float(spike["weight-change"])
    slider = f"{fig} input[data-field='stretch']"
    eighth = str(stops.index(0.125))
    state, shrunk = act(watched, fig, fid, lambda f: f.locator("input[data-field='stretch']").fill(eighth))
    assert state["stretch"] == 0.125 and page.locator(slider).get_attribute("aria-valuetext") == "0.125"
    assert float(shrunk["weight-change"]) * 8 < float(gentle["weight-change"])
    state, _ = act(watched, fig, fid, lambda f: f.locator("input[data-field='delta']").fill("0.2"))
    assert state["delta"] == 0.2
    before = watched.state(fig)
    page.locator(f"{fig} [data-handle='t0']").focus()
    page.keyboard.press("ArrowUp")
    state, _ = check(watched, fig, fid, before)
    assert state["target"] == 1 and round(state["delta"] - before["delta"], 6) == 0.05
    before = state
    page.locator(f"{fig} [data-handle='t0']").focus()
    page.keyboard.press("ArrowRight")
    state, _ = check(watched, fig, fid, before)
    assert state["stretch"] == stops[stops.index(before["stretch"]) + 1] and state["delta"] == before["delta"]
    before = state
    drag(page, fig, "t1", 0, -30)
    state, _ = check(watched, fig, fid, before)
    assert state["target"] == 2 and state["scores"] == before["scores"]
    assert watched.errors == []


def test_corner_cards_every_control(watched):
    page = watched.open("/step-7/")
    ties = "[data-figure='corner-ties']"
    state, r = act(watched, ties, "corner-ties", lambda f: f.locator("input[data-field='n']").fill("9"))
    assert state["n"] == 9 and r["max-weight"] == r["min-weight"] == r["one-over-n"]
    state, r = act(watched, ties, "corner-ties", lambda f: f.locator("input[data-field='c']").fill("64"))
    assert r["max-weight"] == r["one-over-n"]
    act(watched, ties, "corner-ties", lambda f: f.locator("input[data-field='value']").fill("-4.5"))

    inf = "[data-figure='corner-infinity']"
    state, r = act(watched, inf, "corner-infinity", lambda f: f.locator("input[value='mask']").check())
    assert state["mode"] == "mask" and r["special"] == "0"
    state, r = act(watched, inf, "corner-infinity", lambda f: f.locator("input[data-field='divisor']").fill("1"))
    assert r["special"] == "0"

    cv = "[data-figure='corner-constant-v']"
    before = watched.state(cv)
    drag(page, cv, "w1", 0, 50)
    state, r = check(watched, cv, "corner-constant-v", before)
    assert state["weights"] != before["weights"] and float(r["output"]) == state["v"]
    state, r = act(watched, cv, "corner-constant-v", lambda f: f.locator("input[data-field='v']").fill("-3.2"))
    assert r["output"] == "-3.2"

    dk1 = "[data-figure='corner-dk1']"
    state, r = act(watched, dk1, "corner-dk1", lambda f: f.locator("button[data-event='resample']").click())
    assert r["variance-raw"] == r["variance-scaled"] and abs(float(r["variance-raw"]) - 1) < 4 * float(r["standard-error"])
    assert watched.errors == []


def test_summary_pipeline_every_control(watched):
    watched.open("/summary/")
    fig, fid = "[data-figure='summary-pipeline']", "summary-pipeline"
    state, r = act(watched, fig, fid, lambda f: f.locator("input[data-field='dk']").fill("256"))
    assert state["dk"] == 256 and abs(float(r["scaled-std"]) - 1) < 0.1
    state, r = act(watched, fig, fid, lambda f: f.locator("input[value='off']").check())
    assert state["scaling"] == "off" and abs(float(r["scaled-std"]) / 16 - 1) < 0.1  # √256
    act(watched, fig, fid, lambda f: f.locator("button[data-event='resample']").click())
    assert watched.errors == []


def test_softmax_scores_can_be_typed_and_bad_text_gets_a_message(watched):
    page = watched.open("/step-5/")
    fig, fid = "[data-figure='softmax-spike']", "softmax-spike"
    field = page.locator(f"{fig} input[data-field='scores']")
    state, r = act(watched, fig, fid, lambda f: (field.fill("2, 0, -2"), field.press("Enter")))
    assert state["scores"] == [2, 0, -2]
    field.fill("2, x")
    field.press("Enter")
    status = page.locator(f"{fig} [data-status]")
    status.filter(has_text="scores must be 2 to 8 comma-separated numbers").wait_for(timeout=10_000)
    assert watched.state(fig) == state, "a bad value leaves the figure as it was"


def test_old_links_with_c_still_set_the_stretch(watched):
    """Teachers' links from before the rename say c=: the embed page and an article link both read it as the stretch."""
    page = watched.page
    page.goto(watched.server.url + "/embed/softmax-spike/?c=20&scores=1,0,-1")
    page.wait_for_selector("[data-figure][data-ready='true']", timeout=60_000)
    state = watched.state("[data-figure]")
    assert state["stretch"] == 20 and state["scores"] == [1, 0, -1] and "c" not in state
    assert page.locator("[data-figure]").get_attribute("data-error") is None
    svg, readouts = expected("softmax-spike", state)
    assert shows(watched.readouts("[data-figure]"), readouts) and readouts["stretch"] == "20"
    page.goto(watched.server.url + "/step-5/#fig-softmax-spike?c=16")
    page.wait_for_selector("#fig-softmax-spike[data-ready='true']", timeout=60_000)
    assert watched.state("#fig-softmax-spike")["stretch"] == 16
    assert watched.errors == []
