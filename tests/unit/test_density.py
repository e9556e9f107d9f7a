"""The exact law of a sum of d products of standard normals, against closed forms and numpy."""

import math

import numpy as np
import pytest

from pycore.density import normal_pdf, product_sum_pdf


@pytest.mark.parametrize("x", [0.001, 0.2, 1.0, 3.5, 12.0])
def test_even_d_matches_closed_forms(x):
    assert product_sum_pdf(x, 2) == pytest.approx(math.exp(-x) / 2, rel=1e-12)
    assert product_sum_pdf(-x, 4) == pytest.approx((1 + x) * math.exp(-x) / 4, rel=1e-12)
    # d = 6: (3 + 3|x| + x^2) e^-|x| / 16
    assert product_sum_pdf(x, 6) == pytest.approx((3 + 3 * x + x * x) * math.exp(-x) / 16, rel=1e-12)


def test_d1_matches_k0_over_pi_by_numpy_quadrature():
    t = np.linspace(0, 12, 200_001)
    for x in (0.05, 0.5, 2.0):
        k0 = np.trapezoid(np.exp(-x * np.cosh(t)), t)
        assert product_sum_pdf(x, 1) == pytest.approx(k0 / math.pi, rel=1e-8)
    assert product_sum_pdf(0.0, 1) == math.inf


@pytest.mark.parametrize("d", [1, 3, 8, 64, 512])
def test_density_integrates_to_one_with_variance_d(d):
    s = math.sqrt(d)
    x = np.geomspace(1e-9, max(14 * s, 45.0), 20_001)
    f = np.array([product_sum_pdf(v, d) for v in x])
    mass = 2 * np.trapezoid(f, x)
    assert mass == pytest.approx(1, abs=1e-6)
    assert 2 * np.trapezoid(f * x * x, x) == pytest.approx(d, rel=1e-5)


def test_value_at_zero_is_the_limit():
    for d in (2, 3, 9, 100):
        assert product_sum_pdf(0.0, d) == pytest.approx(product_sum_pdf(1e-5, d), rel=3e-5)


def test_approaches_the_normal_for_large_d():
    for x in (0, 10, 30):
        assert product_sum_pdf(float(x), 512) == pytest.approx(normal_pdf(x, 512), rel=0.03)


def test_normal_pdf_matches_formula():
    assert normal_pdf(1.0, 4.0) == pytest.approx(math.exp(-1 / 8) / math.sqrt(8 * math.pi))
