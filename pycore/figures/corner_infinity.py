"""Step 7, corner: one score at +inf, or a -1e9 mask. Scaling rescues neither."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from .. import params
from ..i18n import N_, _
from ..softmax import jacobian_norm, softmax
from ..svg import fmt, sig, svg, text
from . import _common, _snippet
from ._bars import Panel, bar_panel, words

TITLE = N_("Corner case: an infinite score or a −10⁹ mask")
PAGE = "step-7/"
HEIGHT = 560
MODES = (("inf", "w3 → +∞"), ("mask", N_("w3 masked with −10⁹")))
READOUTS = (("special", N_("weight of w3")), ("max-weight", N_("largest weight")),
            ("gradient", N_("gradient signal ‖J‖")))
PARAMS = (
    params.choice("mode", "inf", MODES, N_("inf: w3's score is +inf. mask: -1e9 is added to w3's score "
                  "after the division, as PyTorch adds its mask after scaling."), control="choice",
                  label=N_("case")),
    params.number("divisor", 8.0, 1, 64, N_("Every score is divided by this, as attention divides by √d_k."),
                  control="range", label=N_("divide every score by"), sample="2"),
)
CONTROLS = params.controls(PARAMS)
State = params.state_class(PARAMS, "Which extreme replaces word 3's score, and the scaling applied to all scores.")
derived_values = _common.no_derived_values
prepare = _common.nothing_to_prepare
BASE = (0.9, -0.3, 1.6, 0.2, -1.1)
PANEL = Panel(left=40, top=40, width=560, height=200, lo=0.0, hi=1.0)
MASK = -1e9


def parse(p: params.Params) -> Any:
    """State from ``mode`` (inf or mask) and ``divisor`` (1 to 64)."""
    return params.parse(PARAMS, State, p)


def update(state: Any, event: Mapping[str, Any]) -> Any:
    """No events beyond the controls."""
    return state


def divided(state: State) -> list[float]:
    """The scores divided by the divisor, w3's +inf in the inf case, before any mask."""
    special = math.inf if state.mode == "inf" else BASE[2]
    return [s / state.divisor for s in (BASE[0], BASE[1], special, BASE[3], BASE[4])]


def scores(state: State) -> list[float]:
    """What softmax gets: the divided scores, with the mask added to w3's after the division in the mask case."""
    s = divided(state)
    if state.mode == "mask":
        s[2] += MASK
    return s


def _shown(s: float) -> str:
    return "+∞" if s == math.inf else f"{s:.4g}" if abs(s) >= 1e5 else fmt(s, 2)


def render(state: State) -> str:
    """The weights after softmax, with the divided scores (and the mask added after them) under the title."""
    d = divided(state)
    p = softmax(scores(state))
    title = (_("w3's score → +∞: in the limit, a one-hot spike") if state.mode == "inf"
             else _("w3 masked: its weight is exactly 0"))
    parts = bar_panel(PANEL, p, words(5), title, "sq-weight", digits=3)
    parts.append(text(PANEL.left, 284, _("scores ÷ {divisor}: {scores}").format(
        divisor=fmt(state.divisor, 2), scores=", ".join(_shown(v) for v in d)), "sq-tick"))
    if state.mode == "mask":
        parts.append(text(PANEL.left, 302, _("then the mask is added to w3's: {score} + (−10⁹) ≈ −10⁹").format(
            score=_shown(d[2])), "sq-tick"))
    parts.append(text(PANEL.left, 324, _("gradient signal = {gradient}").format(gradient=fmt(jacobian_norm(p), 4)),
                      "sq-value"))
    label = _("{title}; the weights are {weights}").format(title=title, weights=", ".join(fmt(v, 3) for v in p))
    return svg(620, 336, label, parts, "sq-corner-infinity")


def readouts(state: State) -> dict[str, str]:
    """w3's weight, the largest weight and the Jacobian norm."""
    p = softmax(scores(state))
    return {"special": sig(p[2]), "max-weight": sig(max(p)), "gradient": sig(jacobian_norm(p))}


SNIPPET = """scores = np.array(base) / divisor
if mode == "inf":
    scores[2] = np.inf  # w3's score is +inf, and inf / divisor is still inf
else:
    scores[2] += mask  # the mask is added after the division, as PyTorch adds its mask after scaling
top = scores == np.inf
p = top / top.sum() if top.any() else softmax(scores)  # a +inf score takes all the weight (e^(inf - inf) is NaN)
print("special:", sig(p[2]))
print("max-weight:", sig(p.max()))
print("gradient:", sig(jacobian_norm(p)))
"""


def snippet(state: State) -> str:
    """Word 3's score replaced by +inf or the mask, then softmax, in numpy."""
    return _snippet.script(TITLE, {"mode": state.mode, "divisor": state.divisor, "base": BASE, "mask": MASK},
                           SNIPPET, {"mode": "inf: w3's score is +inf; mask: the mask is added to w3's score",
                                     "divisor": "every score is divided by this",
                                     "base": "the five words' scores; w3's is replaced",
                                     "mask": "the mask, -10^9"})
