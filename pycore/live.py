"""Numbers in the prose that follow a figure: the words for a name bound to a figure's state.

A page binds a span to a figure on it with ``data-live="ANCHOR:NAME"``, NAME being one of the figure's
readouts (``saturated``) or, after an ``@``, one of its state's fields as its controls show it (``@dk``; a
choice by its label, so ``@divisor`` reads "÷ √dₖ", not "sqrt"),
optionally followed by ``|FORMAT`` from FORMATS (``saturated|percent``). The build fills the span with
the words for the figure's built state, and the bridge answers a figure's requests with the words for
every name its page binds, so the JS only patches text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from . import figures
from .i18n import _
from .params import ParamError


def _percent(text: str) -> str:
    """A share as the figures print percentages: 0.268 → 26.8%."""
    return f"{100 * float(text):g}%"


FORMATS: dict[str, Callable[[str], str]] = {"percent": _percent}
"""How a bound name's text may be reworded for the prose."""


def shown(module: Any, name: str, value: str) -> str:
    """A field's value as its control labels it: a choice's label (in the current language), any other field's
    text as it is."""
    spec = next((p for p in module.PARAMS if p.name == name), None)
    labels = dict(spec.options) if spec is not None and spec.kind == "choice" else {}
    return _(labels[value]) if value in labels else value


def known(module: Any) -> list[str]:
    """Every name a page may bind to a figure of this module: its readouts, and its fields after an @."""
    return [name for name, _label in module.READOUTS] + [f"@{name}" for name in figures.state_params(module.State())]


def check(module: Any, name: str) -> None:
    """A ParamError naming what exists when ``name`` is not a readout, @field or a known format of one."""
    base, _bar, form = name.partition("|")
    if base not in known(module):
        raise ParamError(_("'{name}' is not a readout or @field of this figure; it has: {known}").format(
            name=base, known=", ".join(known(module))))
    if form and form not in FORMATS:
        raise ParamError(_("unknown format '{format}' in '{name}'; the formats are: {formats}").format(
            format=form, name=name, formats=", ".join(FORMATS)))


def texts(module: Any, state: Any, names: list[str], readouts: Mapping[str, str] | None = None) -> dict[str, str]:
    """The words for each bound name in ``state`` (``readouts`` if already computed); names already ``check``ed."""
    readouts = module.readouts(state) if readouts is None else readouts
    values = figures.control_values(module, state)
    out = {}
    for name in names:
        base, _bar, form = name.partition("|")
        text = shown(module, base[1:], values[base[1:]]) if base.startswith("@") else readouts[base]
        out[name] = FORMATS[form](text) if form else text
    return out


def partial(module: Any, drawn: Any, asked: Any, names: list[str]) -> list[str]:
    """The bound names whose words, read off the drawn-so-far state, are not yet the asked state's: every readout,
    and a field only where the two states differ (the rows drawn so far, not the dₖ asked for)."""
    now, then = figures.control_values(module, drawn), figures.control_values(module, asked)
    fields = [name.partition("|")[0][1:] for name in names]
    return [name for name, f in zip(names, fields) if not name.startswith("@") or now[f] != then[f]]
