"""Long rows: one query against up to 4,096 keys, with the scores scaled by 1/√d_k or by s·ln n/√d_k.

The draws are ``rows.draws(seed, MAX_N)``: a row's raw scores are ‖q‖·z_j (keys independent of
the query), and a row of n keys is the first n of its MAX_N, so one set of draws serves every n
and every d_k, and a curve over n follows the same rows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from math import fsum
from operator import mul

from . import rows
from .detmath import exps, log
from .growing import Growing

MAX_N = 4096
SCALINGS = ("sqrt", "log-n")
CHART_NS = tuple(2**i for i in range(3, 13))
"""The n of the curve: 8, 16, ..., 4096."""
DEFAULT_S = 1 / log(16.0)
"""s = 1/ln 16: at n = 16 both scalings give the same scores."""


def factor(n: int, dk: int, scaling: str, s: float) -> float:
    """What the raw score q·k is multiplied by: 1/√d_k, times s·ln n for ``log-n``."""
    base = 1 / math.sqrt(dk)
    return base * s * log(float(n)) if scaling == "log-n" else base


def _terms(z: Sequence[float], n: int, a: float) -> tuple[list[float], list[float], float]:
    """For the first n of z: x_j = a(z_j − max z), e_j = e^{x_j} (the largest exactly 1) and S = Σ e_j (math.fsum)."""
    zs = z[:n]
    top = max(zs)
    xs = [a * (v - top) for v in zs]
    e = exps(xs)
    return xs, e, fsum(e)


def max_weight(z: Sequence[float], n: int, a: float) -> float:
    """The largest weight of softmax(a·z_j) over the first n of z: 1/S."""
    return 1 / _terms(z, n, a)[2]


def weights(z: Sequence[float], n: int, a: float) -> tuple[float, float]:
    """(largest weight, entropy / ln n) of softmax(a·z_j) over the first n of z.

    The entropy is ln S − Σ e_j x_j / S; sums are math.fsum, so every runtime gets the same bits.
    """
    xs, e, total = _terms(z, n, a)
    return 1 / total, (log(total) - fsum(map(mul, e, xs)) / total) / log(float(n))


class Current(Growing):
    """Per row, the largest weight and entropy / ln n for one (seed, n, d_k, scaling, s)."""

    def __init__(self, seed: int, n: int, dk: int, scaling: str, s: float) -> None:
        super().__init__()
        self.n, self.dk = n, dk
        self.f = factor(n, dk, scaling, s)
        self._draws = rows.draws(seed, MAX_N, gaps=False)
        self.max_weight: list[float] = []
        self.entropy_ratio: list[float] = []

    def _row(self, r: int) -> None:
        b = self._draws
        b.ensure(r + 1)
        top, ratio = weights(b.z[r], self.n, math.sqrt(b.q2[r][self.dk]) * self.f)
        self.max_weight.append(top)
        self.entropy_ratio.append(ratio)


def prefix_max_weights(z: Sequence[float], ns: Sequence[int], a: float) -> list[float]:
    """The largest weight of softmax(a·z_j) over the first n of z, for each n in increasing ``ns``, in one pass.

    The running sum S of e^{a(z_j − running max)} is multiplied by e^{a(old max − new max)} when the max
    grows, so the largest term stays exactly 1 and the largest weight is 1/S.
    """
    total, top, lo, out = 0.0, -math.inf, 0, []
    for n in ns:
        seg = z[lo:n]
        m = max(seg)
        if m > top:
            if total:
                total *= exps([a * (top - m)])[0]
            top = m
        total += fsum(exps([a * (v - top) for v in seg]))
        out.append(1 / total)
        lo = n
    return out


class Curve(Growing):
    """Per row, the largest weight at every n in CHART_NS for one (seed, d_k, scaling, s).

    ``sqrt`` multiplies every row length by the same factor, so one pass over the keys serves every n.
    """

    def __init__(self, seed: int, dk: int, scaling: str, s: float) -> None:
        super().__init__()
        self.dk, self.scaling = dk, scaling
        self.f = [factor(n, dk, scaling, s) for n in CHART_NS]
        self._draws = rows.draws(seed, MAX_N, gaps=False)
        self.max_weight: list[tuple[float, ...]] = []

    def _row(self, r: int) -> None:
        b = self._draws
        b.ensure(r + 1)
        norm = math.sqrt(b.q2[r][self.dk])
        if self.scaling == "sqrt":
            self.max_weight.append(tuple(prefix_max_weights(b.z[r], CHART_NS, norm * self.f[0])))
        else:
            self.max_weight.append(tuple(max_weight(b.z[r], n, norm * f) for n, f in zip(CHART_NS, self.f)))


def current(seed: int, n: int, dk: int, scaling: str, s: float) -> Current:
    """The shared, growing rows of one state (``sqrt`` ignores s)."""
    return _current(seed, n, dk, scaling, DEFAULT_S if scaling == "sqrt" else s)


@lru_cache(maxsize=8)
def _current(seed: int, n: int, dk: int, scaling: str, s: float) -> Current:
    return Current(seed, n, dk, scaling, s)


@lru_cache(maxsize=8)
def curve(seed: int, dk: int, scaling: str, s: float) -> Curve:
    """The shared, growing curve rows of one (seed, d_k, scaling, s); ``sqrt`` ignores s (pass DEFAULT_S)."""
    return Curve(seed, dk, scaling, s)


def curves(seed: int, dk: int, s: float) -> tuple[Curve, ...]:
    """Both scalings' curves, in SCALINGS order."""
    return curve(seed, dk, "sqrt", DEFAULT_S), curve(seed, dk, "log-n", s)


def prepare(seed: int, rows_wanted: int, n: int, dk: int, scaling: str, s: float, deadline: float | None) -> int:
    """Work toward the state's rows and both curves until the deadline, row by row; how many rows are ready."""
    jobs = (current(seed, n, dk, scaling, s), *curves(seed, dk, s))
    ready = rows_wanted
    for job in jobs:
        job.ensure(rows_wanted, deadline)
        ready = min(ready, job.done)
    return ready


def medians(c: Curve, count: int) -> tuple[float, ...]:
    """The median largest weight over the first ``count`` rows at each n in CHART_NS."""
    c.ensure(count)
    return tuple(rows.median([row[i] for row in c.max_weight[:count]]) for i in range(len(CHART_NS)))
