"""Step 6: what a row hands on. Attention outputs Σ_j p_j v_j, so the weights decide whose value a word gets.

Stretched into a spike, the output is the top word's value; shrunk (÷d_k is a stretch of 1/√d_k on unit
scores), the weights are nearly even and the output is nearly the plain average of the values, whatever the
scores say: attention no longer picks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from math import fsum
from typing import Any

from .. import marks, params
from ..i18n import N_, _
from ..scales import Linear
from ..softmax import softmax
from ..svg import el, fmt, sig, svg, text
from ..vectors import clamp
from . import _common, _snippet, nudge
from ._bars import bar_panel, words

TITLE = N_("What the row hands on: the weighted average of the values")
PAGE = "step-6/"
HEIGHT = 560
READOUTS = (("output", N_("output Σ pⱼvⱼ")), ("average", N_("plain average of the values")),
            ("largest-weight", N_("largest weight")))
SCORE_RANGE = nudge.SCORE_RANGE
VALUE_RANGE = 3.0
PARAMS = (
    params.vector("scores", nudge.PARAMS[0].default, (2, 8), -SCORE_RANGE, SCORE_RANGE,
                  N_("Unit-size scores of a handful of words, each in [-3, 3]."), control="text",
                  label=N_("scores (comma-separated, −3 to 3)"), sample="1,0,-1"),
    params.vector("values", (-2.0, 1.5, 2.5, -1.0, 0.5), (2, 8), -VALUE_RANGE, VALUE_RANGE,
                  N_("Each word's value, one number here, each in [-3, 3]; one per score."), control="text",
                  label=N_("values (comma-separated, −3 to 3)"), sample="2,-1,0.5"),
    replace(nudge.PARAMS[1], default=1.0, sample="0.125"),
)
CONTROLS = params.controls(PARAMS)
State = params.state_class(PARAMS, "Scores and values of a handful of words, and the stretch of the scores.")
derived_values = _common.no_derived_values
prepare = _common.nothing_to_prepare
SCORES = nudge.SCORES
WEIGHTS = nudge.WEIGHTS
LINE_X = (40.0, 500.0)
"""The line of values, from −3 to 3, in SVG units."""
KEY_STEP = (0.1, 0.5)
"""How far an arrow key moves a score (Shift: the big step)."""


def parse(p: params.Params) -> Any:
    """State from ``scores`` and ``values`` (2 to 8 each, as many values as scores, in [-3, 3]) and ``stretch``."""
    state = params.parse(PARAMS, State, p)
    if len(state.values) != len(state.scores):
        raise params.ParamError(_("values must give one number per score: {scores} scores, got {values} values")
                                .format(scores=len(state.scores), values=len(state.values)))
    return state


def update(state: Any, event: Mapping[str, Any]) -> Any:
    """A score's handle: dragging sets that score; up and down arrows move it (Shift: further)."""
    i = _common.handle_index(event, "s", len(state.scores))
    if i is None:
        return state
    if event.get("type") == "drag":
        new = SCORES.value(_common.number(event, "y"))
    elif event.get("type") == "key":
        new = state.scores[i] + _common.key_step(event, *KEY_STEP)
    else:
        return state
    scores = list(state.scores)
    scores[i] = round(clamp(new, -SCORE_RANGE, SCORE_RANGE), 2)
    return replace(state, scores=tuple(scores))


def weights(state: State) -> list[float]:
    """softmax(stretch · s)."""
    return softmax([state.stretch * s for s in state.scores])


def output(state: State) -> float:
    """Σ_j p_j v_j: what the row hands on."""
    return fsum(p * v for p, v in zip(weights(state), state.values))


def average(state: State) -> float:
    """The plain average of the values: what even weights hand on."""
    return fsum(state.values) / len(state.values)


