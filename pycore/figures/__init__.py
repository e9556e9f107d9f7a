"""The figure registry: public kebab-case ids mapped to their modules.

Each module exposes ``State``, ``parse``, ``update``, ``render``, ``readouts`` and the
metadata the build needs (``TITLE``, ``PAGE``, ``READOUTS``, ``CONTROLS``, ``HEIGHT``).
"""

from __future__ import annotations

import dataclasses
from types import ModuleType
from typing import Any

from ..params import ParamError, from_json
from . import (
    corner_constant_v,
    corner_dk1,
    corner_infinity,
    corner_ties,
    correlated,
    dot_product,
    query_key,
    saturation,
    score_histogram,
    softmax_spike,
    summary_pipeline,
    variance_tower,
)

FIGURES: dict[str, ModuleType] = {
    "query-key": query_key,
    "dot-product": dot_product,
    "score-histogram": score_histogram,
    "variance-tower": variance_tower,
    "softmax-spike": softmax_spike,
    "saturation": saturation,
    "corner-dk1": corner_dk1,
    "corner-ties": corner_ties,
    "corner-infinity": corner_infinity,
    "corner-constant-v": corner_constant_v,
    "summary-pipeline": summary_pipeline,
    "correlated": correlated,
}


def get(figure_id: str) -> ModuleType:
    """The module for a figure id; an unknown id is a ParamError listing the known ones."""
    try:
        return FIGURES[figure_id]
    except KeyError:
        raise ParamError(f"unknown figure '{figure_id}'; known figures: {', '.join(FIGURES)}") from None


def state_json(state: Any) -> dict[str, Any]:
    """A state as JSON-ready data: field names are the URL parameter names, tuples are lists."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(state):
        value = getattr(state, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def state_params(state: Any) -> dict[str, str]:
    """A state as URL query parameters (strings), which ``parse`` accepts back."""
    return from_json(state_json(state))


def control_values(module: ModuleType, state: Any) -> dict[str, str]:
    """What each control should show: the state's fields plus any the figure derives."""
    values = state_params(state)
    derived = getattr(module, "derived_values", None)
    if derived is not None:
        values.update(derived(state))
    return values
