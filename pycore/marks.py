"""Marks: small pure renderers (grid, axis, arrow, handle, bar, label) that figures compose.

Colours come from CSS classes (``sq-q``, ``sq-k``, ...), never from the markup, so the
light and dark palettes apply without re-rendering.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .scales import Linear
from .svg import el, fmt, text


@dataclass(frozen=True)
class Plane:
    """A square data window [-extent, extent]^2 drawn at (left, top) with side ``size``: two linear scales."""

    left: float
    top: float
    size: float
    extent: float

    @property
    def x(self) -> Linear:
        """The horizontal scale."""
        return Linear(-self.extent, self.extent, self.left, self.left + self.size)

    @property
    def y(self) -> Linear:
        """The vertical scale (y grows upwards in data)."""
        return Linear(-self.extent, self.extent, self.top + self.size, self.top)

    def px(self, x: float, y: float) -> tuple[float, float]:
        """Data to SVG user units."""
        return (self.x(x), self.y(y))

    def data(self, sx: float, sy: float) -> tuple[float, float]:
        """SVG user units back to data."""
        return (self.x.invert(sx), self.y.invert(sy))


def grid(plane: Plane, step: float = 0.5) -> str:
    """Light grid lines, darker axes through the origin, and integer tick labels."""
    parts = []
    n = int(round(plane.extent / step))
    for i in range(-n, n + 1):
        v = i * step
        cls = "sq-axis" if i == 0 else "sq-grid"
        x0, y0 = plane.px(v, -plane.extent)
        x1, y1 = plane.px(v, plane.extent)
        parts.append(el("line", {"x1": x0, "y1": y0, "x2": x1, "y2": y1, "class": cls}))
        x0, y0 = plane.px(-plane.extent, v)
        x1, y1 = plane.px(plane.extent, v)
        parts.append(el("line", {"x1": x0, "y1": y0, "x2": x1, "y2": y1, "class": cls}))
        if i != 0 and float(v).is_integer():
            tx, ty = plane.px(v, 0)
            parts.append(text(tx, ty + 14, fmt(v), "sq-tick", "middle"))
            tx, ty = plane.px(0, v)
            parts.append(text(tx - 6, ty + 4, fmt(v), "sq-tick", "end"))
    return el("g", {"class": "sq-plane"}, parts)


def arrow(x0: float, y0: float, x1: float, y1: float, cls: str, head: float = 11.0) -> str:
    """A line from (x0, y0) to (x1, y1) with a filled arrowhead at the end."""
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy)
    if length < 1e-9:
        return el("g", {"class": cls})
    ux, uy = dx / length, dy / length
    h = min(head, length)
    bx, by = x1 - ux * h, y1 - uy * h
    w = h * 0.45
    points = f"{fmt(x1)},{fmt(y1)} {fmt(bx - uy * w)},{fmt(by + ux * w)} {fmt(bx + uy * w)},{fmt(by - ux * w)}"
    return el("g", {"class": cls}, [
        el("line", {"x1": x0, "y1": y0, "x2": bx, "y2": by, "class": "sq-shaft"}),
        el("polygon", {"points": points, "class": "sq-head"}),
    ])


def handle(cx: float, cy: float, name: str, label: str, valuetext: str, value: float,
           lo: float, hi: float, cls: str) -> str:
    """A draggable, focusable tip: a 56-unit hit target around a visible dot and its focus ring.

    56 units stay at least 24 CSS pixels even when a 690-unit figure shrinks to a phone's width.

    It follows the WAI-ARIA slider pattern; arrow keys are handled by the figure's update().
    """
    return el("g", {
        "class": f"sq-handle {cls}",
        "data-handle": name,
        "tabindex": 0,
        "role": "slider",
        "aria-label": label,
        "aria-valuemin": fmt(lo),
        "aria-valuemax": fmt(hi),
        "aria-valuenow": fmt(value),
        "aria-valuetext": valuetext,
    }, [
        el("circle", {"cx": cx, "cy": cy, "r": 28, "class": "sq-hit"}),
        el("circle", {"cx": cx, "cy": cy, "r": 12, "class": "sq-ring"}),
        el("circle", {"cx": cx, "cy": cy, "r": 6, "class": "sq-dot"}),
    ])


def rect(x: float, y: float, w: float, h: float, cls: str, **extra: str | float) -> str:
    """A rectangle; negative sizes are normalised so the markup is always valid."""
    if w < 0:
        x, w = x + w, -w
    if h < 0:
        y, h = y + h, -h
    return el("rect", {"x": x, "y": y, "width": w, "height": h, "class": cls,
                       **{k.replace("_", "-"): v for k, v in extra.items()}})


def polyline(points: Sequence[tuple[float, float]], cls: str) -> str:
    """An open path through the points."""
    return el("polyline", {"points": " ".join(f"{fmt(x)},{fmt(y)}" for x, y in points), "class": cls})


def line(x1: float, y1: float, x2: float, y2: float, cls: str) -> str:
    """A straight segment."""
    return el("line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "class": cls})
