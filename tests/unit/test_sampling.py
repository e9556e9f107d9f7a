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


def reference_normals(rng: random.Random, count: int) -> list[float]:
    """The ziggurat word by word, as Marsaglia and Tsang write it: the block of words first, then each miss in order."""
    block = rng.getrandbits(32 * count)
    words = [(block >> (32 * j) & 0xFFFFFFFF) - ((block >> (32 * j + 31) & 1) << 32) for j in range(count)]
    out = []
    for hz in words:
        iz = hz & 127
        out.append(hz * sampling._WN[iz] if abs(hz) < sampling._KN[iz] else None)
    for j, hz in enumerate(words):
        if out[j] is not None:
            continue
        iz = hz & 127
        while True:
            x = hz * sampling._WN[iz]
            if iz == 0:
                while True:
                    x = -sampling.log(1.0 - rng.random()) / sampling._R
                    y = -sampling.log(1.0 - rng.random())
                    if y + y >= x * x:
                        x = sampling._R + x if hz > 0 else -sampling._R - x
                        break
                break
            fn = sampling._FN
            if fn[iz] + rng.random() * (fn[iz - 1] - fn[iz]) < sampling.exp(-0.5 * x * x):
                break
            hz = rng.getrandbits(32) - 2147483648
            iz = hz & 127
            if abs(hz) < sampling._KN[iz]:
                x = hz * sampling._WN[iz]
                break
        out[j] = x
    return out


@pytest.mark.parametrize("seed", range(8))
def test_normals_are_the_word_by_word_ziggurat(seed):
    for count in (1, 2, 3, 97, 8000):
        assert sampling.normals(random.Random(seed), count) == reference_normals(random.Random(seed), count)


def test_block_test_of_the_common_path_matches_abs_for_every_edge():
    edges = {-2**31, -2**31 + 1, -1, 0, 1, 2**31 - 1}
    for layer in range(128):
        bound = math.ceil(sampling._KN[layer])
        for magnitude in range(max(bound - 600, 0), min(bound + 600, 2**31 + 1)):
            for h in (magnitude, -magnitude):
                if h & 127 == layer and -2**31 <= h < 2**31:
                    edges.add(h)
    rng = random.Random(1)
    words = sorted(edges) + [rng.getrandbits(32) - 2**31 for _ in range(100_000)]
    raw = b"".join(h.to_bytes(4, "little", signed=True) for h in words)
    assert list(sampling._in_core(raw)) == [int(abs(h) < sampling._KN[h & 127]) for h in words]


def test_offset_floats_give_every_word_back_exactly():
    rng = random.Random(2)
    words = [-2**31, -2**31 + 1, -2**30, -1, 0, 1, 2**30, 2**31 - 1] + [rng.getrandbits(32) - 2**31 for _ in range(10_000)]
    raw = b"".join(h.to_bytes(4, "little", signed=True) for h in words)
    assert [f - sampling._OFFSET for f in sampling._offset_floats(raw)] == words
