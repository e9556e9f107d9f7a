"""Step 7, corner: all scores equal. The weights are exactly 1/n whatever the scale."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import params
from ..i18n import N_, _
from ..softmax import entropy, softmax
from ..svg import fmt, sig, svg, text
from . import _common, _snippet
from ._bars import Panel, bar_panel, words

TITLE = N_("Corner case: tied scores")
PAGE = "step-7/"
HEIGHT = 520
READOUTS = (("max-weight", N_("largest weight")), ("min-weight", N_("smallest weight")), ("one-over-n", "1/n"),
            ("entropy", N_("entropy")))
PARAMS = (
    params.integer("n", 5, 2, 12, N_("Number of words."), control="range", label=N_("words n"), sample="7"),
    params.number("value", 2.0, -5, 5, N_("The score every word gets."), control="range",
                  label=N_("the common score"), step=0.1, sample="-1.5"),
    params.number("c", 8.0, 0, 64, N_("Scale applied to every score."), control="range", label=N_("scale c"),
                  step=0.5, sample="64"),
)
CONTROLS = params.controls(PARAMS)
State = params.state_class(PARAMS, "n equal scores, all multiplied by c.")
derived_values = _common.no_derived_values
prepare = _common.nothing_to_prepare
PANEL = Panel(left=40, top=40, width=560, height=200, lo=0.0, hi=1.0)


def parse(p: params.Params) -> Any:
    """State from ``n`` (2-12), ``value`` (-5 to 5) and ``c`` (0 to 64)."""
    return params.parse(PARAMS, State, p)


def update(state: Any, event: Mapping[str, Any]) -> Any:
    """No events beyond the sliders."""
    return state


def weights(state: State) -> list[float]:
    """softmax of n copies of c · value."""
    return softmax([state.c * state.value] * state.n)


def render(state: State) -> str:
    """n equal bars at height 1/n."""
    p = weights(state)
    parts = bar_panel(PANEL, p, words(state.n), _("softmax of {n} scores all equal to {score}").format(
        n=state.n, score=fmt(state.c * state.value, 2)), "sq-weight", digits=3)
    parts.append(text(PANEL.left, 284, _("every weight is 1/{n} = {weight}, whatever c is").format(
        n=state.n, weight=fmt(1 / state.n, 4)), "sq-value"))
    label = _("{n} tied scores give {n} equal weights of 1/{n}").format(n=state.n)
    return svg(620, 300, label, parts, "sq-corner-ties")


def readouts(state: State) -> dict[str, str]:
    """The extreme weights, 1/n, and the entropy (log n)."""
    p = weights(state)
    return {"max-weight": sig(max(p), 6), "min-weight": sig(min(p), 6), "one-over-n": sig(1 / state.n, 6),
            "entropy": sig(entropy(p))}


SNIPPET = """p = softmax(np.full(n, c * value))
print("max-weight:", sig(p.max(), 6))
print("min-weight:", sig(p.min(), 6))
print("one-over-n:", sig(1 / n, 6))
print("entropy:", sig(entropy(p)))
"""


def snippet(state: State) -> str:
    """softmax of n equal scores in numpy."""
    return _snippet.script(TITLE, {"n": state.n, "value": state.value, "c": state.c}, SNIPPET,
                           {"n": "words", "value": "the score every word gets", "c": "the scale applied to every score"})
