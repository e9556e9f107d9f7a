"""The one-picture summary: random arrows → dot product → wide score → ÷√d_k → tame score → softmax."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .. import marks, params, stats
from ..controls import Button, Choice, Range
from ..pool import MAX_DK, pool
from ..sampling import normals
from ..softmax import jacobian_norm, softmax
from ..svg import el, fmt, sig, svg, text
from ..vectors import dot
from . import _hist
from ._bars import Panel, bars, words
from .score_histogram import SEED_MAX, next_seed

TITLE = "The whole argument in one picture"
PAGE = "summary/"
HEIGHT = 720
READOUTS = (("dk", "dₖ"), ("score-std", "spread of QKᵀ"), ("scaled-std", "spread after the scaling stage"),
            ("max-weight", "largest weight"), ("gradient", "gradient signal ‖J‖"))
CONTROLS = (Range("dk", "dₖ", 1, MAX_DK, 1),
            Choice("scaling", "÷√dₖ stage", (("on", "on"), ("off", "removed"))),
            Button("resample", "Resample"))
WORDS = 8
N = 4000
HIST = _hist.Frame(left=12, right=198, top=36, bottom=150)
SOFT = Panel(left=34, top=44, width=166, height=96, lo=0.0, hi=1.0)


@dataclass(frozen=True)
class State:
    """One d_k for every stage, and whether the scaling stage is there."""

    dk: int = 64
    """Dimension of the query and key vectors."""
    scaling: str = "on"
    """on: scores are divided by √d_k; off: the stage is removed."""
    seed: int = 1
    """Seed of the random vectors."""


def parse(p: params.Params) -> State:
    """State from ``dk`` (1-512), ``scaling`` (on or off) and ``seed``."""
    params.check_known(p, ("dk", "scaling", "seed"))
    d = State()
    return State(dk=params.integer(p, "dk", d.dk, 1, MAX_DK),
                 scaling=params.choice(p, "scaling", d.scaling, ("on", "off")),
                 seed=params.integer(p, "seed", d.seed, 0, SEED_MAX))


def update(state: State, event: Mapping[str, Any]) -> State:
    """``resample`` moves to the next seed."""
    return replace(state, seed=next_seed(state.seed)) if event.get("type") == "resample" else state


def divisor(state: State) -> float:
    """√d_k with the stage on, 1 without it."""
    return math.sqrt(state.dk) if state.scaling == "on" else 1.0


def arrows(state: State) -> tuple[list[float], list[float]]:
    """One random query and key of dimension d_k."""
    z = normals(random.Random(state.seed), 2 * state.dk)
    return z[: state.dk], z[state.dk:]


def row_weights(state: State) -> list[float]:
    """Softmax over the first eight scores of the pool, after the scaling stage."""
    s = pool(state.seed, N).scores(state.dk)[:WORDS]
    c = divisor(state)
    return softmax([v / c for v in s])


def _box(x: float, y: float, w: float, h: float, title: str, inner: list[str]) -> str:
    return el("g", {"transform": f"translate({fmt(x)} {fmt(y)})"},
              [marks.rect(0, 0, w, h, "sq-stage"), text(10, 20, title, "sq-heading"), *inner])


def _link(x1: float, y1: float, x2: float, y2: float) -> str:
    return marks.arrow(x1, y1, x2, y2, "sq-flow", head=8)


def _turn(x1: float, y1: float, x2: float, y2: float) -> str:
    """A connector from the bottom of one stage to the top of another, with right-angle bends."""
    mid = (y1 + y2) / 2
    return el("g", {}, [marks.polyline([(x1, y1), (x1, mid), (x2, mid)], "sq-flow-line"),
                        marks.arrow(x2, mid, x2, y2, "sq-flow", head=8)])


def render(state: State) -> str:
    """Six stages in two rows, joined by arrows; the scaling stage is struck out when removed."""
    q, k = arrows(state)
    scores = pool(state.seed, N).scores(state.dk)
    c = divisor(state)
    scaled = [v / c for v in scores]
    xmax_raw = _hist.auto_xmax(state.dk, 1.0)
    p = row_weights(state)
    plane = marks.Plane(left=40, top=30, size=124, extent=2.5)
    ox, oy = plane.px(0, 0)
    arrow_parts = [marks.line(40, oy, 164, oy, "sq-axis"), marks.line(ox, 30, ox, 154, "sq-axis")]
    for v, cls in ((k, "sq-k"), (q, "sq-q")):
        x, y = plane.px(max(-2.5, min(2.5, v[0])), max(-2.5, min(2.5, v[1] if len(v) > 1 else 0.0)))
        arrow_parts.append(marks.arrow(ox, oy, x, y, cls, head=8))
    arrow_parts.append(text(100, 168, f"first 2 of {state.dk} coordinates", "sq-tick", "middle"))
    stage1 = _box(0, 0, 200, 180, "1 · two random arrows", arrow_parts)
    stage2 = _box(225, 0, 200, 180, "2 · dot product", [
        text(100, 80, f"Q·Kᵀ = {fmt(dot(q, k), 2)}", "sq-big", "middle"),
        text(100, 110, f"a sum of {state.dk} products", "sq-tick", "middle")])
    raw_parts, _ = _hist.draw(scores, state.dk, 1.0, xmax_raw, 40, "", frame=HIST)
    stage3 = _box(450, 0, 210, 180, f"3 · wide score, sd {fmt(math.sqrt(stats.variance(scores)), 2)}",
                  raw_parts[1:])
    if state.scaling == "on":
        stage4 = _box(0, 220, 200, 180, "4 · divide by √dₖ", [
            text(100, 90, f"÷ √{state.dk} = {fmt(math.sqrt(state.dk), 3)}", "sq-big", "middle"),
            text(100, 120, "variance dₖ → 1", "sq-tick", "middle")])
    else:
        stage4 = _box(0, 220, 200, 180, "4 · (stage removed)", [
            marks.line(20, 40, 180, 160, "sq-strike"), marks.line(180, 40, 20, 160, "sq-strike"),
            text(100, 170, "scores go through unchanged", "sq-tick", "middle")])
    tame_parts, _ = _hist.draw(scaled, state.dk, c, _hist.auto_xmax(state.dk, c), 40, "", frame=HIST)
    tame_title = f"5 · {'tame' if state.scaling == 'on' else 'still wide'} score, sd {fmt(math.sqrt(stats.variance(scaled)), 2)}"
    stage5 = _box(225, 220, 200, 180, tame_title, tame_parts[1:])
    verdict = "soft, learnable" if max(p) < 0.9 else "a spike: gradient ≈ 0"
    soft = bars(SOFT, p, words(WORDS), "", "sq-weight", shown=[""] * WORDS)
    stage6 = _box(450, 220, 210, 180, f"6 · attention: {verdict}", soft[1:] + [
        text(105, 176, f"max {fmt(max(p), 2)} · ‖J‖ {fmt(jacobian_norm(p), 3)}", "sq-tick", "middle")])
    links = [_link(202, 90, 222, 90), _link(427, 90, 447, 90), _turn(555, 181, 100, 219),
             _link(202, 310, 222, 310), _link(427, 310, 447, 310)]
    label = (f"d_k = {state.dk}, scaling {'on' if state.scaling == 'on' else 'removed'}: score spread "
             f"{fmt(math.sqrt(stats.variance(scores)), 2)}, after the scaling stage {fmt(math.sqrt(stats.variance(scaled)), 2)}, "
             f"largest attention weight {fmt(max(p), 2)}")
    return svg(662, 404, label, [stage1, stage2, stage3, stage4, stage5, stage6, *links], "sq-summary-pipeline")


def readouts(state: State) -> dict[str, str]:
    """d_k, the spread before and after the scaling stage, and the attention row's health."""
    scores = pool(state.seed, N).scores(state.dk)
    c = divisor(state)
    p = row_weights(state)
    return {"dk": str(state.dk), "score-std": sig(math.sqrt(stats.variance(scores))),
            "scaled-std": sig(math.sqrt(stats.variance([v / c for v in scores]))),
            "max-weight": sig(max(p)), "gradient": sig(jacobian_norm(p))}
