"""Step 5: the same raw scores through softmax, gently and stretched; a big stretch makes a spike.

The multiplier is ``stretch`` (c is the site's letter for a divisor only). Links and embed
addresses written before it was renamed say ``c=``, which ``parse`` still accepts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .. import params
from ..i18n import N_, _
from ..softmax import entropy, jacobian_norm, softmax
from ..params import ParamError
from ..svg import fmt, sig, svg, text
from ..vectors import clamp, snap
from . import _common, _snippet
from ._bars import Panel, bar_panel, words

TITLE = N_("Softmax: gentle scores and stretched scores")
PAGE = "step-5/"
HEIGHT = 620
READOUTS = (("stretch", N_("stretch")), ("max-weight", N_("largest weight")), ("entropy", N_("entropy (nats)")),
            ("gradient", N_("gradient signal ‖J‖")))
SCORE_RANGE = 3.0
ALIAS = "c"
"""The stretch's name before it was renamed, still accepted in addresses and markers."""
PARAMS = (
    params.vector("scores", (0.9, -0.3, 1.6, 0.2, -1.1), (2, 8), -SCORE_RANGE, SCORE_RANGE,
                  N_("Raw scores of a handful of words, each in [-3, 3]."), control="text",
                  label=N_("raw scores (comma-separated, −3 to 3)"), sample="1,0,-1"),
    params.number("stretch", 8.0, 0, 64, N_("What every score is multiplied by in the right-hand panel, in [0, 64] "
                  "(old links may call it c)."), control="range", label=N_("stretch"), step=0.5, sample="2.5",
                  presets=(("1", "1"), ("8", "8 = √64"), ("16", "16 = √256"))),
)
CONTROLS = params.controls(PARAMS)
State = params.state_class(PARAMS, "A raw pattern of scores and the stretch that multiplies it.")
derived_values = _common.no_derived_values
prepare = _common.nothing_to_prepare
RAW = Panel(left=36, top=44, width=180, height=230, lo=-SCORE_RANGE, hi=SCORE_RANGE)
WEIGHTS = Panel(left=36, top=44, width=180, height=230, lo=0.0, hi=1.0)
"""Each of the three panels is its own SVG, so a narrow screen can wrap them."""
KEY_STEP = 0.1


def parse(p: params.Params) -> Any:
    """State from ``scores`` (2 to 8 numbers in [-3, 3]) and ``stretch`` (0 to 64), which may be called ``c``."""
    if ALIAS in p:
        if "stretch" in p:
            raise ParamError(_("give stretch or its old name {alias}, not both").format(alias=ALIAS))
        p = {("stretch" if name == ALIAS else name): value for name, value in p.items()}
    return params.parse(PARAMS, State, p)


def update(state: Any, event: Mapping[str, Any]) -> Any:
    """Drag a score bar, or move it with the arrow keys."""
    i = _common.handle_index(event, "s", len(state.scores))
    if i is None:
        return state
    if event.get("type") == "drag":
        new = RAW.value(_common.number(event, "y"))
    elif event.get("type") == "key":
        new = state.scores[i] + _common.key_step(event, KEY_STEP, 0.5)
    else:
        return state
    scores = list(state.scores)
    scores[i] = snap(clamp(new, -SCORE_RANGE, SCORE_RANGE))
    return replace(state, scores=tuple(scores))


def summary(p: list[float]) -> str:
    """The one-line description under a weights panel, in Step 5's words (entropy and ‖J‖ are readouts for
    the expert, who may show them in a marker's ``readouts``)."""
    return _("largest weight {weight}").format(weight=fmt(max(p), 3))


def render(state: State) -> str:
    """Raw scores (draggable), softmax(s) and softmax(c·s), as three SVGs side by side."""
    labels = words(len(state.scores))
    gentle = softmax(state.scores)
    scaled = softmax([state.stretch * s for s in state.scores])
    raw_label = _("Raw scores {scores}; drag a bar to change its score").format(
        scores=", ".join(fmt(s) for s in state.scores))
    raw = bar_panel(RAW, state.scores, labels, _("raw scores s"), "sq-term2", handles="s",
                    handle_label=_("score of {word}"))
    gentle_parts = bar_panel(WEIGHTS, gentle, labels, "softmax(s)", "sq-weight")
    gentle_parts.append(text(WEIGHTS.left, 318, summary(gentle), "sq-tick"))
    scaled_parts = bar_panel(WEIGHTS, scaled, labels, f"softmax({fmt(state.stretch, 2)} · s)", "sq-weight sq-weight--scaled")
    scaled_parts.append(text(WEIGHTS.left, 318, summary(scaled), "sq-tick"))
    return (svg(230, 330, raw_label, raw, "sq-softmax-spike sq-svg--stage", interactive=True)
            + svg(230, 330, _("Softmax of the raw scores: largest weight {weight}").format(weight=fmt(max(gentle), 2)),
                  gentle_parts, "sq-svg--stage")
            + svg(230, 330, _("Softmax after stretching by {stretch}: largest weight {weight}").format(
                stretch=fmt(state.stretch), weight=fmt(max(scaled), 3)), scaled_parts, "sq-svg--stage"))


def readouts(state: State) -> dict[str, str]:
    """The stretch, and the largest weight, entropy and Jacobian norm of softmax(stretch · s)."""
    p = softmax([state.stretch * s for s in state.scores])
    return {"stretch": fmt(state.stretch, 2), "max-weight": sig(max(p)), "entropy": sig(entropy(p)),
            "gradient": sig(jacobian_norm(p))}


SNIPPET = """p = softmax(stretch * scores)
print("stretch:", fmt(stretch, 2))
print("max-weight:", sig(p.max()))
print("entropy:", sig(entropy(p)))
print("gradient:", sig(jacobian_norm(p)))
"""


def snippet(state: State) -> str:
    """softmax(stretch · s) and its three numbers in numpy."""
    return _snippet.script(TITLE, {"scores": state.scores, "stretch": state.stretch}, SNIPPET,
                           {"scores": "the raw scores", "stretch": "what every score is multiplied by"})

