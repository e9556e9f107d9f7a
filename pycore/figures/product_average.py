"""Step 4: pairs of independent numbers, their products, and the running average of the products.

Why a cross term averages to zero: with a and b independent and centred on 0, a·b is positive
as often as negative, by the same amounts, so the average of many products goes to 0. Move the
centre away from 0 and the average goes to centre × centre instead.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any

from .. import marks, params
from ..controls import Button
from ..i18n import N_, _
from ..sampling import normals
from ..scales import Linear
from ..svg import el, fmt, sig, svg, text
from . import _common, _snippet

TITLE = N_("The average of a product of independent numbers")
PAGE = "step-4/"
HEIGHT = 760
READOUTS = (("pairs", N_("pairs drawn")), ("average", N_("average of the products a·b")),
            ("positive", N_("share of products above 0")), ("target", N_("where the average goes: centre × centre")))
MAX_PAIRS = 4096
PARAMS = (
    params.integer("pairs", 1024, 1, MAX_PAIRS, N_("How many pairs (a, b) are drawn."), control="range",
                   label=N_("pairs drawn"), presets=tuple((str(n), str(n)) for n in (1, 10, 100, 1000)),
                   sample="40"),
    params.number("centre", 0.0, -1, 1, N_("The centre both a and b are drawn around (0: centred on zero)."),
                  control="range", label=N_("centre of a and b"), step=0.1, sample="0.5"),
    _common.seed(),
)
ADD = Button("add", N_("Add one pair"))
CONTROLS = (*params.controls(PARAMS), ADD, _common.RESAMPLE)
State = params.state_class(PARAMS, "How many pairs of independent numbers, around which centre, from which seed.")
derived_values = _common.no_derived_values
prepare = _common.nothing_to_prepare
DOTS = 400
"""The scatter shows the newest pairs, up to this many."""
EXTENT = 3.5
PLOT = Linear(-EXTENT, EXTENT, 34, 304)
"""The scatter's axes (a across, b up, the same scale), in pixels of its 320-wide panel."""
PLOT_Y = Linear(-EXTENT, EXTENT, 320, 60)
RUN_X = Linear(0.0, math.log(MAX_PAIRS), 44, 300)
"""The running average's axis: the number of pairs on a log scale, 1 to MAX_PAIRS."""
RUN_Y = Linear(-2.0, 2.0, 300, 70)


def parse(p: params.Params) -> Any:
    """State from ``pairs`` (1-4096), ``centre`` (-1 to 1) and ``seed``."""
    return params.parse(PARAMS, State, p)


def update(state: State, event: Mapping[str, Any]) -> State:
    """``add`` draws one more pair (up to MAX_PAIRS); ``resample`` moves to the next seed."""
    if event.get("type") == "add":
        return replace(state, pairs=min(state.pairs + 1, MAX_PAIRS))
    return _common.resample(state, event)


@lru_cache(maxsize=8)
def _draws(seed: int) -> tuple[float, ...]:
    """2 × MAX_PAIRS standard normals for a seed: pair i is (z[2i], z[2i + 1]), so every count shares its first pairs."""
    return tuple(normals(random.Random(seed), 2 * MAX_PAIRS))


def pairs(state: State) -> list[tuple[float, float]]:
    """The first ``state.pairs`` pairs (a, b), each number the centre plus a standard normal."""
    z = _draws(state.seed)
    return [(state.centre + z[2 * i], state.centre + z[2 * i + 1]) for i in range(state.pairs)]


def running_average(state: State) -> list[float]:
    """The average of the first n products a·b, for n = 1 … pairs (summed left to right)."""
    out, total = [], 0.0
    for n, (a, b) in enumerate(pairs(state), start=1):
        total += a * b
        out.append(total / n)
    return out


def above_zero(state: State) -> int:
    """How many of the products are above 0."""
    count = 0
    for a, b in pairs(state):
        count += a * b > 0
    return count


def target(state: State) -> float:
    """Where the average goes: the average of a·b for independent a and b is the product of their averages."""
    return state.centre * state.centre


