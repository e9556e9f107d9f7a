"""After initialization: when q and k align, q·k grows like ρ·d_k, and ÷√d_k no longer holds it at 1."""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import Any

from .. import marks, params, rows, stats
from ..growing import Growing
from ..i18n import N_, _
from ..sampling import chi_square, normals
from ..svg import fmt, sig, svg, text
from ..ticks import nice_ceil, ticks
from . import _chart, _common, _hist, _snippet

TITLE = N_("When query and key align")
PAGE = "assumptions/"
HEIGHT = 560
PAIRS = 2000
"""Rows drawn; each row's aligned pair is one sample of the histogram."""
READOUTS = (("mean-score", N_("mean q·k/c")), ("theory-mean", N_("theory ρ·dₖ/c")),
            ("std-score", N_("standard deviation")), ("theory-std", N_("theory √(dₖ(1+ρ²))/c")),
            ("saturated", N_("saturated share (largest weight > 0.99)")))
PARAMS = (
    params.number("rho", 0.5, 0, 1, N_("Alignment: q = ρ·k + √(1−ρ²)·z with k and z independent N(0, I)."),
                  control="range", label=N_("alignment ρ"), step=0.05, sample="0.8"),
    _common.dk(256, control="range", label="dₖ", sample="32"),
    _common.divisor("sqrt", control="choice", label=N_("divide by")),
    params.integer("n", 16, 2, 512, N_("Keys per row: the aligned key and n − 1 independent ones."),
                   control="range", label=N_("n, keys per row"), sample="4"),
    _common.seed(control="text", label=N_("seed")),
)
CONTROLS = (*params.controls(PARAMS), _common.RESAMPLE)
State = params.state_class(PARAMS, "How aligned each query is with its key, and how the scores are scaled.")
derived_values = _common.no_derived_values
update = _common.resample


def parse(p: params.Params) -> Any:
    """State from ``rho`` (0-1), ``dk`` (1-512), ``divisor``, ``n`` (2-512) and ``seed``."""
    return params.parse(PARAMS, State, p)


class Draws(Growing):
    """Per row, drawn exactly from a few scalars: the aligned pair's raw score q·k and whether the row saturates.

    With z·k = ‖k‖·g (g ~ N(0, 1)) and ‖z‖² = g² + χ²_{d_k−1}: q·k = ρ‖k‖² + √(1−ρ²)‖k‖g and
    ‖q‖² = ρ²‖k‖² + 2ρ√(1−ρ²)‖k‖g + (1−ρ²)‖z‖²; an independent key scores ‖q‖·h with h ~ N(0, 1).
    """

    def __init__(self, rho: float, dk: int, divisor: str, n: int, seed: int) -> None:
        super().__init__()
        self.rho, self.dk, self.n = rho, dk, n
        self.c = rows.divisor_value(dk, divisor)
        self._rng = random.Random(f"{seed}:aligned")
        self.aligned: list[float] = []
        self.saturated: list[bool] = []

    def _row(self, r: int) -> None:
        rng, rho, side = self._rng, self.rho, math.sqrt(1 - self.rho * self.rho)
        k2 = chi_square(rng, self.dk)
        g = normals(rng, 1)[0]
        z2 = g * g + (chi_square(rng, self.dk - 1) if self.dk > 1 else 0.0)
        kn = math.sqrt(k2)
        s1 = rho * k2 + side * kn * g
        qn = math.sqrt(max(0.0, rho * rho * k2 + 2 * rho * side * kn * g + side * side * z2))
        scores = [s1 / self.c] + [qn * h / self.c for h in normals(rng, self.n - 1)]
        top = max(scores)
        self.aligned.append(s1)
        self.saturated.append(rows.saturated(tuple(sorted(top - s for s in scores)[1:]), 1.0))


@lru_cache(maxsize=8)
def draws(rho: float, dk: int, divisor: str, n: int, seed: int) -> Draws:
    """The shared, growing rows of one state."""
    return Draws(rho, dk, divisor, n, seed)


def prepare(state: Any, deadline: float | None) -> tuple[Any, str] | None:
    """Draw the PAIRS rows in slices; nothing new is drawn until they are all there."""
    d = draws(state.rho, state.dk, state.divisor, state.n, state.seed)
    return None if d.ensure(PAIRS, deadline) else (None, _("drawing pair {done} of {pairs}").format(done=d.done,
                                                                                                   pairs=PAIRS))


def result(state: Any) -> Draws:
    """The rows for this state, all PAIRS of them."""
    d = draws(state.rho, state.dk, state.divisor, state.n, state.seed)
    d.ensure(PAIRS)
    return d


def theory(state: State) -> tuple[float, float]:
    """Mean ρ·d_k/c and standard deviation √(d_k(1 + ρ²))/c of q·k/c."""
    c = rows.divisor_value(state.dk, state.divisor)
    return state.rho * state.dk / c, math.sqrt(state.dk * (1 + state.rho * state.rho)) / c


def scaled(state: State) -> list[float]:
    """The aligned pairs' scores q·k/c."""
    c = rows.divisor_value(state.dk, state.divisor)
    return [s / c for s in result(state).aligned]