def _line(state: State, labels: list[str]) -> list[str]:
    """The values on a number line: each word's value, the plain average below the line, the output above it."""
    scale = Linear(-VALUE_RANGE, VALUE_RANGE, LINE_X[0], LINE_X[1])
    y = 58
    parts = [text(LINE_X[0], 18, _("what the row hands on, on the line of values"), "sq-heading"),
             marks.line(LINE_X[0], y, LINE_X[1], y, "sq-axis")]
    for tick in (-VALUE_RANGE, 0.0, VALUE_RANGE):
        parts.append(text(scale(tick), y + 40, fmt(tick), "sq-tick", "middle"))
    for label, v in zip(labels, state.values):
        x = scale(v)
        parts += [marks.line(x, y - 6, x, y + 6, "sq-axis"), text(x, y + 20, label, "sq-tick", "middle")]
    xa, xo = scale(average(state)), scale(output(state))
    parts += [marks.line(xa, y - 14, xa, y + 26, "sq-guide"), text(xa, y + 40 if abs(xa - scale(0.0)) > 24 else y + 54,
                                                                     _("average"), "sq-tick", "middle"),
              el("polygon", {"points": f"{fmt(xo - 7)},{y - 20} {fmt(xo + 7)},{y - 20} {fmt(xo)},{y - 6}",
                             "class": "sq-pointer"}),
              text(xo, y - 26, _("output {output}").format(output=fmt(output(state), 2)), "sq-value", "middle")]
    return parts


def render(state: State) -> str:
    """The scores with handles, their weights with each word's value, and the output on the line of values."""
    labels = words(len(state.scores))
    p = weights(state)
    left = bar_panel(SCORES, state.scores, labels, _("scores s (drag them)"), "sq-term2", handles="s",
                     handle_label=_("score of {word}"))
    right = bar_panel(WEIGHTS, p, labels, _("weights softmax({stretch} · s)").format(stretch=sig(state.stretch, 3)),
                      "sq-weight", digits=2)
    right += [text(x + w / 2, WEIGHTS.top + WEIGHTS.height + 32, f"v = {fmt(v)}", "sq-tick", "middle")
              for (x, w), v in ((WEIGHTS.slot(i, len(p)), v) for i, v in enumerate(state.values))]
    scores_label = _("Scores {scores}; on a score's handle, up and down arrows move it, or drag it").format(
        scores=", ".join(fmt(s) for s in state.scores))
    weights_label = _("Weights {weights} at stretch {stretch}, for values {values}").format(
        weights=", ".join(fmt(w, 2) for w in p), stretch=sig(state.stretch, 3),
        values=", ".join(fmt(v) for v in state.values))
    line_label = _("Output {output}, the weighted average of the values; their plain average is {average}").format(
        output=sig(output(state), 3), average=sig(average(state), 3))
    return (svg(260, 340, scores_label, left, "sq-values sq-svg--stage", interactive=True)
            + svg(260, 340, weights_label, right, "sq-svg--stage")
            + svg(540, 110, line_label, _line(state, labels), "sq-svg--stage sq-svg--wide"))


def caption(state: State) -> str:
    """The caption's live line: the stretch and how far the output sits from the plain average."""
    return _("Stretch {stretch}: the largest weight is {weight}, and the output {output} sits {distance} from the "
             "plain average.").format(stretch=sig(state.stretch, 3), weight=sig(max(weights(state)), 2),
                                      output=sig(output(state), 3),
                                      distance=sig(abs(output(state) - average(state)), 2))


def readouts(state: State) -> dict[str, str]:
    """The output, the plain average of the values, and the largest weight."""
    return {"output": sig(output(state), 3), "average": sig(average(state), 3),
            "largest-weight": sig(max(weights(state)), 3)}


SNIPPET = """p = softmax(stretch * scores)
print("output:", sig(p @ values, 3))
print("average:", sig(values.mean(), 3))
print("largest-weight:", sig(p.max(), 3))
"""


def snippet(state: State) -> str:
    """softmax(stretch · s) and the weighted average of the values in numpy."""
    return _snippet.script(TITLE, {"scores": state.scores, "values": state.values, "stretch": state.stretch},
                           SNIPPET, {"scores": "unit-size scores", "values": "each word's value",
                                     "stretch": "what every score is multiplied by"})
