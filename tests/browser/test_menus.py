"""Figures sized for beginners, in the browser: the actions menu, "More settings", one menu for a row of
small multiples, the caption's live line, and the small defects fixed on the way (issue 19)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from pycore.figures import saturation, summary_pipeline
from pycore.params import from_json
from tests.browser.conftest import expected, open_actions, shows

NS = "{http://www.w3.org/2000/svg}"


def test_the_actions_menu_opens_from_the_keyboard_and_escape_puts_focus_back(watched):
    page = watched.open("/step-2/")
    fig = "[data-figure='dot-product']"
    button = page.locator(f"{fig} [data-action='menu']")
    items = page.locator(f"{fig} .sq-menu__items")
    assert button.get_attribute("aria-expanded") == "false" and items.is_hidden()
    assert page.locator(f"{fig} [data-action='reset']").is_hidden(), "the actions wait behind the menu"
    button.focus()
    page.keyboard.press("Enter")
    assert button.get_attribute("aria-expanded") == "true" and items.is_visible()
    assert items.get_attribute("id") == button.get_attribute("aria-controls")
    reached = []
    for _ in range(7):
        page.keyboard.press("Tab")
        reached.append(page.evaluate("() => [document.activeElement.dataset.action, document.activeElement.dataset.download]"))
    assert reached == [["reset", None], ["python", None], ["download", "svg"], ["download", "png"], ["download", "ipynb"],
                       ["embed", None], ["permalink", None]]
    page.keyboard.press("Escape")
    assert button.get_attribute("aria-expanded") == "false" and items.is_hidden()
    assert page.evaluate("() => document.activeElement.dataset.action") == "menu"
    page.keyboard.press("Space")  # a native button: Space opens it too, and a click closes it again
    assert items.is_visible()
    button.click()
    assert items.is_hidden()
    assert watched.errors == []


def test_more_settings_starts_closed_and_its_controls_reach_pycore(watched):
    page = watched.open("/step-5/")
    fig = "#fig-saturation"
    more = page.locator(f"{fig} details.sq-figure__more")
    rows = page.locator(f"{fig} input[data-field='rows']")
    assert not more.evaluate("d => d.open") and rows.is_hidden()
    assert page.locator(f"{fig} input[data-field='dk']").is_visible()
    assert page.locator(f"{fig} [data-event='resample']").is_visible()
    more.locator("summary").focus()
    page.keyboard.press("Enter")
    assert more.evaluate("d => d.open") and rows.is_visible()
    rows.focus()
    before = watched.state(fig)
    page.keyboard.press("ArrowLeft")
    watched.wait_state_change(fig, before)
    watched.settle(fig)
    state = watched.state(fig)
    assert state["rows"] == before["rows"] - 50
    svg, readouts = expected("saturation", state)
    assert watched.svg(fig) == svg and shows(watched.readouts(fig), readouts)
    live = saturation.caption(saturation.parse(from_json(state)))
    assert page.locator(f"{fig} [data-caption]").text_content() == live and f"{state['rows']} rows" in live
    assert watched.errors == []


def test_the_saturation_caption_follows_the_divisor(watched):
    page = watched.open("/step-5/")
    fig = "#fig-saturation"
    caption = page.locator(f"{fig} figcaption")
    assert "not divided" in caption.text_content()
    before = watched.state(fig)
    page.locator(f"{fig} input[data-field='divisor'][value='sqrt']").check()
    watched.wait_state_change(fig, before)
    watched.settle(fig)
    state = watched.state(fig)
    assert state["divisor"] == "sqrt"
    assert page.locator(f"{fig} [data-caption]").text_content() == saturation.caption(saturation.parse(from_json(state)))
    assert "not divided" not in caption.text_content() and "÷ √64 = 8" in caption.text_content()
    assert watched.errors == []


def test_a_row_of_panels_has_one_menu_whose_downloads_hold_every_panel(watched, tmp_path):
    page = watched.open("/step-3/")
    row = ".sq-row"
    panels = page.locator(f"{row} [data-figure]")
    assert panels.count() == 3
    assert page.locator(f"{row} [data-figure] [data-menu]").count() == 0, "no menu under every panel"
    assert page.locator(f"{row} > [data-menu]").count() == 1
    open_actions(page, row)
    with page.expect_download() as info:
        page.locator(f"{row} > [data-menu] [data-download='svg']").click()
    assert info.value.suggested_filename == "score-histogram_3-panels.svg"
    path = tmp_path / "row.svg"
    info.value.save_as(path)
    root = ET.fromstring(path.read_text(encoding="utf-8"))
    states = [watched.state(f"#{panels.nth(i).get_attribute('id')}") for i in range(3)]
    labels = [ET.fromstring(expected("score-histogram", s)[0]).get("aria-label") for s in states]
    assert [el.get("aria-label") for el in root.iter(f"{NS}svg")][1:] == labels
    desc = root.find(f"{NS}desc").text
    assert all(f"dk={s['dk']}&" in desc for s in states) and [s["dk"] for s in states] == [1, 8, 64]
    page.locator(f"{row} > [data-announce]").filter(has_text="Saved the 3 panels as one SVG.").wait_for()
    assert watched.errors == []


def test_a_row_copies_one_iframe_per_panel(watched):
    watched.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = watched.open("/step-6/")
    row = page.locator(".sq-row").nth(1)
    ids = row.locator("[data-figure]").evaluate_all("els => els.map(e => e.id)")
    assert len(ids) == 3
    row.locator("[data-action='menu']").click()
    row.locator("[data-action='embed']").click()
    row.locator("[data-action='embed']").filter(has_text="Embed code copied").wait_for()
    lines = page.evaluate("() => navigator.clipboard.readText()").split("\n")
    assert len(lines) == 3
    for line, divisor in zip(lines, ("none", "sqrt", "dk")):
        assert line.startswith(f'<iframe src="{watched.server.url}/embed/score-histogram/?dk=64&amp;divisor={divisor}&amp;')
    assert row.locator("[data-action='permalink']").get_attribute("href").endswith(f"step-6/#{ids[0]}")
    assert watched.errors == []


# Every text box of each summary stage, as Chromium lays it out; two boxes may touch, not overlap.
OVERLAPS = """(stage) => [...stage.querySelectorAll(':scope > svg')].flatMap((svg, s) => {
  const boxes = [...svg.querySelectorAll('text')].map(t => [t.textContent, t.getBBox()]);
  const found = [];
  boxes.forEach(([a, p], i) => boxes.slice(i + 1).forEach(([b, q]) => {
    const w = Math.min(p.x + p.width, q.x + q.width) - Math.max(p.x, q.x);
    const h = Math.min(p.y + p.height, q.y + q.height) - Math.max(p.y, q.y);
    if (w > 0.5 && h > 0.5) found.push(`stage ${s + 1}: '${a}' and '${b}'`);
  }));
  return found; })"""


@pytest.mark.parametrize("dk,scaling", [(1, "on"), (1, "off"), (2, "on"), (64, "off"), (512, "on"), (512, "off")])
def test_no_two_labels_of_the_summary_overlap(watched, dk, scaling):
    """CPython's drawing of each state, laid out by the browser with the site's styles."""
    page = watched.open("/summary/", ready=None)
    stage = page.locator("[data-figure='summary-pipeline'] .sq-figure__stage")
    svg = summary_pipeline.render(summary_pipeline.State(dk=dk, scaling=scaling))
    assert "beyond" in svg or dk > 1
    assert stage.evaluate("(s, svg) => { s.innerHTML = svg; return s.querySelectorAll(':scope > svg').length; }", svg) == 6
    assert stage.evaluate(OVERLAPS) == []


def test_the_mask_is_added_after_the_division_in_the_browser_too(watched):
    page = watched.open("/step-7/")
    fig = "#fig-corner-infinity"
    before = watched.state(fig)
    page.locator(f"{fig} input[data-field='mode'][value='mask']").check()
    watched.wait_state_change(fig, before)
    watched.settle(fig)
    state = watched.state(fig)
    svg, readouts = expected("corner-infinity", state)
    assert watched.svg(fig) == svg and shows(watched.readouts(fig), readouts)
    text = page.locator(f"{fig} .sq-figure__stage").text_content()
    assert "then the mask is added to w3's: 0.2 + (−10⁹) ≈ −10⁹" in text and "e+" not in text
    assert watched.errors == []
