"""Train it yourself in the browser: the same losses as CPython bit for bit, a run in slices, Pause, Reset run."""

from __future__ import annotations

from pycore import train
from tests.browser.conftest import READY_MS, expected, shows

FIG = "[data-figure='train']"


def test_a_short_run_is_bit_identical_to_cpython(watched):
    page = watched.open("/train/")
    for divisor in train.DIVISORS:
        got = page.evaluate("(r) => window.sqrtDk.request(r)", {
            "op": "train-losses", "dk": 64, "divisor": divisor, "optimizer": "adam", "lr": train.LR["adam"],
            "seed": 3, "steps": 20})["losses"]
        run = train.Trainer(64, divisor, "adam", train.LR["adam"], 3)
        run.ensure(20)
        assert got == run.losses, divisor


def test_reset_run_then_run_trains_live_and_ends_on_the_built_numbers(watched):
    page = watched.open("/train/")
    built = watched.readouts(FIG)
    assert built["step"] == str(train.STEPS)
    page.locator(f"{FIG} button[data-event='reset']").click()
    page.wait_for_function("(s) => JSON.parse(document.querySelector(s).dataset.state).step === 0", arg=FIG)
    assert watched.readouts(FIG)["step"] == "0"
    caption = page.locator(f"{FIG} [data-caption]")
    assert caption.text_content().endswith("step 0 of 200.") and "(÷√dₖ's own best at dₖ = 64)" in caption.text_content()
    page.locator(f"{FIG} button[data-event='run']").click()
    page.locator(f"{FIG} [data-status]").filter(has_text="training: step").wait_for(timeout=10_000)
    watched.settle(FIG)
    assert watched.state(FIG)["step"] == train.STEPS and watched.readouts(FIG) == built
    assert caption.text_content().endswith("step 200 of 200.")
    assert watched.errors == []


def test_pause_stops_a_run_within_a_slice_and_run_goes_on_from_there(watched):
    page = watched.open("/train/")
    page.locator(f"{FIG} input[data-field='dk']").fill("128")  # a wider layer: the run takes several seconds
    page.wait_for_function("(s) => document.querySelector(s).dataset.busy === 'true'", arg=FIG, timeout=10_000)
    page.locator(f"{FIG} button[data-event='pause']").click()
    watched.settle(FIG)
    paused = watched.state(FIG)
    assert paused["dk"] == 128 and 0 < paused["step"] < train.STEPS
    svg, readouts = expected("train", paused)
    assert shows(watched.readouts(FIG), readouts) and watched.svg(FIG) == svg
    page.locator(f"{FIG} button[data-event='run']").click()
    page.wait_for_function("(s) => JSON.parse(document.querySelector(s).dataset.state).step === 200 && "
                           "!document.querySelector(s).dataset.busy", arg=FIG, timeout=120_000)
    done = watched.state(FIG)
    assert watched.readouts(FIG) == expected("train", done)[1]
    assert watched.errors == []


def test_bad_parameters_get_the_usual_message(watched):
    page = watched.page
    page.goto(watched.server.url + "/embed/train/?lr=fast")
    page.wait_for_selector("[data-figure][data-ready='true']", timeout=READY_MS)
    assert "lr must be auto or a number from 0.0001 to 10, got 'fast'" in page.locator("[data-status]").text_content()
