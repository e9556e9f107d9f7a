"""Step 1: the query Q and the key K as two arrows from one origin, each tip draggable."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .. import marks, params
from ..svg import svg
from ..vectors import Vec
from . import _arrows

TITLE = "Query and key: two arrows"
PAGE = "step-1/"
HEIGHT = 520
READOUTS = (("q", "Q"), ("k", "K"))
CONTROLS = ()
PLANE = marks.Plane(left=30, top=10, size=320, extent=_arrows.EXTENT)


@dataclass(frozen=True)
class State:
    """Two 2-D vectors."""

    q: Vec = (1.5, 0.5)
    """The query arrow."""
    k: Vec = (0.5, 1.5)
    """The key arrow."""


def parse(p: params.Params) -> State:
    """State from URL or Markdown parameters ``q`` and ``k`` ("x,y", each in [-2, 2])."""
    params.check_known(p, ("q", "k"))
    d = State()
    e = _arrows.EXTENT
    return State(q=params.vector(p, "q", d.q, 2, -e, e), k=params.vector(p, "k", d.k, 2, -e, e))


def update(state: State, event: Mapping[str, Any]) -> State:
    """Move the tip named in the event by a drag or an arrow key."""
    name = event.get("handle")
    if name not in ("q", "k"):
        return state
    return replace(state, **{name: _arrows.moved(getattr(state, name), event, PLANE)})


def render(state: State) -> str:
    """The plane with both arrows."""
    label = f"Two arrows from one origin: Q = {_arrows.pair(state.q)}, K = {_arrows.pair(state.k)}"
    return svg(380, 350, label, _arrows.draw(PLANE, state.q, state.k), "sq-query-key", interactive=True)


def readouts(state: State) -> dict[str, str]:
    """Both vectors' coordinates."""
    return {"q": _arrows.pair(state.q), "k": _arrows.pair(state.k)}
