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
