"""Accessibility: axe-core on every page in both palettes, at the shared page's width and a phone's, with every aside,
menu and Python script open, keyboard-only use of every figure, touch targets and touch dragging at phone width,
reduced motion, polite announcements."""

from __future__ import annotations

import json
from urllib.request import urlopen

import pytest

from pycore import figures
from tests.browser.conftest import NEXT_FRAMES, READY_MS, SERIOUS, add_axe, every_figure_ready
from tests.conftest import ROOT, article_pages

PAGES = article_pages()
CARD_EMBEDS = [f"/embed/cards/{page.stem}/" for page in sorted((ROOT / "site_src").glob("*.md"))
               if "." not in page.stem and "```card" in page.read_text(encoding="utf-8")]
"""The embed page of each English page's recall cards (a translation's source, step-1.zh.md, has its cards'
embed page under /zh/, which the Chinese pages' test checks)."""
CARDS_READY = "() => [...document.querySelectorAll('[data-card]')].every((c) => c.dataset.ready === 'true')"


OPEN_ALL = """() => { document.querySelectorAll('details').forEach(d => { d.open = true; });
  document.querySelectorAll('[data-menu] > button[aria-expanded="false"]').forEach(b => b.click());
  document.querySelectorAll('button[data-action="python"][aria-expanded="false"]').forEach(b => b.click()); }"""
PYTHON_SHOWN = """() => [...document.querySelectorAll('button[data-action="python"]')]
  .every(b => b.getAttribute('aria-expanded') === 'true')"""
"""Every figure's Copy as Python panel open, its script written in (Python answers each in turn)."""
WIDTHS = (1280, 390)
"""The shared page's width, then a phone's, where a formula or a script's lines that fit the first may scroll."""
PALETTES = (("light", "default"), ("dark", "slate"))
"""The reader's preference and Material's name for the palette it picks."""
COLOUR_RULES = ("color-contrast", "link-in-text-block")
"""The axe rules that read colours, the slowest on a long page."""
EVERY_RULE = {}
COLOURS_ONLY = {"runOnly": {"type": "rule", "values": list(COLOUR_RULES)}}
"""A change of palette changes nothing but colours, so in the second palette only these rules can find something
the first run did not."""
BUT_COLOURS = {"rules": {rule: {"enabled": False} for rule in COLOUR_RULES}}
"""A change of width changes what scrolls, wraps and shows, not which colour stands on which, so at the second
width every rule but these."""


def test_axe_finds_nothing_serious_on_any_page_in_either_palette_at_either_width(watched):
    """Material takes the palette from the reader's preference; then each page loads once and axe checks it at
    the shared page's width, in the light palette with every rule and in the dark one with the rules that read
    colours, and at a phone's width with every other rule. Every region that scrolls (a wide formula, a script's
    lines, a table) must be one a keyboard can reach."""
    page = watched.page
    for scheme, name in reversed(PALETTES):
        page.emulate_media(color_scheme=scheme)
        page.goto(watched.server.url + "/")
        page.evaluate("() => localStorage.clear()")  # Material remembers the palette of earlier visits
        page.reload()
        assert page.evaluate("() => document.body.dataset.mdColorScheme") == name, scheme
    found = {}
    for path in PAGES + [f"/embed/{f}/" for f in figures.FIGURES] + CARD_EMBEDS:
        found.update(axe_page(watched, path, [(WIDTHS[0], PALETTES[0], EVERY_RULE), (WIDTHS[0], PALETTES[1], COLOURS_ONLY),
                                              (WIDTHS[1], PALETTES[0], BUT_COLOURS)]))
    assert found == {}


def test_axe_finds_nothing_serious_on_the_chinese_pages(watched):
    """The Chinese pages and one Chinese embed page of each kind, with every rule at a phone's width in the light
    palette and the colour rules at the shared page's width in the dark one: their markup is the English pages',
    so what a language can change is its words' lengths (what scrolls or wraps) and its own attributes."""
    watched.page.emulate_media(color_scheme="light")
    found = {}
    for path in [f"/zh{p}" for p in PAGES] + ["/zh/embed/score-histogram/", "/zh/embed/cards/step-4/"]:
        found.update(axe_page(watched, path, [(WIDTHS[1], PALETTES[0], EVERY_RULE), (WIDTHS[0], PALETTES[1], COLOURS_ONLY)]))
    assert found == {}


