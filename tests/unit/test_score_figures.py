"""score-histogram and variance-tower: parameters, events and readouts against numpy."""

import math

import numpy as np
import pytest

from pycore import stats
from pycore.figures import score_histogram as sh
from pycore.figures import variance_tower as vt
from pycore.params import ParamError
from pycore.pool import ScorePool


@pytest.mark.parametrize("params,message", [
    ({"dk": "0"}, "dk must be a whole number from 1 to 512, got '0'"),
    ({"dk": "513"}, "dk must be a whole number from 1 to 512, got '513'"),
    ({"dk": "abc"}, "dk must be a whole number from 1 to 512, got 'abc'"),
    ({"n": "50"}, "n must be a whole number from 100 to 10000, got '50'"),
    ({"n": "20000"}, "n must be a whole number from 100 to 10000"),
    ({"divisor": "half"}, "divisor must be one of none, sqrt, dk, got 'half'"),
    ({"seed": "1.5"}, "seed must be a whole number from 0 to 2147483647, got '1.5'"),
    ({"xmax": "wide"}, "xmax must be auto or a number from 0.1 to 1000, got 'wide'"),
])
def test_histogram_bad_params_name_the_parameter_and_range(params, message):
    with pytest.raises(ParamError, match=message.replace("(", r"\(")):
        sh.parse(params)


def test_histogram_params_round_trip():
    s = sh.parse({"dk": "64", "divisor": "sqrt", "n": "1000", "seed": "7", "xmax": "4", "ymax": "0.5"})
    assert (s.dk, s.divisor, s.n, s.seed, s.xmax, s.ymax) == (64, "sqrt", 1000, 7, "4", "0.5")


@pytest.mark.parametrize("divisor,c", [("none", 1.0), ("sqrt", 8.0), ("dk", 64.0)])
def test_histogram_readouts_match_numpy_and_theory(divisor, c):
    s = sh.State(dk=64, divisor=divisor, n=4000, seed=3)
    values = np.array(ScorePool(3, 4000).scores(64)) / c
    r = sh.readouts(s)
    v = values.var(ddof=1)
    assert float(r["variance"]) == pytest.approx(v, rel=5e-4)
    assert float(r["std"]) == pytest.approx(math.sqrt(v), rel=5e-4)
    assert float(r["theory"]) == pytest.approx(64 / c ** 2, rel=5e-4)
    # Sample variance of 4000 scores is within 4 standard errors of d_k / c^2.
    se = math.sqrt((2 * 64 ** 2 + 6 * 64) / 4000) / c ** 2
    assert abs(v - 64 / c ** 2) < 4 * se
    assert r["dk"] == "64"


def test_histogram_bins_are_numpy_histogram():
    s = sh.State(dk=8, xmax="20", bins=40, seed=5, n=2000)
    values = np.array(ScorePool(5, 2000).scores(8))
    counts, outside = stats.histogram(list(sh.scaled(s)), -20, 20, 40)
    expected, _ = np.histogram(values, bins=40, range=(-20, 20))
    assert counts == list(expected) and outside == int((np.abs(values) > 20).sum())
    assert sh.render(s).count('class="sq-bin"') == int((expected > 0).sum())


def test_resample_moves_to_a_new_reproducible_seed():
    s = sh.update(sh.State(seed=1), {"type": "resample"})
    assert s.seed != 1 and s.seed == sh.update(sh.State(seed=1), {"type": "resample"}).seed
    assert sh.readouts(s)["variance"] != sh.readouts(sh.State(seed=1))["variance"]


def test_auto_axis_holds_four_standard_deviations():
    for dk, divisor in ((1, "none"), (64, "none"), (64, "sqrt"), (64, "dk"), (512, "none")):
        c = {"none": 1, "sqrt": math.sqrt(dk), "dk": dk}[divisor]
        x = sh.xmax(sh.State(dk=dk, divisor=divisor))
        assert 4 * math.sqrt(dk) / c <= x <= 1.5 * 4 * math.sqrt(dk) / c


def test_tower_readouts_match_numpy():
    s = vt.State(dk=12, n=3000, seed=4)
    p = ScorePool(4, 3000)
    scores = np.array(p.scores(12))
    r = vt.readouts(s)
    assert float(r["total"]) == pytest.approx(scores.var(ddof=1), rel=5e-4)
    cols = [np.array(p.scores(i)) - (np.array(p.scores(i - 1)) if i > 1 else 0) for i in range(1, 13)]
    assert float(r["bars"]) == pytest.approx(sum(c.var(ddof=1) for c in cols), rel=5e-4)
    assert r["dk"] == "12"
    for c in cols:  # each product's variance is 1 within 4 standard errors (Var(q k)^2 -> mu4 = 9)
        assert abs(c.var(ddof=1) - 1) < 4 * math.sqrt(8 / 3000)


def test_tower_draws_one_brick_per_product_and_the_dk_line():
    out = vt.render(vt.State(dk=20))
    assert out.count('class="sq-brick') == 20 and 'class="sq-target"' in out


def test_tower_bad_params():
    with pytest.raises(ParamError, match="dk must be a whole number from 1 to 512"):
        vt.parse({"dk": "-3"})
    with pytest.raises(ParamError, match="unknown parameter 'divisor'"):
        vt.parse({"divisor": "sqrt"})
