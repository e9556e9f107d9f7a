import math

import numpy as np
import pytest

from pycore import detmath


def test_log_and_exp_agree_with_the_c_library_within_two_ulps():
    rng = np.random.default_rng(0)
    for x in np.concatenate([rng.uniform(1e-300, 1, 2000), rng.uniform(1, 1e6, 2000), [1.0, 0.5, 2.0]]):
        assert detmath.log(float(x)) == pytest.approx(math.log(x), rel=4.5e-16, abs=1e-300)
    for x in rng.uniform(-700, 700, 4000):
        assert detmath.exp(float(x)) == pytest.approx(math.exp(x), rel=4.5e-16)
    assert detmath.exp(-800.0) == 0.0 and detmath.exp(float("-inf")) == 0.0
    assert detmath.exp(710.0) == math.inf


def test_exps_stays_far_inside_below_exps_margin_of_exp():
    ys = [-6 * i / 100_000 for i in range(100_001)] + [-745 * i / 10_000 for i in range(10_001)]
    assert max(abs(a - detmath.exp(y)) for a, y in zip(detmath.exps(ys), ys)) < 1e-14


def test_below_exp_decides_as_exp_does_even_next_to_it():
    rng = np.random.default_rng(1)
    grid = [-6 * i / 20_000 for i in range(20_001)] + [-745 * i / 2_000 for i in range(2_001)]
    for y in [*grid, *(-rng.uniform(0, 6, 2000)), *(-rng.uniform(0, 745, 200)), 0.0, -0.0, -745.0]:
        e = detmath.exp(float(y))
        for u in (e, math.nextafter(e, 0), math.nextafter(e, 2), e - 5e-13, e + 5e-13, e - 2e-12, e + 2e-12,
                  0.9 * e, 1.1 * e, 0.0):
            assert detmath.below_exp(u, float(y)) == (u < e), (u, y)
