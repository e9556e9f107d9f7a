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
from .pool import MAX_DK
from .sampling import chi_square, normals
from .softmax import jacobian_norm, softmax

SATURATED = 0.99
"""A row is saturated when its largest weight exceeds this."""
_RATIO = 1 / SATURATED - 1
"""Largest weight > 0.99 exactly when the other weights sum to less than this times the largest."""
MAX_WORK = 2_097_152
"""Normals one state may draw for its gradients; beyond it the gradient uses the first rows only."""
DIVISORS = ("none", "sqrt", "dk")
CHART_DKS = tuple(2**i for i in range(10))


def divisor_value(dk: int, divisor: str) -> float:
    """The number the scores are divided by: 1, √d_k or d_k."""
    return {"none": 1.0, "sqrt": math.sqrt(dk), "dk": float(dk)}[divisor]


def gradient_cost(n: int, dk: int) -> int:
    """Normals drawn per row for the keys' coordinates across the query: n(d_k − 1), or Bartlett's n(n+1)/2."""
    return n + min(n * (dk - 1), n * (n + 1) // 2)


@dataclass(frozen=True)
class Base:
    """The draws that do not depend on d_k or the divisor: per row, ‖q‖² for every d_k and the z_j."""

    q2: tuple[array, ...]
    """q2[r][d] = q_1² + ... + q_d² for row r (q2[r][0] = 0)."""
    z: tuple[tuple[float, ...], ...]
    """z[r][j]: key j's coordinate along row r's query."""
    gaps: tuple[tuple[float, ...], ...]
    """Per row, max(z) − z_j for the other keys, smallest first (for the saturation test)."""


@lru_cache(maxsize=4)
def base(seed: int, rows: int, n: int) -> Base:
    """Row r's query is the r-th block of MAX_DK normals of the seed's query stream, so more rows keep the first ones."""
    qs = normals(random.Random(f"{seed}:queries"), rows * MAX_DK)
    zs = normals(random.Random(f"{seed}:keys"), rows * n)
    q2, z, gaps = [], [], []
    for r in range(rows):
        acc, prefix = 0.0, array("d", [0.0])
        for v in qs[r * MAX_DK:(r + 1) * MAX_DK]:
            acc += v * v
            prefix.append(acc)
        q2.append(prefix)
        row = tuple(zs[r * n:(r + 1) * n])
        z.append(row)
        top = max(row)
        ordered = sorted(row, reverse=True)[1:]
        gaps.append(tuple(top - v for v in ordered))
    return Base(tuple(q2), tuple(z), tuple(gaps))


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

    Sums are math.fsum (correctly rounded, so the same bits everywhere). Only the Gram matrix W = U Uᵀ matters; for d >= n it is drawn as L Lᵀ (Bartlett: L lower
    triangular, L_mm² ~ χ²_{d−m}, N(0, 1) below the diagonal), which costs O(n²) instead of O(n d).
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
    """‖∂p/∂q‖_F = ‖J K‖_F / c, the path toward W_Q, for the first ``gradient_rows`` rows."""
    saturated: tuple[bool, ...]


def gradient_rows(rows: int, n: int, dk: int) -> int:
    """How many rows get a ‖∂p/∂q‖: all of them unless that would draw more than MAX_WORK normals."""
    return max(1, min(rows, MAX_WORK // gradient_cost(n, dk)))


@lru_cache(maxsize=8)
def compute(seed: int, rows: int, n: int, dk: int, divisor: str) -> Rows:
    """Weights, both gradient sizes and saturation of every row.

    ‖J K‖² = Σ_i p_i² ‖k_i − k̄‖² (k̄ = Σ p_j k_j) splits into the part along q and the part across it.
    """
    b = base(seed, rows, n)
    c = divisor_value(dk, divisor)
    rng = random.Random(f"{seed}:across:{n}:{dk}")
    mx, jn, gq, sat = [], [], [], []
    with_grad = gradient_rows(rows, n, dk)
    for r in range(rows):
        a = math.sqrt(b.q2[r][dk]) / c
        z = b.z[r]
        p = softmax([a * v for v in z])
        zbar = 0.0
        for pi, zi in zip(p, z):
            zbar += pi * zi
        along = 0.0
        for pi, zi in zip(p, z):
            along += pi * pi * (zi - zbar) * (zi - zbar)
        mx.append(max(p))
        jn.append(jacobian_norm(p))
        if r < with_grad:
            gq.append(math.sqrt(along + _across(p, rng, dk - 1)) / c)
        sat.append(saturated(b.gaps[r], a))
    return Rows(tuple(mx), tuple(jn), tuple(gq), tuple(sat))


@lru_cache(maxsize=4)
def share_curve(seed: int, rows: int, n: int) -> dict[str, tuple[float, ...]]:
    """Saturated share at every d_k in CHART_DKS, per divisor, over the same rows."""
    b = base(seed, rows, n)
    out = {}
    for divisor in DIVISORS:
        shares = []
        for dk in CHART_DKS:
            c = divisor_value(dk, divisor)
            hits = 0
            for r in range(rows):
                hits += saturated(b.gaps[r], math.sqrt(b.q2[r][dk]) / c)
            shares.append(hits / rows)
        out[divisor] = tuple(shares)
    return out


def median(values: tuple[float, ...] | list[float]) -> float:
    """The middle value (the mean of the two middle ones for an even count), as numpy.median."""
    s = sorted(values)
    h = len(s) // 2
    return s[h] if len(s) % 2 else (s[h - 1] + s[h]) / 2
