"""exp and log in + - * / only, so they return the same bits in CPython and in Pyodide.

The C libraries under the two runtimes (glibc, musl) differ by an ulp in a few percent of
calls; IEEE basic arithmetic does not. Accuracy is within two ulps of the C library.
"""

from __future__ import annotations

import math

_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_SQRT_HALF = 0.7071067811865476


def log(x: float) -> float:
    """Natural log of x > 0 from frexp and an atanh series."""
    m, e = math.frexp(x)
    if m < _SQRT_HALF:
        m, e = m * 2.0, e - 1
    z = (m - 1.0) / (m + 1.0)
    z2 = z * z
    poly = 0.0
    for k in range(12, 0, -1):
        poly = poly * z2 + 1.0 / (2 * k + 1)
    poly = poly * z2 + 1.0
    return e * _LN2_HI + (e * _LN2_LO + 2.0 * z * poly)


def exp(x: float) -> float:
    """e**x by range reduction to |r| <= ln2/2 and a Taylor polynomial; 0 below -745, inf above 709.78."""
    if x < -745.0:
        return 0.0
    if x > 709.78:
        return math.inf
    k = round(x / 0.6931471805599453)
    r = (x - k * _LN2_HI) - k * _LN2_LO
    poly = 1.0
    for n in range(18, 0, -1):
        poly = 1.0 + poly * r / n
    return math.ldexp(poly, k)
