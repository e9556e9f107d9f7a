"""Step 6: where each divisor leaves softmax as d_k grows, and what a nudge can still do there.

Two charts over d_k = 1 … 512 on a log axis, for the same rows as the saturation figure: the median
largest weight of a row (÷1 climbs toward 1, a spike; ÷d_k falls toward 1/n, even; ÷√d_k stays put),
and the median of how far nudging the row's largest score moves its weights (÷1 first moves too much, then
nothing once its rows are spikes; ÷d_k less and less; ÷√d_k the same at every d_k).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from .. import marks, operating, params, rows
from ..detmath import log
from ..i18n import N_, _, clauses
from ..svg import fmt, sig, svg, text
from . import _chart, _common, _snippet

TITLE = N_("Where each divisor leaves softmax as dₖ grows")
PAGE = "step-6/"
HEIGHT = 620
READOUTS = (("dk", "dₖ"), ("max-weight-none", N_("largest weight, none")),
            ("max-weight-sqrt", N_("largest weight, ÷√dₖ")), ("max-weight-dk", N_("largest weight, ÷dₖ")),
            ("moved-none", N_("a nudge moves, none")), ("moved-sqrt", N_("a nudge moves, ÷√dₖ")),
            ("moved-dk", N_("a nudge moves, ÷dₖ")), ("one-over-n", N_("even: 1/n")))
PARAMS = (
    _common.dk(64, control="range", label="dₖ", scale="log", sample="16"),
    params.integer("n", 16, 2, 512, N_("Keys per row: the length of each softmax."), control="range",
                   label=N_("n, keys per row"), scale="log", sample="128"),
    params.integer("rows", 500, 50, 2000, N_("How many rows (queries) are drawn."), control="range",
                   label=N_("rows"), step=50, sample="100", advanced=True),
    _common.seed(control="text", label=N_("seed")),
)
CONTROLS = params.controls(PARAMS)
State = params.state_class(PARAMS, "Which rows to follow across d_k: one query against n keys, rows times over.")
derived_values = _common.no_derived_values
update = _common.resample
SERIES = _common.SERIES
MOVED_LO = -4
"""The nudge chart's axis starts at 10^MOVED_LO; a smaller median is drawn on the bottom edge and said so."""


def parse(p: params.Params) -> Any:
    """State from ``dk`` (1-512), ``n`` (2-512), ``rows`` (50-2000) and ``seed``."""
    return params.parse(PARAMS, State, p)


def _work(state: Any) -> tuple[operating.Operating, operating.Operating]:
    """The rows across CHART_DKS, and at the reader's d_k."""
    return (operating.operating(state.seed, state.n, rows.CHART_DKS),
            operating.operating(state.seed, state.n, (state.dk,)))


def prepare(state: Any, deadline: float | None) -> tuple[Any, str] | None:
    """Draw the rows in slices; the rows drawn so far are shown as a smaller state."""
    for o in _work(state):
        o.ensure(state.rows, deadline)
    ready = min(o.done for o in _work(state))
    return None if ready >= state.rows else (replace(state, rows=ready),
                                             _("drawing row {ready} of {rows}").format(ready=ready, rows=state.rows))


def curves(state: Any) -> dict[str, dict[tuple[str, int], float]]:
    """Medians at every d_k of the chart."""
    return operating.medians(state.seed, state.rows, state.n, rows.CHART_DKS)


def at_dk(state: Any) -> dict[str, dict[tuple[str, int], float]]:
    """Medians at the reader's d_k."""
    return operating.medians(state.seed, state.rows, state.n, (state.dk,))


def _log2(x: float) -> float:
    return log(x) / log(2.0)


def _log10(x: float) -> float:
    return log(x) / log(10.0) if x > 0 else -math.inf


def _dk_axis() -> list[tuple[float, str]]:
    return [(_log2(dk), str(dk)) for dk in (1, 4, 16, 64, 256)]


def _marker(ax: _chart.Axes, state: Any) -> str:
    x = ax.x(_log2(state.dk))
    return marks.line(x, ax.y.r1, x, ax.y.r0, "sq-target")


def _legend(y: float) -> list[str]:
    return _chart.legend(56, y, [(SERIES[d], _common.legend_name(d)) for d in rows.DIVISORS])


def _weights_panel(state: Any, med: dict[tuple[str, int], float]) -> str:
    ax = _chart.axes(0.0, 9.0, 0.0, 1.0)
    parts = _chart.frame(ax, _("Largest weight of a row (median)"), _dk_axis(),
                         [(v / 4, fmt(v / 4)) for v in range(5)], _("dₖ (log scale)"))
    even = 1 / state.n
    parts.append(marks.line(ax.x.r0, ax.y(even), ax.x.r1, ax.y(even), "sq-guide"))
    parts += [marks.line(196, 137, 214, 137, "sq-guide"), text(218, 141, _("1/n: even"), "sq-tick")]
    parts.append(_marker(ax, state))
    xs = [_log2(dk) for dk in rows.CHART_DKS]
    for d in rows.DIVISORS:
        parts.append(_chart.series(ax, xs, [med[d, dk] for dk in rows.CHART_DKS], SERIES[d]))
    parts += _chart.legend(196, 96, [(SERIES[d], _common.legend_name(d)) for d in rows.DIVISORS])
    label = _("Median largest weight at d_k = 1 to 512: {curves}").format(curves=clauses(
        _common.listed(d, ", ".join(sig(med[d, dk], 2) for dk in rows.CHART_DKS)) for d in rows.DIVISORS))
    return svg(_chart.W, _chart.H, label, parts, "sq-svg--stage sq-svg--chart")


