"""Declarations of a figure's controls; the build turns them into HTML form elements.

Controls only name a state field (or an event); what a change means is decided in Python.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Range:
    """A native range slider bound to the state field ``name``."""

    name: str
    label: str
    lo: float
    hi: float
    step: float = 1
    kind: str = "range"


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
