"""The many-row figures in the browser: every control moved, every readout and drawing compared with CPython."""

from __future__ import annotations

import numpy as np

from pycore import rows
from tests.browser.test_softmax_pages import act


def test_saturation_every_control(watched):
    watched.open("/step-5/")
    fig, fid = "#fig-saturation-2", "saturation"  # the aside's copy, with every readout
    watched.reveal(fig)
    state, r = act(watched, fig, fid, lambda f: f.locator("input[data-field='dk']").fill("256"))
    assert state["dk"] == 256 and float(r["saturated"]) > 0.45
    state, r = act(watched, fig, fid, lambda f: f.locator("input[data-field='divisor'][value='sqrt']").check())
    assert state["divisor"] == "sqrt" and float(r["saturated"]) == 0
    state, r = act(watched, fig, fid, lambda f: f.locator("input[data-field='divisor'][value='dk']").check())
    assert abs(float(r["median-grad-q"]) - np.median(rows.compute(1, 500, 16, 256, "dk").grad_q)) < 1e-3 * 0.02
    state, r = act(watched, fig, fid, lambda f: f.locator("input[data-field='n']").fill("40"))
    assert state["n"] == 40
    state, r = act(watched, fig, fid, lambda f: f.locator("input[data-field='rows']").fill("150"))
    assert state["rows"] == 150
    seed = watched.page.locator(f"{fig} input[data-field='seed']")
    state, r = act(watched, fig, fid, lambda f: (seed.fill("42"), seed.press("Enter")))
    assert state["seed"] == 42
    state, r = act(watched, fig, fid, lambda f: f.locator("button[data-event='resample']").click())
    assert state["seed"] != 42
    assert watched.errors == []


def test_saturation_bad_seed_gets_a_message_and_keeps_the_figure(watched):
    page = watched.open("/step-5/")
    fig = "#fig-saturation"
    watched.reveal(fig)
    watched.settle(fig)
    before = watched.state(fig)
    seed = page.locator(f"{fig} input[data-field='seed']")
    seed.fill("-3")
    seed.press("Enter")
    page.locator(f"{fig} [data-status]").filter(has_text="seed must be a whole number").wait_for(timeout=10_000)
    watched.settle(fig)
    assert watched.state(fig) == before
    assert "seed must be a whole number" in page.locator(f"{fig} [data-status]").text_content()


def test_correlated_every_control(watched):
    watched.open("/assumptions/")
    fig, fid = "[data-figure='correlated']", "correlated"
    state, r = act(watched, fig, fid, lambda f: f.locator("input[data-field='rho']").fill("0"))
    assert state["rho"] == 0 and float(r["saturated"]) == 0 and r["theory-mean"] == "0"
    state, r = act(watched, fig, fid, lambda f: f.locator("input[data-field='rho']").fill("0.9"))
    state, r = act(watched, fig, fid, lambda f: f.locator("input[data-field='divisor'][value='dk']").check())
    assert state["divisor"] == "dk" and r["theory-mean"] == "0.9"
    state, r = act(watched, fig, fid, lambda f: f.locator("input[data-field='dk']").fill("32"))
    state, r = act(watched, fig, fid, lambda f: f.locator("input[data-field='n']").fill("100"))
    assert (state["dk"], state["n"]) == (32, 100)
    state, r = act(watched, fig, fid, lambda f: f.locator("button[data-event='resample']").click())
    assert state["seed"] != 1
    assert watched.errors == []
