"""Many rows: the shortcut draws against explicit numpy matrices, closed forms and a full-vector simulation."""

import math
import random

import numpy as np
import pytest

from pycore import rows
from pycore.sampling import chi_square, normals
from pycore.softmax import jacobian_norm, softmax


def np_rows(rows_: int, n: int, dk: int, c: float, seed: int = 7):
    """Full vectors, no shortcut: one query against n keys per row."""
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((rows_, dk))
    k = rng.standard_normal((rows_, n, dk))
    s = np.einsum("rd,rnd->rn", q, k) / c
    p = np.exp(s - s.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    jac = np.sqrt(np.maximum((p**2).sum(1) - 2 * (p**3).sum(1) + (p**2).sum(1) ** 2, 0))
    kbar = np.einsum("rn,rnd->rd", p, k)
    grad = np.sqrt(np.einsum("rn,rn->r", p**2, ((k - kbar[:, None, :]) ** 2).sum(2))) / c
    return p.max(1), jac, grad


@pytest.mark.parametrize("k", [1, 2, 5, 63, 511])
def test_chi_square_has_mean_k_and_variance_2k(k):
    rng = random.Random(k)
    x = np.array([chi_square(rng, k) for _ in range(20000)])
    assert abs(x.mean() - k) < 4 * math.sqrt(2 * k / 20000)
    assert x.var() == pytest.approx(2 * k, rel=0.08)


def test_jacobian_norm_matches_numpy_and_keeps_a_spikes_digits():
    rng = np.random.default_rng(1)
    for _ in range(20):
        p = softmax(list(rng.normal(0, 3, 12)))
        assert jacobian_norm(p) == pytest.approx(np.linalg.norm(np.diag(p) - np.outer(p, p)), rel=1e-12)
    t = 60.0  # p = (1 - e, e) with e ~ 1e-26: ‖J‖ = 2 p1 p2 exactly
    assert jacobian_norm(softmax([0.0, -t])) == pytest.approx(2 * math.exp(-t) / (1 + math.exp(-t)) ** 2, rel=1e-12)


def test_saturated_agrees_with_the_largest_softmax_weight():
    rng = np.random.default_rng(2)
    for _ in range(400):
        z = list(rng.standard_normal(int(rng.integers(2, 40))))
        a = float(rng.uniform(0.1, 40))
        top = max(z)
        gaps = tuple(sorted(top - v for v in z)[1:])
        assert rows.saturated(gaps, a) == (max(softmax([a * v for v in z])) > 0.99)


@pytest.mark.parametrize("n,d", [(6, 3), (5, 40)])
def test_across_part_has_the_closed_form_mean_and_variance(n, d):
    # Σ_m g_mᵀ A g_m with A = (I - p1ᵀ) diag(p²) (I - 1pᵀ): mean d tr(A), variance 2 d tr(A²).
    p = softmax([0.3, -1.0, 1.2, 0.0, 0.7, -0.4][:n])
    m = np.eye(n) - np.outer(np.ones(n), p)
    a = m.T @ np.diag(np.square(p)) @ m
    rng = random.Random(3)
    x = np.array([rows._across(p, rng, d) for _ in range(20000)])
    assert abs(x.mean() - d * np.trace(a)) < 4 * math.sqrt(2 * d * np.trace(a @ a) / 20000)
    assert x.var() == pytest.approx(2 * d * np.trace(a @ a), rel=0.1)


def test_rows_equal_numpy_on_the_cores_own_draws():
    # Rebuild every row's q and K from the core's streams (d_k - 1 < n: the direct branch) and redo it in numpy.
    seed, count, n, dk, c = 5, 60, 16, 8, math.sqrt(8)
    r = rows.compute(seed, count, n, dk, "sqrt")
    b = rows.draws(seed, n)
    across = random.Random(f"{seed}:across:{n}:{dk}")
    for i in range(count):
        z = np.array(b.z[i])
        u = np.array(normals(across, n * (dk - 1))).reshape(dk - 1, n).T
        keys = np.column_stack([z, u])
        q = np.zeros(dk)
        q[0] = math.sqrt(b.q2[i][dk])
        s = keys @ q / c
        p = np.exp(s - s.max())
        p /= p.sum()
        jac = np.diag(p) - np.outer(p, p)
        assert r.max_weight[i] == pytest.approx(p.max(), rel=1e-12)
        assert r.jacobian[i] == pytest.approx(np.linalg.norm(jac), rel=1e-10)
        assert r.grad_q[i] == pytest.approx(np.linalg.norm(jac @ keys) / c, rel=1e-10)
        assert r.saturated[i] == (p.max() > 0.99)


@pytest.mark.parametrize("n,dk,divisor", [(16, 64, "none"), (16, 512, "none"), (16, 64, "sqrt"), (16, 64, "dk"),
                                          (128, 64, "none")])
def test_rows_match_a_full_vector_numpy_simulation(n, dk, divisor):
    count = 3000 if n == 16 else 800
    c = rows.divisor_value(dk, divisor)
    mine = rows.compute(11, count, n, dk, divisor)
    mx, jac, grad = np_rows(count, n, dk, c)
    se = math.sqrt(0.25 / count)
    assert abs(np.mean(mine.saturated) - np.mean(mx > 0.99)) < 4 * math.sqrt(2) * se
    for ours, theirs in ((mine.max_weight, mx), (mine.jacobian, jac), (mine.grad_q, grad)):
        lo, hi = np.quantile(theirs, [0.5 - 3 * se, 0.5 + 3 * se])  # the median's sampling band, widened
        assert lo * 0.97 <= np.median(ours) <= hi * 1.03 or abs(np.median(ours) - np.median(theirs)) < 1e-3


def test_the_share_curve_is_the_same_rows_as_the_readouts():
    curve = rows.share_curve(3, 200, 16)
    for i, dk in enumerate(rows.CHART_DKS):
        for divisor in rows.DIVISORS:
            assert curve[divisor][i] == np.mean(rows.compute(3, 200, 16, dk, divisor).saturated)


def test_gradient_rows_stay_within_the_work_limit():
    assert rows.gradient_cap(16, 512) >= 2000
    few = rows.gradient_cap(512, 512)
    assert few * rows.gradient_cost(512, 512) <= rows.MAX_WORK < (few + 1) * rows.gradient_cost(512, 512)
    assert len(rows.compute(1, 50, 512, 512, "sqrt").grad_q) == min(50, few)


def test_fewer_rows_are_a_prefix_of_more_and_a_job_resumes_after_a_deadline():
    many = rows.compute(21, 120, 12, 40, "none")
    s = rows.stats(22, 12, 40, "none")
    assert not s.ensure(120, deadline=0.0) and s.done == 1, "a passed deadline still does one row"
    while not s.ensure(120, deadline=0.0):
        pass
    fresh = rows.compute(21, 60, 12, 40, "none")
    assert fresh.max_weight == many.max_weight[:60] and fresh.grad_q == many.grad_q[:60]
    ready = rows.prepare(23, 80, 12, 40, "sqrt", deadline=0.0)
    assert 1 <= ready < 80


def test_median_is_numpys():
    for k in (1, 2, 7, 10):
        v = list(np.random.default_rng(k).standard_normal(k))
        assert rows.median(v) == np.median(v)
