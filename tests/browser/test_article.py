"""The article as a reader meets it: cards, typeset math, instant navigation, print."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import ROOT, article_pages

PAGES = article_pages()

UNRENDERED = """() => {
  const walker = document.createTreeWalker(document.querySelector('.md-content'), NodeFilter.SHOW_TEXT);
  const bad = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement.closest('code, pre, script, .katex')) continue;
    if (/\\\\\\(|\\\\\\)|\\\\\\[|\\\\\\]|\\$\\$/.test(n.textContent)) bad.push(n.textContent.trim().slice(0, 80));
  }
  return bad;
}"""


@pytest.mark.parametrize("path", PAGES)
def test_no_unrendered_math_delimiters(watched, path):
    page = watched.open(path, ready=None)
    page.wait_for_function("() => [...document.querySelectorAll('.arithmatex')].every(e => e.querySelector('.katex'))")
    assert page.evaluate(UNRENDERED) == []
    assert watched.errors == []


def test_every_card_reveals_with_mouse_and_keyboard(watched):
    page = watched.open("/review/", ready=None)
    cards = page.locator("details.sq-card")
    count = cards.count()
    assert count >= 10
    for i in range(count):
        card = cards.nth(i)
        answer = card.locator("p").first
        assert card.get_attribute("open") is None and not answer.is_visible()
        if i % 2 == 0:
            card.locator("summary").click()
        else:
            card.locator("summary").focus()
            page.keyboard.press("Enter")
        page.wait_for_function("(d) => d.open", arg=card.element_handle())
        assert answer.is_visible() and answer.text_content().strip()
        card.locator("summary").focus()
        page.keyboard.press("Space")
        page.wait_for_function("(d) => !d.open", arg=card.element_handle())


def test_instant_navigation_initialises_figures_and_math_on_the_new_page(watched):
    page = watched.open("/step-1/")
    page.evaluate("() => { window.sameDocument = true; }")
    page.locator(".md-footer__link--next").click()
    page.wait_for_url("**/step-2/")
    page.wait_for_selector("[data-figure='dot-product'][data-ready='true']", timeout=30_000)
    assert page.evaluate("() => window.sameDocument") is True, "Material swapped the page without a reload"
    page.wait_for_function("() => [...document.querySelectorAll('.arithmatex')].every(e => e.querySelector('.katex'))")
    before = page.locator("[data-figure='dot-product']").get_attribute("data-state")
    page.locator("[data-figure='dot-product'] input[data-field='swing']").fill("90")
    page.wait_for_function(f"() => document.querySelector(\"[data-figure='dot-product']\").dataset.state !== {before!r}")
    assert page.locator("[data-figure='dot-product'] [data-readout='cue']").text_content() == "perpendicular"
    workers = page.evaluate("() => performance.getEntriesByType('resource').filter(e => e.name.endsWith('/worker.js')).length")
    assert workers == 1, "one worker serves the whole visit"
    assert watched.errors == []


def test_print_shows_figures_in_their_state_and_no_controls(watched):
    page = watched.open("/step-3/")
    page.emulate_media(media="print")
    fig = page.locator("#fig-score-histogram-4")
    assert fig.locator(".sq-figure__stage svg").is_visible()
    assert not fig.locator(".sq-figure__controls").is_visible()
    assert not fig.locator(".sq-figure__share").is_visible()
    assert fig.locator("[data-readout='dk']").is_visible()


def test_a_glossary_term_shows_its_definition_on_hover_and_on_keyboard_focus(watched):
    """Material's own tooltip, from the glossary's abbreviations: the first use of a term takes focus."""
    from pycore.sitegen import glossary

    definition = next(t.definition for t in glossary.load(ROOT / "site_src" / "glossary.yml").terms
                      if t.term == "variance")
    page = watched.open("/step-4/", ready=None)
    term = page.locator("article abbr[tabindex='0']", has_text="variance").first
    term.focus()
    tip = page.locator(".md-tooltip2--active")
    tip.wait_for(timeout=5000)
    assert tip.inner_text().strip() == definition
    page.evaluate("() => document.activeElement.blur()")
    page.mouse.move(0, 0)
    page.wait_for_function("() => !document.querySelector('.md-tooltip2--active')")
    page.locator("article abbr", has_text="variance").nth(1).hover()
    tip.wait_for(timeout=5000)
    assert tip.inner_text().strip() == definition
    assert watched.errors == []


def test_going_deeper_asides_are_closed_and_open_from_the_keyboard(watched):
    page = watched.open("/step-5/", ready=None)
    aside = page.locator("article details.info").first
    summary = aside.locator(":scope > summary")
    assert aside.get_attribute("open") is None
    summary.scroll_into_view_if_needed()  # a block far off screen is not drawn, so it has no rendered text yet
    expect(summary).to_contain_text("Going deeper", use_inner_text=True)
    assert not aside.locator("p").first.is_visible()
    summary.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("(d) => d.open", arg=aside.element_handle())
    assert aside.locator("p").first.is_visible()
    page.keyboard.press("Enter")
    page.wait_for_function("(d) => !d.open", arg=aside.element_handle())


# Every change of the body's palette attributes, with whether the page was still being parsed (the header's script).
PALETTE_LOG = """new MutationObserver((records) => {
  for (const r of records) if (r.target === document.body) (window.paletteLog ||= []).push(
    [r.attributeName, document.body.getAttribute(r.attributeName), document.readyState]);
}).observe(document, {subtree: true, attributes: true,
                      attributeFilter: ['data-md-color-scheme', 'data-md-color-switching']})"""
SHOWN_TOGGLE = "[data-sq-palette] label:not([hidden])"
ROOT_SCHEME = "getComputedStyle(document.documentElement).colorScheme"


def test_the_palette_is_the_readers_from_the_first_paint_and_never_restyles_the_page_at_load(fresh, server):
    """With no choice saved, the system's dark mode picks the dark palette from the header's script, while the page
    is parsed, even with Material's bundle blocked, and the page's own colour scheme (scrollbars, canvas) with it;
    nothing sets data-md-color-switching or a colour-scheme meta tag at load (each restyled every element); the
    reader's choice, by mouse or keyboard, is kept across a reload and then wins over the system's."""
    page = fresh(color_scheme="dark")
    page.route("**/assets/javascripts/bundle.*.min.js", lambda route: route.abort())
    page.goto(server.url + "/summary/")
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"
    assert page.evaluate(ROOT_SCHEME) == "dark"
    assert page.locator(SHOWN_TOGGLE).get_attribute("title") == "Switch to light mode"
    page.unroute("**/assets/javascripts/bundle.*.min.js")

    page.add_init_script(PALETTE_LOG)
    page.goto(server.url + "/zh/summary/")
    page.wait_for_function("() => window.document$ && document.querySelector('meta[name=theme-color]')")
    log = page.evaluate("window.paletteLog")
    assert log == [["data-md-color-scheme", "slate", "loading"]], log
    header = page.evaluate("getComputedStyle(document.querySelector('header')).backgroundColor")
    assert tuple(int(page.locator("meta[name=theme-color]").get_attribute("content")[i:i + 2], 16)
                 for i in (1, 3, 5)) == tuple(int(c) for c in header[4:-1].split(","))
    assert page.evaluate(ROOT_SCHEME) == "dark"
    assert page.locator("meta[name=color-scheme]").count() == 0  # written after load, it restyled every element twice
    assert page.locator(SHOWN_TOGGLE).get_attribute("title") == "切换到浅色模式"

    page.locator(SHOWN_TOGGLE).click()
    page.wait_for_function("() => !document.body.hasAttribute('data-md-color-switching')")
    assert page.evaluate("window.paletteLog.slice(1)") == [
        ["data-md-color-switching", "", "complete"], ["data-md-color-scheme", "default", "complete"],
        ["data-md-color-switching", None, "complete"]]
    assert page.evaluate(ROOT_SCHEME) == "light"
    page.reload()
    assert page.locator("body").get_attribute("data-md-color-scheme") == "default"  # the choice over the system's

    page.locator("[data-sq-palette] input").first.focus()
    page.keyboard.press("Enter")
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    assert page.locator(SHOWN_TOGGLE).get_attribute("title") == "切换到浅色模式"
    assert page.evaluate("__md_get('__palette').index") == 1


def test_the_palette_follows_the_system_while_the_reader_has_not_chosen(fresh, server):
    """Also when what is saved is not a palette: the page keeps working, in the system's palette."""
    page = fresh(color_scheme="light")
    page.goto(server.url + "/step-1/")
    assert page.locator("body").get_attribute("data-md-color-scheme") == "default"
    page.emulate_media(color_scheme="dark")
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    assert page.locator(SHOWN_TOGGLE).get_attribute("title") == "Switch to light mode"
    assert page.evaluate("localStorage.length") == 0

    page.evaluate("localStorage.setItem('/.__palette', JSON.stringify({index: 'dark', color: null}))")
    page.reload()
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"
    page.locator(SHOWN_TOGGLE).click()
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "default")
    assert page.evaluate("__md_get('__palette').index") == 0
    assert page.uncaught == []
