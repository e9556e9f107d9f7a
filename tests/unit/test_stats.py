import random

import numpy as np
import pytest

from pycore import stats


def test_mean_and_variance_match_numpy():
    x = [random.Random(1).gauss(3, 2) for _ in range(1000)]
    assert stats.mean(x) == pytest.approx(np.mean(x), rel=1e-13)
    assert stats.variance(x) == pytest.approx(np.var(x, ddof=1), rel=1e-12)


def test_edges_equal_numpy_linspace():
    for lo, hi, bins in ((-32, 32, 64), (-4, 4, 64), (-0.37, 1.9, 17)):
        assert stats.edges(lo, hi, bins) == list(np.linspace(lo, hi, bins + 1))


@pytest.mark.parametrize("lo,hi,bins", [(-32.0, 32.0, 64), (-4.0, 4.0, 64), (-2.5, 2.5, 7), (-1.0, 1.0, 200)])
def test_histogram_counts_equal_numpy(lo, hi, bins):
    rng = np.random.default_rng(3)
    x = np.concatenate([rng.normal(0, 2, 5000), np.linspace(lo, hi, bins + 1), [lo - 1, hi + 1]])
    counts, outside = stats.histogram(list(x), lo, hi, bins)
    expected, _ = np.histogram(x, bins=bins, range=(lo, hi))
    assert counts == list(expected)
    assert outside == int(((x < lo) | (x > hi)).sum())
