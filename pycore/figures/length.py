"""Long rows: ÷√d_k holds the scores' spread at 1 for any d_k, but a row's largest weight still falls toward 0 as n grows
(while staying many times 1/n)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .. import long_rows, marks, params, rows, stats
from ..detmath import log
from ..i18n import N_, _, clauses
from ..svg import el, fmt, sig, svg, text
from ..ticks import nice_ceil
from . import _chart, _common, _snippet

TITLE = N_("Long rows: the largest weight as n grows")
PAGE = "long-rows/"
HEIGHT = 560
READOUTS = (("median-max-weight", N_("median largest weight")),
            ("entropy-ratio", N_("median entropy / ln n")),
            ("saturated", N_("saturated share (largest weight > 0.99)")))
SCALINGS = (("sqrt", "q·k / √dₖ"), ("log-n", "q·k / √dₖ × s·ln n"))
PARAMS = (
    params.integer("n", 1024, 2, long_rows.MAX_N, N_("Keys per row: the length of each softmax."), control="range",
                   label=N_("n, keys per row"), scale="log", sample="16"),
    _common.dk(64, control="range", label="dₖ", sample="16"),
    params.choice("scaling", "sqrt", SCALINGS,
                  N_("sqrt: scores q·k/√d_k; log-n: those scores times s·ln n (Scalable-Softmax)."),
                  control="choice", label=N_("scores")),
    params.number("s", long_rows.DEFAULT_S, 0.05, 2, N_("The factor s of log-n scaling (1/ln 16 by default)."),
                  control="range", label=N_("s (for × s·ln n)"), step=0.01, sample="0.5"),
    params.integer("rows", 200, 50, 1000, N_("How many rows (queries) are drawn."), control="range",
                   label=N_("rows"), step=50, sample="100", advanced=True),
    _common.seed(control="text", label=N_("seed")),
)
CONTROLS = (*params.controls(PARAMS), _common.RESAMPLE)
State = params.state_class(PARAMS, "Which rows to draw: one query against n keys, rows times over, and their scaling.")
update = _common.resample

LOG_LO, LOG_HI, BINS = -4.0, 0.0, 32
"""The histogram's axis: log10 of the largest weight, from 1/10,000 (below 1/4096, the least it can be) to 1."""
PLOT_TOP, SAT_ROW, EVEN_ROW = 56, 36, 50
"""The histogram's plotting box starts below two label rows, so no label meets a bar or the other label: the
saturated share on the first row at the 0.99 line, 1/n on the second beside its own line."""
TICK_CHAR = 6.2
"""A generous width of one character of an 11 px tick label, to choose the side of the 1/n line with room."""
SERIES = {"sqrt": "sq-series--sqrt", "log-n": "sq-series--log-n"}
NAMES = {"sqrt": "÷√dₖ", "log-n": "÷√dₖ × s·ln n"}
SPOKEN = {"sqrt": N_("divided by the square root of d_k"), "log-n": N_("also times s times ln n")}
"""A scaling as an accessible label reads it (in English: translate with ``_``)."""


def derived_values(state: State) -> dict[str, str]:
    """The s control shows s to three digits (its default, 1/ln 16, has seventeen); the state keeps it exact."""
    return {"s": sig(state.s, 3)}


def parse(p: params.Params) -> Any:
    """State from ``n`` (2-4096), ``dk`` (1-512), ``scaling``, ``s`` (0.05-2), ``rows`` (50-1000) and ``seed``."""
    return params.parse(PARAMS, State, p)


def prepare(state: Any, deadline: float | None) -> tuple[Any, str] | None:
    """Draw the rows and both curves in slices; the rows ready so far are shown as a smaller state."""
    ready = long_rows.prepare(state.seed, state.rows, state.n, state.dk, state.scaling, state.s, deadline)
    return None if ready >= state.rows else (replace(state, rows=ready),
                                             _("drawing row {ready} of {rows}").format(ready=ready, rows=state.rows))


