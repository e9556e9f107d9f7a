"""Step 5: many rows at once. How many saturate, and how big each row's gradients are."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from .. import marks, params, rows, stats
from ..detmath import log
from ..i18n import N_, _, clauses
from ..svg import fmt, sig, svg, text
from . import _chart, _common, _hist, _snippet

TITLE = N_("Saturation over many rows")
PAGE = "step-5/"
HEIGHT = 760
READOUTS = (("saturated", N_("saturated share (largest weight > 0.99)")),
            ("median-max-weight", N_("median largest weight")),
            ("median-jacobian", N_("median ‖J‖")),
            ("median-grad-q", N_("median ‖∂p/∂q‖")))
PARAMS = (
    _common.dk(64, control="range", label="dₖ", sample="128"),
    params.integer("n", 16, 2, 512, N_("Keys per row: the length of each softmax."), control="range",
                   label=N_("n, keys per row"), sample="8"),
    _common.divisor("none", control="choice", label=N_("divide by")),
    params.integer("rows", 500, 50, 2000, N_("How many rows (queries) are drawn."), control="range",
                   label=N_("rows"), step=50, sample="100", advanced=True),
    _common.seed(control="text", label=N_("seed")),
    params.choice("gradients", "show", (("show", N_("show")), ("hide", N_("hide"))),
                  N_("Whether the panel of gradient sizes (‖J‖ and ‖∂p/∂q‖ on a log axis) is drawn.")),
)
CONTROLS = (*params.controls(PARAMS), _common.RESAMPLE)
State = params.state_class(PARAMS, "Which rows to draw: one query against n keys, rows times over.")
derived_values = _common.no_derived_values
update = _common.resample

LOG_LO, LOG_HI, LOG_BINS = -8.0, 2.0, 40
"""The gradient panel's axis: log10 of the norm; smaller norms (and exact zeros) pile into the first bin."""
SERIES = _common.SERIES


def parse(p: params.Params) -> Any:
    """State from ``dk`` (1-512), ``n`` (2-512), ``divisor``, ``rows`` (50-2000) and ``seed``."""
    return params.parse(PARAMS, State, p)


def prepare(state: Any, deadline: float | None) -> tuple[Any, str] | None:
    """Draw the rows in slices; the rows drawn so far are shown as a smaller state."""
    ready = rows.prepare(state.seed, state.rows, state.n, state.dk, state.divisor, deadline)
    return None if ready >= state.rows else (replace(state, rows=ready),
                                             _("drawing row {ready} of {rows}").format(ready=ready, rows=state.rows))


def result(state: State) -> rows.Rows:
    """Every row's numbers for this state (cached in ``rows``)."""
    return rows.compute(state.seed, state.rows, state.n, state.dk, state.divisor)


def log10(x: float) -> float:
    """log10 from detmath, so bins agree in every runtime; 0 maps below the axis."""
    return log(x) / log(10.0) if x > 0 else -math.inf


def _shares(values: list[float], lo: float, hi: float, bins: int) -> list[float]:
    """Share of the values in each bin; values below lo count in the first bin, above hi in the last."""
    clipped = [lo if v < lo else hi if v > hi else v for v in values]
    counts = stats.histogram(clipped, lo, hi, bins)[0]
    return [c / len(values) for c in counts]


def _weights_panel(state: State, r: rows.Rows, share: float) -> str:
    edges = stats.edges(0.0, 1.0, 20)
    shares = _shares(list(r.max_weight), 0.0, 1.0, 20)
    top = max(0.25, math.ceil(max(shares) * 4 + 0.001) / 4)
    ax = _chart.axes(0.0, 1.0, 0.0, top)
    parts = _chart.frame(ax, _("Largest weight of each row"), [(v / 4, fmt(v / 4)) for v in range(5)],
                         _chart.share_ticks(top), _("largest weight (share of rows per bin)"))
    parts.append(_chart.count_bars(ax, edges, shares, "sq-bin"))
    x = ax.x(rows.SATURATED)
    parts.append(marks.line(x, ax.y.r1 - 4, x, ax.y.r0, "sq-target"))
    parts.append(text(x - 4, ax.y.r1 + 8, f"> 0.99: {fmt(100 * share, 1)}%", "sq-value", "end"))
    label = _("Histogram of the largest weight in each of {rows} rows; {share}% of rows are above 0.99").format(
        rows=state.rows, share=fmt(100 * share, 1))
    return svg(_chart.W, _chart.H, label, parts, "sq-svg--stage sq-svg--chart")


