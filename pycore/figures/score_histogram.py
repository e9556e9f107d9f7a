"""Steps 3 and 6: the histogram of the score QKᵀ for one d_k, optionally divided by √d_k or d_k."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from .. import params, stats
from ..controls import Button, Choice, Range
from ..pool import MAX_DK, SEED_MAX, next_seed, pool
from ..svg import sig, svg, text
from . import _hist

TITLE = "The score QKᵀ for random vectors"
PAGE = "step-3/"
HEIGHT = 520
DIVISORS = (("none", "none"), ("sqrt", "÷ √dₖ"), ("dk", "÷ dₖ"))
READOUTS = (("dk", "dₖ"), ("variance", "variance"), ("std", "standard deviation"), ("theory", "theory dₖ/c²"))
CONTROLS = (
    Range("dk", "dₖ", 1, MAX_DK, 1),
    Choice("divisor", "divide by", DIVISORS),
    Range("n", "samples", 100, 10000, 100),
    Button("resample", "Resample"),
)
FIELDS = ("dk", "divisor", "n", "seed", "xmax", "bins", "ymax")


@dataclass(frozen=True)
class State:
    """Which scores to draw and how to bin them."""

    dk: int = 8
    """Dimension of the query and key vectors."""
    divisor: str = "none"
    """Scale applied to the scores: none, sqrt (÷√d_k) or dk (÷d_k)."""
    n: int = 4000
    """How many (query, key) pairs are sampled."""
    seed: int = 1
    """Seed of the pool; the same seed gives the same samples everywhere."""
    xmax: str = "auto"
    """Half-width of the x axis, or auto (four standard deviations, rounded)."""
    bins: int = 64
    """Number of histogram bins."""
    ymax: str = "auto"
    """Top of the density axis, or auto (the tallest bar); fix it to compare panels."""


def _auto_or_number(p: params.Params, name: str, lo: float, hi: float) -> str:
    """``auto`` or a number in [lo, hi], kept as its canonical text."""
    raw = str(p.get(name, "auto")).strip()
    if raw == "auto":
        return raw
    try:
        return params.canonical(params.number(p, name, 0.0, lo, hi))
    except params.ParamError:
        raise params.ParamError(f"{name} must be auto or a number from {params.canonical(lo)} to "
                                f"{params.canonical(hi)}, got '{params.shown(raw)}'") from None


def parse(p: params.Params) -> State:
    """State from parameters; every value is range-checked with a message naming it."""
    params.check_known(p, FIELDS)
    d = State()
    return State(
        dk=params.integer(p, "dk", d.dk, 1, MAX_DK),
        divisor=params.choice(p, "divisor", d.divisor, [v for v, _ in DIVISORS]),
        n=params.integer(p, "n", d.n, 100, 10000),
        seed=params.integer(p, "seed", d.seed, 0, SEED_MAX),
        xmax=_auto_or_number(p, "xmax", 0.1, 1000),
        bins=params.integer(p, "bins", d.bins, 10, 200),
        ymax=_auto_or_number(p, "ymax", 0.001, 100),
    )


def update(state: State, event: Mapping[str, Any]) -> State:
    """Only ``resample`` is an event here; sliders and choices arrive as ``set``."""
    if event.get("type") == "resample":
        return replace(state, seed=next_seed(state.seed))
    return state


@lru_cache(maxsize=8)
def scaled(state: State) -> tuple[float, ...]:
    """The n scores for d_k divided by the chosen divisor (cached: render and readouts share it)."""
    c = _hist.divisor_value(state.dk, state.divisor)
    raw = pool(state.seed, state.n).scores(state.dk)
    return tuple(raw) if c == 1.0 else tuple(s / c for s in raw)


def xmax(state: State) -> float:
    """The axis half-width in use."""
    c = _hist.divisor_value(state.dk, state.divisor)
    return _hist.auto_xmax(state.dk, c) if state.xmax == "auto" else float(state.xmax)


def render(state: State) -> str:
    """One histogram panel with the exact law (solid) and N(0, d_k/c²) (dashed)."""
    c = _hist.divisor_value(state.dk, state.divisor)
    values = scaled(state)
    title = f"dₖ = {state.dk}, {_hist.divisor_label(state.dk, state.divisor)}"
    ymax = None if state.ymax == "auto" else float(state.ymax)
    parts, _ = _hist.draw(values, state.dk, c, xmax(state), state.bins, title, ymax)
    parts.append(text(160, 214, "bars: samples · solid: exact law · dashed: normal", "sq-tick", "middle"))
    v = stats.variance(values)
    label = (f"Histogram of {state.n} scores for d_k = {state.dk}, {_hist.divisor_label(state.dk, state.divisor)}: "
             f"sample variance {sig(v)}, theory {sig(state.dk / (c * c))}")
    return svg(320, 222, label, parts, "sq-score-histogram")


def readouts(state: State) -> dict[str, str]:
    """Sample variance and standard deviation of the shown scores, d_k, and the theory d_k/c²."""
    c = _hist.divisor_value(state.dk, state.divisor)
    v = stats.variance(scaled(state))
    return {"dk": str(state.dk), "variance": sig(v), "std": sig(math.sqrt(v)), "theory": sig(state.dk / (c * c))}
