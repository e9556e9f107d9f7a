"""The figure registry: public kebab-case ids mapped to their modules, and the contract they keep.

Adding a figure is one module here plus one line in ``MODULES``; its id is the module name
with dashes. A figure's TITLE and READOUTS labels are written in English and marked with ``N_``; ``title`` and
``readout_labels`` give them in the current language, for the page.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from importlib import import_module
from types import ModuleType
from typing import Any, Protocol

from ..controls import Control
from ..i18n import _
from ..params import Param, ParamError, Params, from_json

MODULES = (
    "query_key",
    "dot_product",
    "score_histogram",
    "variance_tower",
    "product_average",
    "softmax_spike",
    "nudge",
    "values",
    "variance_rule",
    "saturation",
    "operating_point",
    "corner_dk1",
    "corner_ties",
    "corner_infinity",
    "corner_constant_v",
    "summary_pipeline",
    "correlated",
    "train",
    "length",
)


class Figure(Protocol):
    """What every figure module provides (the team's DESIGN.md, "The figure contract"; the README lists each part)."""

    TITLE: str
    PAGE: str
    """The article page that explains it, relative to the site root."""
    HEIGHT: int
    """Embed height in CSS pixels that shows the whole figure."""
    READOUTS: tuple[tuple[str, str], ...]
    """(data-readout name, label) in display order; the labels in English (``readout_labels`` translates)."""
    PARAMS: tuple[Param, ...]
    CONTROLS: tuple[Control, ...]
    State: type

    def parse(self, p: Params) -> Any: ...
    def update(self, state: Any, event: Mapping[str, Any]) -> Any: ...
    def render(self, state: Any) -> str: ...
    def readouts(self, state: Any) -> dict[str, str]: ...
    def derived_values(self, state: Any) -> dict[str, str]: ...
    def prepare(self, state: Any, deadline: float | None) -> tuple[Any, str] | None:
        """Work toward drawing ``state`` until ``deadline`` (time.perf_counter); None once it is ready,
        else (a state that can be drawn already, or None, and a progress text)."""
    def snippet(self, state: Any) -> str:
        """A stand-alone numpy script that prints the readouts for ``state`` (Copy as Python; see ``_snippet``)."""
    # Optional: ``caption(state) -> str``, the caption's live line, what the figure shows now in words
    # ("500 rows of 16 keys, not divided, at dₖ = 64."), for a figure whose reader can change what a
    # static caption would describe. The Markdown caption after it stays true in every state.


FIGURES: dict[str, ModuleType] = {name.replace("_", "-"): import_module(f".{name}", __name__) for name in MODULES}


def get(figure_id: str) -> ModuleType:
    """The module for a figure id; an unknown id is a ParamError listing the known ones."""
    try:
        return FIGURES[figure_id]
    except KeyError:
        raise ParamError(_("unknown figure '{figure}'; known figures: {known}").format(
            figure=figure_id, known=", ".join(FIGURES))) from None


def title(module: ModuleType) -> str:
    """The figure's title in the current language."""
    return _(module.TITLE)


def readout_labels(module: ModuleType) -> tuple[tuple[str, str], ...]:
    """(data-readout name, label) in display order, each label in the current language."""
    return tuple((name, _(label)) for name, label in module.READOUTS)


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


def log_ranges(module: ModuleType) -> dict[str, Control]:
    """The figure's log sliders by field name."""
    return {c.name: c for c in module.CONTROLS if c.kind == "range" and c.scale == "log"}


def control_values(module: ModuleType, state: Any) -> dict[str, str]:
    """What each control should show: the state's fields plus any the figure derives, and for a log
    slider ``<name>@position``, where its thumb goes."""
    out = {**state_params(state), **module.derived_values(state)}
    for name, c in log_ranges(module).items():
        out[f"{name}@position"] = str(c.position_of(getattr(state, name)))
    return out
