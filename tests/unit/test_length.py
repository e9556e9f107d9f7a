"""The long-rows figure: readouts and curves against numpy on the core's own draws, the log slider, messages."""

import json
import math
import re

import numpy as np
import pytest

from pycore import bridge, long_rows, rows
from pycore.controls import Range
from pycore.detmath import exp, exps
from pycore.figures import _chart, control_values, length
from pycore.params import ParamError
from pycore.svg import fmt, sig


def numpy_rows(state) -> tuple[np.ndarray, np.ndarray]:
    """Largest weight and entropy / ln n of every row, redone in numpy from the core's ‖q‖ and z."""
    b = rows.draws(state.seed, long_rows.MAX_N, gaps=False)
    b.ensure(state.rows)
    scale = (state.s * np.log(state.n) if state.scaling == "log-n" else 1.0) / np.sqrt(state.dk)
    largest, ratio = [], []
    for r in range(state.rows):
        scores = math.sqrt(b.q2[r][state.dk]) * np.array(b.z[r][:state.n]) * scale
        p = np.exp(scores - scores.max())
        p /= p.sum()
        largest.append(p.max())
        ratio.append(-np.sum(p[p > 0] * np.log(p[p > 0])) / np.log(state.n))
    return np.array(largest), np.array(ratio)


STATES = [length.State(), length.State(n=16, dk=64, scaling="log-n", rows=150, seed=3),
          length.State(n=4096, dk=8, scaling="log-n", s=2.0, rows=50, seed=2),
          length.State(n=2, dk=1, scaling="sqrt", rows=300, seed=7),
          length.State(n=300, dk=512, scaling="log-n", s=0.05, rows=100, seed=4)]


@pytest.mark.parametrize("state", STATES, ids=lambda s: f"n{s.n}-dk{s.dk}-{s.scaling}-s{s.s:.2f}")
def test_readouts_are_numpys_on_the_cores_own_draws(state):
    largest, ratio = numpy_rows(state)
    ours, our_ratio = length.result(state)
    np.testing.assert_allclose(ours, largest, rtol=1e-12)
    np.testing.assert_allclose(our_ratio, ratio, rtol=1e-10, atol=1e-13)
    out = length.readouts(state)
    assert float(out["median-max-weight"]) == pytest.approx(np.median(largest), rel=5e-4)
    assert float(out["entropy-ratio"]) == pytest.approx(np.median(ratio), rel=5e-4)
    assert float(out["saturated"]) == pytest.approx(np.mean(largest > 0.99), abs=5e-4)


def test_a_state_that_saturates_reads_so():
    state = length.State(n=4096, dk=1, scaling="log-n", s=2.0, rows=100, seed=1)
    largest, _ = numpy_rows(state)
    share = float(length.readouts(state)["saturated"])
    assert share == pytest.approx(np.mean(largest > 0.99), abs=5e-4) and share > 0.1


@pytest.mark.parametrize("dk,s", [(64, long_rows.DEFAULT_S), (3, 1.3)])
def test_curves_are_numpys_medians_at_every_n(dk, s):
    state = length.State(dk=dk, s=s, rows=60, seed=5)
    curves = length.curve_medians(state)
    for scaling in long_rows.SCALINGS:
        want = [np.median(numpy_rows(length.State(n=n, dk=dk, scaling=scaling, s=s, rows=60, seed=5))[0])
                for n in long_rows.CHART_NS]
        np.testing.assert_allclose(curves[scaling], want, rtol=1e-12)


def test_at_n_16_the_default_s_gives_the_same_scores_as_sqrt():
    curves = length.curve_medians(length.State(rows=80))
    i = long_rows.CHART_NS.index(16)
    assert curves["sqrt"][i] == pytest.approx(curves["log-n"][i], rel=1e-12)
    assert long_rows.DEFAULT_S == pytest.approx(1 / math.log(16), rel=1e-15)


