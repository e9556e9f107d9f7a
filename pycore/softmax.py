"""Softmax, its Jacobian, the Jacobian's size as a "gradient signal", and entropy.

Stable for any input a reader can produce: the maximum is subtracted first, +inf scores
share the whole weight, -inf and -1e9 masks get exactly 0, and 1e308 neither overflows nor
turns into NaN. exp and log come from ``detmath`` so both runtimes agree bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .detmath import exp, log


def softmax(scores: Sequence[float]) -> list[float]:
    """Weights e^{s_j} / sum_i e^{s_i}; all-equal scores give exactly 1/n."""
    if not scores:
        raise ValueError("softmax needs at least one score")
    if any(s != s for s in scores):
        raise ValueError("softmax of NaN is undefined")
    top = max(scores)
    if top == math.inf:
        winners = list(scores).count(math.inf)
        return [1.0 / winners if s == math.inf else 0.0 for s in scores]
    if top == -math.inf:
        raise ValueError("softmax is undefined when every score is -inf")
    e = [exp(s - top) for s in scores]
    total = 0.0
    for v in e:
        total += v
    return [v / total for v in e]


def jacobian(p: Sequence[float]) -> list[list[float]]:
    """d softmax_i / d s_j = p_i (delta_ij - p_j), that is diag(p) - p p^T."""
    return [[(pi if i == j else 0.0) - pi * pj for j, pj in enumerate(p)] for i, pi in enumerate(p)]


def jacobian_norm(p: Sequence[float]) -> float:
    """Frobenius norm of the Jacobian: how much any change of the scores can still move the weights.

    O(n) from ‖J‖² = Σ_i p_i² ((1 - p_i)² + Σ_{j≠i} p_j²). For the largest weight both factors
    are summed from the other weights, not subtracted from 1, so a spike keeps its tiny norm's digits.
    """
    top = max(range(len(p)), key=p.__getitem__)
    rest = rest2 = 0.0
    for j, v in enumerate(p):
        if j != top:
            rest += v
            rest2 += v * v
    big = p[top]
    s2 = rest2 + big * big
    acc = big * big * (rest * rest + rest2)
    for j, v in enumerate(p):
        if j != top:
            acc += v * v * ((1.0 - v) * (1.0 - v) + (s2 - v * v))
    return math.sqrt(acc)


def entropy(p: Sequence[float]) -> float:
    """Shannon entropy in nats, with 0 log 0 = 0: log n when uniform, 0 for a one-hot spike."""
    total = 0.0
    for v in p:
        if v > 0:
            total -= v * log(v)
    return total
