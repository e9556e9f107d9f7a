"""Shared drawing and editing of the two draggable arrows Q and K (Steps 1 and 2)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from .. import marks, params
from ..i18n import N_, _
from ..svg import fmt, text
from ..vectors import Vec, clamp, snap
from ._common import number

EXTENT = 2.0
"""Each coordinate of Q and K lies in [-EXTENT, EXTENT]."""

KEY_STEP = 0.1
BIG_STEP = 0.5
TIPS = {"q": N_("Tip of q, the query"), "k": N_("Tip of k, the key")}
"""Each tip's handle as an accessible label names it."""
PLANE = marks.Plane(left=30, top=10, size=320, extent=EXTENT)
"""Where the arrows' grid sits in its SVG (the same in Steps 1 and 2)."""


PARAMS = (params.vector("q", (1.5, 0.5), 2, -EXTENT, EXTENT, N_("The query arrow."), sample="0.7,-0.3"),
          params.vector("k", (0.5, 1.5), 2, -EXTENT, EXTENT, N_("The key arrow."), sample="-1,0.5"))
State = params.state_class(PARAMS, "Two 2-D vectors.")


def parse(p: params.Params) -> Any:
    """State from URL or Markdown parameters ``q`` and ``k`` ("x,y", each in [-2, 2])."""
    return params.parse(PARAMS, State, p)


def move_tip(state: Any, event: Mapping[str, Any]) -> Any:
    """Move the tip named in the event by a drag or an arrow key; other events change nothing."""
    name = event.get("handle")
    if name not in ("q", "k"):
        return state
    return replace(state, **{name: moved(getattr(state, name), event, PLANE)})


def pair(v: Vec) -> str:
    """Coordinates as the readouts show them: "(0.7, -0.3)"."""
    return f"({fmt(v[0])}, {fmt(v[1])})"


def moved(v: Vec, event: Mapping[str, Any], plane: marks.Plane) -> Vec:
    """The new tip position after a drag (SVG units) or an arrow key; other events: unchanged."""
    kind = event.get("type")
    if kind == "drag":
        x, y = plane.data(number(event, "x"), number(event, "y"))
        return (snap(clamp(x, -EXTENT, EXTENT)), snap(clamp(y, -EXTENT, EXTENT)))
    if kind == "key":
        step = BIG_STEP if event.get("shift") else KEY_STEP
        dx, dy = {
            "ArrowRight": (step, 0.0), "ArrowLeft": (-step, 0.0),
            "ArrowUp": (0.0, step), "ArrowDown": (0.0, -step),
            "PageUp": (0.0, BIG_STEP), "PageDown": (0.0, -BIG_STEP),
        }.get(str(event.get("key")), (0.0, 0.0))
        return (snap(clamp(v[0] + dx, -EXTENT, EXTENT)), snap(clamp(v[1] + dy, -EXTENT, EXTENT)))
    return v


def arrow_plane(plane: marks.Plane, q: Vec, k: Vec, behind: Sequence[str] = ()) -> list[str]:
    """Grid, then ``behind`` (marks under the arrows), both arrows with labels, and a draggable handle on each tip."""
    ox, oy = plane.px(0, 0)
    parts = [marks.grid(plane), *behind]
    for name, v, cls in (("k", k, "sq-k"), ("q", q, "sq-q")):
        tx, ty = plane.px(*v)
        parts.append(marks.arrow(ox, oy, tx, ty, cls))
        lx, ly = _label_spot(plane, v)
        parts.append(text(lx, ly, name, f"sq-label {cls}", "middle"))
    for name, v, cls in (("k", k, "sq-k"), ("q", q, "sq-q")):
        tx, ty = plane.px(*v)
        parts.append(marks.handle(
            tx, ty, name, _(TIPS[name]), f"{name} = {pair(v)}",
            v[0], -EXTENT, EXTENT, cls))
    return parts


def _label_spot(plane: marks.Plane, v: Vec) -> tuple[float, float]:
    """A point just beyond the tip, so the letter never sits on the arrowhead."""
    length = (v[0] ** 2 + v[1] ** 2) ** 0.5
    if length < 1e-9:
        x, y = plane.px(0.15, 0.15)
        return x, y
    x, y = plane.px(v[0] + 0.22 * v[0] / length, v[1] + 0.22 * v[1] / length)
    return x, y + 5
