"""softmax, Jacobian, its norm and entropy against numpy and closed forms."""

import math

import numpy as np
import pytest

from pycore.softmax import entropy, jacobian, jacobian_norm, softmax


def np_softmax(s):
    s = np.asarray(s, dtype=float)
    e = np.exp(s - s.max())
    return e / e.sum()


CASES = [[0.9, -0.3, 1.6, 0.2, -1.1], [8 * v for v in (0.9, -0.3, 1.6, 0.2, -1.1)], [1e-3, 2e-3], [-50.0, 0.0, 50.0],
         list(np.random.default_rng(1).normal(0, 8, 16))]


@pytest.mark.parametrize("s", CASES)
def test_softmax_matches_numpy_and_sums_to_one(s):
    p = softmax(s)
    assert p == pytest.approx(list(np_softmax(s)), rel=1e-13, abs=1e-300)
    assert math.fsum(p) == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("s", CASES)
def test_jacobian_and_norm_match_numpy(s):
    p = np_softmax(s)
    j = np.diag(p) - np.outer(p, p)
    assert np.allclose(jacobian(list(p)), j, rtol=0, atol=1e-16)
    assert jacobian_norm(list(p)) == pytest.approx(np.linalg.norm(j, "fro"), rel=1e-12)
    # The Jacobian is the true derivative: compare with central finite differences of numpy's softmax.
    h = 1e-6
    fd = np.array([(np_softmax(np.add(s, h * e)) - np_softmax(np.add(s, -h * e))) / (2 * h) for e in np.eye(len(s))]).T
    assert np.allclose(jacobian(softmax(s)), fd, atol=1e-7)


@pytest.mark.parametrize("s", CASES)
def test_entropy_matches_numpy(s):
    p = np_softmax(s)
    nz = p[p > 0]
    assert entropy(softmax(s)) == pytest.approx(float(-(nz * np.log(nz)).sum()), rel=1e-12, abs=1e-300)


@pytest.mark.parametrize("n,value", [(1, 0.0), (3, 2.5), (7, -1e9), (12, 1e308), (5, -1e308)])
def test_ties_give_exactly_one_over_n(n, value):
    p = softmax([value] * n)
    assert p == [1.0 / n] * n
    assert entropy(p) == pytest.approx(math.log(n), abs=1e-15)
    assert jacobian_norm(p) == pytest.approx(math.sqrt((n - 1) / n ** 2 * (1 - 1 / n) + (n - 1) / n ** 3) if n > 1 else 0.0)


def test_plus_infinity_is_a_one_hot_spike_with_zero_gradient():
    p = softmax([0.3, math.inf, -2.0, 1.0])
    assert p == [0.0, 1.0, 0.0, 0.0]
    assert jacobian_norm(p) == 0.0 and entropy(p) == 0.0
    assert softmax([math.inf, math.inf, 0.0]) == [0.5, 0.5, 0.0]


def test_masks_get_exactly_zero_weight():
    s = [0.9, -1e9, 1.6, -math.inf]
    p = softmax(s)
    assert p[1] == 0.0 and p[3] == 0.0
    assert p[0] == pytest.approx(np_softmax([0.9, 1.6])[0], rel=1e-14)
    assert softmax([v / 8 for v in s])[1] == 0.0, "scaling cannot bring a -1e9 mask back"


def test_huge_finite_scores_do_not_overflow():
    p = softmax([1e308, -1e308, 1e308, 0.0])
    assert p == [0.5, 0.0, 0.5, 0.0]
    assert all(math.isfinite(v) for v in p)
    assert softmax([1e308, 1e307]) == [1.0, 0.0]


def test_undefined_inputs_raise():
    for bad in ([], [math.nan, 1.0], [-math.inf, -math.inf]):
        with pytest.raises(ValueError):
            softmax(bad)
