"""Seeded standard normal samples that are bit-identical in CPython and in Pyodide.

``random.gauss`` and ``math.log``/``math.exp`` may differ by an ulp between C libraries, so
this is a 128-layer ziggurat (Marsaglia and Tsang, 2000) driven by the Mersenne Twister's
integer output, with ``log`` and ``exp`` from ``detmath`` (+ - * / only). Its common path
(~97% of draws) is one 32-bit word, one subtraction and one multiply; which words take it is
decided for a whole block at once in big-integer arithmetic.
"""

from __future__ import annotations

import hashlib
import math
import random
import struct
from array import array

from .detmath import below_exp, exp, log

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
_SIGN = bytes(i & 128 for i in range(256))
_KEEP_LOW = bytes(0 if i & 128 else 255 for i in range(256))
_KEEP_TOP = bytes(128 if i & 128 else 127 for i in range(256))
_BIT7 = bytes(i >> 7 for i in range(256))
_FLIP = bytes(i ^ 128 for i in range(256))
_OFFSET = 2.0**52 + 2.0**31
_BOUNDS = [max(math.ceil(_KN[key & 127]) - (key >> 7), 0) for key in range(256)]
_BOUND_BYTES = [bytes((t >> shift) & 255 for t in _BOUNDS) for shift in (0, 8, 16, 24)]


def _in_core(raw: bytes) -> bytes:
    """For each little-endian 32-bit word h of ``raw``, 1 where |h| < kn[h & 127] (the common path), else 0.

    With m = h for h >= 0 and ~h = |h| - 1 below, the test is m < T for T = ceil(kn) - [h < 0] (0 at
    least: m >= 0). Each word XOR 0x7FFFFFFF (h >= 0) or 0x80000000 (h < 0) is 2^31 - 1 - m, and adding
    T <= 2^31 keeps every word below 2^32, so all words add at once as one integer with no carry
    between them; bit 31 of a sum is set exactly when m < T. Bytewise tables keep it all in C.
    """
    count = len(raw) // 4
    top = raw[3::4]
    key = (int.from_bytes(raw[0::4].translate(_LOW7), "little")
           | int.from_bytes(top.translate(_SIGN), "little")).to_bytes(count, "little")
    flip, bound = bytearray(4 * count), bytearray(4 * count)
    flip[0::4] = flip[1::4] = flip[2::4] = top.translate(_KEEP_LOW)
    flip[3::4] = top.translate(_KEEP_TOP)
    for shift, table in enumerate(_BOUND_BYTES):
        bound[shift::4] = key.translate(table)
    total = int.from_bytes(bound, "little") + (int.from_bytes(raw, "little") ^ int.from_bytes(flip, "little"))
    return total.to_bytes(4 * count, "little")[3::4].translate(_BIT7)


def _offset_floats(raw: bytes) -> array:
    """2^52 + 2^31 + h for each little-endian 32-bit word h of ``raw``, built bytewise as IEEE doubles.

    h + 2^31 is h with its top bit flipped, and it fills the low 32 bits of 2^52's mantissa; subtracting
    2^52 + 2^31 then gives h exactly, and float arithmetic is quicker than int * float in the hot loop.
    """
    count = len(raw) // 4
    doubles = bytearray(8 * count)
    doubles[0::8], doubles[1::8], doubles[2::8] = raw[0::4], raw[1::4], raw[2::4]
    doubles[3::8] = raw[3::4].translate(_FLIP)
    doubles[6::8], doubles[7::8] = b"\x30" * count, b"\x43" * count
    return array("d", doubles)


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
        if below_exp(_FN[iz] + rng.random() * (_FN[iz - 1] - _FN[iz]), -0.5 * x * x):
            return x
        hz = rng.getrandbits(32) - 2147483648
        iz = hz & 127
        if abs(hz) < _KN[iz]:
            return hz * _WN[iz]


def normals(rng: random.Random, count: int) -> list[float]:
    """``count`` draws from N(0, 1), consuming ``rng`` deterministically.

    One block of ``count`` 32-bit words is drawn first (a single ``getrandbits`` call, far
    faster than ``count`` calls); the ~3% that land outside a layer's core then draw more, in order.
    """
    if count <= 0:
        return []
    wn, offset = _WN, _OFFSET
    raw = rng.getrandbits(32 * count).to_bytes(4 * count, "little")
    words = array("i", raw)
    layers = raw[0::4].translate(_LOW7)  # h & 127 for every word, computed in C
    out = [(f - offset) * wn[i] for f, i in zip(_offset_floats(raw), layers)]
    core = _in_core(raw)
    i = core.find(0)
    while i >= 0:
        out[i] = _slow(rng, words[i], layers[i])
        i = core.find(0, i + 1)
    return out


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
