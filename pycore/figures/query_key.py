"""Step 1: the query Q and the key K as two arrows from one origin, each tip draggable."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..i18n import N_, _
from ..svg import svg
from . import _arrows, _snippet
from ._common import no_derived_values, nothing_to_prepare

TITLE = N_("Query and key: two arrows")
PAGE = "step-1/"
HEIGHT = 520
READOUTS = (("q", "q"), ("k", "k"))
PARAMS = _arrows.PARAMS
CONTROLS = ()
PLANE = _arrows.PLANE
State = _arrows.State
parse = _arrows.parse
derived_values = no_derived_values
prepare = nothing_to_prepare


def update(state: State, event: Mapping[str, Any]) -> State:
    """Move the tip named in the event by a drag or an arrow key."""
    return _arrows.move_tip(state, event)


def render(state: State) -> str:
    """The plane with both arrows."""
    label = _("Two arrows from one origin: q = {q}, k = {k}").format(q=_arrows.pair(state.q), k=_arrows.pair(state.k))
    return svg(380, 350, label, _arrows.arrow_plane(PLANE, state.q, state.k), "sq-query-key", interactive=True)


def readouts(state: State) -> dict[str, str]:
    """Both vectors' coordinates."""
    return {"q": _arrows.pair(state.q), "k": _arrows.pair(state.k)}


SNIPPET = """print("q:", f"({fmt(q[0])}, {fmt(q[1])})")
print("k:", f"({fmt(k[0])}, {fmt(k[1])})")
"""


def snippet(state: State) -> str:
    """Both arrows as numpy vectors, printed as the readouts show them."""
    return _snippet.script(TITLE, {"q": state.q, "k": state.k}, SNIPPET, {"q": "the query", "k": "the key"})
