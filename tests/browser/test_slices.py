"""No valid setting freezes a figure: long work comes in slices, shows progress, gives way to newer input
and to other figures, and ends on exactly what CPython draws."""

from __future__ import annotations

import json

from tests.browser.conftest import READY_MS, expected, shows

WATCH = """(sel) => { window.sqDrawn = []; window.sqBusy = [];
  const f = document.querySelector(sel);
  new MutationObserver(() => { window.sqDrawn.push(JSON.parse(f.dataset.state));
    window.sqBusy.push([f.dataset.busy || '', f.querySelector('[data-status]').textContent]); })
    .observe(f, {attributes: true, attributeFilter: ['data-state', 'data-busy']}); }"""


def settled(page, sel: str):
    page.wait_for_function("(sel) => !document.querySelector(sel).dataset.busy", arg=sel, timeout=60_000)
    return json.loads(page.locator(sel).get_attribute("data-state"))


def test_a_jump_in_dk_shows_the_bell_widening_and_ends_on_cpythons_drawing(watched):
    page = watched.page
    page.goto(watched.server.url + "/embed/score-histogram/?dk=16&n=3000&seed=44")
    fig = "[data-figure]"
    page.wait_for_selector(f"{fig}[data-ready='true']", timeout=READY_MS)
    page.evaluate(WATCH, fig)
    page.locator("input[data-field='dk']").fill("512")
    page.wait_for_function("() => window.sqBusy.some(([b]) => b === 'true')", timeout=10_000)
    state = settled(page, fig)
    drawn = [s["dk"] for s in page.evaluate("() => window.sqDrawn")]
    progress = [text for busy, text in page.evaluate("() => window.sqBusy") if busy]
    assert state["dk"] == 512 and drawn[-1] == 512
    assert len(set(drawn)) > 2 and drawn == sorted(drawn), drawn
    assert any(t.startswith("building d_k ") and t.endswith(" of 512") for t in progress), progress
    svg, readouts = expected("score-histogram", state)
    assert shows(watched.readouts(fig), readouts) and watched.svg(fig) == svg
    assert page.locator(fig).get_attribute("data-busy") is None and page.locator("[data-status]").text_content() == ""


def test_newer_input_during_a_jump_wins(watched):
    page = watched.page
    page.goto(watched.server.url + "/embed/score-histogram/?dk=16&n=3000&seed=45")
    fig = "[data-figure]"
    page.wait_for_selector(f"{fig}[data-ready='true']", timeout=READY_MS)
    page.locator("input[data-field='dk']").fill("512")
    page.wait_for_function("(sel) => document.querySelector(sel).dataset.busy === 'true'", arg=fig, timeout=10_000)
    page.locator("input[data-field='dk']").fill("100")
    state = settled(page, fig)
    assert state["dk"] == 100
    svg, readouts = expected("score-histogram", state)
    assert shows(watched.readouts(fig), readouts) and watched.svg(fig) == svg


def test_another_figure_answers_while_one_is_working(watched):
    page = watched.open("/step-5/")
    sat, spike = "#fig-saturation", "[data-figure='softmax-spike']"
    watched.reveal(sat)
    for field, value in (("n", "512"), ("dk", "512")):
        before = page.locator(sat).get_attribute("data-state")
        page.locator(f"{sat} input[data-field='{field}']").fill(value)
        page.wait_for_function("([s, b]) => document.querySelector(s).dataset.state !== b || "
                               "document.querySelector(s).dataset.busy === 'true'", arg=[sat, before], timeout=30_000)
        settled(page, sat)
    page.locator(f"{sat} input[data-field='rows']").fill("2000")
    page.wait_for_function("(sel) => document.querySelector(sel).dataset.busy === 'true'", arg=sat, timeout=10_000)
    before = watched.state(spike)
    page.locator(f"{spike} input[data-field='stretch']").fill("3")
    page.wait_for_function("([s, b]) => document.querySelector(s).dataset.state !== b", arg=[spike, json.dumps(before, separators=(",", ":"))],
                           timeout=10_000)
    assert page.locator(sat).get_attribute("data-busy") == "true", "the second figure answered between slices"
    state = settled(page, sat)
    assert state["rows"] == 2000
    svg, readouts = expected("saturation", state)
    assert shows(watched.readouts(sat), readouts)
    assert watched.errors == []
