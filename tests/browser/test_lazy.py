"""Figures are bound as they come near: the first at once, the others when scrolled to or reached with the
keyboard, and then they are drawn as CPython draws them and answer the reader."""

from __future__ import annotations

import pytest

from tests.browser.conftest import READY_MS, expected

FAR = "() => { const all = document.querySelectorAll('[data-figure]'); return all[all.length - 1]; }"


def far_figure(page):
    """The page's last figure, after checking it lies well beyond the margin at which figures are bound."""
    fig = page.evaluate_handle(FAR)
    top, height = page.evaluate("(f) => [f.getBoundingClientRect().top, innerHeight]", fig)
    assert top > 4 * height, "the test needs a figure more than two screens below the binding margin"
    return fig


def shown_as_cpython(page, fig) -> None:
    """The figure's drawing and readouts are what CPython computes for the state it carries (focus moved
    away first: Material marks a focused handle with a class of its own)."""
    page.evaluate("() => document.activeElement.blur()")
    figure_id, state, svg, readouts = page.evaluate("""(f) => [f.dataset.figure, JSON.parse(f.dataset.state),
        f.querySelector('.sq-figure__stage').innerHTML,
        Object.fromEntries([...f.querySelectorAll('[data-readout]')].map(e => [e.dataset.readout, e.textContent]))]""", fig)
    assert (svg, readouts) == expected(figure_id, state)


@pytest.fixture
def short_page(fresh, server):
    """Step 7 (four figures) in a window 400 px high, so that its last figure starts far below the fold."""
    page = fresh(viewport={"width": 1000, "height": 400})
    page.goto(server.url + "/step-7/")
    page.wait_for_selector("[data-figure][data-ready='true']", timeout=READY_MS)
    return page


def test_a_far_figure_is_bound_when_scrolled_to_and_answers_as_cpython(short_page):
    page = short_page
    fig = far_figure(page)
    first = page.evaluate("() => document.querySelector('[data-figure]').dataset.ready")
    assert first == "true" and page.evaluate("(f) => f.dataset.bound === undefined && !f.dataset.ready", fig)
    assert page.evaluate("(f) => [...f.querySelectorAll('input')].every(i => i.disabled)", fig)
    page.evaluate("(f) => f.scrollIntoView()", fig)
    page.wait_for_function("(f) => f.dataset.ready === 'true'", arg=fig, timeout=10_000)
    control = page.evaluate_handle("(f) => f.querySelector('input[type=range], [data-handle]')", fig)
    before = page.evaluate("(f) => f.dataset.state", fig)
    control.as_element().focus()
    page.keyboard.press("ArrowRight" if page.evaluate("(c) => c.type === 'range'", control) else "ArrowUp")
    page.wait_for_function("([f, before]) => f.dataset.state !== before", arg=[fig, before], timeout=10_000)
    shown_as_cpython(page, fig)
    assert page.uncaught == [] and page.console_errors == []


def test_tab_into_a_far_figure_finds_it_bound_and_operable_without_scrolling_first(short_page):
    page = short_page
    fig = far_figure(page)
    # The keyboard's focus lands just before the figure without the page scrolling (so no observer saw it).
    page.evaluate("""(f) => { const p = f.previousElementSibling || f.parentElement; p.tabIndex = -1;
                              p.focus({ preventScroll: true }); }""", fig)
    assert page.evaluate("(f) => f.dataset.ready === 'true'", fig), "focus next to the figure binds it"
    page.keyboard.press("Tab")
    info = page.evaluate("(f) => f.contains(document.activeElement) && [document.activeElement.type || '', "
                         "Boolean(document.activeElement.dataset.handle)]", fig)
    assert info, "Tab moves into the figure, to its first control"
    before = page.evaluate("(f) => f.dataset.state", fig)
    page.keyboard.press("ArrowRight" if info[0] == "range" else "ArrowUp")
    page.wait_for_function("([f, before]) => f.dataset.state !== before", arg=[fig, before], timeout=10_000)
    shown_as_cpython(page, fig)
    assert page.uncaught == [] and page.console_errors == []
