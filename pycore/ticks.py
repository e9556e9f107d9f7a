"""Nice axis ranges and tick positions (1, 2, 5 times a power of ten)."""

from __future__ import annotations

import math


def nice_step(span: float, target: int = 6) -> float:
    """A round step that cuts ``span`` into about ``target`` pieces."""
    raw = span / target
    power = 10.0 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if m * power >= raw:
            return m * power
    return 10 * power


def nice_ceil(x: float) -> float:
    """The smallest of 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten that is >= x."""
    power = 10.0 ** math.floor(math.log10(x))
    for m in (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if m * power >= x * (1 - 1e-12):
            return round(m * power, 12)
    return 10 * power


def ticks(lo: float, hi: float, target: int = 6) -> list[float]:
    """Tick values in [lo, hi] at a nice step, including 0 when it is in range."""
    step = nice_step(hi - lo, target)
    first = math.ceil(lo / step - 1e-9)
    out = []
    i = first
    while i * step <= hi + 1e-9 * step:
        out.append(round(i * step, 10))
        i += 1
    return out
