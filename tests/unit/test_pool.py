import math
import random

import numpy as np
import pytest

from pycore import pool as pool_module
from pycore.pool import ScorePool
from pycore.sampling import normals


def test_scores_are_prefix_sums_of_products_drawn_in_order():
    p = ScorePool(5, 300)
    rng = random.Random(5)
    expected = np.zeros(300)
    for dk in range(1, 6):
        z = np.array(normals(rng, 600))
        expected = expected + z[0::2] * z[1::2]
        assert np.array_equal(np.array(p.scores(dk)), expected)


def test_growth_order_does_not_change_samples():
    a, b = ScorePool(9, 200), ScorePool(9, 200)
    a.scores(40)
    for dk in range(1, 41):
        b.scores(dk)
    assert list(a.scores(40)) == list(b.scores(40)) and list(a.scores(7)) == list(b.scores(7))


@pytest.mark.parametrize("dk", [1, 8, 64])
def test_score_variance_is_dk_within_confidence(dk):
    n = 4000
    s = np.array(ScorePool(11, n).scores(dk))
    # Var of the sample variance of a sum of dk products: (mu4 - sigma^4) / n with mu4 = 3 dk^2 + 6 dk.
    sd = math.sqrt((3 * dk * dk + 6 * dk - dk * dk) / n)
    assert abs(s.var(ddof=1) - dk) < 4 * sd


def test_product_variances_match_numpy_of_differences():
    p = ScorePool(3, 500)
    v = p.product_variances(6)
    for i in range(1, 7):
        diff = np.array(p.scores(i)) - np.array(p.scores(i - 1) if i > 1 else np.zeros(500))
        assert v[i - 1] == pytest.approx(diff.var(ddof=1), rel=1e-12)


def test_dk_out_of_range_is_refused():
    with pytest.raises(ValueError):
        ScorePool(1, 100).scores(513)


def test_cache_keeps_recent_pools():
    first = pool_module.pool(123, 100)
    assert pool_module.pool(123, 100) is first
    for seed in range(200, 210):
        pool_module.pool(seed, 100)
    assert pool_module.pool(123, 100) is not first
