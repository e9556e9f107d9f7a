"""The Chinese site in the browser: the language switcher keeps the page and the figure's state, a Chinese figure
answers with the English figure's numbers in Chinese words, Chinese search finds its words, an embed takes lang."""

from __future__ import annotations

import json
import re

from tests.browser.conftest import READY_MS, expected

HAN = re.compile(r"[\u4e00-\u9fff]")
FULL3 = "#fig-score-histogram-5"
"""Step 3's last histogram, in an aside: a dₖ slider and every readout (variance, standard deviation, theory)."""


def test_the_switcher_keeps_the_page_and_the_figures_state(watched):
    page = watched.page
    page.goto(watched.server.url + "/step-4/#fig-variance-tower?dk=32")
    page.wait_for_selector("#fig-variance-tower[data-ready='true']", timeout=READY_MS)
    page.wait_for_function("() => JSON.parse(document.querySelector('#fig-variance-tower').dataset.state).dk === 32")
    with page.expect_navigation():
        page.evaluate("() => document.querySelector('a.md-select__link[hreflang=\"zh\"]').click()")
    assert page.url.startswith(watched.server.url + "/zh/step-4/")
    assert page.evaluate("() => document.documentElement.lang") == "zh-Hans"
    page.wait_for_selector("#fig-variance-tower[data-ready='true']", timeout=READY_MS)
    page.wait_for_function("() => JSON.parse(document.querySelector('#fig-variance-tower').dataset.state).dk === 32")
    with page.expect_navigation():
        page.evaluate("() => document.querySelector('a.md-select__link[hreflang=\"en\"]').click()")
    assert page.url.startswith(watched.server.url + "/step-4/")
    page.wait_for_selector("#fig-variance-tower[data-ready='true']", timeout=READY_MS)
    page.wait_for_function("() => JSON.parse(document.querySelector('#fig-variance-tower').dataset.state).dk === 32")
    assert watched.errors == []


def test_a_chinese_figure_answers_with_the_english_numbers_in_chinese_words(watched):
    page = watched.open("/zh/step-3/")
    page.evaluate("(s) => { const aside = document.querySelector(s).closest('details'); if (aside) aside.open = true; }",
                  FULL3)
    before = watched.state(FULL3)
    page.locator(f"{FULL3} input[data-field='dk']").fill("100")
    watched.wait_state_change(FULL3, before)
    watched.settle(FULL3)
    state = watched.state(FULL3)
    assert state["dk"] == 100
    english = expected("score-histogram", state)[1]
    shown = watched.readouts(FULL3)
    assert shown and shown == {name: english[name] for name in shown}
    labels = page.locator(f"{FULL3} dt").all_text_contents()
    assert any(HAN.search(label) for label in labels), labels
    assert all(HAN.search(label) or not re.search(r"[A-Za-z]{3}", label) for label in labels), labels
    assert HAN.search(page.locator(f"{FULL3} figcaption").text_content())
    assert watched.errors == []


def test_chinese_search_finds_a_chinese_word_on_its_page(watched):
    page = watched.page
    page.goto(watched.server.url + "/zh/")
    search = page.locator("input.md-search__input")
    search.click()
    search.fill("方差")  # as an input method gives it: the text at once, then a key Material's search listens to
    search.press("End")
    page.wait_for_selector(".md-search-result__item", timeout=30_000)
    links = page.locator(".md-search-result__item a").evaluate_all("as => as.map(a => a.href)")
    assert any("/zh/step-4/" in href for href in links), links
    assert not any(re.search(r"/(step-\d|index)", href) and "/zh/" not in href for href in links), links


def test_an_embed_takes_lang_zh_and_an_unknown_language_is_a_message_beside_the_english_figure(watched):
    page = watched.page
    page.goto(watched.server.url + "/embed/score-histogram/?dk=64&lang=zh")
    page.wait_for_url("**/zh/embed/score-histogram/?dk=64&lang=zh")
    page.wait_for_selector("[data-figure][data-ready='true']", timeout=READY_MS)
    assert page.evaluate("() => document.documentElement.lang") == "zh-Hans"
    assert json.loads(page.locator("[data-figure]").get_attribute("data-state"))["dk"] == 64
    assert HAN.search(page.locator("[data-figure] figcaption").text_content())
    page.goto(watched.server.url + "/embed/score-histogram/?dk=abc&lang=zh")
    page.wait_for_url("**/zh/embed/score-histogram/?dk=abc&lang=zh")
    page.wait_for_selector("[data-figure][data-ready='true']", timeout=READY_MS)
    status = page.locator("[data-figure] [data-status]")
    page.wait_for_function("(el) => el.textContent.includes('dk')", arg=status.element_handle(), timeout=READY_MS)
    assert HAN.search(status.text_content()) and "abc" in status.text_content(), "a bad dk's message is in Chinese"
    page.goto(watched.server.url + "/embed/score-histogram/?dk=64&lang=fr")
    page.wait_for_selector("[data-figure][data-ready='true']", timeout=READY_MS)
    assert "/zh/" not in page.url and page.evaluate("() => document.documentElement.lang") == "en"
    status = page.locator("[data-figure] [data-status]")
    page.wait_for_function("(el) => el.textContent.includes('fr')", arg=status.element_handle(), timeout=READY_MS)
    assert "lang" in status.text_content() and not HAN.search(status.text_content())
    assert json.loads(page.locator("[data-figure]").get_attribute("data-state"))["dk"] == 64


def test_a_link_to_a_page_seen_before_keeps_its_address_and_fragment(watched):
    """Material reads each page's alternates as the roots of languages and sends a click on a link under one of
    them to that root: a page's alternates must not catch a later link to that page and lose its fragment."""
    page = watched.open("/step-2/")
    watched.open("/step-3/", ready=None)
    page.evaluate("(url) => { const a = document.createElement('a'); a.href = url; document.body.append(a); "
                  "a.click(); a.remove(); }", watched.server.url + "/step-2/#fig-dot-product")
    page.wait_for_function("() => location.pathname.endsWith('/step-2/')", timeout=READY_MS)
    page.wait_for_load_state()
    assert page.evaluate("() => location.hash") == "#fig-dot-product"
    assert watched.errors == []
