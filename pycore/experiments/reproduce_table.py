"""Computing the "Reproduce it" table: each cell's estimates with their standard errors from the drawn rows,
the table from one seeded generator, and how a cell is found, compared and printed."""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from pycore.svg import sig

from .reproduce_draw import sample
from .reproduce_run import DIVISORS, DKS, NS, ROWS, SATURATED, SEED, Cell, Estimate, Table


def mean(x: np.ndarray) -> Estimate:
    """The mean and its standard error."""
    return Estimate(float(x.mean()), float(x.std(ddof=1) / math.sqrt(len(x))))


def variance(row_mean: np.ndarray, row_square: np.ndarray) -> Estimate:
    """Variance of all scores, rows as the units: the mean of each row's mean squared deviation."""
    centre = row_mean.mean()
    return mean(row_square - 2 * centre * row_mean + centre**2)


def share(hits: np.ndarray) -> Estimate:
    """A share and its binomial standard error, with (k + 1)/(R + 2) in the error so 0 and 1 get one too."""
    smoothed = (hits.sum() + 1) / (len(hits) + 2)
    return Estimate(float(hits.mean()), math.sqrt(smoothed * (1 - smoothed) / len(hits)))


def median(x: np.ndarray) -> Estimate:
    """The median, its standard error from the 95% order-statistic interval (ranks R/2 ± 0.98√R)."""
    half = 0.98 / math.sqrt(len(x))
    lo, mid, hi = np.quantile(x, [0.5 - half, 0.5, 0.5 + half])
    return Estimate(float(mid), float(hi - lo) / 3.92)


def cell(n: int, name: str, dk: int, m: np.ndarray) -> Cell:
    """The table line for one n, divisor and d_k from its row measures."""
    return Cell(n, name, dk, variance(m[:, 0], m[:, 1]), share(m[:, 2] > SATURATED), median(m[:, 2]),
                median(m[:, 3]), median(m[:, 4]))


@functools.lru_cache(maxsize=None)
def table(seed: int = SEED, rows: int = ROWS) -> Table:
    """Every cell from one seeded generator, computed once per process."""
    rng = np.random.default_rng(seed)
    cells = {}
    for n, dk in itertools.product(NS, DKS):
        for name, m in sample(n, dk, rows, rng).items():
            cells[n, name, dk] = cell(n, name, dk, m)
    return Table(seed, rows, tuple(cells[key] for key in itertools.product(NS, DIVISORS, DKS)))


@functools.lru_cache(maxsize=None)
def redrawn(n: int, dk: int, rows: int, seed: int = SEED) -> dict[str, Cell]:
    """Every divisor's cell for one n and d_k from fresh draws of ``rows`` rows, seeded by (seed, n, d_k, rows)."""
    measures = sample(n, dk, rows, np.random.default_rng([seed, n, dk, rows]))
    return {name: cell(n, name, dk, m) for name, m in measures.items()}


def saturated_shares(divisor: str = "none", n: int = 16, dks: tuple[int, ...] = DKS) -> dict[int, Estimate]:
    """The share of saturated rows at each d_k, with its standard error, from the build's run (``table()``):
    the one source of the numbers Step 5 and this page state."""
    t = table()
    return {dk: at(t, n, divisor, dk).saturated for dk in dks}


def column(t: Table, n: int, name: str) -> list[Cell]:
    """The cells for one n and one divisor, in d_k order."""
    return [c for c in t.cells if c.n == n and c.divisor == name]


def at(t: Table, n: int, name: str, dk: int) -> Cell:
    """The cell for one n, divisor and d_k."""
    return next(c for c in column(t, n, name) if c.dk == dk)


def z(a: Estimate, b: Estimate) -> float:
    """How many standard errors of the difference a lies above b."""
    se = math.hypot(a.se, b.se)
    if se == 0:
        return 0.0 if a.value == b.value else math.copysign(math.inf, a.value - b.value)
    return (a.value - b.value) / se


def exact(value: float) -> Estimate:
    """A theoretical value, without error."""
    return Estimate(value, 0.0)


def num(x: float) -> str:
    """A number to 3 significant digits, in the figures' one format (a plain decimal, never e-notation)."""
    return sig(x, 3)


def show(e: Estimate) -> str:
    """An estimate with its standard error, the error to two significant digits and the value to the same decimal
    place, so a value shows the digits its error supports and no more (0.24241 ±0.0000030, 514 ±5.9, 1.0 ±2.6)."""
    if not 0 < e.se < math.inf:
        return f"{sig(e.value, 3)} ±{sig(e.se, 2)}"
    place = 1 - math.floor(math.log10(e.se))
    se = round(e.se, place)
    if se >= 10 ** (2 - place):
        place -= 1  # the error rounded up to a new digit, 0.0996 to 0.10: two digits still
        se = round(e.se, place)
    decimals = max(place, 0)
    value = round(e.value, place) + 0.0  # + 0.0 turns a rounded -0.0 into 0.0
    return f"{value:.{decimals}f} ±{se:.{decimals}f}"


def where(c: Cell) -> str:
    """Where a cell sits, in words."""
    return f"n = {c.n}, dₖ = {c.dk}"
