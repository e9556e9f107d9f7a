"""The one-picture summary: random arrows → dot product → wide score → ÷√d_k → tame score → softmax over many rows."""

from __future__ import annotations

import math
import random
from typing import Any

from .. import marks, params, rows, stats
from ..i18n import N_, _
from ..pool import pool
from ..sampling import normals
from ..svg import fmt, sig, svg, text
from ..vectors import dot
from . import _chart, _common, _hist, _snippet

TITLE = N_("The whole argument in one picture")
PAGE = "summary/"
HEIGHT = 720
READOUTS = (("dk", "dₖ"), ("score-std", N_("standard deviation of q·k")),
            ("scaled-std", N_("standard deviation after the scaling stage")),
            ("saturated", N_("saturated rows (largest weight > 0.99)")),
            ("max-weight", N_("median largest weight")), ("gradient", N_("median ‖J‖")))
PARAMS = (
    _common.dk(64, control="range", label="dₖ", sample="256"),
    params.choice("scaling", "on", (("on", N_("on")), ("off", N_("removed"))),
                  N_("on: scores are divided by √d_k; off: the stage is removed."), control="choice",
                  label=N_("÷√dₖ stage")),
    _common.seed(),
)
CONTROLS = (*params.controls(PARAMS), _common.RESAMPLE)
State = params.state_class(PARAMS, "One d_k for every stage, and whether the scaling stage is there.")
derived_values = _common.no_derived_values
update = _common.resample


def prepare(state: Any, deadline: float | None) -> tuple[Any, str] | None:
    """Grow the score pool toward d_k (drawing each depth reached), then the 500 rows of stage 6."""
    partial = _common.pool_prepare(state, N, deadline)
    if partial is not None:
        return partial
    ready = rows.prepare(state.seed, ROWS, WORDS, state.dk, "sqrt" if state.scaling == "on" else "none", deadline)
    return None if ready >= ROWS else (None, _("softmax of row {ready} of {rows}").format(ready=ready, rows=ROWS))
WORDS = 8
ROWS = 500
"""Stage 6 looks at this many rows of WORDS keys each, one query per row."""
N = 4000
HIST = _hist.Frame(left=14, right=200, top=36, bottom=150, note=179)
"""The stages' histograms; the note on scores beyond the axis goes under the ticks, clear of the stage's title."""


def parse(p: params.Params) -> Any:
    """State from ``dk`` (1-512), ``scaling`` (on or off) and ``seed``."""
    return params.parse(PARAMS, State, p)


def divisor(state: State) -> float:
    """√d_k with the stage on, 1 without it."""
    return math.sqrt(state.dk) if state.scaling == "on" else 1.0


def arrows(state: State) -> tuple[list[float], list[float]]:
    """One random query and key of dimension d_k."""
    z = normals(random.Random(state.seed), 2 * state.dk)
    return z[: state.dk], z[state.dk:]


def many(state: State) -> rows.Rows:
    """ROWS rows of WORDS keys after the scaling stage (or without it)."""
    return rows.compute(state.seed, ROWS, WORDS, state.dk, "sqrt" if state.scaling == "on" else "none")


def verdict(share: float) -> str:
    """Stage 6's headline, read off the saturated share beside it, in the current language."""
    if share == 0:
        return _("no row saturates")
    return _("{share}% of rows saturate").format(share=fmt(100 * share, 0 if share >= 0.1 else 1))


W, H = 214, 184
"""Each stage is its own small SVG, so the six wrap into rows that fit the screen."""


def coordinates_shown(dk: int) -> str:
    """What the arrows' stage draws of d_k coordinates: the first two, or all there are (in the current language)."""
    if dk == 1:
        return _("its only coordinate, on the x axis")
    if dk == 2:
        return _("both coordinates")
    return _("first 2 of {dk} coordinates").format(dk=dk)


def _stage(title: str, label: str, inner: list[str]) -> str:
    return svg(W, H, label, [marks.rect(2, 2, W - 4, H - 4, "sq-stage"), text(12, 22, title, "sq-heading"), *inner],
               "sq-svg--stage")