def render(state: State) -> str:
    """Histogram of the aligned pairs' scores with the theoretical mean marked."""
    values = scaled(state)
    mean_t, sd_t = theory(state)
    hi = nice_ceil(max(abs(mean_t) + 4 * sd_t, 1e-9))
    lo = -hi if mean_t < 2 * sd_t else 0.0 if mean_t - 4 * sd_t > 0 else -hi / 2
    bins = 40
    edges = stats.edges(lo, hi, bins)
    counts = stats.histogram([lo if v < lo else hi if v > hi else v for v in values], lo, hi, bins)[0]
    shares = [k / len(values) for k in counts]
    top = max(0.05, math.ceil(max(shares) * 20 + 0.001) / 20)
    ax = _chart.axes(lo, hi, 0.0, top, left=46, right=588)
    xt = [(t, fmt(t, 3)) for t in ticks(lo, hi)]
    name = {"none": "q·k", "sqrt": "q·k / √dₖ", "dk": "q·k / dₖ"}[state.divisor]
    parts = _chart.frame(ax, _("Scores of aligned pairs, ρ = {rho}, dₖ = {dk}").format(rho=fmt(state.rho), dk=state.dk),
                         xt, _chart.share_ticks(top),
                         _("{score} (share of {pairs} pairs per bin)").format(score=name, pairs=PAIRS))
    parts.append(_chart.count_bars(ax, edges, shares, "sq-bin"))
    x = ax.x(mean_t)
    parts.append(marks.line(x, ax.y.r1, x, ax.y.r0, "sq-target"))
    parts.append(text(x + 4, ax.y.r1 + 10, f"ρ·dₖ/c = {fmt(mean_t, 2)}", "sq-value"))
    if 0 >= lo:
        parts.append(marks.line(ax.x(0), ax.y.r1, ax.x(0), ax.y.r0, "sq-axis"))
    share = sum(result(state).saturated) / PAIRS
    parts.append(text(588, 20, _("rows saturated: {share}%").format(share=fmt(100 * share, 1)), "sq-value", "end"))
    label = _("Histogram of {pairs} aligned pairs' scores {score} for rho {rho} and d_k {dk}: mean {mean}, theory "
              "{theory}; {share}% of rows saturated").format(
        pairs=PAIRS, score=name, rho=fmt(state.rho), dk=state.dk, mean=sig(stats.mean(values)), theory=sig(mean_t),
        share=fmt(100 * share, 1))
    return svg(600, _chart.H, label, parts, "sq-correlated")


def caption(state: State) -> str:
    """The caption's live line: the setting drawn now."""
    return _("ρ = {rho} at dₖ = {dk}, {scaling}, {pairs} rows of n = {n} keys.").format(
        rho=fmt(state.rho), dk=state.dk, scaling=_hist.divisor_label(state.dk, state.divisor), pairs=PAIRS, n=state.n)


def readouts(state: State) -> dict[str, str]:
    """Mean and standard deviation of the aligned scores, their closed forms, and the saturated share."""
    values = scaled(state)
    mean_t, sd_t = theory(state)
    return {"mean-score": sig(stats.mean(values)), "theory-mean": sig(mean_t),
            "std-score": sig(math.sqrt(stats.variance(values))), "theory-std": sig(sd_t),
            "saturated": sig(sum(result(state).saturated) / PAIRS, 3)}


SNIPPET = _snippet.DIVIDE + """rng = np.random.default_rng(seed)
aligned, largest = [], []
for _ in range(pairs):
    K = rng.standard_normal((n, dk))                                  # n keys; the first is aligned with q
    q = rho * K[0] + np.sqrt(1 - rho * rho) * rng.standard_normal(dk)  # q = rho k + sqrt(1 - rho^2) z
    s = K @ q / c
    aligned.append(s[0])
    largest.append(softmax(s).max())
print("mean-score:", sig(np.mean(aligned)))
print("expected mean-score:", sig(rho * dk / c))
print("theory-mean:", sig(rho * dk / c))
print("std-score:", sig(np.std(aligned, ddof=1)))
print("expected std-score:", sig(np.sqrt(dk * (1 + rho * rho)) / c))
print("theory-std:", sig(np.sqrt(dk * (1 + rho * rho)) / c))
print("saturated:", sig(np.mean(np.array(largest) > saturated_above), 3))
"""


def snippet(state: State) -> str:
    """PAIRS rows, each an aligned query against its key and n - 1 independent keys, as full vectors in numpy."""
    return _snippet.script(TITLE, {"rho": state.rho, "dk": state.dk, "divisor": state.divisor, "n": state.n,
                                   "seed": state.seed, "pairs": PAIRS, "saturated_above": rows.SATURATED}, SNIPPET,
                           {"rho": "alignment of each query with its key", "divisor": _snippet.DIVISOR_NOTE,
                            "n": "keys per row: the aligned one and n - 1 independent ones",
                            "pairs": "rows, one aligned pair each",
                            "saturated_above": "a row saturates when its largest weight exceeds this"}, sampled=True)
