"""Step 6: why dividing by c divides the variance by c², drawn as squares.

A handful of numbers on a line, each with the square on its distance from the centre (their
average). Divide every number by c: every distance shrinks by c, so every square's area by c²,
and the variance, the average area, with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import marks, params
from ..i18n import N_, _
from ..scales import Linear
from ..svg import el, fmt, sig, svg, text
from . import _common, _snippet

TITLE = N_("Divide by c, and the variance shrinks by c²")
PAGE = "step-6/"
HEIGHT = 560
READOUTS = (("variance-before", N_("variance before")), ("variance-after", N_("variance after ÷ c")),
            ("ratio", N_("before ÷ after")), ("c-squared", "c²"))
EXTENT = 3.0
PARAMS = (
    params.vector("points", (-2.2, -0.8, 0.4, 1.1, 1.5), (2, 8), -EXTENT, EXTENT,
                  N_("A handful of numbers, each in [-3, 3]."), sample="-1,0.5,2"),
    params.number("c", 2.0, 1, 8, N_("What every number is divided by, in [1, 8]."), control="range",
                  label=N_("divide by c"), step=0.5, sample="4"),
)
CONTROLS = params.controls(PARAMS)
State = params.state_class(PARAMS, "A handful of numbers and the divisor c.")
derived_values = _common.no_derived_values
prepare = _common.nothing_to_prepare
WIDTH, ROW = 340, 150
X = Linear(-EXTENT, EXTENT, 20, WIDTH - 20)
UNIT = X(1.0) - X(0.0)
"""SVG units per unit of the numbers, the same across and up, so a square looks square."""


def parse(p: params.Params) -> Any:
    """State from ``points`` (2 to 8 numbers in [-3, 3]) and ``c`` (1 to 8)."""
    return params.parse(PARAMS, State, p)


def update(state: Any, event: Mapping[str, Any]) -> Any:
    """The slider is the only control; events change nothing."""
    return state


def centre(values: tuple[float, ...]) -> float:
    """The average of the numbers."""
    total = 0.0
    for v in values:
        total += v
    return total / len(values)


def variance(values: tuple[float, ...]) -> float:
    """The average squared distance from the centre."""
    m, total = centre(values), 0.0
    for v in values:
        total += (v - m) * (v - m)
    return total / len(values)


def divided(state: State) -> tuple[float, ...]:
    """Every number divided by c."""
    return tuple(v / state.c for v in state.points)


def row(values: tuple[float, ...], base: float, title: str) -> list[str]:
    """One number line at SVG y ``base``: a square on each distance from the centre, the points, the centre."""
    m = centre(values)
    parts = [text(20, base - ROW + 34, title, "sq-heading"),
             marks.line(X(-EXTENT), base, X(EXTENT), base, "sq-axis")]
    for t in (-3, -2, -1, 0, 1, 2, 3):
        parts.append(marks.line(X(t), base, X(t), base + 5, "sq-axis"))
        parts.append(text(X(t), base + 18, fmt(t), "sq-tick", "middle"))
    for v in values:
        side = abs(v - m) * UNIT
        parts.append(marks.rect(min(X(v), X(m)), base - side, side, side, "sq-square"))
    for v in values:
        parts.append(el("circle", {"cx": X(v), "cy": base, "r": 4, "class": "sq-point"}))
    parts.append(marks.line(X(m), base - 8, X(m), base + 8, "sq-centre"))
    return parts


def render(state: State) -> str:
    """The numbers with their squares, then the same divided by c, on one scale."""
    before, after = state.points, divided(state)
    v0, v1 = variance(before), variance(after)
    parts = row(before, ROW, _("the numbers · variance {variance}").format(variance=fmt(v0, 2)))
    parts += row(after, 2 * ROW + 10, _("each ÷ {c} · variance {after} = {before} ÷ {c_squared}").format(
        c=fmt(state.c), after=fmt(v1, 3), before=fmt(v0, 2), c_squared=fmt(state.c ** 2)))
    parts.append(text(20, 2 * ROW + 50, _("squares: squared distances from the centre (orange)"), "sq-tick"))
    label = _("{count} numbers with variance {before}; divided by {c}, every distance from the centre is {c} times "
              "shorter and every square {c_squared} times smaller, so the variance is {after}").format(
        count=len(before), before=fmt(v0, 3), c=fmt(state.c), c_squared=fmt(state.c ** 2), after=fmt(v1, 3))
    return svg(WIDTH, 2 * ROW + 60, label, parts, "sq-variance-rule")


def readouts(state: State) -> dict[str, str]:
    """Both variances, their ratio, and c² beside it."""
    v0, v1 = variance(state.points), variance(divided(state))
    return {"variance-before": sig(v0), "variance-after": sig(v1), "ratio": sig(v0 / v1) if v1 else _("undefined"),
            "c-squared": sig(state.c ** 2)}


SNIPPET = """scaled = points / c
before, after = points.var(), scaled.var()  # the average squared distance from the centre
print("variance-before:", sig(before))
print("variance-after:", sig(after))
print("ratio:", sig(before / after) if after else "undefined")
print("c-squared:", sig(c**2))
"""


def snippet(state: State) -> str:
    """Both variances and their ratio in numpy."""
    return _snippet.script(TITLE, {"points": state.points, "c": state.c}, SNIPPET,
                           {"points": "a handful of numbers", "c": "what every number is divided by"})