def result(state: State) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Each row's largest weight and entropy / ln n."""
    c = long_rows.current(state.seed, state.n, state.dk, state.scaling, state.s)
    c.ensure(state.rows)
    return tuple(c.max_weight[:state.rows]), tuple(c.entropy_ratio[:state.rows])


def curve_medians(state: State) -> dict[str, tuple[float, ...]]:
    """The median largest weight at n = 8 ... 4096 for both scalings, over the state's rows."""
    return {name: long_rows.medians(c, state.rows)
            for name, c in zip(long_rows.SCALINGS, long_rows.curves(state.seed, state.dk, state.s))}


def log10(x: float) -> float:
    """log10 from detmath, so bins agree in every runtime."""
    return log(x) / log(10.0)


def _sup(k: int) -> str:
    return str(k).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))


def _histogram_panel(state: State, largest: tuple[float, ...], share: float) -> str:
    logs = [min(max(log10(v), LOG_LO), LOG_HI) for v in largest]
    counts = stats.histogram(logs, LOG_LO, LOG_HI, BINS)[0]
    shares = [c / len(largest) for c in counts]
    top = max(0.25, nice_ceil(max(shares) * 1.05))
    ax = _chart.axes(LOG_LO, LOG_HI, 0.0, top, top=PLOT_TOP)
    xt = [(float(k), "1" if k == 0 else f"10{_sup(k)}") for k in range(-4, 1)]
    parts = _chart.frame(ax, _("Largest weight of each row"), xt, _chart.share_ticks(top),
                         _("largest weight, log scale (share of rows)"))
    parts.append(_chart.count_bars(ax, stats.edges(LOG_LO, LOG_HI, BINS), shares, "sq-bin"))
    x_sat = ax.x(log10(rows.SATURATED))
    parts.append(marks.line(x_sat, SAT_ROW - 10, x_sat, ax.y.r0, "sq-target"))
    parts.append(text(x_sat - 4, SAT_ROW, _("> 0.99: {share}% of rows").format(share=fmt(100 * share, 1)), "sq-value",
                      "end"))
    x_even = ax.x(log10(1 / state.n))
    parts.append(marks.line(x_even, EVEN_ROW - 9, x_even, ax.y.r0, "sq-axis"))
    parts.append(_even_label(x_even, ax.x.r0, f"1/n = {sig(1 / state.n, 2)}"))
    label = _("Histogram, on a log axis, of the largest weight in each of {rows} rows of n = {n} keys: median "
              "{median}; an even row would give 1/n = {even}; {share}% of rows are above 0.99").format(
        rows=state.rows, n=state.n, median=sig(rows.median(largest)), even=sig(1 / state.n, 2),
        share=fmt(100 * share, 1))
    return svg(_chart.W, _chart.H, label, parts, "sq-svg--stage sq-svg--chart")


def _even_label(x: float, left: float, words: str) -> str:
    """The 1/n label on its row: left of its line where it fits (no bar is ever below 1/n), else right of it, far
    from the 0.99 line, since then 1/n is below 10⁻²."""
    if x - left >= TICK_CHAR * len(words) + 4:
        return text(x - 4, EVEN_ROW, words, "sq-tick", "end")
    return text(x + 4, EVEN_ROW, words, "sq-tick")


