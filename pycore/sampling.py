"""Seeded standard normal samples that are bit-identical in CPython and in Pyodide.

``random.gauss`` and ``math.log``/``math.exp`` may differ by an ulp between C libraries, so
this is a 128-layer ziggurat (Marsaglia and Tsang, 2000) driven by the Mersenne Twister's
integer output, with ``log`` and ``exp`` from ``detmath`` (+ - * / only). Its common path
(~99% of draws) is one 32-bit word, one multiply and one compare.
"""

from __future__ import annotations

import hashlib
import math
import random
import struct
from array import array

from .detmath import exp, log

def _tables() -> tuple[list[float], list[float], list[float]]:
    """The ziggurat's layer bounds (kn), widths (wn) and density values (fn)."""
    m1 = 2147483648.0
    dn = tn = 3.442619855899
    vn = 9.91256303526217e-3
    kn, wn, fn = [0.0] * 128, [0.0] * 128, [0.0] * 128
    q = vn / exp(-0.5 * dn * dn)
    kn[0], kn[1] = (dn / q) * m1, 0.0
    wn[0], wn[127] = q / m1, dn / m1
    fn[0], fn[127] = 1.0, exp(-0.5 * dn * dn)
    for i in range(126, 0, -1):
        dn = math.sqrt(-2.0 * log(vn / dn + exp(-0.5 * dn * dn)))
        kn[i + 1] = (dn / tn) * m1
        tn = dn
        fn[i] = exp(-0.5 * dn * dn)
        wn[i] = dn / m1
    return kn, wn, fn


_KN, _WN, _FN = _tables()
_R = 3.442620
_LOW7 = bytes(i & 127 for i in range(256))


def _slow(rng: random.Random, hz: int, iz: int) -> float:
    """The rare path: the base strip's tail, or a wedge tested against the density."""
    while True:
        x = hz * _WN[iz]
        if iz == 0:
            while True:
                x = -log(1.0 - rng.random()) / _R
                y = -log(1.0 - rng.random())
                if y + y >= x * x:
                    return _R + x if hz > 0 else -_R - x
        if _FN[iz] + rng.random() * (_FN[iz - 1] - _FN[iz]) < exp(-0.5 * x * x):
            return x
        hz = rng.getrandbits(32) - 2147483648
        iz = hz & 127
        if abs(hz) < _KN[iz]:
            return hz * _WN[iz]


def normals(rng: random.Random, count: int) -> list[float]:
    """``count`` draws from N(0, 1), consuming ``rng`` deterministically.

    One block of ``count`` 32-bit words is drawn first (a single ``getrandbits`` call, far
    faster than ``count`` calls); the ~1% that land outside a layer's core then draw more.
    """
    if count <= 0:
        return []
    kn, wn = _KN, _WN
    raw = rng.getrandbits(32 * count).to_bytes(4 * count, "little")
    words = array("i", raw)
    layers = raw[0::4].translate(_LOW7)  # h & 127 for every word, computed in C
    out: list[float | None] = [h * wn[i] if abs(h) < kn[i] else None for h, i in zip(words, layers)]
    i = -1
    while True:
        try:
            i = out.index(None, i + 1)
        except ValueError:
            return out  # type: ignore[return-value]
        out[i] = _slow(rng, words[i], layers[i])


def digest(seed: int, count: int) -> str:
    """SHA-256 of the first ``count`` normals for ``seed``, to prove two runtimes agree bit for bit."""
    values = normals(random.Random(seed), count)
    return hashlib.sha256(struct.pack(f"<{count}d", *values)).hexdigest()


def chi_square(rng: random.Random, k: int) -> float:
    """One draw from the chi-square law with ``k`` >= 1 degrees of freedom, in O(1) for any k.

    2 Gamma(k/2) by Marsaglia and Tsang's method (2000), with the normals and log above, so
    both runtimes draw the same bits; k = 1 is a squared normal.
    """
    if k == 1:
        z = normals(rng, 1)[0]
        return z * z
    d = k / 2 - 1 / 3
    c = 1 / math.sqrt(9 * d)
    while True:
        x = normals(rng, 1)[0]
        v = 1 + c * x
        if v <= 0:
            continue
        v = v * v * v
        u = 1.0 - rng.random()
        if u < 1 - 0.0331 * x * x * x * x or log(u) < 0.5 * x * x + d * (1 - v + log(v)):
            return 2 * d * v
