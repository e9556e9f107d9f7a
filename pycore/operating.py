"""Where each divisor puts softmax as d_k grows: a row's largest weight, and how far a nudge moves its weights.

The rows are ``rows.draws``' (one query against n keys, the keys' coordinates along the query drawn
once for every d_k), so they are the rows the saturation figure counts. Unscaled scores are unit-size
scores stretched by √d_k (Step 5); ÷√d_k leaves a stretch of 1 and ÷d_k one of 1/√d_k. A nudge, as in
the nudge figure, raises the row's largest unit-size score by NUDGE, so its scaled score by NUDGE·√d_k / c.
"""

from __future__ import annotations

import math
from functools import lru_cache
from math import fsum

from .detmath import exps
from .growing import Growing
from .rows import DIVISORS, divisor_value, draws, median

NUDGE = 0.5
"""How far the largest unit-size score of a row is nudged up: the nudge figure's default."""


def _softmax(scores: list[float]) -> list[float]:
    """softmax of finite scores, with detmath.exps (five times faster than one exp a value)."""
    top = max(scores)
    e = exps([v - top for v in scores])
    total = 0.0
    for v in e:
        total += v
    return [v / total for v in e]


class Operating(Growing):
    """Per row and per (divisor, d_k): the largest weight, and Σ_j |p′_j − p_j| after the nudge."""

    def __init__(self, seed: int, n: int, dks: tuple[int, ...]) -> None:
        super().__init__()
        self.dks = dks
        self._draws = draws(seed, n)
        self.max_weight: dict[tuple[str, int], list[float]] = {(d, dk): [] for d in DIVISORS for dk in dks}
        self.moved: dict[tuple[str, int], list[float]] = {(d, dk): [] for d in DIVISORS for dk in dks}

    def _row(self, r: int) -> None:
        b = self._draws
        b.ensure(r + 1)
        z = b.z[r]
        top = max(range(len(z)), key=z.__getitem__)
        for dk in self.dks:
            for divisor in DIVISORS:
                c = divisor_value(dk, divisor)
                a = math.sqrt(b.q2[r][dk]) / c
                scores = [a * v for v in z]
                p = _softmax(scores)
                scores[top] += NUDGE * math.sqrt(dk) / c
                after = _softmax(scores)
                self.max_weight[divisor, dk].append(max(p))
                self.moved[divisor, dk].append(fsum(abs(x - y) for x, y in zip(after, p)))


@lru_cache(maxsize=8)
def operating(seed: int, n: int, dks: tuple[int, ...]) -> Operating:
    """The shared, growing per-row numbers for (seed, n) at these d_k."""
    return Operating(seed, n, dks)


def medians(seed: int, rows: int, n: int, dks: tuple[int, ...]) -> dict[str, dict[tuple[str, int], float]]:
    """The medians over the first ``rows`` rows: {"max-weight": {(divisor, d_k): …}, "moved": {…}}."""
    o = operating(seed, n, dks)
    o.ensure(rows)
    return {"max-weight": {k: median(v[:rows]) for k, v in o.max_weight.items()},
            "moved": {k: median(v[:rows]) for k, v in o.moved.items()}}
