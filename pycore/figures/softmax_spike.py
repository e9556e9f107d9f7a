"""Step 5: the same raw scores through softmax, gently and multiplied by c; big c makes a spike."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .. import params
from ..controls import Presets, Range, Text
from ..softmax import entropy, jacobian_norm, softmax
from ..svg import fmt, sig, svg, text
from ..vectors import clamp, snap
from ._bars import Panel, bars, words

TITLE = "Softmax: gentle scores and scaled-up scores"
PAGE = "step-5/"
HEIGHT = 620
DK = 64
READOUTS = (("c", "c"), ("max-weight", "largest weight"), ("entropy", "entropy (nats)"),
            ("gradient", "gradient signal ‖J‖"))
CONTROLS = (
    Range("c", "scale c", 0, 64, 0.5),
    Presets("c", "stretch of unscaled scores", (("1", "1 (÷√dₖ)"), ("8", "√64 = 8"), ("16", "√256 = 16"))),
    Text("scores", "raw scores (comma-separated, −3 to 3)"),
)
SCORE_RANGE = 3.0
RAW = Panel(left=36, top=44, width=180, height=230, lo=-SCORE_RANGE, hi=SCORE_RANGE)
WEIGHTS = Panel(left=36, top=44, width=180, height=230, lo=0.0, hi=1.0)
"""Each of the three panels is its own SVG, so a narrow screen can wrap them."""
KEY_STEP = 0.1


@dataclass(frozen=True)
class State:
    """A raw pattern of scores and the factor that multiplies it."""

    scores: tuple[float, ...] = (0.9, -0.3, 1.6, 0.2, -1.1)
    """Raw scores of a handful of words, each in [-3, 3]."""
    c: float = 8.0
    """The factor applied to the scores in the right-hand panel, in [0, 64]."""


def parse(p: params.Params) -> State:
    """State from ``scores`` (2 to 8 numbers in [-3, 3]) and ``c`` (0 to 64)."""
    params.check_known(p, ("scores", "c"))
    d = State()
    return State(scores=params.vector(p, "scores", d.scores, (2, 8), -SCORE_RANGE, SCORE_RANGE),
                 c=params.number(p, "c", d.c, 0, 64))


def update(state: State, event: Mapping[str, Any]) -> State:
    """Drag a score bar, or move it with the up/down arrow keys."""
    name = str(event.get("handle", ""))
    if not name.startswith("s") or not name[1:].isdigit() or int(name[1:]) >= len(state.scores):
        return state
    i = int(name[1:])
    old = state.scores[i]
    if event.get("type") == "drag":
        new = RAW.value(float(event["y"]))
    elif event.get("type") == "key":
        step = 0.5 if event.get("shift") else KEY_STEP
        new = old + {"ArrowUp": step, "ArrowRight": step, "ArrowDown": -step, "ArrowLeft": -step}.get(
            str(event.get("key")), 0.0)
    else:
        return state
    scores = list(state.scores)
    scores[i] = snap(clamp(new, -SCORE_RANGE, SCORE_RANGE))
    return replace(state, scores=tuple(scores))


def summary(p: list[float]) -> str:
    """The one-line description under a weights panel."""
    return f"max {fmt(max(p), 3)} · entropy {fmt(entropy(p), 2)} · ‖J‖ {fmt(jacobian_norm(p), 3)}"


def render(state: State) -> str:
    """Raw scores (draggable), softmax(s) and softmax(c·s), as three SVGs side by side."""
    labels = words(len(state.scores))
    gentle = softmax(state.scores)
    scaled = softmax([state.c * s for s in state.scores])
    raw_label = f"Raw scores {', '.join(fmt(s) for s in state.scores)}; drag a bar to change its score"
    raw = bars(RAW, state.scores, labels, "raw scores s", "sq-term2", handles="s", handle_label="score of")
    gentle_parts = bars(WEIGHTS, gentle, labels, "softmax(s)", "sq-weight")
    gentle_parts.append(text(WEIGHTS.left, 318, summary(gentle), "sq-tick"))
    scaled_parts = bars(WEIGHTS, scaled, labels, f"softmax({fmt(state.c, 2)} · s)", "sq-weight sq-weight--scaled")
    scaled_parts.append(text(WEIGHTS.left, 318, summary(scaled), "sq-tick"))
    return (svg(230, 330, raw_label, raw, "sq-softmax-spike sq-svg--stage", interactive=True)
            + svg(230, 330, f"Softmax of the raw scores: largest weight {fmt(max(gentle), 2)}", gentle_parts,
                  "sq-svg--stage")
            + svg(230, 330, f"Softmax after multiplying by {fmt(state.c)}: largest weight {fmt(max(scaled), 3)}",
                  scaled_parts, "sq-svg--stage"))


def readouts(state: State) -> dict[str, str]:
    """Largest weight, entropy and Jacobian norm of softmax(c · s)."""
    p = softmax([state.c * s for s in state.scores])
    return {"c": fmt(state.c, 2), "max-weight": sig(max(p)), "entropy": sig(entropy(p)),
            "gradient": sig(jacobian_norm(p))}

