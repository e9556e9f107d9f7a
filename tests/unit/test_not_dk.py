"""And not d_k: the operating-point curves and the values figure against numpy, and what Steps 5 and 6 say of them.

The curves are checked twice: exactly, by numpy on the figure's own draws (the same rows, so the same
medians to rounding), and in distribution, against numpy's own draws of many more rows.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from pycore import operating, rows
from pycore.figures import nudge, operating_point, values
from pycore.params import ParamError
from tests.conftest import ROOT


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def numpy_medians(q_norm: np.ndarray, z: np.ndarray, dk: int, divisor: str) -> tuple[float, float]:
    """Median largest weight and median Σ|p′ − p| for rows of scores ‖q‖ z_j / c, the largest nudged as the figure does."""
    c = rows.divisor_value(dk, divisor)
    s = q_norm[:, None] * z / c
    p = softmax(s)
    nudged = s.copy()
    nudged[np.arange(len(s)), s.argmax(axis=1)] += operating.NUDGE * math.sqrt(dk) / c
    return float(np.median(p.max(axis=1))), float(np.median(np.abs(softmax(nudged) - p).sum(axis=1)))


@pytest.mark.parametrize("n", (16, 128))
def test_the_medians_are_numpys_on_the_same_rows(n):
    count, dks = 300, (1, 8, 64, 512)
    med = operating.medians(7, count, n, dks)
    d = rows.draws(7, n)
    z = np.array([list(d.z[r]) for r in range(count)])
    for dk in dks:
        q_norm = np.sqrt([d.q2[r][dk] for r in range(count)])
        for divisor in rows.DIVISORS:
            largest, moved = numpy_medians(q_norm, z, dk, divisor)
            assert med["max-weight"][divisor, dk] == pytest.approx(largest, rel=1e-12)
            assert med["moved"][divisor, dk] == pytest.approx(moved, rel=1e-6), "differences of near-equal weights"


@pytest.mark.parametrize(("n", "dk"), [(16, 4), (16, 64), (16, 512), (128, 64)])
def test_the_medians_agree_with_numpys_own_draws_within_sampling_error(n, dk):
    rng = np.random.default_rng(11)
    many = 20_000
    q_norm = np.linalg.norm(rng.standard_normal((many, dk)), axis=1)
    z = rng.standard_normal((many, n))
    med = operating.medians(1, 2000, n, (dk,))
    for divisor in rows.DIVISORS:
        largest, moved = numpy_medians(q_norm, z, dk, divisor)
        assert med["max-weight"][divisor, dk] == pytest.approx(largest, abs=0.03)
        assert abs(math.log10(med["moved"][divisor, dk] / moved)) < 0.15


def test_the_three_curves_do_what_step_6_says():
    med = operating.medians(1, 500, 16, rows.CHART_DKS)
    top, moved = med["max-weight"], med["moved"]
    none = [top["none", dk] for dk in rows.CHART_DKS]
    dk_curve = [top["dk", dk] for dk in rows.CHART_DKS]
    sqrt = [top["sqrt", dk] for dk in rows.CHART_DKS[4:]]
    assert none == sorted(none) and none[-1] > 0.99, "÷1 climbs toward a spike"
    assert dk_curve == sorted(dk_curve, reverse=True) and dk_curve[-1] - 1 / 16 < 0.01, "÷d_k sinks toward 1/n"
    assert max(sqrt) - min(sqrt) < 0.02, "÷√d_k stays put from d_k = 16 on"
    shrinking = [moved["dk", dk] for dk in rows.CHART_DKS]
    assert shrinking == sorted(shrinking, reverse=True) and shrinking[-1] * 50 < moved["sqrt", 512], "÷d_k: less and less"
    assert moved["none", 16] > 2 * moved["sqrt", 16], "÷1 first moves too much"
    assert moved["none", 512] * 100 < moved["sqrt", 512], "then nothing, once most rows are spikes"
    steady = [moved["sqrt", dk] for dk in rows.CHART_DKS[4:]]
    assert max(steady) - min(steady) < 0.02, "÷√d_k moves the same from d_k = 16 on"


def test_the_readouts_are_the_medians_at_the_readers_dk_and_the_default_shows_the_caption():
    state = operating_point.parse({"dk": "90", "n": "8"})
    assert state.dk == 90
    r = operating_point.readouts(state)
    med = operating.medians(state.seed, state.rows, 8, (90,))
    assert r["dk"] == "90" and r["one-over-n"] == "0.125"
    for divisor in rows.DIVISORS:
        assert float(r[f"max-weight-{divisor}"]) == pytest.approx(med["max-weight"][divisor, 90], rel=2e-3)
    default = operating_point.readouts(operating_point.parse({}))
    assert float(default["max-weight-none"]) > 0.9 > 0.2 > float(default["max-weight-dk"])
    assert float(default["moved-sqrt"]) > float(default["moved-none"]) > 5 * float(default["moved-dk"])
    assert "n = 16 keys" in operating_point.caption(operating_point.parse({}))


def test_the_drawing_names_every_curve_and_says_where_a_curve_left_the_axis():
    svg = operating_point.render(operating_point.parse({}))
    assert svg.count("<svg") == 2 and "1/n: even" in svg and "below 0.0001" not in svg
    assert "Median largest weight at d_k = 1 to 512" in svg and "when the row's largest score is nudged up by 0.5" in svg
    far = operating_point.render(operating_point.parse({"n": "2"}))
    assert "none below 0.0001 from dₖ = 128" in far, "a median under the axis is drawn on its edge and said so"


def test_values_output_is_the_weighted_average_and_an_even_row_hands_on_the_plain_one():
    for params in ({}, {"stretch": "0.125"}, {"stretch": "8", "scores": "1,0,-1", "values": "2,-1,0.5"}):
        state = values.parse(params)
        p = softmax(state.stretch * np.array(state.scores))
        r = values.readouts(state)
        assert values.output(state) == pytest.approx(float(p @ np.array(state.values)), rel=1e-12)
        assert float(r["average"]) == pytest.approx(np.mean(state.values), rel=1e-3)
        assert float(r["largest-weight"]) == pytest.approx(p.max(), rel=1e-3)
    even = values.parse({"stretch": "0.125"})
    picks = values.parse({"stretch": "8"})
    assert abs(values.output(even) - values.average(even)) < 0.05
    assert values.output(picks) == pytest.approx(even.values[int(np.argmax(even.scores))], abs=0.02)
    moved = [values.output(values.update(even, {"type": "key", "handle": f"s{i}", "key": "ArrowUp", "shift": True}))
             for i in range(5)]
    assert max(abs(m - values.output(even)) for m in moved) < 0.05, "at 1/8 the output barely moves with a score"


def test_values_reads_its_parameters_with_messages():
    with pytest.raises(ParamError, match="values must give one number per score: 5 scores, got 3 values"):
        values.parse({"values": "1,2,3"})
    with pytest.raises(ParamError, match="stretch must be a number from 0.03125 to 16"):
        values.parse({"stretch": "20"})


def test_step_5s_numbers_are_what_they_say():
    text = (ROOT / "site_src" / "step-5.md").read_text(encoding="utf-8")
    assert "about 2.718" in text and round(math.e, 3) == 2.718
    assert "a score three above another gets 20 times" in " ".join(text.split()) and round(math.exp(3)) == 20
    close = nudge.parse({"scores": "0.1,-0.05,0.15,0,-0.1", "delta": "0.1"})
    at_one = nudge.weight_change(nudge.State(**{**close.__dict__, "stretch": 1.0}))
    assert "about ten times as much as at stretch 1" in text
    assert 8 < nudge.weight_change(close) / at_one < 13 and max(nudge.weights(close)[0]) < 0.5


def test_the_nudge_panels_readouts_are_numpys_medians_within_the_figures_sampling_error():
    """Full vectors, numpy's own draws: each row's largest score nudged by NUDGE in unit size, as the caption says.
    The figure's 500 rows may lie off numpy's 40,000-row median by the spread of a 500-row median (4 of them)."""
    state = operating_point.parse({})
    rng = np.random.default_rng(5)
    q = rng.standard_normal((40_000, state.dk))
    raw = np.concatenate([np.einsum("rd,rnd->rn", q[i:i + 2000], rng.standard_normal((2000, state.n, state.dk)))
                          for i in range(0, len(q), 2000)])
    nudged = raw.copy()
    nudged[np.arange(len(raw)), raw.argmax(axis=1)] += operating.NUDGE * math.sqrt(state.dk)
    readouts = operating_point.readouts(state)
    for divisor in rows.DIVISORS:
        c = rows.divisor_value(state.dk, divisor)
        moved = np.abs(softmax(nudged / c) - softmax(raw / c)).sum(axis=1)
        spread = np.std([np.median(rng.choice(moved, state.rows)) for _ in range(400)])
        assert abs(float(readouts[f"moved-{divisor}"]) - np.median(moved)) < 4 * spread


def test_a_small_nudge_says_what_step_6s_aside_says():
    """The gradient of the same nudge, 2 p_max (1 − p_max) √d_k / c per unit nudged: the unscaled median is about 3
    times ÷√d_k's at d_k = 64, and falls below it between d_k = 128 and 256 (numpy, 20,000 full-vector rows each)."""
    text = " ".join((ROOT / "site_src" / "step-6.md").read_text(encoding="utf-8").split())
    assert "rows' median is about 3 times \\(\\div\\sqrt{d_k}\\)'s at \\(d_k = 64\\)" in text
    assert "falls below it only from \\(d_k\\) between 128 and 256" in text
    rng = np.random.default_rng(16)

    def ratio(dk):
        q = rng.standard_normal((20_000, dk))
        raw = np.concatenate([np.einsum("rd,rnd->rn", q[i:i + 2000], rng.standard_normal((2000, 16, dk)))
                              for i in range(0, len(q), 2000)])
        gain = []
        for c in (1.0, math.sqrt(dk)):
            top = softmax(raw / c).max(axis=1)
            gain.append(np.median(2 * top * (1 - top) * math.sqrt(dk) / c))
        return gain[0] / gain[1]

    assert round(ratio(64)) == 3 and ratio(128) > 1 > ratio(256)