def test_batch_exp_is_exp_within_a_few_ulps():
    xs = [0.0, -1e-300, -0.5, -1 / 64, -7.3, -44.0, -300.0, -744.9, -746.0, -1e9, 2.5]
    xs += [float(x) for x in np.random.default_rng(0).uniform(-60, 0, 5000)]
    got = exps(xs)
    assert got[0] == 1.0 and got[10] == exp(2.5) and got[8] == got[9] == 0.0
    for x, y in zip(xs, got):
        if x > -708:
            assert y == pytest.approx(math.exp(x), rel=4 * 2.0**-52)
        else:
            assert abs(y - math.exp(x)) <= 5e-324 * 4 + 1e-16 * math.exp(x)


def test_prepare_works_in_slices_and_shows_the_rows_ready():
    state = length.State(n=2048, dk=33, rows=100, seed=11)
    partial = length.prepare(state, 0.0)
    assert partial is not None
    shown, progress = partial
    assert 1 <= shown.rows < 100 and progress == f"drawing row {shown.rows} of 100"
    answer = json.loads(bridge.handle(json.dumps({"op": "render", "figure": "length", "slice_ms": 1,
                                                  "params": {"n": "2048", "dk": "33", "rows": "100", "seed": "11"}})))
    assert answer["busy"] and answer["progress"].startswith("drawing row ") and answer["drawn"]["rows"] < 100
    while length.prepare(state, None) is not None:
        pass
    assert length.readouts(state) == length.readouts(length.parse({"n": "2048", "dk": "33", "rows": "100",
                                                                   "seed": "11"}))


def test_the_n_slider_is_a_log_slider_declared_with_its_parameter():
    (n_control,) = [c for c in length.CONTROLS if getattr(c, "name", "") == "n" and c.kind == "range"]
    assert isinstance(n_control, Range) and n_control.scale == "log"
    stops = n_control.stops
    assert stops[0] == 2 and stops[-1] == 4096 and list(stops) == sorted(set(stops))
    ratios = [b / a for a, b in zip(stops, stops[1:]) if a >= 128]
    assert 1.085 < min(ratios) and max(ratios) < 1.096  # 2^(1/8) apart, once whole numbers allow it  # even steps in log scale once whole numbers allow it
    assert n_control.value_at(str(len(stops) + 5)) == "4096" and n_control.value_at("-3") == "2"
    assert stops[n_control.position_of(1000)] in (955, 1024) and n_control.position_of(4096) == len(stops) - 1
    values = control_values(length, length.State(n=64))
    assert values["n"] == "64" and stops[int(values["n@position"])] == 64


def test_a_log_slider_position_sets_the_value_through_the_bridge():
    state = length.State(n=16, rows=50)
    (n_control,) = [c for c in length.CONTROLS if getattr(c, "name", "") == "n" and c.kind == "range"]
    top = len(n_control.stops) - 1
    answer = json.loads(bridge.handle(json.dumps({"op": "update", "figure": "length", "slice_ms": 1,
                                                  "state": {**bridge.figures.state_json(state)},
                                                  "event": {"type": "set", "field": "n", "position": str(top)}})))
    assert answer["state"]["n"] == 4096 and answer["values"]["n@position"] == str(top)
    typed = json.loads(bridge.handle(json.dumps({"op": "update", "figure": "length", "state":
                                                 bridge.figures.state_json(state),
                                                 "event": {"type": "set", "field": "n", "value": "100"}})))
    assert typed["state"]["n"] == 100


@pytest.mark.parametrize("params,message", [
    ({"n": "1"}, "n must be a whole number from 2 to 4096"),
    ({"n": "5000"}, "n must be a whole number from 2 to 4096"),
    ({"dk": "513"}, "dk must be a whole number from 1 to 512"),
    ({"scaling": "log"}, "scaling must be one of sqrt, log-n"),
    ({"s": "0.01"}, "s must be a number from 0.05 to 2"),
    ({"rows": "10"}, "rows must be a whole number from 50 to 1000"),
    ({"seed": "x"}, "seed must be a whole number"),
])
def test_bad_parameters_get_a_message(params, message):
    with pytest.raises(ParamError, match=message):
        length.parse(params)


