"""Theoretical densities for the score histograms.

The sum of d independent products of two standard normals follows a variance-gamma law:
f(x) = |x|^v K_v(|x|) / (sqrt(pi) 2^v Gamma(d/2)), v = (d - 1) / 2. For d = 1 it is
K_0(|x|)/pi, infinitely peaked at 0; for d = 2 it is the Laplace density e^-|x| / 2; as d
grows it approaches the normal N(0, d).
"""

from __future__ import annotations

import math

NODES = 48
"""Trapezoid nodes per density value; the integrand is smooth, so convergence is geometric."""


def normal_pdf(x: float, variance: float) -> float:
    """Density of N(0, variance)."""
    return math.exp(-x * x / (2 * variance)) / math.sqrt(2 * math.pi * variance)


def _log_integrand(t: float, x: float, v: float) -> float:
    """log of exp(-x cosh t) cosh(v t), in a form that never overflows."""
    vt = v * t
    log_cosh = vt + math.log1p(math.exp(-2 * vt)) - math.log(2)
    return -x * math.cosh(t) + log_cosh if t < 700 else -math.inf


def product_sum_pdf(x: float, d: int) -> float:
    """Density at x of q_1 k_1 + ... + q_d k_d with all q_i, k_i independent N(0, 1).

    K_v(x) = integral over t >= 0 of exp(-x cosh t) cosh(v t) dt, evaluated by the trapezoid
    rule on the window where the integrand is within e^-40 of its peak; log-space keeps
    large d (up to 512) finite. Returns inf at x = 0 for d = 1.
    """
    ax = abs(x)
    v = (d - 1) / 2
    if ax == 0.0:
        if d == 1:
            return math.inf
        return math.exp(math.lgamma(v) - math.lgamma(d / 2) - math.log(2) - 0.5 * math.log(math.pi))
    peak = math.asinh(v / ax) if v > 0 else 0.0
    top = _log_integrand(peak, ax, v)

    def edge(direction: float) -> float:
        step, t = 0.25, peak
        while True:
            nxt = max(0.0, t + direction * step)
            if _log_integrand(nxt, ax, v) < top - 40 or nxt == 0.0:
                return nxt
            t, step = nxt, step * 2

    lo, hi = edge(-1.0), edge(1.0)
    h = (hi - lo) / NODES
    total = 0.0
    for i in range(NODES + 1):
        w = 0.5 if i in (0, NODES) else 1.0
        total += w * math.exp(_log_integrand(lo + i * h, ax, v) - top)
    log_k = top + math.log(total * h)
    log_c = -0.5 * math.log(math.pi) - v * math.log(2) - math.lgamma(d / 2)
    return math.exp(log_c + v * math.log(ax) + log_k)
