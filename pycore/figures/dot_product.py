"""Step 2: the dot product of Q and K as a number, as two terms that add up, and as an angle."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .. import marks, params
from ..controls import Play, Range
from ..i18n import N_, _
from ..scales import Linear
from ..svg import el, fmt, svg, text
from ..vectors import angle_deg, dot, norm, rotate, snap, terms
from . import _arrows, _common, _snippet

TITLE = N_("The dot product: two arrows, one number")
PAGE = "step-2/"
HEIGHT = 640
READOUTS = (
    ("dot", N_("score q·k")), ("q1k1", "q₁k₁"), ("q2k2", "q₂k₂"), ("angle", N_("angle")),
    ("cue", N_("the arrows are")),
)
CONTROLS = (
    Range("swing", N_("Swing k from aligned to opposed (degrees)"), 0, 180, 1),
    Play("swing", N_("Play the swing"), stops=(0, 90, 180)),
)
PARAMS = _arrows.PARAMS
prepare = _common.nothing_to_prepare
PLANE = _arrows.PLANE
BAR_RANGE = 8.0
BAR_X = Linear(-BAR_RANGE, BAR_RANGE, 56, 304)
"""The number line on which the two terms add up."""
BAR_LEFT, BAR_RIGHT = BAR_X.r0, BAR_X.r1
ALIGNED = 0.985
"""A cosine above this reads "aligned" (below minus this, "opposed")."""
PERPENDICULAR = 0.035
"""A cosine within plus or minus this reads "perpendicular"."""
CUES = {"undefined": N_("undefined (an arrow has length 0)"), "aligned": N_("aligned"), "opposed": N_("opposed"),
        "perpendicular": N_("perpendicular"), "partly aligned": N_("partly aligned"),
        "partly opposed": N_("partly opposed")}
"""How the arrows lie, in words: the cue readout."""
ARE = {"undefined": N_("the arrows are undefined (an arrow has length 0)"), "aligned": N_("the arrows are aligned"),
       "opposed": N_("the arrows are opposed"), "perpendicular": N_("the arrows are perpendicular"),
       "partly aligned": N_("the arrows are partly aligned"), "partly opposed": N_("the arrows are partly opposed")}
"""The same as a sentence, under the terms' bars and in the accessible label."""
State = _arrows.State
parse = _arrows.parse


def swung(state: State, degrees: float) -> State:
    """K turned to ``degrees`` from Q (counter-clockwise), its length kept and clipped to the grid.

    0 is aligned, 90 perpendicular, 180 opposed.
    """
    nq = norm(state.q)
    direction = (state.q[0] / nq, state.q[1] / nq) if nq > 0 else (1.0, 0.0)
    length = min(norm(state.k) or 1.0, _arrows.EXTENT)
    x, y = rotate(direction, degrees)
    return replace(state, k=(snap(x * length), snap(y * length)))


def update(state: State, event: Mapping[str, Any]) -> State:
    """Drag or key-move a tip; a ``swing`` event turns K to the given angle from Q."""
    if event.get("type") == "swing":
        value = _common.number(event, "value")
        if not 0 <= value <= 180:
            raise params.ParamError(_("swing must be a number from 0 to 180, got '{value}'").format(value=value))
        return swung(state, value)
    return _arrows.move_tip(state, event)


def lie(state: State) -> str:
    """How the arrows lie, a key of CUES, from the cosine of the angle."""
    nq, nk = norm(state.q), norm(state.k)
    if nq == 0 or nk == 0:
        return "undefined"
    cos = dot(state.q, state.k) / (nq * nk)
    if cos > ALIGNED:
        return "aligned"
    if cos < -ALIGNED:
        return "opposed"
    if abs(cos) < PERPENDICULAR:
        return "perpendicular"
    return "partly aligned" if cos > 0 else "partly opposed"


def cue(state: State) -> str:
    """Aligned / perpendicular / opposed, in words, in the current language."""
    return _(CUES[lie(state)])


def arrows_are(state: State) -> str:
    """"The arrows are ...", in the current language."""
    return _(ARE[lie(state)])


def derived_values(state: State) -> dict[str, str]:
    """The swing slider shows the current angle, as the angle readout and the arc's label write it."""
    a = angle_deg(state.q, state.k)
    return {"swing": fmt(a, 1) if a is not None else "0"}


def readouts(state: State) -> dict[str, str]:
    """The dot product, its two terms, the angle and the cue."""
    t = terms(state.q, state.k)
    a = angle_deg(state.q, state.k)
    return {
        "dot": fmt(dot(state.q, state.k), 4),
        "q1k1": fmt(t[0], 4),
        "q2k2": fmt(t[1], 4),
        "angle": _("undefined") if a is None else f"{fmt(a, 1)}°",
        "cue": cue(state),
    }


