"""Declarations of a figure's controls; the build turns them into HTML form elements.

Controls only name a state field (or an event); what a change means is decided in Python. A control keeps its
label and its options' labels in English, as written (marked with ``N_`` where they are written);
``shown_label()`` and ``shown_options()`` give them in the current language, for the page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .i18n import N_, _

LOG_STOPS_PER_DOUBLING = 8
"""A log slider moves by a factor 2^(1/8), about 9%, per step."""
PRESETS = N_("{label}: presets")
"""The label of a parameter's preset buttons, from the parameter's own label."""


class Labelled:
    """What every control shows a reader: its label, and its options' labels, in the current language."""

    label: str

    def shown_label(self) -> str:
        """The label in the current language."""
        return _(self.label)

    def shown_options(self) -> tuple[tuple[str, str], ...]:
        """(value, label) pairs, each label in the current language; the values stay as the page sends them."""
        return tuple((value, _(text)) for value, text in getattr(self, "options", ()))


@dataclass(frozen=True)
class Range(Labelled):
    """A native range slider bound to the state field ``name``.

    With ``scale="log"`` the slider moves over positions 0 ... len(stops) − 1, each a value in ``stops``
    (spaced evenly in log scale, each one once: whole numbers when lo and hi are whole, else four
    significant digits, so the powers of two of a range such as 1/32 to 16 are exact); the page sends the
    position and shows the value, and Python maps one to the other.
    """

    name: str
    label: str
    lo: float
    hi: float
    step: float = 1
    kind: str = "range"
    scale: str = "linear"
    marks: tuple[float, ...] = ()
    """Values the slider shows tick marks at (its parameter's presets)."""

    @property
    def ticks(self) -> tuple[str, ...]:
        """Where the marks sit on the slider itself: positions for a log slider, values for a linear one."""
        return tuple(str(self.position_of(v)) if self.scale == "log" else repr(v) for v in self.marks)

    @property
    def stops(self) -> tuple[float, ...]:
        """A log slider's values, from lo to hi; empty for a linear one."""
        if self.scale != "log":
            return ()
        count = round(LOG_STOPS_PER_DOUBLING * math.log2(self.hi / self.lo))
        whole = float(self.lo).is_integer() and float(self.hi).is_integer()
        values = [self.lo * (self.hi / self.lo) ** (i / count) for i in range(count)] + [self.hi]
        return tuple(sorted({round(v) if whole else float(f"{v:.4g}") for v in values}))

    def value_at(self, position: str) -> str:
        """The value at a log slider's position (clamped to its ends), as the page sends it."""
        stops = self.stops
        try:
            i = int(float(position))
        except ValueError:
            return str(position)
        value = stops[min(max(i, 0), len(stops) - 1)]
        return str(int(value)) if float(value).is_integer() else repr(value)

    def position_of(self, value: float) -> int:
        """The position of the stop nearest to ``value`` in log scale."""
        stops = self.stops
        return min(range(len(stops)), key=lambda i: abs(math.log(stops[i] / value)))


@dataclass(frozen=True)
class Choice(Labelled):
    """A group of radio buttons bound to the state field ``name``."""

    name: str
    label: str
    options: tuple[tuple[str, str], ...]
    kind: str = "choice"


@dataclass(frozen=True)
class Presets(Labelled):
    """Buttons that each set the state field ``name`` to one value.

    ``of`` is the label of the parameter they set, when ``label`` was made from it (``presets``): the label is
    then shown by translating ``of`` and putting it in PRESETS, never by translating ``label`` itself."""

    name: str
    label: str
    options: tuple[tuple[str, str], ...]
    kind: str = "presets"
    of: str = ""

    def shown_label(self) -> str:
        """The label in the current language."""
        return _(PRESETS).format(label=_(self.of)) if self.of else _(self.label)


def presets(name: str, of: str, options: tuple[tuple[str, str], ...]) -> Presets:
    """The preset buttons of the parameter ``name`` whose control is labelled ``of``: labelled "``of``: presets"."""
    return Presets(name, PRESETS.format(label=of), options, of=of)


@dataclass(frozen=True)
class Text(Labelled):
    """A text field bound to the state field ``name``, sent when the reader presses Enter or leaves it."""

    name: str
    label: str
    kind: str = "text"


@dataclass(frozen=True)
class Button(Labelled):
    """A button that sends the event ``{"type": name}`` to the figure's update()."""

    name: str
    label: str
    kind: str = "button"


@dataclass(frozen=True)
class Play(Labelled):
    """Play/stop for an animation that steps the range control ``name`` from lo to hi."""

    name: str
    label: str
    stops: tuple[float, ...] = field(default_factory=tuple)
    kind: str = "play"


Control = Range | Choice | Presets | Text | Button | Play
