"""Predict, then see, in the browser: every choice of every prompt, Show me, the outcome CPython gives,
the figure in the answering state; the keyboard alone; axe with an outcome shown, in both palettes."""

from __future__ import annotations

import json

import pytest

from pycore import figures, predict
from pycore.figures import nudge
from tests.browser.conftest import SERIOUS, add_axe
from tests.unit.test_predict import PROMPTS

PAGES = {marker.prompt: f"/{page.removesuffix('.md')}/" for page, marker, _ in PROMPTS}


def choose_and_show(page, block, name):
    page.locator(f"{block} [data-choice='{name}']").click()
    assert page.locator(block).get_attribute("data-outcome") is None
    page.locator(f"{block} [data-show-me]").click()
    page.wait_for_selector(f"{block}[data-outcome]", timeout=60_000)


@pytest.mark.parametrize(("page_name", "marker", "start"), PROMPTS, ids=[m.prompt for _, m, _ in PROMPTS])
def test_every_choice_then_show_me_gives_cpythons_outcome(watched, page_name, marker, start):
    page = watched.open(PAGES[marker.prompt])
    block, fig = f"[data-predict='{marker.prompt}']", f"#{marker.figure}"
    page.wait_for_selector(f"{block} [data-show-me]:not([disabled])")
    state = predict.shown_state(marker.prompt, json.loads(page.locator(fig).get_attribute("data-state")), marker.show)
    verdict = predict.judge(marker.prompt, state)
    for name, _ in marker.choices:
        choose_and_show(page, block, name)
        outcome = page.locator(block).get_attribute("data-outcome")
        assert outcome == predict.outcome(marker.prompt, state, name)
        assert json.loads(page.locator(fig).get_attribute("data-state")) == figures.state_json(state)
        why = page.locator(f"{block} [data-why]").text_content()
        assert why.endswith(verdict["why"]) and why.startswith("Right." if outcome == "right" else "Not quite")
        assert page.locator(f"{block} [data-choice='{name}']").get_attribute("aria-pressed") == "true"
    assert watched.errors == []


def test_keyboard_alone_chooses_and_shows_and_the_outcome_is_announced(watched):
    page = watched.open("/step-5/")
    block = "[data-predict='stretched-nudge']"
    page.wait_for_selector(f"{block} [data-show-me]:not([disabled])")
    page.locator(f"{block} [data-choice='more']").focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.choice") == "less"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"{block}[data-outcome='right']", timeout=60_000)
    live = page.locator(f"{block} [data-why]")
    assert live.get_attribute("aria-live") == "polite" and live.text_content().startswith("Right.")
    assert json.loads(page.locator("#fig-nudge").get_attribute("data-state"))["stretch"] == nudge.State().stretch == 8


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_passes_with_outcomes_shown(watched, scheme):
    page = watched.page
    page.emulate_media(color_scheme=scheme)
    page.goto(watched.server.url + "/")
    page.evaluate("() => localStorage.clear()")
    page.reload()
    watched.open("/step-6/")
    block = "[data-predict='divide-by-dk']"
    page.wait_for_selector(f"{block} [data-show-me]:not([disabled])")
    choose_and_show(page, block, "wider")
    assert page.locator(block).get_attribute("data-outcome") == "wrong"
    add_axe(page)
    assert page.evaluate(SERIOUS) == []
