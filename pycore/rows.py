"""Many attention rows at once (one query against n keys), drawn exactly and cheaply.

Keys are iid N(0, I) and independent of the query, so in a basis whose first axis is q/‖q‖
their coordinates are still iid N(0, 1). A row's raw scores are then ‖q‖·z_j with z_j iid
N(0, 1), where ‖q‖² is a running sum of q_i²: one query serves every d_k, so a curve over d_k
follows the same rows. The gradient to the query also needs the keys' other d_k − 1
coordinates, but only through their Gram matrix, a Wishart matrix that Bartlett's
decomposition draws in O(n²) when that is cheaper than O(n·d_k).
"""

from __future__ import annotations

import math
import random
from array import array
from dataclasses import dataclass
from functools import lru_cache
from math import fsum
from operator import mul

from .detmath import exp
from .growing import Growing
from .pool import MAX_DK
from .sampling import chi_square, normals
from .softmax import jacobian_norm, softmax

SATURATED = 0.99
"""A row is saturated when its largest weight exceeds this."""
_RATIO = 1 / SATURATED - 1
"""Largest weight > 0.99 exactly when the other weights sum to less than this times the largest."""
MAX_WORK = 2_097_152
"""Normals one (n, d_k) may draw for its gradients; beyond it the gradient uses the first rows only."""
DIVISORS = ("none", "sqrt", "dk")
CHART_DKS = tuple(2**i for i in range(10))


def divisor_value(dk: int, divisor: str) -> float:
    """The number the scores are divided by: 1, √d_k or d_k."""
    return {"none": 1.0, "sqrt": math.sqrt(dk), "dk": float(dk)}[divisor]


