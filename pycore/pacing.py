"""When a long job, answered in slices, draws its partial state again.

Drawing it after every 50 ms slice cost more than the work: the Summary's six stages took 0.4 s to draw each
time, so a job of 1.5 s took 9. A resumed job now draws again only once it has worked WORK_PER_DRAWING times
as long as its figure's last partial drawing took, so drawings take at most about a third of a job's time.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

WORK_PER_DRAWING = 2
_LAST: dict[str, tuple[float, float]] = {}
"""Per figure, when its last partial drawing ended and how long it took (perf_counter seconds)."""


def due(figure: str) -> bool:
    """Whether a resumed job has worked long enough since ``figure``'s last partial drawing to draw again."""
    ended, took = _LAST.get(figure, (-math.inf, 0.0))
    return time.perf_counter() - ended >= WORK_PER_DRAWING * took


def timed(figure: str, draw: Callable[[], T]) -> T:
    """``draw()``'s result, its end and duration kept as ``figure``'s last partial drawing."""
    began = time.perf_counter()
    drawn = draw()
    ended = time.perf_counter()
    _LAST[figure] = (ended, ended - began)
    return drawn
