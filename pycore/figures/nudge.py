"""Steps 5 and 6: nudge one score up a little and see how much the weights move, stretched or shrunk.

p = softmax(stretch · s), and p′ the same after s_target grows by delta. Stretched into a
spike, the weights barely move however the scores are nudged: the learning signal dies. Shrunk
(÷d_k is a stretch of 1/√d_k on unit scores), the weights start nearly even and the nudge is
shrunk with the scores, so they barely move either.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .. import marks, params
from ..i18n import N_, _
from ..params import ParamError
from ..softmax import softmax
from ..svg import fmt, sig, svg, text
from ..vectors import clamp
from . import _common, _snippet
from ._bars import Panel, axes, bar_panel, words

TITLE = N_("Nudge one score: how much do the weights move?")
PAGE = "step-5/"
HEIGHT = 600
READOUTS = (("largest-weight", N_("largest weight (before the nudge)")), ("weight-change", N_("total weight change")))
SCORE_RANGE = 3.0
STRETCH = (1 / 32, 16.0)
MARKS = (("0.125", "1/8"), ("1", "1"), ("8", "8"))
"""The stretches of unit-size scores that the three divisors give at d_k = 64 (Step 5: unscaled scores are
unit-size ones stretched by √d_k, so ÷√d_k is a stretch of 1 and ÷d_k one of 1/√d_k)."""
DELTA = (0.01, 1.0)
PARAMS = (
    params.vector("scores", (0.9, -0.3, 1.6, 0.2, -1.1), (2, 8), -SCORE_RANGE, SCORE_RANGE,
                  N_("Raw scores of a handful of words, each in [-3, 3]."), control="text",
                  label=N_("scores (comma-separated, −3 to 3)"), sample="1,0,-1"),
    params.number("stretch", 8.0, *STRETCH, N_("What every score is multiplied by before softmax, from 1/32 to 16."),
                  control="range", label=N_("stretch"), scale="log", presets=MARKS, sample="1"),
    params.number("delta", 0.5, *DELTA, N_("How far the chosen score is nudged up, in [0.01, 1]."),
                  control="range", label=N_("nudge"), step=0.01, sample="0.1"),
    params.integer("target", 3, 1, 8, N_("Which score is nudged: its position, 1 for the first."), sample="1"),
)
CONTROLS = params.controls(PARAMS)
State = params.state_class(PARAMS, "A row of scores, its stretch, and the nudge given to one of them.")
derived_values = _common.no_derived_values
prepare = _common.nothing_to_prepare
SCORES = Panel(left=36, top=44, width=210, height=230, lo=-SCORE_RANGE, hi=SCORE_RANGE)
WEIGHTS = Panel(left=36, top=44, width=210, height=230, lo=0.0, hi=1.0)
KEYS = {"ArrowUp": ("delta", 0.05, 0.2), "ArrowDown": ("delta", -0.05, -0.2),
        "ArrowRight": ("stretch", 1, 8), "ArrowLeft": ("stretch", -1, -8)}
"""Arrow keys on a score's handle: up and down change the nudge, right and left move the stretch one stop along
its log slider (Shift: eight stops, a doubling)."""


STRETCH_SLIDER = next(c for c in CONTROLS if c.kind == "range" and c.name == "stretch")


def parse(p: params.Params) -> Any:
    """State from ``scores``, ``stretch`` (1/32 to 16), ``delta`` (0.01 to 1) and ``target`` (1 to the number of scores)."""
    state = params.parse(PARAMS, State, p)
    if state.target > len(state.scores):
        raise ParamError(_("target must be a whole number from 1 to {count}, the number of scores, got '{target}'; "
                           "nudge a score within the row first").format(count=len(state.scores), target=state.target))
    return state


def update(state: Any, event: Mapping[str, Any]) -> Any:
    """A score's handle: dragging it nudges that score to where it is dropped; arrow keys per ``KEYS``.

    Either way the handle's score becomes the target.
    """
    i = _common.handle_index(event, "t", len(state.scores))
    if i is None:
        return state
    if event.get("type") == "drag":
        delta = SCORES.value(float(event["y"])) - state.scores[i]
        return replace(state, target=i + 1, delta=round(clamp(delta, *DELTA), 2))
    key = KEYS.get(str(event.get("key")))
    if event.get("type") != "key" or key is None:
        return state
    name, small, big = key
    step = big if event.get("shift") else small
    if name == "stretch":
        stops = STRETCH_SLIDER.stops
        at = min(max(STRETCH_SLIDER.position_of(state.stretch) + step, 0), len(stops) - 1)
        return replace(state, target=i + 1, stretch=stops[at])
    return replace(state, target=i + 1, delta=round(clamp(state.delta + step, *DELTA), 2))


def weights(state: State) -> tuple[list[float], list[float]]:
    """p = softmax(stretch · s) and p′, the same with the target's score nudged up by delta."""
    nudged = [s + state.delta if j == state.target - 1 else s for j, s in enumerate(state.scores)]
    return softmax([state.stretch * s for s in state.scores]), softmax([state.stretch * s for s in nudged])


