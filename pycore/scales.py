"""A linear scale: the one mapping from data to pixels that every mark uses (apply and invert)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Linear:
    """Maps the domain [d0, d1] onto the range [r0, r1] (r0 > r1 for a y axis that grows upwards)."""

    d0: float
    d1: float
    r0: float
    r1: float

    def __call__(self, v: float) -> float:
        """Data to pixels, extended beyond the domain as the same straight line."""
        return self.r0 + (v - self.d0) / (self.d1 - self.d0) * (self.r1 - self.r0)

    def clamped(self, v: float) -> float:
        """Data to pixels, with values outside the domain pinned to its ends."""
        lo, hi = min(self.d0, self.d1), max(self.d0, self.d1)
        return self(lo if v < lo else hi if v > hi else v)

    def invert(self, px: float) -> float:
        """Pixels back to data."""
        return self.d0 + (px - self.r0) / (self.r1 - self.r0) * (self.d1 - self.d0)