def _gradient_panel(state: State, r: rows.Rows) -> str:
    edges = stats.edges(LOG_LO, LOG_HI, LOG_BINS)
    j = _shares([log10(v) for v in r.jacobian], LOG_LO, LOG_HI, LOG_BINS)
    g = _shares([log10(v) for v in r.grad_q], LOG_LO, LOG_HI, LOG_BINS)
    top = max(0.25, math.ceil(max(j + g) * 10 + 0.001) / 10)
    ax = _chart.axes(LOG_LO, LOG_HI, 0.0, top)
    xt = [(v, "1" if v == 0 else f"10{_sup(int(v))}") for v in (-8.0, -6.0, -4.0, -2.0, 0.0, 2.0)]
    parts = _chart.frame(ax, _("Gradient size of each row"), xt, _chart.share_ticks(top),
                         _("norm, log scale (share of rows per bin)"))
    parts.append(_chart.step_line(ax, edges, j, "sq-series--jac"))
    parts.append(_chart.step_line(ax, edges, g, "sq-series--gq"))
    n_grad = len(r.grad_q)
    gq_label = "‖∂p/∂q‖" if n_grad == state.rows else _("‖∂p/∂q‖, first {rows} rows").format(rows=n_grad)
    parts += _chart.legend(56, 52, [("sq-series--jac", "‖J‖ (softmax)"), ("sq-series--gq", gq_label)])
    label = _("Histograms on a log axis of two gradient sizes per row: the softmax Jacobian norm, median {jacobian}, "
              "and the norm of the weights' gradient with respect to the query, median {grad_q}").format(
        jacobian=sig(rows.median(r.jacobian)), grad_q=sig(rows.median(r.grad_q)))
    return svg(_chart.W, _chart.H, label, parts, "sq-svg--stage sq-svg--chart")


def _sup(k: int) -> str:
    """An integer in superscript digits."""
    return str(k).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))


def _curve_panel(state: State) -> str:
    curves = rows.share_curve(state.seed, state.rows, state.n)
    xs = [log(dk) / log(2.0) for dk in rows.CHART_DKS]
    ax = _chart.axes(0.0, 9.0, 0.0, 1.0)
    xt = [(log(dk) / log(2.0), str(dk)) for dk in (1, 4, 16, 64, 256)]
    parts = _chart.frame(ax, _("Saturated share against dₖ, n = {n}").format(n=state.n), xt,
                         _chart.share_ticks(1.0), _("dₖ (log scale)"))
    x = ax.x(log(state.dk) / log(2.0))
    parts.append(marks.line(x, ax.y.r1, x, ax.y.r0, "sq-target"))
    for divisor in rows.DIVISORS:
        parts.append(_chart.series(ax, xs, curves[divisor], SERIES[divisor]))
    parts += _chart.legend(56, 52, [(SERIES[d], _common.legend_name(d)) for d in rows.DIVISORS])
    label = _("Share of saturated rows at d_k = 1 to 512: {curves}").format(curves=clauses(
        _common.listed(d, ", ".join(f"{fmt(100 * v, 1)}%" for v in curves[d])) for d in rows.DIVISORS))
    return svg(_chart.W, _chart.H, label, parts, "sq-svg--stage sq-svg--chart")


def render(state: State) -> str:
    """Largest weights, both gradient sizes on a log axis (unless hidden), and saturation against d_k."""
    r = result(state)
    share = sum(r.saturated) / state.rows
    gradients = _gradient_panel(state, r) if state.gradients == "show" else ""
    return _weights_panel(state, r, share) + gradients + _curve_panel(state)


def caption(state: State) -> str:
    """The caption's live line: which rows are drawn now."""
    return _("{rows} rows, each one query against n = {n} keys, {scaling}, at dₖ = {dk}.").format(
        rows=state.rows, n=state.n, scaling=_hist.divisor_label(state.dk, state.divisor), dk=state.dk)


def readouts(state: State) -> dict[str, str]:
    """Saturated share and the medians of the largest weight, ‖J‖ and ‖∂p/∂q‖."""
    r = result(state)
    return {"saturated": sig(sum(r.saturated) / state.rows, 3),
            "median-max-weight": sig(rows.median(r.max_weight)),
            "median-jacobian": sig(rows.median(r.jacobian)),
            "median-grad-q": sig(rows.median(r.grad_q))}


SNIPPET = _snippet.DIVIDE + """rng = np.random.default_rng(seed)
largest, jac, grad_q = [], [], []
for _ in range(rows):
    q = rng.standard_normal(dk)       # one query
    K = rng.standard_normal((n, dk))  # against n keys
    p = softmax(K @ q / c)
    largest.append(p.max())
    jac.append(jacobian_norm(p))                                  # J = dp/ds
    grad_q.append(np.linalg.norm(p[:, None] * (K - p @ K)) / c)  # dp/dq = J K / c, row i p_i (k_i - p K)
print("saturated:", sig(np.mean(np.array(largest) > saturated_above), 3))
print("median-max-weight:", sig(np.median(largest)))
print("median-jacobian:", sig(np.median(jac)))
print("median-grad-q:", sig(np.median(grad_q)))
"""


def snippet(state: State) -> str:
    """rows queries against n keys each, drawn as full vectors in numpy."""
    return _snippet.script(TITLE, {"dk": state.dk, "n": state.n, "divisor": state.divisor, "rows": state.rows,
                                   "seed": state.seed, "saturated_above": rows.SATURATED}, SNIPPET,
                           {"n": "keys per row", "divisor": _snippet.DIVISOR_NOTE, "rows": "queries",
                            "saturated_above": "a row saturates when its largest weight exceeds this"}, sampled=True)
