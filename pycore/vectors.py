"""Two-dimensional vector helpers for the arrow figures.

Sums are explicit loops, never ``sum()`` on floats, whose algorithm changed in Python 3.12.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Vec = tuple[float, ...]


def dot(a: Sequence[float], b: Sequence[float]) -> float:
    """The dot product: multiply pair by pair, add the products left to right."""
    total = 0.0
    for x, y in zip(a, b, strict=True):
        total += x * y
    return total


def terms(a: Sequence[float], b: Sequence[float]) -> list[float]:
    """The products a_i * b_i whose sum is the dot product."""
    return [x * y for x, y in zip(a, b, strict=True)]


def norm(a: Sequence[float]) -> float:
    """Euclidean length."""
    return math.sqrt(dot(a, a))


def angle_deg(a: Sequence[float], b: Sequence[float]) -> float | None:
    """Unsigned angle between two vectors in degrees, or None when either has length 0."""
    na, nb = norm(a), norm(b)
    if na == 0.0 or nb == 0.0:
        return None
    cos = max(-1.0, min(1.0, dot(a, b) / (na * nb)))
    return math.degrees(math.acos(cos))


def rotate(a: Sequence[float], degrees: float) -> Vec:
    """Rotate a 2-D vector counter-clockwise."""
    t = math.radians(degrees)
    c, s = math.cos(t), math.sin(t)
    return (a[0] * c - a[1] * s, a[0] * s + a[1] * c)


def clamp(x: float, lo: float, hi: float) -> float:
    """x limited to [lo, hi]."""
    return lo if x < lo else hi if x > hi else x


def snap(x: float, step: float = 0.01) -> float:
    """Round to a grid so that states, URLs and readouts stay short and exact."""
    return round(round(x / step) * step, 10)
