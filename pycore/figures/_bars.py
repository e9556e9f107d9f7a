"""Bar panels shared by the softmax figures: scores around a zero line, weights from 0 to 1."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import marks
from ..scales import Linear
from ..svg import fmt, text
from ..vectors import clamp


@dataclass(frozen=True)
class Panel:
    """A bar chart's box in SVG units and its value range, on a linear scale."""

    left: float
    top: float
    width: float
    height: float
    lo: float
    hi: float

    @property
    def scale(self) -> Linear:
        """Values to SVG y."""
        return Linear(self.lo, self.hi, self.top + self.height, self.top)

    def y(self, value: float) -> float:
        """Value to SVG y, clipped to the panel."""
        return self.scale.clamped(value)

    def value(self, y: float) -> float:
        """SVG y back to a value, clipped to the range."""
        return clamp(self.scale.invert(y), self.lo, self.hi)

    def slot(self, i: int, count: int) -> tuple[float, float]:
        """Left edge and width of bar i of count."""
        step = self.width / count
        return self.left + i * step + step * 0.15, step * 0.7


def bar_panel(panel: Panel, values: Sequence[float], labels: Sequence[str], title: str, cls: str,
         handles: str | None = None, handle_label: str = "", shown: Sequence[str] | None = None,
         digits: int = 2, gap: float | None = None) -> list[str]:
    """Bars from 0 (or the bottom) to each value, value labels, word labels, optional handles.

    ``handles`` is a name prefix: bar i gets a draggable handle ``{handles}{i}`` at its tip, named by
    ``handle_label``, a message in the current language with the bar's word label as ``{word}``. ``gap``, the
    room between a bar's tip and its value label, is wider by default when there are handles.
    """
    base = panel.y(0.0) if panel.lo < 0 < panel.hi else panel.y(panel.lo)
    parts = axes(panel, title)
    n = len(values)
    for i, v in enumerate(values):
        x, w = panel.slot(i, n)
        top = panel.y(v)
        parts.append(marks.rect(x, min(top, base), w, abs(base - top), f"sq-bar {cls}"))
        label = shown[i] if shown is not None else fmt(v, digits)
        above = v >= 0
        room = gap if gap is not None else 18 if handles is not None else 5
        parts.append(text(x + w / 2, (top - room) if above else (top + room + 9), label, "sq-value", "middle"))
        parts.append(text(x + w / 2, panel.top + panel.height + 16, labels[i], "sq-tick", "middle"))
        if handles is not None:
            parts.append(marks.handle(x + w / 2, top, f"{handles}{i}", handle_label.format(word=labels[i]),
                                      f"{labels[i]}: {fmt(v, 2)}", v, panel.lo, panel.hi, "sq-q"))
    return parts


def axes(panel: Panel, title: str) -> list[str]:
    """A panel's title, its zero line and two grid lines with their values."""
    parts = [text(panel.left, panel.top - 22, title, "sq-heading")]
    for tick in (panel.lo, 0.0, panel.hi) if panel.lo < 0 else (0.0, 0.5, 1.0):
        y = panel.y(tick)
        parts.append(marks.line(panel.left, y, panel.left + panel.width, y, "sq-axis" if tick == 0 else "sq-grid"))
        parts.append(text(panel.left - 4, y + 4, fmt(tick, 2), "sq-tick", "end"))
    return parts


def words(n: int) -> list[str]:
    """Labels for n words: w1, w2, ..."""
    return [f"w{i + 1}" for i in range(n)]