def weight_change(state: State) -> float:
    """Σⱼ |p′ⱼ − pⱼ|: how far the nudge moved the weights, all together."""
    before, after = weights(state)
    return math.fsum(abs(b - a) for a, b in zip(before, after))


def signed(x: float) -> str:
    """A change with its sign, to 2 decimals: "+0.12", "−0.05", or "0" when it rounds away."""
    shown = fmt(x, 2)
    return shown if shown == "0" else ("+" if x > 0 else "−") + shown.lstrip("-")


def render(state: State) -> str:
    """The scores with the nudge drawn on the target, and the weights before and after it in pairs."""
    labels = words(len(state.scores))
    t = state.target - 1
    before, after = weights(state)
    shown = [fmt(s) if i != t else "" for i, s in enumerate(state.scores)]
    left = bar_panel(SCORES, state.scores, labels,
                     _("scores s ({word} nudged up {delta})").format(word=labels[t], delta=fmt(state.delta)),
                     "sq-term2", shown=shown, gap=18)
    x, w = SCORES.slot(t, len(state.scores))
    top, tip = SCORES.y(state.scores[t]), SCORES.y(state.scores[t] + state.delta)
    left.append(marks.rect(x, tip, w, top - tip, "sq-bar sq-weight--scaled"))
    left.append(text(x + w / 2, tip - 18, f"{fmt(state.scores[t])} + {fmt(state.delta)}", "sq-value", "middle"))
    for i, s in enumerate(state.scores):
        x, w = SCORES.slot(i, len(state.scores))
        nudge = state.delta if i == t else 0.0
        value = (_("{word}: score {score}, nudged up by {delta}") if i == t else _("{word}: score {score}")).format(
            word=labels[i], score=fmt(s), delta=fmt(state.delta))
        label = _("Nudge {word}: up and down arrows change the nudge, right and left arrows the stretch").format(
            word=labels[i])
        left.append(marks.handle(x + w / 2, SCORES.y(s + nudge), f"t{i}", label,
                                 value, s + nudge, -SCORE_RANGE, SCORE_RANGE + DELTA[1], "sq-q"))
    right = axes(WEIGHTS, _("weights softmax({stretch} · s)").format(stretch=sig(state.stretch, 3)))
    for i, (a, b) in enumerate(zip(before, after)):
        x, w = WEIGHTS.slot(i, len(before))
        for value, offset, cls in ((a, 0.0, "sq-weight"), (b, w / 2, "sq-weight sq-weight--scaled")):
            y = WEIGHTS.y(value)
            right.append(marks.rect(x + offset, y, w / 2, WEIGHTS.y(0.0) - y, f"sq-bar {cls}"))
        right.append(text(x + w / 2, WEIGHTS.y(max(a, b)) - 5, signed(b - a), "sq-value", "middle"))
        right.append(text(x + w / 2, WEIGHTS.top + WEIGHTS.height + 16, labels[i], "sq-tick", "middle"))
    legend = WEIGHTS.top + WEIGHTS.height + 34
    right += [marks.rect(WEIGHTS.left, legend - 9, 10, 10, "sq-bar sq-weight"),
              text(WEIGHTS.left + 14, legend, _("before"), "sq-tick"),
              marks.rect(WEIGHTS.left + 70, legend - 9, 10, 10, "sq-bar sq-weight sq-weight--scaled"),
              text(WEIGHTS.left + 84, legend, _("after the nudge"), "sq-tick"),
              text(WEIGHTS.left, legend + 18, _("above each pair: its change"), "sq-tick")]
    scores_label = _("Scores {scores}, {word} nudged up by {delta}; on a score's handle, up and down arrows change "
                     "the nudge, right and left arrows the stretch, or drag it up").format(
        scores=", ".join(fmt(s) for s in state.scores), word=labels[t], delta=fmt(state.delta))
    weights_label = _("Weights at stretch {stretch} before and after the nudge: largest weight {weight}, total change "
                      "{change}").format(stretch=sig(state.stretch, 3), weight=fmt(max(before), 3),
                                         change=sig(weight_change(state)))
    return (svg(260, 340, scores_label, left, "sq-nudge sq-svg--stage", interactive=True)
            + svg(260, 340, weights_label, right, "sq-svg--stage"))


def readouts(state: State) -> dict[str, str]:
    """The largest weight before the nudge and the total movement of the weights."""
    return {"largest-weight": sig(max(weights(state)[0])), "weight-change": sig(weight_change(state))}


SNIPPET = """nudged = scores.copy()
nudged[target - 1] += delta
p = softmax(stretch * scores)
p_after = softmax(stretch * nudged)
print("largest-weight:", sig(p.max()))
print("weight-change:", sig(np.abs(p_after - p).sum()))
"""


def snippet(state: State) -> str:
    """softmax(stretch · s) before and after the nudge in numpy."""
    return _snippet.script(TITLE, {"scores": state.scores, "stretch": state.stretch, "delta": state.delta,
                                   "target": state.target}, SNIPPET,
                           {"scores": "the raw scores", "stretch": "what every score is multiplied by",
                            "delta": "how far one score is nudged up", "target": "which score (1 is the first)"})
