"""The deterministic normal sampler: pure-arithmetic log/exp, and the samples' distribution."""

import math
import random

import numpy as np
import pytest

from pycore import sampling

N = 200_000


@pytest.fixture(scope="module")
def z():
    return np.array(sampling.normals(random.Random(2024), N))


def test_same_seed_same_samples_and_digest():
    assert sampling.normals(random.Random(7), 1000) == sampling.normals(random.Random(7), 1000)
    assert sampling.digest(7, 1000) != sampling.digest(8, 1000)
    assert sampling.normals(random.Random(7), 0) == []


def test_moments_within_confidence_intervals(z):
    # For N(0,1): the mean has sd 1/sqrt(N), the variance sd sqrt(2/N), the 4th moment sd sqrt(96/N).
    assert abs(z.mean()) < 4 / math.sqrt(N)
    assert abs(z.var(ddof=1) - 1) < 4 * math.sqrt(2 / N)
    assert abs((z ** 4).mean() - 3) < 4 * math.sqrt(96 / N)
    assert abs((z ** 3).mean()) < 4 * math.sqrt(15 / N)


def test_distribution_passes_kolmogorov_smirnov(z):
    s = np.sort(z)
    cdf = 0.5 * (1 + np.vectorize(math.erf)(s / math.sqrt(2)))
    i = np.arange(1, N + 1)
    d = max(np.max(i / N - cdf), np.max(cdf - (i - 1) / N))
    assert d < 1.95 / math.sqrt(N)  # 0.1% critical value


def test_tails_are_drawn_beyond_the_base_layer(z):
    # P(|Z| > 3.4426) = 5.76e-4: the ziggurat's tail branch must produce them at that rate.
    expected = N * math.erfc(3.442619855899 / math.sqrt(2))
    assert abs((np.abs(z) > 3.442619855899).sum() - expected) < 5 * math.sqrt(expected)