SNIPPET = """length = np.linalg.norm(q) * np.linalg.norm(k)  # 0 when an arrow has length 0
cos = q @ k / length if length > 0 else np.nan
if length == 0:
    cue = "undefined (an arrow has length 0)"
elif abs(cos) > aligned:
    cue = "aligned" if cos > 0 else "opposed"
elif abs(cos) < perpendicular:
    cue = "perpendicular"
else:
    cue = "partly aligned" if cos > 0 else "partly opposed"
print("dot:", fmt(q @ k, 4))
print("q1k1:", fmt(q[0] * k[0], 4))
print("q2k2:", fmt(q[1] * k[1], 4))
print("angle:", fmt(np.degrees(np.arccos(np.clip(cos, -1, 1))), 1) + "°" if length > 0 else "undefined")
print("cue:", cue)
"""


def snippet(state: State) -> str:
    """The dot product, its terms and the angle in numpy, with the cue's thresholds as variables."""
    return _snippet.script(TITLE, {"q": state.q, "k": state.k, "aligned": ALIGNED, "perpendicular": PERPENDICULAR},
                           SNIPPET, {"aligned": "a cosine above this reads aligned, below minus this opposed",
                                     "perpendicular": "a cosine within plus or minus this reads perpendicular"})


def _bars(state: State) -> list[str]:
    """The two terms as bars laid end to end on one number line, and their total."""
    t1, t2 = terms(state.q, state.k)
    total = dot(state.q, state.k)
    zero = BAR_X(0)
    parts = [text((BAR_LEFT + BAR_RIGHT) / 2, 40, "q·k = q₁k₁ + q₂k₂", "sq-heading", "middle")]
    for v in range(-8, 9, 2):
        parts.append(marks.line(BAR_X(v), 70, BAR_X(v), 250, "sq-axis" if v == 0 else "sq-grid"))
        parts.append(text(BAR_X(v), 268, fmt(v), "sq-tick", "middle"))
    rows = (
        ("q₁k₁", zero, BAR_X(t1), 85, "sq-term1", t1),
        ("q₂k₂", BAR_X(t1), BAR_X(t1 + t2), 135, "sq-term2", t2),
        (_("sum"), zero, BAR_X(total), 195, "sq-total", total),
    )
    for label, x0, x1, y, cls, value in rows:
        parts.append(marks.rect(x0, y, x1 - x0, 34, f"sq-bar {cls}"))
        parts.append(text(BAR_LEFT, y - 5, label, "sq-tick"))
        anchor = "start" if x1 >= x0 else "end"
        shift = 6 if x1 >= x0 else -6
        parts.append(text(max(x0, x1) + shift if x1 >= x0 else min(x0, x1) + shift, y + 22,
                          fmt(value, 4), "sq-value", anchor))
    parts.append(text((BAR_LEFT + BAR_RIGHT) / 2, 300, arrows_are(state), "sq-cue", "middle"))
    return parts


def _angle_arc(state: State) -> list[str]:
    """A small arc between the two arrows, labelled with the angle."""
    a = angle_deg(state.q, state.k)
    if a is None:
        return []
    r = 34.0
    ox, oy = PLANE.px(0, 0)
    aq = math.atan2(state.q[1], state.q[0])
    ak = math.atan2(state.k[1], state.k[0])
    cross = state.q[0] * state.k[1] - state.q[1] * state.k[0]
    sx, sy = ox + r * math.cos(aq), oy - r * math.sin(aq)
    ex, ey = ox + r * math.cos(ak), oy - r * math.sin(ak)
    sweep = 0 if cross > 0 else 1
    mid = aq + math.radians(a / 2) * (1 if cross > 0 else -1)
    return [
        el("path", {"d": f"M {fmt(sx)} {fmt(sy)} A {fmt(r)} {fmt(r)} 0 0 {sweep} {fmt(ex)} {fmt(ey)}",
                    "class": "sq-arc"}),
        text(ox + 52 * math.cos(mid), oy - 52 * math.sin(mid) + 4, f"{fmt(a, 1)}°", "sq-tick", "middle"),
    ]


def render(state: State) -> str:
    """Two SVGs, so a narrow screen can stack them: the arrows, and the terms adding up."""
    label = _("q = {q} and k = {k}; dot product {dot}; {arrows}").format(
        q=_arrows.pair(state.q), k=_arrows.pair(state.k), dot=fmt(dot(state.q, state.k), 4), arrows=arrows_are(state))
    parts = _arrows.arrow_plane(PLANE, state.q, state.k, behind=_angle_arc(state))
    t1, t2 = terms(state.q, state.k)
    bars_label = _("q1k1 = {first} plus q2k2 = {second} makes {dot}").format(
        first=fmt(t1, 4), second=fmt(t2, 4), dot=fmt(dot(state.q, state.k), 4))
    return (svg(380, 350, label, parts, "sq-dot-product", interactive=True)
            + svg(360, 320, bars_label, _bars(state), "sq-dot-product-terms"))
