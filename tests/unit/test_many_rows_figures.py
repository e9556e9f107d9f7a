"""The saturation, correlated and summary figures: readouts against numpy, verdicts from numbers, messages."""

import json
import math

import numpy as np
import pytest

from pycore import bridge, rows
from pycore.figures import correlated, saturation, summary_pipeline
from pycore.params import ParamError


def test_saturation_readouts_are_numpys_on_the_same_rows():
    s = saturation.State(dk=32, n=12, divisor="none", rows=300, seed=9)
    r = rows.compute(9, 300, 12, 32, "none")
    out = saturation.readouts(s)
    assert float(out["saturated"]) == pytest.approx(np.mean(np.array(r.max_weight) > 0.99), abs=5e-4)
    assert float(out["median-max-weight"]) == pytest.approx(np.median(r.max_weight), rel=5e-4)
    assert float(out["median-jacobian"]) == pytest.approx(np.median(r.jacobian), rel=5e-4)
    assert float(out["median-grad-q"]) == pytest.approx(np.median(r.grad_q), rel=5e-4)


def test_saturation_default_shows_what_its_caption_says():
    s = saturation.State()
    assert (s.dk, s.n, s.divisor, s.rows) == (64, 16, "none", 500)
    svg = saturation.render(s)
    share = float(saturation.readouts(s)["saturated"])
    assert 0.2 < share < 0.4 and f"&gt; 0.99: {100 * share:.1f}%" in svg
    assert svg.count("<svg") == 3


@pytest.mark.parametrize("params,message", [
    ({"dk": "0"}, "dk must be a whole number from 1 to 512"),
    ({"n": "1"}, "n must be a whole number from 2 to 512"),
    ({"divisor": "half"}, "divisor must be one of none, sqrt, dk"),
    ({"rows": "10"}, "rows must be a whole number from 50 to 2000"),
    ({"seed": "x"}, "seed must be a whole number"),
    ({"dkk": "3"}, "unknown parameter 'dkk'"),
])
def test_saturation_bad_parameters_get_a_message(params, message):
    with pytest.raises(ParamError, match=message):
        saturation.parse(params)


def test_saturation_resample_moves_the_seed():
    s = saturation.State()
    assert saturation.update(s, {"type": "resample"}).seed != s.seed


def test_correlated_matches_closed_forms_and_a_full_vector_simulation():
    s = correlated.State(rho=0.6, dk=48, divisor="sqrt", n=10, seed=4)
    out = correlated.readouts(s)
    c = math.sqrt(48)
    mean, sd = 0.6 * 48 / c, math.sqrt(48 * (1 + 0.36)) / c
    assert float(out["theory-mean"]) == pytest.approx(mean, rel=1e-3)
    assert float(out["theory-std"]) == pytest.approx(sd, rel=1e-3)
    se = sd / math.sqrt(correlated.PAIRS)
    assert abs(float(out["mean-score"]) - mean) < 4 * se
    assert float(out["std-score"]) == pytest.approx(sd, rel=0.05)
    rng = np.random.default_rng(0)
    k, z = rng.standard_normal((20000, 48)), rng.standard_normal((20000, 48))
    q = 0.6 * k + 0.8 * z
    others = np.einsum("rd,rdj->rj", q, rng.standard_normal((20000, 48, 9)))
    scores = np.column_stack([(q * k).sum(1), others]) / c
    p = np.exp(scores - scores.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    share = np.mean(p.max(1) > 0.99)
    assert abs(float(out["saturated"]) - share) < 4 * math.sqrt(share * (1 - share) / correlated.PAIRS) + 1e-3


def test_correlated_readouts_are_computed_from_its_draws():
    s = correlated.State()
    d = correlated.result(s)
    values = np.array(d.aligned) / math.sqrt(s.dk)
    out = correlated.readouts(s)
    assert float(out["mean-score"]) == pytest.approx(values.mean(), rel=5e-4)
    assert float(out["std-score"]) == pytest.approx(values.std(ddof=1), rel=5e-4)
    assert float(out["saturated"]) == pytest.approx(np.mean(d.saturated), abs=5e-4)


@pytest.mark.parametrize("params,message", [({"rho": "1.5"}, "rho must be a number from 0 to 1"),
                                            ({"n": "1"}, "n must be a whole number from 2 to 512")])
def test_correlated_bad_parameters_get_a_message(params, message):
    with pytest.raises(ParamError, match=message):
        correlated.parse(params)


@pytest.mark.parametrize("share,words", [(0.0, "no row saturates"), (0.386, "39% of rows saturate"),
                                         (0.004, "0.4% of rows saturate")])
def test_summary_verdict_is_read_off_the_share(share, words):
    assert summary_pipeline.verdict(share) == words


def test_summary_removing_the_scaling_visibly_saturates_at_the_default_dk():
    on, off = summary_pipeline.State(), summary_pipeline.State(scaling="off")
    r_on, r_off = summary_pipeline.readouts(on), summary_pipeline.readouts(off)
    assert float(r_on["saturated"]) == 0 and float(r_off["saturated"]) > 0.25
    assert summary_pipeline.verdict(float(r_off["saturated"])) in summary_pipeline.render(off)
    assert "no row saturates" in summary_pipeline.render(on)
    many = rows.compute(1, summary_pipeline.ROWS, summary_pipeline.WORDS, 64, "none")
    assert float(r_off["max-weight"]) == pytest.approx(np.median(many.max_weight), rel=5e-4)
    assert float(r_off["gradient"]) == pytest.approx(np.median(many.jacobian), rel=5e-4)


@pytest.mark.parametrize("dk,n,divisor,n_rows,words", [
    (64, 16, "none", 500, "not divided"), (16, 8, "sqrt", 100, "÷ √16 = 4"), (128, 4, "dk", 2000, "÷ 128")])
def test_saturation_live_caption_names_the_rows_it_draws(dk, n, divisor, n_rows, words):
    s = saturation.State(dk=dk, n=n, divisor=divisor, rows=n_rows)
    assert saturation.caption(s) == f"{n_rows} rows, each one query against n = {n} keys, {words}, at dₖ = {dk}."


def test_correlated_live_caption_names_its_setting():
    s = correlated.State(rho=0.25, dk=32, divisor="none", n=4)
    assert correlated.caption(s) == f"ρ = 0.25 at dₖ = 32, not divided, {correlated.PAIRS} rows of n = 4 keys."


def test_the_live_caption_follows_a_change_through_the_bridge():
    """Switching the divisor answers with the caption of the new state; a busy answer's is the drawn state's."""
    start = json.loads(bridge.handle(json.dumps({"op": "render", "figure": "saturation", "params": {}})))
    assert "not divided" in start["caption"]
    event = {"type": "set", "field": "divisor", "value": "sqrt"}
    a = json.loads(bridge.handle(json.dumps({"op": "update", "figure": "saturation", "state": start["state"],
                                             "event": event})))
    assert a["caption"] == saturation.caption(saturation.State(divisor="sqrt")) and "not divided" not in a["caption"]
    busy = bridge.answer(saturation, saturation.State(dk=300, seed=77), slice_ms=1)
    drawn = saturation.State(**busy["drawn"])
    assert busy["busy"] and drawn.rows < 500 and busy["caption"] == saturation.caption(drawn)
    assert "caption" not in json.loads(bridge.handle(json.dumps({"op": "render", "figure": "dot-product",
                                                                 "params": {}})))
