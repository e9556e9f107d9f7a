"""Step 7, corner: every word has the same value v. The output is v whatever the weights."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .. import params, stats
from ..i18n import N_, _
from ..svg import fmt, sig, svg, text
from ..vectors import clamp, snap
from . import _common, _snippet
from ._bars import Panel, bar_panel, words

TITLE = N_("Corner case: the same value for every word")
PAGE = "step-7/"
HEIGHT = 560
READOUTS = (("output", N_("output Σ wᵢvᵢ")), ("v", "v"), ("weights-sum", "Σ wᵢ"))
PARAMS = (
    params.vector("weights", (0.1, 0.5, 0.15, 0.25), (2, 8), 0, 1000,
                  N_("One weight per word; the parser rescales them to sum to 1."), sample="0.2,0.8"),
    params.number("v", 2.0, -5, 5, N_("The value vector, one number here, shared by every word."), control="range",
                  label=N_("the value v of every word"), step=0.1, sample="-1.5"),
)
CONTROLS = params.controls(PARAMS)
State = params.state_class(PARAMS, "Attention weights (normalised to sum 1) and the shared value.")
derived_values = _common.no_derived_values
prepare = _common.nothing_to_prepare
PANEL = Panel(left=40, top=40, width=560, height=200, lo=0.0, hi=1.0)
KEY_STEP = 0.05


def normalised(w: tuple[float, ...]) -> tuple[float, ...]:
    """Weights rescaled to sum to 1, rounded to 4 decimals for short URLs (the last absorbs the rest)."""
    total = stats.total(w)
    scaled = [round(x / total, 4) for x in w]
    rest = 1.0
    for x in scaled[:-1]:
        rest -= x
    return tuple(scaled[:-1]) + (round(rest, 4),)


def parse(p: params.Params) -> Any:
    """State from ``weights`` (2 to 8 numbers >= 0, not all 0) and ``v`` (-5 to 5)."""
    state = params.parse(PARAMS, State, p)
    if not any(x > 0 for x in state.weights):
        raise params.ParamError(_("weights must not all be 0"))
    return replace(state, weights=normalised(state.weights))


def update(state: Any, event: Mapping[str, Any]) -> Any:
    """Drag or key-move one weight; the others shrink or grow in proportion so the sum stays 1."""
    i = _common.handle_index(event, "w", len(state.weights))
    if i is None:
        return state
    if event.get("type") == "drag":
        new = PANEL.value(_common.number(event, "y"))
    elif event.get("type") == "key":
        new = state.weights[i] + _common.key_step(event, KEY_STEP, 0.2)
    else:
        return state
    new = snap(clamp(new, 0.0, 1.0), 0.0001)
    others = [w for j, w in enumerate(state.weights) if j != i]
    rest = stats.total(others)
    if rest > 0:
        others = [w * (1 - new) / rest for w in others]
    else:
        others = [(1 - new) / len(others)] * len(others)
    weights = others[:i] + [new] + others[i:]
    if not any(w > 0 for w in weights):
        return state
    return replace(state, weights=normalised(tuple(weights)))


def output(state: State) -> float:
    """The attention output Σ w_i v_i with every v_i equal to v."""
    total = 0.0
    for w in state.weights:
        total += w * state.v
    return total


def render(state: State) -> str:
    """Draggable weight bars and the output they produce."""
    parts = bar_panel(PANEL, state.weights, words(len(state.weights)), _("attention weights (drag them)"),
                      "sq-weight", handles="w", handle_label=_("weight of {word}"), digits=3)
    parts.append(text(PANEL.left, 284, _("every value vᵢ = {v}").format(v=fmt(state.v, 2)), "sq-tick"))
    parts.append(text(PANEL.left, 306, _("output Σ wᵢ vᵢ = {output}: always v").format(output=fmt(output(state), 4)),
                      "sq-value"))
    label = _("Weights {weights} applied to the same value {v} give {output}").format(
        weights=", ".join(fmt(w, 3) for w in state.weights), v=fmt(state.v, 2), output=fmt(output(state), 4))
    return svg(620, 320, label, parts, "sq-corner-constant-v", interactive=True)


def readouts(state: State) -> dict[str, str]:
    """The output, v, and the sum of the weights."""
    return {"output": sig(output(state)), "v": sig(state.v), "weights-sum": sig(stats.total(state.weights))}


SNIPPET = """values = np.full(len(weights), v)  # every word has the same value
print("output:", sig(weights @ values))
print("v:", sig(v))
print("weights-sum:", sig(weights.sum()))
"""


def snippet(state: State) -> str:
    """The attention output of the normalised weights and a shared value, in numpy."""
    return _snippet.script(TITLE, {"weights": state.weights, "v": state.v}, SNIPPET,
                           {"weights": "attention weights, summing to 1", "v": "the value of every word"})