def gradient_cost(n: int, dk: int) -> int:
    """Normals drawn per row for the keys' coordinates across the query: n(d_k − 1), or Bartlett's n(n+1)/2."""
    return n + min(n * (dk - 1), n * (n + 1) // 2)


class Draws(Growing):
    """The draws that do not depend on d_k or the divisor: per row, ‖q‖² for every d_k and the z_j.

    Row r's query is the next MAX_DK normals of the seed's query stream, its keys' coordinates
    along it the next n normals of the keys' stream.
    """

    def __init__(self, seed: int, n: int, gaps: bool = True) -> None:
        super().__init__()
        self.n, self._want_gaps = n, gaps
        self._q = random.Random(f"{seed}:queries")
        self._z = random.Random(f"{seed}:keys")
        self.q2: list[array] = []
        """q2[r][d] = q_1² + ... + q_d² for row r (q2[r][0] = 0)."""
        self.z: list[array] = []
        """z[r][j]: key j's coordinate along row r's query; with n keys, the first m of them are a row of m keys."""
        self.gaps: list[tuple[float, ...]] = []
        """Per row, max(z) − z_j for the other keys, smallest first (for the saturation test), when asked for."""

    def _row(self, r: int) -> None:
        acc, prefix = 0.0, array("d", [0.0])
        for v in normals(self._q, MAX_DK):
            acc += v * v
            prefix.append(acc)
        self.q2.append(prefix)
        row = normals(self._z, self.n)
        self.z.append(array("d", row))
        if self._want_gaps:
            top = max(row)
            self.gaps.append(tuple(top - v for v in sorted(row, reverse=True)[1:]))


@lru_cache(maxsize=4)
def draws(seed: int, n: int, gaps: bool = True) -> Draws:
    """The shared, growing draws for (seed, n), with each row's sorted gaps unless ``gaps`` is False."""
    return Draws(seed, n, gaps)


def saturated(gaps: tuple[float, ...], a: float) -> bool:
    """Whether softmax(a·z) has a largest weight above 0.99, from the gaps below the top score.

    The other weights relative to the largest are e^{−a·gap}; summed smallest gap first, the
    answer is usually settled after a few terms.
    """
    total = 0.0
    left = len(gaps)
    for g in gaps:
        term = exp(-a * g)
        total += term
        left -= 1
        if total >= _RATIO:
            return False
        if total + term * left < _RATIO:
            return True
    return total < _RATIO


def _across(p: list[float], rng: random.Random, d: int) -> float:
    """Σ_i p_i² ‖u_i − ū‖² for the keys' d coordinates across the query (u iid N(0, 1), ū = Σ p_j u_j).

    Only the Gram matrix W = U Uᵀ matters; for d >= n it is drawn as L Lᵀ (Bartlett: L lower
    triangular, L_mm² ~ χ²_{d−m}, N(0, 1) below the diagonal), which costs O(n²) instead of O(n d).
    Sums are math.fsum (correctly rounded, so the same bits everywhere).
    """
    n = len(p)
    p2 = [v * v for v in p]
    acc = 0.0
    if d < n:
        g = normals(rng, n * d)
        for m in range(d):
            col = g[m * n:(m + 1) * n]
            a = fsum(map(mul, p, col))
            dev = [gi - a for gi in col]
            acc += fsum(map(mul, p2, map(mul, dev, dev)))
        return acc
    above = 0.0
    for m in range(n):
        col = [math.sqrt(chi_square(rng, d - m))] + normals(rng, n - 1 - m)
        a = fsum(map(mul, p[m:], col))
        dev = [li - a for li in col]
        acc += above * a * a + fsum(map(mul, p2[m:], map(mul, dev, dev)))
        above += p2[m]
    return acc


@dataclass(frozen=True)
class Rows:
    """Per-row results for one (seed, rows, n, d_k, divisor)."""

    max_weight: tuple[float, ...]
    jacobian: tuple[float, ...]
    """‖J‖_F with J = diag(p) − p pᵀ, the softmax's own Jacobian."""
    grad_q: tuple[float, ...]
    """‖∂p/∂q‖_F = ‖J K‖_F / c, the path toward W_Q, for the first ``gradient_cap`` rows."""
    saturated: tuple[bool, ...]


def gradient_cap(n: int, dk: int) -> int:
    """How many rows get a ‖∂p/∂q‖ at most: MAX_WORK normals' worth (at least one)."""
    return max(1, MAX_WORK // gradient_cost(n, dk))


class Stats(Growing):
    """Weights, both gradient sizes and saturation, row by row, for one (seed, n, d_k, divisor).

    ‖J K‖² = Σ_i p_i² ‖k_i − k̄‖² (k̄ = Σ p_j k_j) splits into the part along q and the part across it.
    """

    def __init__(self, seed: int, n: int, dk: int, divisor: str) -> None:
        super().__init__()
        self.dk, self.c = dk, divisor_value(dk, divisor)
        self.cap = gradient_cap(n, dk)
        self._draws = draws(seed, n)
        self._rng = random.Random(f"{seed}:across:{n}:{dk}")
        self.max_weight: list[float] = []
        self.jacobian: list[float] = []
        self.grad_q: list[float] = []
        self.saturated: list[bool] = []

    def _row(self, r: int) -> None:
        b = self._draws
        b.ensure(r + 1)
        a = math.sqrt(b.q2[r][self.dk]) / self.c
        z = b.z[r]
        p = softmax([a * v for v in z])
        zbar = 0.0
        for pi, zi in zip(p, z):
            zbar += pi * zi
        along = 0.0
        for pi, zi in zip(p, z):
            along += pi * pi * (zi - zbar) * (zi - zbar)
        self.max_weight.append(max(p))
        self.jacobian.append(jacobian_norm(p))
        if r < self.cap:
            self.grad_q.append(math.sqrt(along + _across(p, self._rng, self.dk - 1)) / self.c)
        self.saturated.append(saturated(b.gaps[r], a))


@lru_cache(maxsize=8)
def stats(seed: int, n: int, dk: int, divisor: str) -> Stats:
    """The shared, growing per-row results for (seed, n, d_k, divisor)."""
    return Stats(seed, n, dk, divisor)


def compute(seed: int, rows: int, n: int, dk: int, divisor: str) -> Rows:
    """Every number of the first ``rows`` rows (‖∂p/∂q‖ for the first ``gradient_cap`` of them)."""
    s = stats(seed, n, dk, divisor)
    s.ensure(rows)
    return Rows(tuple(s.max_weight[:rows]), tuple(s.jacobian[:rows]), tuple(s.grad_q[:min(rows, s.cap)]),
                tuple(s.saturated[:rows]))


class Curve(Growing):
    """Per row and per (divisor, d_k in CHART_DKS): whether it saturates, as running counts."""

    def __init__(self, seed: int, n: int) -> None:
        super().__init__()
        self._draws = draws(seed, n)
        self.counts: list[tuple[int, ...]] = [(0,) * (len(DIVISORS) * len(CHART_DKS))]
        """counts[r]: saturated rows among the first r, per (divisor, d_k), divisor-major."""

    def _row(self, r: int) -> None:
        b = self._draws
        b.ensure(r + 1)
        hits = [saturated(b.gaps[r], math.sqrt(b.q2[r][dk]) / divisor_value(dk, divisor))
                for divisor in DIVISORS for dk in CHART_DKS]
        self.counts.append(tuple(c + h for c, h in zip(self.counts[-1], hits)))


@lru_cache(maxsize=4)
def curve(seed: int, n: int) -> Curve:
    """The shared, growing saturation counts for (seed, n)."""
    return Curve(seed, n)


def share_curve(seed: int, rows: int, n: int) -> dict[str, tuple[float, ...]]:
    """Saturated share at every d_k in CHART_DKS, per divisor, over the first ``rows`` rows."""
    c = curve(seed, n)
    c.ensure(rows)
    k = len(CHART_DKS)
    return {d: tuple(v / rows for v in c.counts[rows][i * k:(i + 1) * k]) for i, d in enumerate(DIVISORS)}


def prepare(seed: int, rows: int, n: int, dk: int, divisor: str, deadline: float | None) -> int:
    """Work toward ``compute`` and ``share_curve`` for these rows until the deadline; how many rows are ready."""
    s, c = stats(seed, n, dk, divisor), curve(seed, n)
    s.ensure(rows, deadline)
    c.ensure(rows, deadline)
    return min(s.done, c.done, rows)


def median(values: tuple[float, ...] | list[float]) -> float:
    """The middle value (the mean of the two middle ones for an even count), as numpy.median."""
    s = sorted(values)
    h = len(s) // 2
    return s[h] if len(s) % 2 else (s[h - 1] + s[h]) / 2