def readouts(state: State) -> dict[str, str]:
    """How many pairs, the average of their products, the share above 0, and where the average goes."""
    return {"pairs": str(state.pairs), "average": sig(running_average(state)[-1], 3),
            "positive": sig(above_zero(state) / state.pairs, 3), "target": fmt(target(state), 2)}


def caption(state: State) -> str:
    """The caption's live line: how many pairs, around which centre, their products' signs, and their average."""
    r, above = readouts(state), above_zero(state)
    signs = (_("{above} product above 0 and {below} below") if above == 1
             else _("{above} products above 0 and {below} below")).format(above=above, below=state.pairs - above)
    if state.centre == 0:
        line = (_("{pairs} pair of independent numbers centred on 0: {signs}; their average, {average}, goes to 0 as "
                  "pairs are added.") if state.pairs == 1 else
                _("{pairs} pairs of independent numbers centred on 0: {signs}; their average, {average}, goes to 0 "
                  "as pairs are added."))
        return line.format(pairs=state.pairs, signs=signs, average=r["average"])
    line = (_("{pairs} pair of independent numbers both centred on {m}, not 0: {signs}; their average, {average}, "
              "goes to {m} × {m} = {target} as pairs are added.") if state.pairs == 1 else
            _("{pairs} pairs of independent numbers both centred on {m}, not 0: {signs}; their average, {average}, "
              "goes to {m} × {m} = {target} as pairs are added."))
    return line.format(pairs=state.pairs, m=fmt(state.centre, 1), signs=signs, average=r["average"],
                       target=r["target"])


def _scatter(state: State) -> list[str]:
    """The newest pairs as dots in the (a, b) plane, the quadrants where a·b is above and below 0 shaded."""
    ox, oy = PLOT(0), PLOT_Y(0)
    left, right, top, bottom = PLOT(-EXTENT), PLOT(EXTENT), PLOT_Y(EXTENT), PLOT_Y(-EXTENT)
    parts = [text(8, 20, _("Each dot is a pair (a, b)"), "sq-heading"),
             marks.rect(ox, top, right - ox, oy - top, "sq-quad sq-quad--pos"),
             marks.rect(left, oy, ox - left, bottom - oy, "sq-quad sq-quad--pos"),
             marks.rect(left, top, ox - left, oy - top, "sq-quad sq-quad--neg"),
             marks.rect(ox, oy, right - ox, bottom - oy, "sq-quad sq-quad--neg"),
             marks.line(left, oy, right, oy, "sq-axis"), marks.line(ox, top, ox, bottom, "sq-axis"),
             text(right - 4, top + 16, "a·b > 0", "sq-value", "end"), text(left + 4, bottom - 8, "a·b > 0", "sq-value"),
             text(left + 4, top + 16, "a·b < 0", "sq-value"), text(right - 4, bottom - 8, "a·b < 0", "sq-value", "end"),
             text(right, bottom + 15, "a", "sq-value", "end"), text(left - 6, top + 5, "b", "sq-value", "end")]
    for v in (-3, -2, -1, 0, 1, 2, 3):
        parts.append(text(PLOT(v), bottom + 15, fmt(v), "sq-tick", "middle"))
        parts.append(text(left - 6, PLOT_Y(v) + 4, fmt(v), "sq-tick", "end"))
    drawn = pairs(state)
    dots = []
    for a, b in drawn[-DOTS:]:
        x, y = PLOT.clamped(a), PLOT_Y.clamped(b)
        dots.append(el("circle", {"cx": fmt(x), "cy": fmt(y), "r": 2.6,
                                  "class": "sq-pair sq-pair--pos" if a * b > 0 else "sq-pair sq-pair--neg"}))
    parts.append(el("g", {"class": "sq-pairs"}, dots))
    a, b = drawn[-1]
    parts.append(el("circle", {"cx": fmt(PLOT.clamped(a)), "cy": fmt(PLOT_Y.clamped(b)), "r": 7, "class": "sq-newest"}))
    parts.append(text(8, 42, _("newest: a = {a}, b = {b}, a·b = {ab}").format(a=fmt(a, 2), b=fmt(b, 2),
                                                                               ab=fmt(a * b, 2)), "sq-tick"))
    above = above_zero(state)
    parts.append(text(8, bottom + 38, _("{above} products above 0, {below} below").format(
        above=above, below=state.pairs - above), "sq-value"))
    if state.pairs > DOTS:
        parts.append(text(8, bottom + 56, _("(the newest {dots} of {pairs} pairs shown)").format(
            dots=DOTS, pairs=state.pairs), "sq-tick"))
    return parts


