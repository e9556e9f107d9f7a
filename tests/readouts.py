"""Readouts as numbers: the figures print a plain decimal, or "< 0.000001" (and "> -0.000001") for what is smaller."""

from __future__ import annotations

import math


def bounds(text: str) -> tuple[float, float]:
    """The interval a readout states: a printed number alone, or below TINY in size for "< 0.000001"."""
    if text.startswith("< "):
        return 0.0, float(text[2:])
    if text.startswith("> "):
        return float(text[2:]), 0.0
    x = float(text.replace(",", ""))
    return x, x


def agrees(text: str, expected: float, rel: float) -> bool:
    """Whether a readout states ``expected``: within ``rel`` of it, or, for a bound, with ``expected`` inside."""
    lo, hi = bounds(text)
    if lo == hi:
        return math.isclose(lo, expected, rel_tol=rel, abs_tol=1e-12)
    return lo <= expected <= hi
