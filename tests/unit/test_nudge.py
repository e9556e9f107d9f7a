"""nudge: readouts against numpy, the keys and drags of its pure update(), parsing, and what its default shows."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from pycore import rows
from pycore.figures import nudge
from pycore.params import ParamError


def numpy_readouts(scores, stretch, delta, target):
    s = np.array(scores, dtype=float)
    nudged = s.copy()
    nudged[target - 1] += delta

    def softmax(x):
        e = np.exp(x - x.max())
        return e / e.sum()

    p, p_after = softmax(stretch * s), softmax(stretch * nudged)
    return p.max(), np.abs(p_after - p).sum()


STATES = [
    {},
    {"stretch": "1"},
    {"stretch": "16", "delta": "1", "target": "1"},
    {"scores": "1,0,-1", "stretch": "2.5", "delta": "0.01", "target": "2"},
    {"scores": "-3,3,3,-3,0,0.5,1,2", "stretch": "4", "delta": "0.3", "target": "8"},
    {"scores": "0,0", "stretch": "1", "delta": "0.5", "target": "2"},
]


@pytest.mark.parametrize("params", STATES)
def test_readouts_match_numpy(params):
    state = nudge.parse(params)
    largest, change = numpy_readouts(state.scores, state.stretch, state.delta, state.target)
    assert nudge.weight_change(state) == pytest.approx(change, rel=1e-9, abs=1e-15)
    assert max(nudge.weights(state)[0]) == pytest.approx(largest, rel=1e-12)
    r = nudge.readouts(state)
    assert set(r) == {"largest-weight", "weight-change"}
    assert float(r["largest-weight"]) == pytest.approx(largest, rel=1e-3)
    assert float(r["weight-change"]) == pytest.approx(change, rel=1e-3)


def test_default_shows_a_spike_that_barely_moves():
    spike, gentle = nudge.State(), nudge.State(stretch=1.0)
    assert spike.stretch == 8
    assert max(nudge.weights(spike)[0]) > 0.99 > 0.6 > max(nudge.weights(gentle)[0])
    # The stretched scores are nudged 8 times as far, and still their weights move over 30 times less.
    assert nudge.weight_change(gentle) > 30 * nudge.weight_change(spike)
    assert nudge.weight_change(spike) < 0.01 < 0.2 < nudge.weight_change(gentle)


def key(state, name, handle="t2", shift=False):
    return nudge.update(state, {"type": "key", "handle": handle, "key": name, "shift": shift})


def test_up_and_down_arrows_move_delta_left_and_right_move_stretch_a_stop_along_its_log_slider():
    s = nudge.State()
    assert key(s, "ArrowUp").delta == pytest.approx(0.55) and key(s, "ArrowUp").stretch == s.stretch
    assert key(s, "ArrowDown").delta == pytest.approx(0.45)
    assert key(s, "ArrowUp", shift=True).delta == pytest.approx(0.7)
    assert key(s, "ArrowRight").stretch == pytest.approx(8 * 2 ** (1 / 8), rel=1e-3)
    assert key(s, "ArrowRight").delta == s.delta
    assert key(s, "ArrowLeft").stretch == pytest.approx(8 / 2 ** (1 / 8), rel=1e-3)
    assert key(s, "ArrowLeft", shift=True).stretch == 4 and key(key(s, "ArrowLeft", shift=True), "ArrowLeft",
                                                                    shift=True).stretch == 2


def test_the_stretch_slider_runs_from_a_thirty_second_to_sixteen_with_marks_at_the_three_divisors():
    slider = nudge.STRETCH_SLIDER
    assert slider.scale == "log" and slider.stops[0] == 1 / 32 and slider.stops[-1] == 16
    assert {0.125, 1.0, 8.0} <= set(slider.stops) and slider.marks == (0.125, 1.0, 8.0)
    for mark, divisor in zip(slider.marks, ("dk", "sqrt", "none")):
        assert mark == pytest.approx(math.sqrt(64) / rows.divisor_value(64, divisor))
    assert [slider.stops[int(t)] for t in slider.ticks] == [0.125, 1.0, 8.0]
    ratios = np.array(slider.stops[1:]) / np.array(slider.stops[:-1])
    assert np.allclose(ratios, 2 ** (1 / 8), rtol=2e-3), "evenly spaced in log scale"


def test_keys_stop_at_the_ranges_and_keep_two_decimals():
    low = nudge.State(delta=0.01, stretch=1 / 32)
    assert key(low, "ArrowDown").delta == 0.01 and key(low, "ArrowLeft").stretch == 1 / 32
    high = nudge.State(delta=1.0, stretch=16.0)
    assert key(high, "ArrowUp").delta == 1 and key(high, "ArrowRight", shift=True).stretch == 16
    s = nudge.State(delta=0.01)
    for _ in range(7):
        s = key(s, "ArrowUp")
    assert s.delta == 0.36


def test_below_one_the_weights_start_nearly_even_and_the_nudge_moves_them_less_than_at_one():
    for stretch, factor in ((0.125, 8), (1 / 32, 30)):
        shrunk = nudge.State(stretch=stretch)
        largest, change = numpy_readouts(shrunk.scores, stretch, shrunk.delta, shrunk.target)
        _, at_one = numpy_readouts(shrunk.scores, 1.0, shrunk.delta, shrunk.target)
        assert nudge.weight_change(shrunk) == pytest.approx(change, rel=1e-9)
        assert abs(largest - 1 / len(shrunk.scores)) < 0.05 and change * factor < at_one


def test_a_key_on_a_handle_makes_its_score_the_target():
    s = key(nudge.State(), "ArrowUp", handle="t0")
    assert s.target == 1
    assert key(nudge.State(), "Home") == nudge.State()
    assert key(nudge.State(), "ArrowUp", handle="t9") == nudge.State()


def test_dragging_a_handle_nudges_that_score_to_the_drop():
    s = nudge.State()
    y = nudge.SCORES.y(s.scores[0] + 0.3)
    moved = nudge.update(s, {"type": "drag", "handle": "t0", "x": 0, "y": y})
    assert moved.target == 1 and moved.delta == pytest.approx(0.3) and moved.scores == s.scores
    below = nudge.update(s, {"type": "drag", "handle": "t0", "x": 0, "y": nudge.SCORES.y(-3)})
    assert below.delta == 0.01


@pytest.mark.parametrize(("params", "message"), [
    ({"stretch": "0.01"}, "stretch must be a number from 0.03125 to 16"),
    ({"delta": "0"}, "delta must be a number from 0.01 to 1"),
    ({"target": "6"}, "target must be a whole number from 1 to 5"),
    ({"scores": "1,2", "target": "3"}, "target must be a whole number from 1 to 2"),
    ({"c": "8"}, "unknown parameter 'c'"),
])
def test_bad_params_name_what_is_allowed(params, message):
    with pytest.raises(ParamError, match=re.escape(message)):
        nudge.parse(params)


def test_drawing_uses_beginner_words_and_names_the_keys():
    svg = nudge.render(nudge.State())
    assert "up and down arrows change the nudge, right and left arrows the stretch" in svg
    assert svg.count('data-handle="t') == 5
    for word in ("Jacobian", "entropy", "‖J‖", "gradient", "nats"):
        assert word not in svg
    labels = " ".join(label for _, label in nudge.READOUTS)
    assert "weight" in labels and "Jacobian" not in labels
