"""Drawing a histogram of scores as a density, with the exact law and the normal overlaid."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .. import marks, stats
from ..density import normal_pdf, product_sum_pdf
from ..i18n import _
from ..svg import el, fmt, text
from ..ticks import nice_ceil, ticks
from ._chart import Axes, axes

CURVE_POINTS = 60
"""Curve samples on each side of 0 (the densities are even)."""


@dataclass(frozen=True)
class Frame:
    """Where the plot sits inside its SVG."""

    left: float = 14
    right: float = 306
    top: float = 32
    bottom: float = 182
    note: float = 18
    """The baseline of the note on the scores beyond the axis, right-aligned at ``right``."""

    def axes(self, xmax: float, ymax: float) -> Axes:
        """Scales from [-xmax, xmax] × [0, ymax] onto this box."""
        return axes(-xmax, xmax, 0.0, ymax, self.left, self.right, self.top, self.bottom)


def divisor_label(dk: int, divisor: str) -> str:
    """How the panel title names the scaling, in the current language."""
    if divisor == "none":
        return _("not divided")
    return {"sqrt": f"÷ √{dk} = {fmt(math.sqrt(dk), 3)}", "dk": f"÷ {dk}"}[divisor]


def auto_xmax(dk: int, c: float) -> float:
    """A round half-width that holds four standard deviations of the scaled score."""
    return nice_ceil(4 * math.sqrt(dk) / c)


@lru_cache(maxsize=64)
def density_curves(dk: int, c: float, xmax: float) -> tuple[tuple[float, float, float], ...]:
    """(x, exact density, normal density) of score / c at evenly spaced x >= 0, cached per axis."""
    out = []
    for i in range(CURVE_POINTS + 1):
        x = xmax * i / CURVE_POINTS
        exact = c * product_sum_pdf(c * x, dk) if (x > 0 or dk > 1) else math.inf
        out.append((x, exact, c * normal_pdf(c * x, dk)))
    return tuple(out)


def histogram(values: Sequence[float], dk: int, c: float, xmax: float, bins: int, title: str | None,
              ymax: float | None = None, frame: Frame = Frame(), curves: bool = True) -> tuple[list[str], int]:
    """Bars (density), both curves (unless ``curves`` is False), axes and an optional title; returns the
    parts and the count outside.

    ``ymax`` fixes the density axis so panels side by side compare heights; anything taller
    is cut off at the top, and the panel says so with the bell's true height, the normal's peak
    c/√(2π d_k). By default the tallest bar sets it.
    """
    counts, outside = stats.histogram(values, -xmax, xmax, bins)
    width = 2 * xmax / bins
    dens = [k / (len(values) * width) for k in counts]
    curve = density_curves(dk, c, xmax)
    cut = None
    if ymax is None:
        tallest = max(dens)
        ymax = tallest * 1.15 if tallest > 0 else max(p[2] for p in curve) * 1.15 or 1.0
    elif max(max(dens), curve[0][2]) > ymax:
        cut = curve[0][2]

    ax = frame.axes(xmax, ymax)
    sx, sy = ax.x, ax.y.clamped
    parts = [] if title is None else [text(frame.left, 18, title, "sq-heading")]
    for t in ticks(-xmax, xmax):
        parts.append(marks.line(sx(t), frame.top, sx(t), frame.bottom, "sq-axis" if t == 0 else "sq-grid"))
        parts.append(text(sx(t), frame.bottom + 15, fmt(t, 3), "sq-tick", "middle"))
    bars = []
    for i, d in enumerate(dens):
        if d > 0:
            x0 = sx(-xmax + i * width)
            bars.append(marks.rect(x0, sy(d), sx(-xmax + (i + 1) * width) - x0, frame.bottom - sy(d), "sq-bin"))
    parts.append(el("g", {"class": "sq-bins"}, bars))
    if curves:
        full = [(-x, e, n) for x, e, n in reversed(curve[1:])] + list(curve)
        parts.append(marks.polyline([(sx(x), sy(n)) for x, e, n in full], "sq-curve sq-curve--normal"))
        parts.append(marks.polyline([(sx(x), sy(e if math.isfinite(e) else ymax)) for x, e, n in full],
                                    "sq-curve sq-curve--exact"))
    parts.append(marks.line(frame.left, frame.bottom, frame.right, frame.bottom, "sq-axis"))
    if cut is not None:
        parts.append(marks.line(frame.left, frame.top, frame.right, frame.top, "sq-cut"))
        parts.append(text(frame.right, frame.top + 12, _("cut off: peak {peak}").format(peak=fmt(cut, 2)),
                          "sq-tick sq-cut-note", "end", data_cut=fmt(cut, 2)))
    if outside:
        share = 100 * outside / len(values)
        beyond = _("{share}% beyond ±{xmax}").format(share=fmt(share, 1), xmax=fmt(xmax, 3))
        parts.append(text(frame.right, frame.note, beyond, "sq-tick", "end"))
    return parts, outside
