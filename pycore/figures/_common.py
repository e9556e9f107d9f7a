"""What several figures share: the d_k, divisor and seed parameters, resampling, key steps and handle names.

The divisors' names are written in English and marked with ``N_``; a figure shows them with ``_``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .. import params, rows
from ..controls import Button
from ..i18n import N_, _
from ..pool import MAX_DK, SEED_MAX, next_seed, pool

RESAMPLE = Button("resample", N_("Resample"))
# i18n: "none" is also the divisor of scores that are not divided (a choice, a legend entry), so one word fits both.
DIVISORS = tuple(zip(rows.DIVISORS, (N_("none"), "÷ √dₖ", "÷ dₖ")))
SERIES = {d: f"sq-series--{d}" for d in rows.DIVISORS}
"""The CSS class of a divisor's line: one colour and one dash pattern each."""
NAMES = {"none": N_("none"), "sqrt": "÷√dₖ", "dk": "÷dₖ"}
"""A divisor as a legend names it (``legend_name`` gives it in the current language)."""
SPOKEN = {"none": N_("none"), "sqrt": N_("÷square root of d_k"), "dk": "÷d_k"}
"""A divisor as an accessible label reads it (``spoken_name`` gives it in the current language)."""
KEYS = {"ArrowUp": 1.0, "ArrowRight": 1.0, "ArrowDown": -1.0, "ArrowLeft": -1.0}
"""Arrow keys as a direction along one axis."""


def legend_name(divisor: str) -> str:
    """A divisor as a legend names it, in the current language."""
    return _(NAMES[divisor])


def spoken_name(divisor: str) -> str:
    """A divisor as an accessible label reads it, in the current language."""
    return _(SPOKEN[divisor])


def listed(divisor: str, values: str) -> str:
    """One divisor's item of an accessible label's list: its spoken name and its values."""
    return _("{divisor}: {values}").format(divisor=spoken_name(divisor), values=values)


def dk(default: int, **extra: Any) -> params.Param:
    """The dimension of the query and key vectors, 1 to MAX_DK."""
    return params.integer("dk", default, 1, MAX_DK, N_("Dimension of the query and key vectors."), **extra)


def divisor(default: str, **extra: Any) -> params.Param:
    """What the scores are divided by: none, sqrt (÷√d_k) or dk (÷d_k)."""
    return params.choice("divisor", default, DIVISORS,
                         N_("Scale applied to the scores: none, sqrt (÷√d_k) or dk (÷d_k)."), **extra)


def seed(**extra: Any) -> params.Param:
    """The seed of a figure's draws: a setting for "More settings", not for the main path."""
    return params.integer("seed", 1, 0, SEED_MAX,
                          N_("Seed of the draws; the same seed gives the same samples everywhere."),
                          sample="5", **{"advanced": True, **extra})


def resample(state: Any, event: Mapping[str, Any]) -> Any:
    """``resample`` moves the state to the next seed; any other event leaves it as it is."""
    return replace(state, seed=next_seed(state.seed)) if event.get("type") == "resample" else state


def number(event: Mapping[str, Any], name: str) -> float:
    """The event's field ``name`` as a finite number (a JSON number, or text that reads as one).

    Checked here, once, for every figure's events: anything else is a ParamError naming the event
    and the field, so a malformed drag gets a message instead of an exception deep in a figure."""
    value = event.get(name)
    try:
        x = float(value) if isinstance(value, (int, float, str)) and not isinstance(value, bool) else math.nan
    except (ValueError, OverflowError):
        x = math.nan
    if not math.isfinite(x):
        kind = params.shown(event.get("type"))
        if value is None:
            raise params.ParamError(_("a {event} event needs {field} as a finite number, got nothing").format(
                event=kind, field=name))
        raise params.ParamError(_("a {event} event needs {field} as a finite number, got '{value}'").format(
            event=kind, field=name, value=params.shown(value)))
    return x


def key_step(event: Mapping[str, Any], small: float, big: float) -> float:
    """How far an arrow key moves a value along one axis (Shift for the big step); 0 for other keys."""
    return KEYS.get(str(event.get("key")), 0.0) * (big if event.get("shift") else small)


def handle_index(event: Mapping[str, Any], prefix: str, count: int) -> int | None:
    """i for a handle named ``{prefix}{i}`` with 0 <= i < count, else None."""
    name = str(event.get("handle", ""))
    rest = name[len(prefix):]
    if not name.startswith(prefix) or not rest.isdigit() or int(rest) >= count:
        return None
    return int(rest)


def nothing_to_prepare(state: Any, deadline: float | None) -> None:
    """A figure that always draws quickly has no work to do in slices."""
    return None


def pool_prepare(state: Any, n: int, deadline: float | None) -> tuple[Any, str] | None:
    """Grow the score pool of (state.seed, n) toward state.dk until the deadline.

    While it is not deep enough, the state at the depth reached is what can be drawn already.
    """
    reached = pool(state.seed, n).grow_until(state.dk, deadline)
    if reached >= state.dk:
        return None
    return replace(state, dk=reached), _("building d_k {reached} of {dk}").format(reached=reached, dk=state.dk)


def no_derived_values(state: Any) -> dict[str, str]:
    """A figure whose controls all show state fields derives nothing."""
    return {}