def axe_page(watched, path: str, runs: list[tuple[int, tuple[str, str], dict]]) -> dict:
    """axe's serious findings on one page, everything on it open, at each (width, palette, axe's options) of
    ``runs``."""
    found, page = {}, watched.page
    assert urlopen(watched.server.url + path).status == 200  # a page, not the site's page for a missing one
    watched.open(path, ready=None)
    page.wait_for_load_state()
    every_figure_ready(page)  # the controls and menus as a reader operates them, enabled
    page.wait_for_function(CARDS_READY, timeout=READY_MS)  # and the cards' grading controls, shown
    # Going deeper asides, cards, "More settings", every actions menu and every Python script open, so that
    # what they hold is checked too.
    page.evaluate(OPEN_ALL)
    assert page.locator(".sq-menu__items:visible").count() == page.locator(".sq-menu__items").count(), path
    page.wait_for_function(PYTHON_SHOWN, timeout=READY_MS)
    add_axe(page)
    # The palette's colours at rest: Material fades some of them, and axe must not read one halfway.
    page.add_style_tag(content="*, *::before, *::after { transition: none !important; }")
    try:
        for width, (scheme, name), rules in runs:
            page.set_viewport_size({"width": width, "height": 800})
            page.evaluate(NEXT_FRAMES)
            page.emulate_media(color_scheme=scheme)  # an embed page follows the preference itself
            if "/embed/" not in path:
                page.evaluate("(s) => { document.body.dataset.mdColorScheme = s; }", name)
            violations = page.evaluate(SERIOUS, rules)
            if violations:
                found[path, width, scheme] = violations
    finally:
        page.set_viewport_size({"width": WIDTHS[0], "height": 800})  # the shared page's own, for every other test
    return found


# Every figure on the page that explains it; the test picks the instance there with the most controls.
INSTANCES = [(f"/{module.PAGE}", fid) for fid, module in figures.FIGURES.items()]


@pytest.mark.parametrize("path,figure_id", INSTANCES)
def test_keyboard_alone_reaches_and_operates_every_control(watched, path, figure_id):
    page = watched.open(path)
    anchor = page.evaluate("""(id) => [...document.querySelectorAll(`[data-figure="${id}"]`)]
        .sort((a, b) => b.querySelectorAll('input, button:not([data-action])').length
                      - a.querySelectorAll('input, button:not([data-action])').length)[0].id""", figure_id)
    fig = page.locator(f"#{anchor}")
    # Start just before the figure, then use only the keyboard.
    page.evaluate("(f) => { const p = f.previousElementSibling || f.parentElement; p.tabIndex = -1; p.focus(); }",
                  fig.element_handle())
    operated, inside_more = [], []
    for _ in range(40):
        page.keyboard.press("Tab")
        info = page.evaluate("""(f) => { const a = document.activeElement;
            if (!f.contains(a)) return null;
            return {tag: a.tagName.toLowerCase(), type: a.type || '', handle: a.dataset.handle || null,
                    action: a.dataset.action || null, play: a.dataset.play || null,
                    max: a.max || null, value: a.value || null, field: a.dataset.field || null,
                    more: Boolean(a.closest('details'))}; }""",
                             fig.element_handle())
        if info is None:
            if operated:
                break
            continue
        if info["action"] == "more":  # "More settings": Enter opens it, and Tab goes on into its controls
            page.keyboard.press("Enter")
            assert fig.locator("details.sq-figure__more").evaluate("d => d.open")
            continue
        if info["action"]:
            continue
        before = fig.get_attribute("data-state")
        if info["handle"]:
            page.keyboard.press("ArrowUp")
        elif info["type"] == "range":
            page.keyboard.press("ArrowLeft" if info["value"] == info["max"] else "ArrowRight")
        elif info["type"] == "radio":
            page.keyboard.press("ArrowRight")
        elif info["type"] == "text":  # a valid value other than the default, from the parameter's spec
            value = next(s for s in figures.get(figure_id).PARAMS if s.name == info["field"]).example()
            page.keyboard.press("Control+A")
            page.keyboard.type(value)
            page.keyboard.press("Enter")
        elif info["play"]:
            page.keyboard.press("Enter")
        elif info["tag"] == "button":
            page.keyboard.press("Enter")
        page.wait_for_function("([f, before]) => f.dataset.state !== before", arg=[fig.element_handle(), before],
                               timeout=10_000)
        if info["play"]:
            page.keyboard.press("Enter")  # stop the animation again
            page.wait_for_function("(f) => f.querySelector('[data-play]').getAttribute('aria-pressed') === 'false'",
                                   arg=fig.element_handle())
        operated.append(info["handle"] or info["type"] or info["tag"])
        inside_more.append(info["more"])
    module = figures.get(fig.get_attribute("data-figure"))
    handles = page.evaluate("(f) => f.querySelectorAll('[data-handle]').length", fig.element_handle())
    assert len(operated) >= handles + (1 if module.CONTROLS else 0), operated
    advanced = fig.locator("details.sq-figure__more :is(input[type='range'], input[type='text'], button)").count()
    assert inside_more.count(True) == advanced, (operated, inside_more)
    assert watched.errors == []