def _running(state: State) -> list[str]:
    """The average of the products so far against the number of pairs (log scale), and the line it goes to."""
    averages = running_average(state)
    parts = [text(8, 20, _("The average of a·b so far"), "sq-heading")]
    for v in (-2, -1, 0, 1, 2):
        parts.append(marks.line(RUN_X.r0, RUN_Y(v), RUN_X.r1, RUN_Y(v), "sq-axis" if v == 0 else "sq-grid"))
        parts.append(text(RUN_X.r0 - 6, RUN_Y(v) + 4, fmt(v), "sq-tick", "end"))
    for n in (1, 4, 16, 64, 256, 1024, 4096):
        parts.append(text(RUN_X(math.log(n)), RUN_Y.r0 + 16, str(n), "sq-tick", "middle"))
    parts.append(text((RUN_X.r0 + RUN_X.r1) / 2, RUN_Y.r0 + 34, _("pairs drawn (each step × 4)"), "sq-tick",
                      "middle"))
    goal = RUN_Y(target(state))
    parts.append(marks.line(RUN_X.r0, goal, RUN_X.r1, goal, "sq-target"))
    parts.append(text(RUN_X.r1, goal - 8, _("goes to {target}").format(target=fmt(target(state), 2)), "sq-value",
                      "end"))
    points, last = [], -math.inf
    for n, avg in enumerate(averages, start=1):
        x = RUN_X(math.log(n))
        if x - last >= 0.75 or n == len(averages):
            points.append((x, RUN_Y.clamped(avg)))
            last = x
    parts.append(marks.polyline(points, "sq-running"))
    x, y = points[-1]
    parts.append(el("circle", {"cx": fmt(x), "cy": fmt(y), "r": 4.5, "class": "sq-running-now"}))
    after = _("after {pairs} pair: {average}") if state.pairs == 1 else _("after {pairs} pairs: {average}")
    parts.append(text(8, 44, after.format(pairs=state.pairs, average=sig(averages[-1], 3)), "sq-value"))
    return parts


def render(state: State) -> str:
    """Two SVGs, so a narrow screen can stack them: the pairs and their signs, and the running average."""
    r = readouts(state)
    scatter_label = _("{pairs} pairs (a, b) of independent numbers centred on {centre}; a share of {share} of their "
                      "products is above 0").format(pairs=state.pairs, centre=fmt(state.centre, 1),
                                                    share=r["positive"])
    running_label = _("The average of the products after {pairs} pairs is {average}, going to {target}").format(
        pairs=state.pairs, average=r["average"], target=r["target"])
    return (svg(320, 390, scatter_label, _scatter(state), "sq-product-pairs")
            + svg(320, 390, running_label, _running(state), "sq-product-average"))


SNIPPET = """rng = np.random.default_rng(seed)
a, b = centre + rng.standard_normal((2, pairs))  # pairs of independent numbers around the centre
products = a * b
print("pairs:", pairs)
print("average:", sig(products.mean(), 3))
print("expected average:", sig(centre * centre))  # independent: the average of a·b is (average of a)(average of b)
print("positive:", sig((products > 0).mean(), 3))
print("target:", fmt(centre * centre, 2))
"""


def snippet(state: State) -> str:
    """The products of independent pairs drawn in numpy, their average and the share above 0."""
    return _snippet.script(TITLE, {"pairs": state.pairs, "centre": state.centre, "seed": state.seed}, SNIPPET,
                           {"pairs": "how many pairs (a, b)", "centre": "the centre both numbers are drawn around"},
                           sampled=True)
