"""A pool of attention scores for every d_k at once, grown lazily one dimension at a time.

Row j holds n independent pairs of vectors with N(0, 1) entries; the score for d_k is the
prefix sum of the first d_k products q_i k_i. Going from d_k to d_k + 1 draws n new
products and adds them, so a slider step costs O(n), not O(n d_k).
"""

from __future__ import annotations

import random
import time
from array import array

from .sampling import normals
from .stats import variance

MAX_DK = 512
SEED_MAX = 2**31 - 1
_CACHE: dict[tuple[int, int], "ScorePool"] = {}
_CACHE_SIZE = 4


class ScorePool:
    """Scores for n rows and every d_k up to the deepest one asked for so far."""

    def __init__(self, seed: int, n: int):
        self.seed, self.n = seed, n
        self._rng = random.Random(seed)
        self._prefix: list[array] = [array("d", bytes(8 * n))]
        self._column_variance: dict[int, float] = {}

    @property
    def depth(self) -> int:
        """How many dimensions have been drawn."""
        return len(self._prefix) - 1

    def _grow(self) -> None:
        z = normals(self._rng, 2 * self.n)
        self._prefix.append(array("d", [s + a * b for s, a, b in zip(self._prefix[-1], z[0::2], z[1::2])]))

    def scores(self, dk: int) -> array:
        """The n scores q·k for vectors of dimension ``dk`` (1 to MAX_DK)."""
        if not 1 <= dk <= MAX_DK:
            raise ValueError(f"d_k must be from 1 to {MAX_DK}, got {dk}")
        while self.depth < dk:
            self._grow()
        return self._prefix[dk]

    def grow_until(self, dk: int, deadline: float | None) -> int:
        """Grow toward depth ``dk`` one dimension at a time, stopping once ``deadline`` (perf_counter) has passed.

        At least one dimension is drawn per call, so a job in slices always moves on. Returns the depth.
        """
        while self.depth < min(dk, MAX_DK):
            self._grow()
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return self.depth

    def variances_until(self, dk: int, deadline: float | None) -> int:
        """Grow and measure single-product variances toward ``dk`` until the deadline; how many are measured.

        At least one new column per call, as in ``grow_until``.
        """
        done = 0
        while done + 1 in self._column_variance:
            done += 1
        while done < min(dk, MAX_DK):
            done += 1
            self.product_variances(done)
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return done

    def product_variances(self, dk: int) -> list[float]:
        """The sample variance of each single product q_i k_i, i = 1 .. dk.

        Each product is recovered as the difference of two prefix sums (exact to an ulp of
        the score), computed only when asked for and kept.
        """
        self.scores(dk)
        for i in range(1, dk + 1):
            if i not in self._column_variance:
                a, b = self._prefix[i], self._prefix[i - 1]
                self._column_variance[i] = variance([x - y for x, y in zip(a, b)])
        return [self._column_variance[i] for i in range(1, dk + 1)]


def next_seed(seed: int) -> int:
    """The seed "Resample" moves to: a fixed step of a linear congruential sequence, so it is reproducible."""
    return (seed * 1103515245 + 12345) % (SEED_MAX + 1)


def pool(seed: int, n: int) -> ScorePool:
    """The shared pool for (seed, n); a few recent pools are kept so slider moves stay O(n)."""
    key = (seed, n)
    if key in _CACHE:
        _CACHE[key] = _CACHE.pop(key)
    else:
        _CACHE[key] = ScorePool(seed, n)
        while len(_CACHE) > _CACHE_SIZE:
            del _CACHE[next(iter(_CACHE))]
    return _CACHE[key]
