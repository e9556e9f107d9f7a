"""product-average (Step 4): pairs of independent numbers, their products and the running average, against
numpy on the same draws and against the closed forms E[ab] = m² and P(ab > 0) = Φ(m)² + Φ(−m)²."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from pycore.figures import product_average as pa
from pycore.params import ParamError


def drawn(state) -> tuple[np.ndarray, np.ndarray]:
    a, b = np.array(pa.pairs(state)).T
    return a, b


def phi(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


@pytest.mark.parametrize("params", [{}, {"pairs": "1"}, {"pairs": "37", "centre": "-0.7", "seed": "9"},
                                    {"pairs": "4096", "centre": "1"}])
def test_readouts_are_numpys_on_the_same_pairs(params):
    s = pa.parse(params)
    a, b = drawn(s)
    products = a * b
    r = pa.readouts(s)
    assert len(a) == s.pairs and r["pairs"] == str(s.pairs)
    assert float(r["average"]) == pytest.approx(products.mean(), rel=5e-3, abs=5e-6)
    assert float(r["positive"]) == pytest.approx((products > 0).mean(), rel=5e-3)
    assert r["target"] == f"{s.centre * s.centre:.2f}".rstrip("0").rstrip(".")
    assert pa.running_average(s) == pytest.approx(np.cumsum(products) / np.arange(1, s.pairs + 1), rel=1e-12)


def test_the_numbers_are_the_centre_plus_independent_standard_normals():
    a, b = drawn(pa.State(pairs=4096, seed=3))
    n = len(a)
    for x in (a, b):
        assert abs(x.mean()) < 4 / math.sqrt(n) and abs(x.var(ddof=1) - 1) < 4 * math.sqrt(2 / n)
    assert abs(np.corrcoef(a, b)[0, 1]) < 4 / math.sqrt(n)
    shifted = np.array(pa.pairs(pa.State(pairs=4096, seed=3, centre=0.5))).T
    assert np.allclose(shifted[0] - 0.5, a) and np.allclose(shifted[1] - 0.5, b)


@pytest.mark.parametrize("centre", [0.0, 0.5, -1.0])
def test_the_average_goes_to_centre_squared_and_the_share_to_its_closed_form(centre):
    n = pa.MAX_PAIRS
    for seed in (1, 2, 3, 4):
        s = pa.State(pairs=n, centre=centre, seed=seed)
        average = pa.running_average(s)[-1]
        assert abs(average - centre ** 2) < 4 * math.sqrt(1 + 2 * centre ** 2) / math.sqrt(n)
        p = phi(centre) ** 2 + phi(-centre) ** 2
        assert abs(pa.above_zero(s) / n - p) < 4 * math.sqrt(p * (1 - p) / n)
        assert pa.target(s) == centre ** 2


def test_more_pairs_keep_the_first_ones():
    few, many = pa.pairs(pa.State(pairs=10)), pa.pairs(pa.State(pairs=300))
    assert many[:10] == few


def test_add_draws_one_more_pair_up_to_the_limit_and_resample_moves_the_seed():
    s = pa.update(pa.State(pairs=5), {"type": "add"})
    assert s.pairs == 6 and pa.pairs(s)[:5] == pa.pairs(pa.State(pairs=5))
    assert pa.update(pa.State(pairs=pa.MAX_PAIRS), {"type": "add"}).pairs == pa.MAX_PAIRS
    moved = pa.update(pa.State(), {"type": "resample"})
    assert moved.seed != 1 and moved.pairs == pa.State().pairs
    assert pa.update(pa.State(), {"type": "key", "key": "ArrowUp"}) == pa.State()


@pytest.mark.parametrize("params,message", [
    ({"pairs": "0"}, "pairs must be a whole number from 1 to 4096, got '0'"),
    ({"pairs": "5000"}, "pairs must be a whole number from 1 to 4096, got '5000'"),
    ({"centre": "2"}, "centre must be a number from -1 to 1, got '2'"),
    ({"centre": "half"}, "centre must be a number from -1 to 1, got 'half'"),
])
def test_bad_params_name_the_parameter_and_range(params, message):
    with pytest.raises(ParamError, match=re.escape(message)):
        pa.parse(params)


@pytest.mark.parametrize("pairs", [1, 40, 1024])
def test_the_drawing_has_a_dot_per_newest_pair_coloured_by_the_sign_of_its_product(pairs):
    s = pa.State(pairs=pairs, centre=0.3)
    a, b = drawn(s)
    shown = (a * b)[-pa.DOTS:]
    out = pa.render(s)
    assert out.count('class="sq-pair sq-pair--pos"') == int((shown > 0).sum())
    assert out.count('class="sq-pair sq-pair--neg"') == int((shown <= 0).sum())
    above = int((a * b > 0).sum())
    assert f"{above} products above 0, {pairs - above} below" in out
    assert ("of 1024 pairs shown" in out) == (pairs > pa.DOTS)
    assert f"goes to {pa.readouts(s)['target']}" in out


def test_the_caption_says_what_the_readouts_say():
    for params in ({}, {"pairs": "1"}, {"pairs": "40", "centre": "0.5"}, {"centre": "-1"}):
        s = pa.parse(params)
        r, words = pa.readouts(s), pa.caption(s)
        above = pa.above_zero(s)
        assert words.startswith(f"{s.pairs} pair") and f"their average, {r['average']}," in words
        assert f"{above} product" in words and f"and {s.pairs - above} below" in words
        assert words.endswith(f"goes to 0 as pairs are added." if s.centre == 0 else
                              f"= {r['target']} as pairs are added.")