def _curve_panel(state: State, current: float) -> str:
    medians = curve_medians(state)
    xs = [log(float(n)) / log(2.0) for n in long_rows.CHART_NS]
    top = max(0.2, nice_ceil(max(max(v) for v in medians.values()) * 1.05))
    ax = _chart.axes(xs[0], xs[-1], 0.0, top)
    step = 0.1 if top <= 0.5 else 0.25
    yt = [(k * step, fmt(k * step)) for k in range(int(top / step + 1e-9) + 1)]
    xt = [(log(float(n)) / log(2.0), str(n)) for n in (8, 64, 512, 4096)]
    parts = _chart.frame(ax, _("Median largest weight, dₖ = {dk}").format(dk=state.dk), xt, yt,
                         _("n, keys per row (log scale)"))
    if state.n >= long_rows.CHART_NS[0]:
        x = ax.x(log(float(state.n)) / log(2.0))
        parts.append(marks.line(x, ax.y(current), x, ax.y.r0, "sq-target"))
        parts.append(el("g", {"class": f"sq-series {SERIES[state.scaling]}"},
                        [el("circle", {"cx": x, "cy": ax.y(current), "r": 5, "class": "sq-now"})]))
    for name in long_rows.SCALINGS:
        parts.append(_chart.series(ax, xs, medians[name], SERIES[name]))
    parts += _chart.legend(150, 52, [(SERIES[d], NAMES[d]) for d in long_rows.SCALINGS])
    label = _("Median largest weight at n = 8, 16, ..., 4096 for d_k = {dk}; {curves}. The current n = {n} is "
              "marked.").format(dk=state.dk, n=state.n, curves=clauses(
                  _("{divisor}: {values}").format(divisor=_(SPOKEN[d]), values=", ".join(sig(v, 2) for v in medians[d]))
                  for d in long_rows.SCALINGS))
    return svg(_chart.W, _chart.H, label, parts, "sq-svg--stage sq-svg--chart")


def render(state: State) -> str:
    """Two panels: the rows' largest weights, and the median largest weight against n for both scalings."""
    largest = result(state)[0]
    share = saturated_share(largest)
    return _histogram_panel(state, largest, share) + _curve_panel(state, rows.median(largest))


def saturated_share(largest: tuple[float, ...]) -> float:
    """The share of rows whose largest weight exceeds 0.99."""
    hits = 0
    for v in largest:
        hits += v > rows.SATURATED
    return hits / len(largest)


def caption(state: State) -> str:
    """The caption's live line: which rows are drawn now and what their readouts say."""
    r = readouts(state)
    ratio = state.n * float(r["median-max-weight"])
    line = (_("{rows} rows of n = {n} keys each at dₖ = {dk}, with ÷√dₖ: the median largest weight is {median}, "
              "{ratio} times 1/n, and {share}% of rows are above 0.99, the mark of a spike.")
            if state.scaling == "sqrt" else
            _("{rows} rows of n = {n} keys each at dₖ = {dk}, with ÷√dₖ × s·ln n (s = {s}): the median largest weight "
              "is {median}, {ratio} times 1/n, and {share}% of rows are above 0.99, the mark of a spike."))
    return line.format(rows=state.rows, n=state.n, dk=state.dk, s=sig(state.s, 3), median=r["median-max-weight"],
                       ratio=sig(ratio, 2), share=fmt(100 * float(r["saturated"]), 1))


def readouts(state: State) -> dict[str, str]:
    """The median largest weight, the median entropy / ln n and the saturated share."""
    largest, ratio = result(state)
    return {"median-max-weight": sig(rows.median(largest)),
            "entropy-ratio": sig(rows.median(ratio)),
            "saturated": sig(saturated_share(largest), 3)}


SNIPPET = """rng = np.random.default_rng(seed)
scale = 1 / np.sqrt(dk) * (s * np.log(n) if scaling == "log-n" else 1.0)
largest, ratio = [], []
for _ in range(rows):
    q = rng.standard_normal(dk)       # one query
    K = rng.standard_normal((n, dk))  # against n keys
    p = softmax(K @ q * scale)
    largest.append(p.max())
    ratio.append(entropy(p) / np.log(n))  # 1 for an even row, 0 for a spike
print("median-max-weight:", sig(np.median(largest)))
print("entropy-ratio:", sig(np.median(ratio)))
print("saturated:", sig(np.mean(np.array(largest) > saturated_above), 3))
"""


def snippet(state: State) -> str:
    """rows queries against n keys each, drawn as full vectors in numpy."""
    return _snippet.script(TITLE, {"n": state.n, "dk": state.dk, "scaling": state.scaling, "s": state.s,
                                   "rows": state.rows, "seed": state.seed, "saturated_above": rows.SATURATED},
                           SNIPPET, {"n": "keys per row", "scaling": "sqrt (q·k/√dk) or log-n (that times s·ln n)",
                                     "s": "used by log-n", "rows": "queries",
                                     "saturated_above": "a row saturates when its largest weight exceeds this"},
                           sampled=True)
