"""Declarations of a figure's controls; the build turns them into HTML form elements.

Controls only name a state field (or an event); what a change means is decided in Python.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

LOG_STOPS_PER_DOUBLING = 8
"""A log slider moves by a factor 2^(1/8), about 9%, per step."""


@dataclass(frozen=True)
class Range:
    """A native range slider bound to the state field ``name``.

    With ``scale="log"`` the slider moves over positions 0 ... len(stops) − 1, each a value in ``stops``
    (whole numbers, spaced evenly in log scale, each one once); the page sends the position and shows
    the value, and Python maps one to the other.
    """

    name: str
    label: str
    lo: float
    hi: float
    step: float = 1
    kind: str = "range"
    scale: str = "linear"

    @property
    def stops(self) -> tuple[int, ...]:
        """A log slider's values, from lo to hi; empty for a linear one."""
        if self.scale != "log":
            return ()
        count = round(LOG_STOPS_PER_DOUBLING * math.log2(self.hi / self.lo))
        values = [round(self.lo * (self.hi / self.lo) ** (i / count)) for i in range(count)] + [round(self.hi)]
        return tuple(sorted(set(values)))

    def value_at(self, position: str) -> str:
        """The value at a log slider's position (clamped to its ends), as the page sends it."""
        stops = self.stops
        try:
            i = int(float(position))
        except ValueError:
            return str(position)
        return str(stops[min(max(i, 0), len(stops) - 1)])

    def position_of(self, value: float) -> int:
        """The position of the stop nearest to ``value`` in log scale."""
        stops = self.stops
        return min(range(len(stops)), key=lambda i: abs(math.log(stops[i] / value)))


@dataclass(frozen=True)
class Choice:
    """A group of radio buttons bound to the state field ``name``."""

    name: str
    label: str
    options: tuple[tuple[str, str], ...]
    kind: str = "choice"


@dataclass(frozen=True)
class Presets:
    """Buttons that each set the state field ``name`` to one value."""

    name: str
    label: str
    options: tuple[tuple[str, str], ...]
    kind: str = "presets"


@dataclass(frozen=True)
class Text:
    """A text field bound to the state field ``name``, sent when the reader presses Enter or leaves it."""

    name: str
    label: str
    kind: str = "text"


@dataclass(frozen=True)
class Button:
    """A button that sends the event ``{"type": name}`` to the figure's update()."""

    name: str
    label: str
    kind: str = "button"


@dataclass(frozen=True)
class Play:
    """Play/stop for an animation that steps the range control ``name`` from lo to hi."""

    name: str
    label: str
    stops: tuple[float, ...] = field(default_factory=tuple)
    kind: str = "play"


Control = Range | Choice | Presets | Text | Button | Play
