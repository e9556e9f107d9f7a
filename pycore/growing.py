"""Long work done step by step and kept, so a job in slices can stop at a deadline and resume later."""

from __future__ import annotations

from time import perf_counter


class Growing:
    """Work done one step at a time (a row, a training step) and kept.

    A subclass says what step r does; results for the first r steps never depend on how many
    are asked for in the end, so a state with fewer rows is a prefix of one with more.
    """

    def __init__(self) -> None:
        self.done = 0

    def _row(self, r: int) -> None:
        raise NotImplementedError

    def ensure(self, rows: int, deadline: float | None = None) -> bool:
        """Work through row ``rows - 1``, or until ``deadline`` (time.perf_counter) has passed; True when done."""
        while self.done < rows:
            self._row(self.done)
            self.done += 1
            if deadline is not None and perf_counter() >= deadline:
                break
        return self.done >= rows