def _moved_panel(state: Any, med: dict[tuple[str, int], float]) -> str:
    ax = _chart.axes(0.0, 9.0, float(MOVED_LO), 0.0)
    yt = [(float(k), fmt(10.0 ** k, -MOVED_LO)) for k in range(MOVED_LO, 1)]
    parts = _chart.frame(ax, _("Largest score nudged by {nudge}").format(nudge=fmt(operating.NUDGE)), _dk_axis(), yt,
                         _("dₖ (log scale; weights moved, log scale)"))
    parts.append(_marker(ax, state))
    xs = [_log2(dk) for dk in rows.CHART_DKS]
    below = []
    for d in rows.DIVISORS:
        ys = [_log10(med[d, dk]) for dk in rows.CHART_DKS]
        parts.append(_chart.series(ax, xs, [max(y, MOVED_LO) for y in ys], SERIES[d]))
        off = [dk for dk, y in zip(rows.CHART_DKS, ys) if y < MOVED_LO]
        if off:
            below.append(_("{divisor} below {floor} from dₖ = {dk}").format(
                divisor=_common.legend_name(d), floor=fmt(10.0 ** MOVED_LO, -MOVED_LO), dk=off[0]))
    for i, note in enumerate(below):
        parts.append(text(ax.x.r0 + 4, ax.y.r0 - 6 - 14 * i, note, "sq-tick"))
    parts += _legend(ax.y.r0 - 62)
    label = _("Median total change of the weights when the row's largest score is nudged up by {nudge}, at d_k = 1 "
              "to 512, log scale: {curves}").format(nudge=fmt(operating.NUDGE), curves=clauses(
        _common.listed(d, ", ".join(sig(med[d, dk], 2) for dk in rows.CHART_DKS)) for d in rows.DIVISORS))
    return svg(_chart.W, _chart.H, label, parts, "sq-svg--stage sq-svg--chart")


def render(state: Any) -> str:
    """The median largest weight and the median weight moved by a nudge, against d_k, for the three divisors."""
    med = curves(state)
    return _weights_panel(state, med["max-weight"]) + _moved_panel(state, med["moved"])


def caption(state: Any) -> str:
    """The caption's live line: which rows are followed, and where the marker stands."""
    return _("{rows} rows, each one query against n = {n} keys; the marker is at dₖ = {dk}, where the readouts are "
             "taken.").format(rows=state.rows, n=state.n, dk=state.dk)


def readouts(state: Any) -> dict[str, str]:
    """At the reader's d_k, per divisor: the median largest weight and the median weight a nudge moves; and 1/n."""
    med = at_dk(state)
    out = {"dk": str(state.dk)}
    for name in ("max-weight", "moved"):
        for d in rows.DIVISORS:
            out[f"{name}-{d}"] = sig(med[name][d, state.dk], 3)
    out["one-over-n"] = sig(1 / state.n, 3)
    return out


SNIPPET = """rng = np.random.default_rng(seed)
q = rng.standard_normal((rows, dk))  # one query per row
K = rng.standard_normal((rows, n, dk))  # against n keys
raw = np.einsum("rd,rnd->rn", q, K)  # q·k: unit-size scores stretched by sqrt(dk)
nudged = raw.copy()
nudged[np.arange(rows), raw.argmax(axis=1)] += nudge * np.sqrt(dk)  # each row's largest unit-size score nudged up


def weights(s):
    e = np.exp(s - s.max(axis=1, keepdims=True))  # softmax of every row
    return e / e.sum(axis=1, keepdims=True)


largest, moved = {}, {}
for name, c in (("none", 1.0), ("sqrt", np.sqrt(dk)), ("dk", float(dk))):
    p = weights(raw / c)
    largest[name] = np.median(p.max(axis=1))
    moved[name] = np.median(np.abs(weights(nudged / c) - p).sum(axis=1))
print("dk:", dk)
for name in ("none", "sqrt", "dk"):
    print(f"max-weight-{name}:", sig(largest[name], 3))
for name in ("none", "sqrt", "dk"):
    print(f"moved-{name}:", sig(moved[name], 3))
print("one-over-n:", sig(1 / n, 3))
"""


def snippet(state: Any) -> str:
    """The rows as full vectors in numpy, at the reader's d_k."""
    return _snippet.script(TITLE, {"dk": state.dk, "n": state.n, "rows": state.rows, "seed": state.seed,
                                   "nudge": operating.NUDGE}, SNIPPET,
                           {"n": "keys per row", "rows": "queries", "nudge": "how far each row's largest unit-size score is nudged up"},
                           sampled=True)