def test_resample_moves_the_seed_and_the_drawing_says_what_it_shows():
    s = length.State()
    assert length.update(s, {"type": "resample"}).seed != s.seed
    assert (s.n, s.dk, s.scaling, s.rows) == (1024, 64, "sqrt", 200)
    svg = length.render(s)
    assert svg.count("<svg") == 2 and "1/n = 0.00098" in svg and "Median largest weight, dₖ = 64" in svg


def _labels(svg: str) -> dict[str, tuple[float, float, float]]:
    """The histogram's two line labels: (left, right, baseline) of each, its width estimated from its characters."""
    found = {}
    for m in re.finditer(r'<text x="([\d.]+)" y="([\d.]+)" class="(sq-tick|sq-value)"(?: text-anchor="(\w+)")?>'
                         r'((?:1/n = |&gt; 0\.99: )[^<]*)</text>', svg):
        x, y, cls, anchor, words = float(m[1]), float(m[2]), m[3], m[4], m[5].replace("&gt;", ">")
        width = len(words) * (length.TICK_CHAR if cls == "sq-tick" else 8.0)
        left = x - width if anchor == "end" else x
        found["even" if words.startswith("1/n") else "saturated"] = (left, left + width, y)
    return found


@pytest.mark.parametrize("n", [2, 3, 8, 16, 64, 128, 300, 480, 512, 1024, 4096])
def test_the_line_labels_never_meet_each_other_a_bar_or_the_other_line(n):
    """Both labels sit above the plotting box on rows of their own, inside the panel, and the 1/n label keeps off the
    0.99 line (issue: "1/n = 0.5" and "> 0.99: 0.6 %" overlapped at small n)."""
    state = length.State(n=n, rows=50)
    svg = length.render(state).split("</svg>")[0]
    labels = _labels(svg)
    (even_l, even_r, even_y), (sat_l, sat_r, sat_y) = labels["even"], labels["saturated"]
    assert sat_y < even_y < length.PLOT_TOP - 4 and sat_y - 11 > 20  # below the title, above the bars
    assert 0 <= even_l and even_r <= _chart.W and 0 <= sat_l and sat_r <= _chart.W
    x_sat = 46 + (288 - 46) * (math.log10(0.99) + 4) / 4
    x_even = 46 + (288 - 46) * (math.log10(1 / n) + 4) / 4
    assert not even_l <= x_sat <= even_r and not even_l <= x_even <= even_r


@pytest.mark.parametrize("state", STATES)
def test_the_live_caption_says_what_the_readouts_say(state):
    """The caption's live line names the drawn rows and repeats the readouts, in every state."""
    live, r = length.caption(state), length.readouts(state)
    rule = "with ÷√dₖ" if state.scaling == "sqrt" else f"with ÷√dₖ × s·ln n (s = {sig(state.s, 3)})"
    assert live.startswith(f"{state.rows} rows of n = {state.n} keys each at dₖ = {state.dk}, {rule}: ")
    assert f"the median largest weight is {r['median-max-weight']}, " in live
    assert f"{sig(state.n * float(r['median-max-weight']), 2)} times 1/n" in live
    assert f"{fmt(100 * float(r['saturated']), 1)}% of rows are above 0.99" in live


def test_the_bridge_answers_with_the_live_caption_of_the_state_drawn():
    """A change answers with the new state's caption; a busy answer's caption is the drawn (smaller) state's."""
    start = json.loads(bridge.handle(json.dumps({"op": "render", "figure": "length", "params": {"n": "16"}})))
    assert start["caption"] == length.caption(length.State(n=16))
    event = {"type": "set", "field": "scaling", "value": "log-n"}
    a = json.loads(bridge.handle(json.dumps({"op": "update", "figure": "length", "state": start["state"],
                                             "event": event})))
    assert a["caption"] == length.caption(length.State(n=16, scaling="log-n")) and "s·ln n (s = 0.361)" in a["caption"]
    busy = bridge.answer(length, length.State(n=4000, dk=35, rows=300, seed=78), slice_ms=1)
    drawn = length.State(**busy["drawn"])
    assert busy["busy"] and drawn.rows < 300 and busy["caption"] == length.caption(drawn)
