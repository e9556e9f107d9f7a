"""The numpy reproduction agrees with the closed forms within tolerances set by its sample size."""

import math

import numpy as np
import pytest

from pycore.build import reproduce


@pytest.fixture(scope="module")
def rows():
    return reproduce.table()


def test_variances_match_closed_forms_within_four_standard_errors(rows):
    assert [r.dk for r in rows] == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]
    n = reproduce.PAIRS
    for r in rows:
        # Var of a sample variance of a sum of dk products: (mu4 - sigma^4)/n = (2 dk^2 + 6 dk)/n.
        se = math.sqrt((2 * r.dk ** 2 + 6 * r.dk) / n)
        assert abs(r.var_raw - r.dk) < 4 * se
        assert abs(r.var_sqrt - 1) < 4 * se / r.dk
        assert abs(r.var_dk - 1 / r.dk) < 4 * se / r.dk ** 2


def test_scaling_keeps_softmax_healthy_and_its_absence_saturates(rows):
    # Scaled scores have the same distribution (unit variance) at every d_k, so the mean largest
    # weight and gradient stay within sampling noise of each other; unscaled they drift monotonically.
    scaled = np.array([r.max_sqrt for r in rows[3:]])
    assert scaled.max() - scaled.min() < 0.05
    raw = [r.max_raw for r in rows]
    assert raw == sorted(raw) and raw[-1] > 0.9
    grads = [r.grad_raw for r in rows[2:]]
    assert grads == sorted(grads, reverse=True) and grads[-1] < 0.1 < min(r.grad_sqrt for r in rows)


def test_jacobian_norm_formula_matches_explicit_matrices():
    p = reproduce.softmax_rows(np.random.default_rng(0).normal(0, 3, (50, 16)))
    explicit = [np.linalg.norm(np.diag(row) - np.outer(row, row)) for row in p]
    assert np.allclose(reproduce.jacobian_norms(p), explicit, rtol=1e-12)


def test_same_seed_same_table(rows):
    assert reproduce.table() == rows
