"""No valid setting freezes a figure: long work comes in slices, shows progress, gives way to newer input
and to other figures, and ends on exactly what CPython draws."""

from __future__ import annotations

import json

from pycore import live
from pycore.figures import saturation
from pycore.params import from_json
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
    for field, value in (("n", "64"), ("dk", "256")):
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


def spans(page) -> dict[str, str]:
    """The step-5 prose's numbers bound to the many-rows figure, by bound name."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll("[data-live^='fig-saturation:']")]
      .map((s) => [s.dataset.live.slice('fig-saturation:'.length), s.textContent]))""")


def test_the_prose_numbers_follow_the_figure_and_say_so_far_while_it_redraws(watched):
    """Step 5's live spans: built from the default, CPython's words after each change, and while more rows are
    drawn the share (not dₖ or the division, which the rows do not change) is marked busy with the readouts."""
    page = watched.open("/step-5/")
    sat = "#fig-saturation"
    watched.reveal(sat)
    names = ["@dk", "@divisor", "saturated|percent"]
    assert spans(page) == live.texts(saturation, saturation.State(), names), "built from the default state"
    before = watched.state(sat)
    page.locator(f"{sat} input[data-field='dk']").fill("256")
    watched.wait_state_change(sat, before)
    before = settled(page, sat)
    page.locator(f"{sat} input[value='dk']").click()
    watched.wait_state_change(sat, before)
    state = settled(page, sat)
    assert (state["dk"], state["divisor"]) == (256, "dk")
    assert spans(page) == live.texts(saturation, saturation.parse(from_json(state)), names)
    page.evaluate("""() => { window.sqMarks = [];
      const record = () => window.sqMarks.push({
        spans: [...document.querySelectorAll("[data-live^='fig-saturation:']")].map((s) => s.getAttribute('aria-busy')),
        readouts: [...document.querySelectorAll('#fig-saturation [data-readout]')].map((r) => r.getAttribute('aria-busy')),
        progress: document.querySelector('#fig-saturation .sq-figure__stage').dataset.progress || '',
        dk: document.querySelector("[data-live='fig-saturation:@dk']").textContent });
      window.sqMarker = new MutationObserver(record);
      window.sqMarker.observe(document.querySelector('article'), {subtree: true, attributes: true,
        attributeFilter: ['aria-busy', 'data-progress']}); }""")
    for field, value in (("n", 512), ("rows", 2000)):
        page.locator(f"{sat} input[data-field='{field}']").fill(str(value))
        page.wait_for_function("([s, f, v]) => { const e = document.querySelector(s);"
                               "return !e.dataset.busy && JSON.parse(e.dataset.state)[f] === v; }",
                               arg=[sat, field, value], timeout=60_000)
    state = watched.state(sat)
    marks = page.evaluate("() => { window.sqMarker.disconnect(); return window.sqMarks; }")
    busy = [m for m in marks if m["progress"]]
    assert busy, "the rebuild showed its progress on the stage"
    assert all(m["progress"].startswith("drawing row ") for m in busy)
    assert any(m["spans"] == [None, None, "true"] and set(m["readouts"]) == {"true"} for m in busy), busy[:3]
    assert all(m["dk"] == "256" for m in marks), "a setting the rows do not change is never 'so far'"
    assert marks[-1]["progress"] == "" and set(marks[-1]["spans"]) == {None} and set(marks[-1]["readouts"]) == {None}
    assert spans(page) == live.texts(saturation, saturation.parse(from_json(state)), names)
    assert page.locator("[data-live='fig-saturation:saturated|percent']").evaluate(
        "(s) => getComputedStyle(s, '::after').content") == "none", "no 'so far' once the rows are drawn"
    assert watched.errors == []
