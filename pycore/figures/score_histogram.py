"""Steps 3 and 6: the histogram of the score q·k for one d_k, optionally divided by √d_k or d_k."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from .. import params, stats
from ..i18n import N_, _
from ..pool import pool
from ..rows import divisor_value
from ..svg import fmt, sig, svg, text
from . import _common, _hist, _snippet

TITLE = N_("The score q·k for random vectors")
PAGE = "step-3/"
HEIGHT = 520
READOUTS = (("dk", "dₖ"), ("variance", N_("variance")), ("std", N_("standard deviation")),
            ("theory", N_("theory dₖ/c²")))
PARAMS = (
    _common.dk(8, control="range", label="dₖ", sample="64"),
    _common.divisor("none", control="choice", label=N_("divide by")),
    params.integer("n", 4000, 100, 10000, N_("How many (query, key) pairs are sampled."), control="range",
                   label=N_("samples"), step=100, sample="2000", advanced=True),
    _common.seed(),
    params.auto_number("xmax", 0.1, 1000,
                       N_("Half-width of the x axis, or auto (four standard deviations, rounded)."),
                       sample="20", advanced=True),
    params.integer("bins", 64, 10, 200, N_("Number of histogram bins."), advanced=True),
    params.auto_number("ymax", 0.001, 100, N_("Top of the density axis, or auto (the tallest bar); fix it to compare "
                       "panels."), sample="0.5", advanced=True),
    params.choice("curves", "both", (("both", N_("exact law and normal bell")), ("none", N_("none"))),
                  N_("Curves over the bars: both (the exact law, solid, and the normal bell, dashed) or none."),
                  advanced=True),
)
CONTROLS = (*params.controls(PARAMS), _common.RESAMPLE)
State = params.state_class(PARAMS, "Which scores to draw and how to bin them.")
derived_values = _common.no_derived_values
update = _common.resample


def prepare(state: Any, deadline: float | None) -> tuple[Any, str] | None:
    """Grow the pool toward d_k in slices; the bell widens as it goes."""
    return _common.pool_prepare(state, state.n, deadline)


def parse(p: params.Params) -> Any:
    """State from parameters; every value is range-checked with a message naming it."""
    return params.parse(PARAMS, State, p)


@lru_cache(maxsize=8)
def scaled(state: State) -> tuple[float, ...]:
    """The n scores for d_k divided by the chosen divisor (cached: render and readouts share it)."""
    c = divisor_value(state.dk, state.divisor)
    raw = pool(state.seed, state.n).scores(state.dk)
    return tuple(raw) if c == 1.0 else tuple(s / c for s in raw)


def xmax(state: State) -> float:
    """The axis half-width in use."""
    c = divisor_value(state.dk, state.divisor)
    return _hist.auto_xmax(state.dk, c) if state.xmax == "auto" else float(state.xmax)


def render(state: State) -> str:
    """One histogram panel, with the exact law (solid) and N(0, d_k/c²) (dashed) unless ``curves`` is none.

    Its accessible label names what is drawn in words a reader of Step 3 already has; the numbers
    are in the readouts.
    """
    c = divisor_value(state.dk, state.divisor)
    values = scaled(state)
    scaling = _hist.divisor_label(state.dk, state.divisor)
    ymax = None if state.ymax == "auto" else float(state.ymax)
    title = _("dₖ = {dk}, {scaling}").format(dk=state.dk, scaling=scaling)
    parts = _hist.histogram(values, state.dk, c, xmax(state), state.bins, title, ymax,
                            curves=state.curves == "both")[0]
    if state.curves == "both":
        parts.append(text(160, 214, _("bars: samples · solid: exact law · dashed: normal"), "sq-tick", "middle"))
    half = fmt(xmax(state), 3)
    label = _("Histogram of {n} scores for dₖ = {dk}, {scaling}, on an axis from −{half} to {half}").format(
        n=state.n, dk=state.dk, scaling=scaling, half=half)
    return svg(320, 222, label, parts, "sq-score-histogram")


def readouts(state: State) -> dict[str, str]:
    """Sample variance and standard deviation of the shown scores, d_k, and the theory d_k/c²."""
    c = divisor_value(state.dk, state.divisor)
    v = stats.variance(scaled(state))
    return {"dk": str(state.dk), "variance": sig(v), "std": sig(math.sqrt(v)), "theory": sig(state.dk / (c * c))}


SNIPPET = _snippet.DIVIDE + """rng = np.random.default_rng(seed)
q, k = rng.standard_normal((2, n, dk))  # n random (query, key) pairs
scores = (q * k).sum(axis=1) / c         # their dot products, divided by c
variance = scores.var(ddof=1)
print("dk:", dk)
print("variance:", sig(variance))
print("expected variance:", sig(dk / c**2))
print("std:", sig(np.sqrt(variance)))
print("expected std:", sig(np.sqrt(dk) / c))
print("theory:", sig(dk / c**2))
"""


def snippet(state: State) -> str:
    """n scores of the same d_k and divisor drawn in numpy; the axis and bins change no readout."""
    return _snippet.script(TITLE, {"dk": state.dk, "divisor": state.divisor, "n": state.n, "seed": state.seed},
                           SNIPPET, {"divisor": _snippet.DIVISOR_NOTE, "n": "(query, key) pairs"}, sampled=True)
