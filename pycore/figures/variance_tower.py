"""Step 4: d_k bars, each the measured variance of one product q_i k_i, stacking to about d_k."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .. import marks, params, stats
from ..i18n import N_, _
from ..pool import pool
from ..scales import Linear
from ..svg import el, fmt, sig, svg, text
from ..ticks import nice_ceil, ticks
from . import _common, _snippet

TITLE = N_("Variance adds up: one unit per product")
PAGE = "step-4/"
HEIGHT = 560
READOUTS = (("dk", "dₖ"), ("total", N_("measured Var(q·k)")), ("bars", N_("sum of the bars")))
PARAMS = (
    _common.dk(16, control="range", label="dₖ", sample="9"),
    params.integer("n", 4000, 100, 10000, N_("How many (query, key) pairs the variances are measured on."),
                   advanced=True),
    _common.seed(),
)
CONTROLS = (*params.controls(PARAMS), _common.RESAMPLE)
State = params.state_class(PARAMS, "How many products to stack, from which pool.")
derived_values = _common.no_derived_values
update = _common.resample


def prepare(state: Any, deadline: float | None) -> tuple[Any, str] | None:
    """Grow the pool and measure each product's variance toward d_k in slices; the tower rises as it goes."""
    done = pool(state.seed, state.n).variances_until(state.dk, deadline)
    return None if done >= state.dk else (replace(state, dk=done),
                                          _("measuring product {done} of {dk}").format(done=done, dk=state.dk))


def parse(p: params.Params) -> Any:
    """State from parameters ``dk`` (1-512), ``n`` (100-10000) and ``seed``."""
    return params.parse(PARAMS, State, p)


def measured(state: State) -> tuple[list[float], float]:
    """The variance of each product q_i k_i and the variance of their sum, the score."""
    p = pool(state.seed, state.n)
    return p.product_variances(state.dk), stats.variance(p.scores(state.dk))


LEFT, RIGHT, TOP, BOTTOM = 40, 470, 56, 330
STACK = (76, 186)
"""The tower's column: the bricks, one per product."""
TOTAL = (346, 446)
"""The column of the whole score's measured variance."""
SUB = "₀₁₂₃₄₅₆₇₈₉"
"""Subscript digits, for the brick labels."""
LABEL_GAP = 20
"""The brick labels sit at least this far apart, whatever the bricks' heights: a leader line joins each to its brick."""


def _brick_labels(sy: Linear, bars: list[float]) -> list[str]:
    """The first two bricks named with their measured variance, each label on its own line beside the tower."""
    parts = []
    for i, v in enumerate(bars[:2]):
        middle = sy(stats.total(bars[:i]) + v / 2)
        y = min(middle, BOTTOM - 8 - LABEL_GAP * i)
        x = STACK[1] + 26
        parts.append(marks.line(STACK[1] + 2, middle, x - 4, y - 4, "sq-leader"))
        parts.append(text(x, y, f"Var(q{SUB[i + 1]}k{SUB[i + 1]}) = {fmt(v, 2)}", "sq-value"))
    return parts


def render(state: State) -> str:
    """The stacked tower, the measured score variance beside it, and the line at height d_k."""
    bars, total = measured(state)
    stacked = stats.total(bars)
    top_value = nice_ceil(max(state.dk, total, stacked) * 1.08)

    sy = Linear(0.0, top_value, BOTTOM, TOP)
    heading = (_("dₖ = {dk} products, each adding its variance") if state.dk > 1
               else _("dₖ = {dk} product, each adding its variance")).format(dk=state.dk)
    parts = [text(8, 22, heading, "sq-heading")]
    for t in ticks(0, top_value, 5):
        parts.append(marks.line(LEFT, sy(t), RIGHT, sy(t), "sq-axis" if t == 0 else "sq-grid"))
        parts.append(text(LEFT - 6, sy(t) + 4, fmt(t, 2), "sq-tick", "end"))
    x0, x1 = STACK
    stack, height = [], 0.0
    for i, v in enumerate(bars):
        stack.append(marks.rect(x0, sy(height + v), x1 - x0, sy(height) - sy(height + v),
                                f"sq-brick sq-brick--{i % 2}"))
        height += v
    dense = sy(0) - sy(stacked / state.dk) < 3  # bricks thinner than their outlines: drawn without them
    parts.append(el("g", {"class": "sq-tower sq-tower--dense" if dense else "sq-tower"}, stack))
    stacked_words = (_("{dk} brick stacked") if state.dk == 1 else _("{dk} bricks stacked")).format(dk=state.dk)
    parts.append(text((x0 + x1) / 2, BOTTOM + 18, stacked_words, "sq-tick", "middle"))
    parts.append(text((x0 + x1) / 2, sy(stacked) - 6, sig(stacked), "sq-value", "middle"))
    parts += _brick_labels(sy, bars)
    sx0, sx1 = TOTAL
    parts.append(marks.rect(sx0, sy(total), sx1 - sx0, BOTTOM - sy(total), "sq-bar sq-total"))
    parts.append(text((sx0 + sx1) / 2, BOTTOM + 18, _("Var(q·k), measured"), "sq-tick", "middle"))
    parts.append(text((sx0 + sx1) / 2, sy(total) - 6, sig(total), "sq-value", "middle"))
    parts.append(marks.line(LEFT, sy(state.dk), RIGHT, sy(state.dk), "sq-target"))
    parts.append(text((STACK[1] + TOTAL[0]) / 2, sy(state.dk) - 6,
                      _("dashed line: dₖ = {dk}").format(dk=state.dk), "sq-value", "middle"))
    label = _("{dk} bars of about 1 each stack to {stacked}; the measured variance of the score is {total}, next to "
              "the line at d_k = {dk}").format(dk=state.dk, stacked=sig(stacked), total=sig(total))
    return svg(480, 360, label, parts, "sq-variance-tower")


def readouts(state: State) -> dict[str, str]:
    """d_k, the measured score variance, and the height of the stacked bars."""
    bars, total = measured(state)
    return {"dk": str(state.dk), "total": sig(total), "bars": sig(stats.total(bars))}


SNIPPET = """rng = np.random.default_rng(seed)
q, k = rng.standard_normal((2, n, dk))  # n random (query, key) pairs
products = q * k                         # column i holds the n products q_i k_i
print("dk:", dk)
print("total:", sig(products.sum(axis=1).var(ddof=1)))  # the variance of the score, their sum
print("expected total:", sig(dk))
print("bars:", sig(products.var(axis=0, ddof=1).sum()))  # each product's variance, stacked
print("expected bars:", sig(dk))
"""


def snippet(state: State) -> str:
    """The products' variances and the score's, from n pairs drawn in numpy."""
    return _snippet.script(TITLE, {"dk": state.dk, "n": state.n, "seed": state.seed}, SNIPPET,
                           {"n": "(query, key) pairs"}, sampled=True)