def test_the_unscaled_rows_move_most_at_dk_8_as_the_caption_and_the_prose_say():
    """Step 6's caption says the right panel's "none" line (unscaled) is highest at d_k = 8, and its prose gives the
    ratio there: the figure's own curves peak at 8 of all its d_k, and so do the medians of 20,000 rows that numpy
    draws itself (at 4, 8 and 16 about 0.45, 0.58 and 0.50: the peak is far wider than the rows' sampling error)."""
    for name, said in (("step-6.md", 'at 8 the right panel\'s "none" line is at its highest'),
                       ("step-6.zh.md", "设为 8 时，右图中不除的那条线最高")):
        text = " ".join((ROOT / "site_src" / name).read_text(encoding="utf-8").split())
        assert said in text and 'data-claim="figure.operating-point.moved.none-over-sqrt.8"' in text, name
    moved = operating_point.curves(operating_point.State())["moved"]
    assert max(rows.CHART_DKS, key=lambda dk: moved["none", dk]) == 8
    assert max(rows.CHART_DKS, key=lambda dk: moved["none", dk] / moved["sqrt", dk]) == 8
    rng = np.random.default_rng(8)
    at = {dk: numpy_medians(np.linalg.norm(rng.standard_normal((20_000, dk)), axis=1),
                            rng.standard_normal((20_000, 16)), dk, "none")[1] for dk in (4, 8, 16)}
    assert at[8] > at[4] + 0.05 and at[8] > at[16] + 0.03, at
