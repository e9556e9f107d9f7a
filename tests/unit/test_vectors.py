import math

import numpy as np
import pytest

from pycore.vectors import angle_deg, clamp, dot, norm, rotate, snap, terms

PAIRS = [((0.7, -0.3), (0.5, 0.6)), ((1.5, 0.5), (0.5, 1.5)), ((-2.0, 1.0), (2.0, -1.0)), ((0.0, 1.0), (1.0, 0.0))]


@pytest.mark.parametrize("a,b", PAIRS)
def test_dot_and_terms_match_numpy(a, b):
    assert dot(a, b) == pytest.approx(float(np.dot(a, b)), abs=1e-15)
    assert terms(a, b) == pytest.approx(list(np.multiply(a, b)))


@pytest.mark.parametrize("a,b", PAIRS)
def test_angle_matches_numpy(a, b):
    cos = np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b))
    assert angle_deg(a, b) == pytest.approx(math.degrees(np.arccos(np.clip(cos, -1, 1))), abs=1e-9)


def test_angle_of_zero_vector_is_undefined():
    assert angle_deg((0.0, 0.0), (1.0, 0.0)) is None


def test_norm_and_rotate_match_numpy():
    v = (0.6, -1.3)
    assert norm(v) == pytest.approx(float(np.linalg.norm(v)))
    t = math.radians(30)
    expected = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]]) @ np.array(v)
    assert rotate(v, 30) == pytest.approx(tuple(expected))


def test_clamp_and_snap():
    assert clamp(3.0, -2, 2) == 2 and clamp(-3.0, -2, 2) == -2 and clamp(0.5, -2, 2) == 0.5
    assert snap(0.123456) == 0.12 and snap(-1.005, 0.5) == -1.0
