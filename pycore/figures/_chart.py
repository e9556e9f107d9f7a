"""Small chart marks on linear scales: a framed panel with ticks, bars of counts, step lines, series."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import marks
from ..scales import Linear
from ..svg import el, fmt, text

W, H = 300, 230
"""Each panel is its own SVG of this size, so a row of panels wraps on a phone."""


@dataclass(frozen=True)
class Axes:
    """An x and a y scale over one panel's plotting box."""

    x: Linear
    y: Linear


def axes(xlo: float, xhi: float, ylo: float, yhi: float, left: float = 46, right: float = 288,
         top: float = 38, bottom: float = 180) -> Axes:
    """Scales for a panel's plotting box."""
    return Axes(Linear(xlo, xhi, left, right), Linear(ylo, yhi, bottom, top))


def frame(ax: Axes, title: str, xticks: Sequence[tuple[float, str]], yticks: Sequence[tuple[float, str]],
          xlabel: str) -> list[str]:
    """Title, grid lines with labels, the x axis line and its label."""
    left, right = ax.x.r0, ax.x.r1
    bottom, top = ax.y.r0, ax.y.r1
    parts = [text(8, 20, title, "sq-heading")]
    for v, label in yticks:
        y = ax.y(v)
        parts.append(marks.line(left, y, right, y, "sq-grid"))
        parts.append(text(left - 5, y + 4, label, "sq-tick", "end"))
    for v, label in xticks:
        x = ax.x(v)
        parts.append(marks.line(x, top, x, bottom, "sq-grid"))
        parts.append(text(x, bottom + 15, label, "sq-tick", "middle"))
    parts.append(marks.line(left, bottom, right, bottom, "sq-axis"))
    parts.append(text((left + right) / 2, bottom + 32, xlabel, "sq-tick", "middle"))
    return parts


def count_bars(ax: Axes, edges: Sequence[float], shares: Sequence[float], cls: str) -> str:
    """One bar per bin, from the bin's share of the rows down to 0."""
    bars = []
    for i, h in enumerate(shares):
        if h > 0:
            x0, x1 = ax.x(edges[i]), ax.x(edges[i + 1])
            bars.append(marks.rect(x0, ax.y(h), x1 - x0, ax.y(0) - ax.y(h), cls))
    return el("g", {"class": "sq-bins"}, bars)


def step_line(ax: Axes, edges: Sequence[float], shares: Sequence[float], cls: str) -> str:
    """A histogram drawn as its outline, so two can share one panel."""
    pts = [(ax.x(edges[0]), ax.y(0))]
    for i, h in enumerate(shares):
        pts += [(ax.x(edges[i]), ax.y(h)), (ax.x(edges[i + 1]), ax.y(h))]
    pts.append((ax.x(edges[-1]), ax.y(0)))
    return marks.polyline(pts, f"sq-step {cls}")


def series(ax: Axes, xs: Sequence[float], ys: Sequence[float], cls: str) -> str:
    """A line through the points with a dot on each."""
    pts = [(ax.x(x), ax.y(y)) for x, y in zip(xs, ys)]
    dots = [el("circle", {"cx": x, "cy": y, "r": 2.5}) for x, y in pts]
    return el("g", {"class": f"sq-series {cls}"}, [marks.polyline(pts, "sq-series__line"), *dots])


def band(ax: Axes, xs: Sequence[float], lo: Sequence[float], hi: Sequence[float], cls: str) -> str:
    """A shaded area between two lines over the same xs: along hi, then back along lo."""
    pts = [(ax.x(x), ax.y(y)) for x, y in [*zip(xs, hi), *zip(reversed(xs), reversed(lo))]]
    return el("polygon", {"points": " ".join(f"{fmt(x)},{fmt(y)}" for x, y in pts), "class": cls})


def legend(x: float, y: float, entries: Sequence[tuple[str, str]]) -> list[str]:
    """Short line samples with labels, one row each."""
    parts = []
    for i, (cls, label) in enumerate(entries):
        yy = y + i * 15
        parts.append(el("g", {"class": f"sq-series {cls}"}, [marks.line(x, yy - 4, x + 18, yy - 4, "sq-series__line")]))
        parts.append(text(x + 22, yy, label, "sq-tick"))
    return parts


def share_ticks(hi: float) -> list[tuple[float, str]]:
    """Labels for a share axis from 0 to hi, as percentages."""
    step = 0.25 if hi > 0.5 else 0.1 if hi > 0.2 else 0.05
    out, v = [], 0.0
    while v <= hi + 1e-9:
        out.append((v, f"{fmt(100 * v, 0)}%"))
        v = round(v + step, 10)
    return out
