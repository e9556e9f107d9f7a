"""Sample statistics and histogram binning, with explicit loops so every runtime agrees.

Binning follows ``numpy.histogram`` exactly (edges from ``linspace``, the last bin closed
on the right, an edge correction within an ulp), so tests can compare counts one to one.
"""

from __future__ import annotations

from collections.abc import Sequence


def total(values: Sequence[float]) -> float:
    """Left-to-right sum (never the built-in on floats, whose algorithm changed in Python 3.12)."""
    out = 0.0
    for v in values:
        out += v
    return out


def mean(values: Sequence[float]) -> float:
    """Arithmetic mean, summed left to right."""
    return total(values) / len(values)


def variance(values: Sequence[float]) -> float:
    """Sample variance (divisor n - 1), two-pass for accuracy."""
    m = mean(values)
    total = 0.0
    for v in values:
        d = v - m
        total += d * d
    return total / (len(values) - 1)


def edges(lo: float, hi: float, bins: int) -> list[float]:
    """Bin edges as ``numpy.linspace(lo, hi, bins + 1)`` computes them."""
    step = (hi - lo) / bins
    out = [i * step + lo for i in range(bins + 1)]
    out[-1] = hi
    return out


def histogram(values: Sequence[float], lo: float, hi: float, bins: int) -> tuple[list[int], int]:
    """Counts per bin over [lo, hi], like ``numpy.histogram``, and how many values fell outside."""
    e = edges(lo, hi, bins)
    norm = bins / (hi - lo)
    counts = [0] * bins
    outside = 0
    last = bins - 1
    for v in values:
        if not lo <= v <= hi:
            outside += 1
            continue
        i = int((v - lo) * norm)
        if i == bins:
            i = last
        if v < e[i]:
            i -= 1
        elif i != last and v >= e[i + 1]:
            i += 1
        counts[i] += 1
    return counts, outside
