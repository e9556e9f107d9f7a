"""Step 7, corner: d_k = 1. Dividing by √1 changes nothing; both histograms coincide."""

from __future__ import annotations

import math
from typing import Any

from .. import marks, params, stats
from ..i18n import N_, _
from ..pool import pool
from ..svg import el, sig, svg, text
from . import _common, _hist, _snippet

TITLE = N_("Corner case: dₖ = 1")
PAGE = "step-7/"
HEIGHT = 460
READOUTS = (("variance-raw", "Var(q·k)"), ("variance-scaled", "Var(q·k/√1)"), ("theory", N_("theory dₖ/c² = 1/1")),
            ("standard-error", N_("standard error of a sample variance")))
PARAMS = (params.integer("n", 4000, 100, 10000, N_("How many (query, key) pairs."), sample="500", advanced=True),
          _common.seed())
CONTROLS = (_common.RESAMPLE,)
State = params.state_class(PARAMS, "Which pool the d_k = 1 scores come from.")
derived_values = _common.no_derived_values
prepare = _common.nothing_to_prepare
update = _common.resample
XMAX = 5.0
SOLID = N_("solid: the true shape of one product q₁k₁ (tall and narrow at 0)")
DASHED = N_("dashed: the normal bell with the same variance, for comparison")


def legend() -> tuple[str, ...]:
    """What the two curves over both histograms are, in the current language."""
    return (marks.line(20, 222, 50, 222, "sq-curve sq-curve--exact"), text(58, 226, _(SOLID)),
            marks.line(20, 246, 50, 246, "sq-curve sq-curve--normal"), text(58, 250, _(DASHED)))


def parse(p: params.Params) -> Any:
    """State from ``n`` (100-10000) and ``seed``."""
    return params.parse(PARAMS, State, p)


def _both(state: State) -> tuple[list[float], list[float]]:
    raw = list(pool(state.seed, state.n).scores(1))
    return raw, [s / 1.0 for s in raw]


def render(state: State) -> str:
    """The raw and the divided histograms side by side on the same axes."""
    raw, scaled = _both(state)
    left = _hist.histogram(raw, 1, 1.0, XMAX, 50, _("dₖ = 1, not divided"))[0]
    right = _hist.histogram(scaled, 1, 1.0, XMAX, 50, "dₖ = 1, ÷ √1")[0]
    label = _("Two identical histograms of {n} scores for d_k = 1: dividing by the square root of 1 changes "
              "nothing.").format(n=state.n)
    return svg(660, 270, label, [el("g", {}, left), el("g", {"transform": "translate(330 0)"}, right), *legend()],
               "sq-corner-dk1")


def readouts(state: State) -> dict[str, str]:
    """Both variances against the theory 1, and how far a sample variance of n scores strays from it.

    A product of two standard normals has fourth moment 9, so its sample variance has standard
    error √((9 − 1)/n).
    """
    raw, scaled = _both(state)
    return {"variance-raw": sig(stats.variance(raw)), "variance-scaled": sig(stats.variance(scaled)),
            "theory": "1", "standard-error": sig(math.sqrt(8 / state.n))}


SNIPPET = """rng = np.random.default_rng(seed)
q, k = rng.standard_normal((2, n))  # n pairs of 1-dimensional vectors
raw = q * k
scaled = raw / np.sqrt(1)
print("variance-raw:", sig(raw.var(ddof=1)))
print("expected variance-raw:", sig(1))
print("variance-scaled:", sig(scaled.var(ddof=1)))
print("expected variance-scaled:", sig(1))
print("theory:", sig(1))
print("standard-error:", sig(np.sqrt(8 / n)))  # a product of two standard normals has fourth moment 9
"""


def snippet(state: State) -> str:
    """n scores for d_k = 1 drawn in numpy, before and after dividing by the square root of 1."""
    return _snippet.script(TITLE, {"n": state.n, "seed": state.seed}, SNIPPET, {"n": "(query, key) pairs"},
                           sampled=True)