def render(state: State) -> str:
    """Six stages in reading order; the scaling stage is struck out when removed."""
    q, k = arrows(state)
    scores = pool(state.seed, N).scores(state.dk)
    c = divisor(state)
    scaled = [v / c for v in scores]
    sd_raw = math.sqrt(stats.variance(scores))
    sd_scaled = math.sqrt(stats.variance(scaled))
    r = many(state)
    share = sum(r.saturated) / ROWS
    plane = marks.Plane(left=45, top=32, size=124, extent=2.5)
    ox, oy = plane.px(0, 0)
    arrow_parts = [marks.line(45, oy, 169, oy, "sq-axis"), marks.line(ox, 32, ox, 156, "sq-axis")]
    for v, cls in ((k, "sq-k"), (q, "sq-q")):
        x, y = plane.x.clamped(v[0]), plane.y.clamped(v[1] if len(v) > 1 else 0.0)
        arrow_parts.append(marks.arrow(ox, oy, x, y, cls, head=8))
    arrow_parts.append(text(W / 2, 172, coordinates_shown(state.dk), "sq-tick", "middle"))
    raw_parts = _hist.histogram(scores, state.dk, 1.0, _hist.auto_xmax(state.dk, 1.0), 40, None, frame=HIST)[0]
    tame_parts = _hist.histogram(scaled, state.dk, c, _hist.auto_xmax(state.dk, c), 40, None, frame=HIST)[0]
    if state.scaling == "on":
        stage4 = _stage(_("4 · divide by √dₖ"), _("divide by the square root of {dk}").format(dk=state.dk), [
            text(W / 2, 92, f"÷ √{state.dk} = {fmt(math.sqrt(state.dk), 3)}", "sq-big", "middle"),
            text(W / 2, 122, _("variance dₖ → 1"), "sq-tick", "middle")])
    else:
        stage4 = _stage(_("4 · (stage removed)"), _("the scaling stage is removed"), [
            marks.line(30, 40, 184, 160, "sq-strike"), marks.line(184, 40, 30, 160, "sq-strike"),
            text(W / 2, 174, _("scores go through unchanged"), "sq-tick", "middle")])
    edges = stats.edges(0.0, 1.0, 10)
    counts = stats.histogram(list(r.max_weight), 0.0, 1.0, 10)[0]
    ax = _chart.axes(0.0, 1.0, 0.0, 1.0, left=24, right=196, top=44, bottom=140)
    weights = [_chart.count_bars(ax, edges, [k / ROWS for k in counts], "sq-bin"),
               marks.line(ax.x(rows.SATURATED), 40, ax.x(rows.SATURATED), 140, "sq-target")]
    weights += [text(ax.x(v), 154, fmt(v), "sq-tick", "middle") for v in (0.0, 0.5, 1.0)]
    arrows_label = (_("a random query and key with {dk} coordinate") if state.dk == 1 else
                    _("a random query and key with {dk} coordinates")).format(dk=state.dk)
    tame = (_("5 · tame, sd {sd}") if state.scaling == "on" else _("5 · still wide, sd {sd}")).format(
        sd=fmt(sd_scaled, 2))
    return "".join([
        _stage(_("1 · two random arrows"), arrows_label, arrow_parts),
        _stage(_("2 · dot product"), _("their dot product is {dot}").format(dot=fmt(dot(q, k), 2)), [
            text(W / 2, 84, f"q·k = {fmt(dot(q, k), 2)}", "sq-big", "middle"),
            text(W / 2, 114, _("a single product") if state.dk == 1 else
                 _("a sum of {dk} products").format(dk=state.dk), "sq-tick", "middle")]),
        _stage(_("3 · wide score, sd {sd}").format(sd=fmt(sd_raw, 2)),
               _("the scores spread with standard deviation {sd}").format(sd=fmt(sd_raw, 2)), raw_parts),
        stage4,
        _stage(tame, _("after the scaling stage the standard deviation is {sd}").format(sd=fmt(sd_scaled, 2)),
               tame_parts),
        _stage(_("6 · {verdict}").format(verdict=verdict(share)),
               _("largest softmax weight in each of {rows} rows of {words} words: {share}% of rows above 0.99").format(
                   rows=ROWS, words=WORDS, share=fmt(100 * share, 1)), weights + [
            text(W / 2, 174, _("largest weight, {rows} rows of {words}").format(rows=ROWS, words=WORDS), "sq-tick",
                 "middle")]),
    ])


def readouts(state: State) -> dict[str, str]:
    """d_k, the standard deviation before and after the scaling stage, and how the rows' softmax fares."""
    scores = pool(state.seed, N).scores(state.dk)
    c = divisor(state)
    r = many(state)
    return {"dk": str(state.dk), "score-std": sig(math.sqrt(stats.variance(scores))),
            "scaled-std": sig(math.sqrt(stats.variance([v / c for v in scores]))),
            "saturated": sig(sum(r.saturated) / ROWS, 3),
            "max-weight": sig(rows.median(r.max_weight)), "gradient": sig(rows.median(r.jacobian))}


SNIPPET = """c = np.sqrt(dk) if scaling == "on" else 1.0

rng = np.random.default_rng(seed)
q, k = rng.standard_normal((2, pairs, dk))
scores = (q * k).sum(axis=1)  # stages 1 to 3: the wide score
largest, jac = [], []
for _ in range(rows):         # stage 6: one query against `words` keys per row
    p = softmax(rng.standard_normal((words, dk)) @ rng.standard_normal(dk) / c)
    largest.append(p.max())
    jac.append(jacobian_norm(p))
print("dk:", dk)
print("score-std:", sig(scores.std(ddof=1)))
print("expected score-std:", sig(np.sqrt(dk)))
print("scaled-std:", sig((scores / c).std(ddof=1)))  # stages 4 and 5
print("expected scaled-std:", sig(np.sqrt(dk) / c))
print("saturated:", sig(np.mean(np.array(largest) > saturated_above), 3))
print("max-weight:", sig(np.median(largest)))
print("gradient:", sig(np.median(jac)))
"""


def snippet(state: State) -> str:
    """Every stage's numbers from samples of the figure's sizes drawn in numpy."""
    return _snippet.script(TITLE, {"dk": state.dk, "scaling": state.scaling, "seed": state.seed, "pairs": N,
                                   "rows": ROWS, "words": WORDS, "saturated_above": rows.SATURATED}, SNIPPET,
                           {"scaling": "on: divide the scores by the square root of dk; off: the stage is removed",
                            "pairs": "(query, key) pairs for stages 1 to 5", "rows": "rows of stage 6",
                            "words": "keys per row",
                            "saturated_above": "a row saturates when its largest weight exceeds this"}, sampled=True)