def test_readouts_are_announced_when_a_drag_ends_not_during_it(watched):
    page = watched.open("/step-2/")
    fig = page.locator("[data-figure='dot-product']")
    region = fig.locator("[data-announce]")
    assert region.get_attribute("role") == "status" and region.get_attribute("aria-live") == "polite"
    fig.locator("[data-handle='q'] .sq-dot").scroll_into_view_if_needed()
    box = fig.locator("[data-handle='q'] .sq-dot").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    start = region.text_content()
    page.mouse.move(x, y)
    page.mouse.down()
    for i in range(1, 6):
        before = fig.get_attribute("data-state")
        page.mouse.move(x - 12 * i, y - 8 * i)
        page.wait_for_function("([f, b]) => f.dataset.state !== b", arg=[fig.element_handle(), before])
        assert region.text_content() == start, "nothing is announced mid-drag"
    page.mouse.up()
    page.wait_for_function("([r, s]) => r.textContent !== s", arg=[region.element_handle(), start])
    readout = fig.locator("[data-readout='dot']").text_content()
    assert f"score q·k {readout}" in region.text_content()


def test_reduced_motion_play_jumps_between_stops(watched):
    page = watched.page
    page.emulate_media(reduced_motion="reduce")
    watched.open("/step-2/")
    fig = page.locator("[data-figure='dot-product']")
    page.evaluate("""(f) => { window.swings = []; new MutationObserver(() => window.swings.push(
        f.querySelector("input[data-field='swing']").value)).observe(f, {attributes: true, attributeFilter: ['data-state']}); }""",
                  fig.element_handle())
    fig.locator("button[data-play]").click()
    page.wait_for_function("(f) => f.querySelector('[data-play]').getAttribute('aria-pressed') === 'false'",
                           arg=fig.element_handle(), timeout=15_000)
    watched.settle("[data-figure='dot-product']")  # the last stop's answer may still be on its way
    swings = page.evaluate("() => window.swings")
    assert set(swings) <= {"0", "90", "180"} and swings[-1] == "180"
    assert len(swings) <= 3


@pytest.fixture
def phone(browser, browser_context_args, server):
    context = browser.new_context(**{**browser_context_args, "viewport": {"width": 390, "height": 844},
                                     "is_mobile": True, "has_touch": True, "device_scale_factor": 2})
    yield context.new_page()
    context.close()


def test_phone_width_no_horizontal_scroll_and_24px_targets(phone, server):
    for path in PAGES + ["/embed/dot-product/", "/embed/softmax-spike/"]:
        phone.goto(server.url + path)
        widths = phone.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1], (path, widths)
        for size in phone.evaluate("() => [...document.querySelectorAll('.sq-hit')].map(h => h.getBoundingClientRect())"
                                   ".map(r => Math.min(r.width, r.height))"):
            assert size >= 24, path
        for svg in phone.evaluate("() => [...document.querySelectorAll('.sq-figure__stage svg')]"
                                  ".map(s => s.getBoundingClientRect().right)"):
            assert svg <= 390, path


def test_touch_drag_moves_a_tip(phone, server):
    phone.goto(server.url + "/step-2/")
    phone.wait_for_selector("[data-figure='dot-product'][data-ready='true']", timeout=READY_MS)
    fig = phone.locator("[data-figure='dot-product']")
    dot = fig.locator("[data-handle='q'] .sq-dot")
    dot.scroll_into_view_if_needed()
    box = dot.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    raw_before = fig.get_attribute("data-state")
    before = json.loads(raw_before)
    cdp = phone.context.new_cdp_session(phone)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for i in range(1, 8):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x - 6 * i, "y": y + 5 * i}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    phone.wait_for_function("([f, b]) => f.dataset.state !== b", arg=[fig.element_handle(), raw_before])
    after = json.loads(fig.get_attribute("data-state"))
    assert after["q"][0] < before["q"][0] and after["q"][1] < before["q"][1] and after["k"] == before["k"]
