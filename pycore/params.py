"""Parsing of figure parameters from URL query strings, Markdown and data-state JSON.

Every figure validates through these helpers, so a bad value always produces the same kind
of message, naming the parameter and what is allowed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any


class ParamError(ValueError):
    """A parameter a teacher or reader supplied is not acceptable; the message says why."""


Params = Mapping[str, str]


def shown(raw: str) -> str:
    """A user's value as quoted in a message, shortened if long."""
    raw = str(raw)
    return raw if len(raw) <= 40 else raw[:37] + "..."


def check_known(params: Params, known: Sequence[str]) -> None:
    """Reject parameter names the figure does not have (a typo would be silently ignored)."""
    for name in params:
        if name not in known:
            allowed = ", ".join(known) if known else "none"
            raise ParamError(f"unknown parameter '{shown(name)}'; this figure takes: {allowed}")


def number(params: Params, name: str, default: float, lo: float, hi: float) -> float:
    """A finite number in [lo, hi]."""
    if name not in params:
        return default
    raw = str(params[name]).strip()
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or not lo <= value <= hi:
        raise ParamError(f"{name} must be a number from {canonical(lo)} to {canonical(hi)}, got '{shown(raw)}'")
    return value


def integer(params: Params, name: str, default: int, lo: int, hi: int) -> int:
    """A whole number in [lo, hi]."""
    if name not in params:
        return default
    raw = str(params[name]).strip()
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or not lo <= value <= hi:
        raise ParamError(f"{name} must be a whole number from {lo} to {hi}, got '{shown(raw)}'")
    return value


def choice(params: Params, name: str, default: str, allowed: Sequence[str]) -> str:
    """One of a fixed set of words."""
    if name not in params:
        return default
    raw = str(params[name]).strip()
    if raw not in allowed:
        raise ParamError(f"{name} must be one of {', '.join(allowed)}, got '{shown(raw)}'")
    return raw


def vector(params: Params, name: str, default: tuple[float, ...], length: int | tuple[int, int],
           lo: float, hi: float) -> tuple[float, ...]:
    """Comma-separated finite numbers in [lo, hi]; ``length`` is exact or a (min, max) range."""
    if name not in params:
        return default
    raw = str(params[name]).strip()
    lo_n, hi_n = (length, length) if isinstance(length, int) else length
    count = f"{lo_n}" if lo_n == hi_n else f"{lo_n} to {hi_n}"
    what = f"{name} must be {count} comma-separated numbers from {canonical(lo)} to {canonical(hi)}"
    parts = [p.strip() for p in raw.split(",")] if raw else []
    try:
        values = tuple(float(p) for p in parts)
    except ValueError:
        raise ParamError(f"{what}, got '{shown(raw)}'") from None
    if not lo_n <= len(values) <= hi_n or not all(math.isfinite(v) and lo <= v <= hi for v in values):
        raise ParamError(f"{what}, got '{shown(raw)}'")
    return values


def canonical(x: float) -> str:
    """A number as text: whole numbers without a decimal point."""
    return str(int(x)) if float(x).is_integer() else repr(x)


def from_json(state: Mapping[str, Any]) -> dict[str, str]:
    """Turn a data-state JSON object (lists, numbers) into the string form of URL parameters."""
    out: dict[str, str] = {}
    for key, value in state.items():
        if isinstance(value, (list, tuple)):
            out[key] = ",".join(_scalar(v) for v in value)
        else:
            out[key] = _scalar(value)
    return out


def _scalar(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)
