"""Step 7, corner: d_k = 1. Dividing by √1 changes nothing; both histograms coincide."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .. import params, stats
from ..controls import Button
from ..pool import SEED_MAX, next_seed, pool
from ..svg import el, sig, svg
from . import _hist

TITLE = "Corner case: dₖ = 1"
PAGE = "step-7/"
HEIGHT = 460
READOUTS = (("variance-raw", "Var(QKᵀ)"), ("variance-scaled", "Var(QKᵀ/√1)"), ("identical", "same scores"))
CONTROLS = (Button("resample", "Resample"),)
XMAX = 5.0


@dataclass(frozen=True)
class State:
    """Which pool the d_k = 1 scores come from."""

    n: int = 4000
    """How many (query, key) pairs."""
    seed: int = 1
    """Seed of the pool."""


def parse(p: params.Params) -> State:
    """State from ``n`` (100-10000) and ``seed``."""
    params.check_known(p, ("n", "seed"))
    d = State()
    return State(n=params.integer(p, "n", d.n, 100, 10000), seed=params.integer(p, "seed", d.seed, 0, SEED_MAX))


def update(state: State, event: Mapping[str, Any]) -> State:
    """``resample`` moves to the next seed."""
    return replace(state, seed=next_seed(state.seed)) if event.get("type") == "resample" else state


def _both(state: State) -> tuple[list[float], list[float]]:
    raw = list(pool(state.seed, state.n).scores(1))
    return raw, [s / 1.0 for s in raw]


def render(state: State) -> str:
    """The raw and the divided histograms side by side on the same axes."""
    raw, scaled = _both(state)
    left, _ = _hist.draw(raw, 1, 1.0, XMAX, 50, "dₖ = 1, not scaled")
    right, _ = _hist.draw(scaled, 1, 1.0, XMAX, 50, "dₖ = 1, ÷ √1")
    label = f"Two identical histograms of {state.n} scores for d_k = 1: dividing by the square root of 1 changes nothing."
    return svg(660, 222, label, [el("g", {}, left), el("g", {"transform": "translate(330 0)"}, right)],
               "sq-corner-dk1")


def readouts(state: State) -> dict[str, str]:
    """Both variances and whether every score is unchanged."""
    raw, scaled = _both(state)
    return {"variance-raw": sig(stats.variance(raw)), "variance-scaled": sig(stats.variance(scaled)),
            "identical": "yes" if raw == scaled else "no"}
