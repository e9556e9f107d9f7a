"""What one "Reproduce it" run is: its settings, and the records its jobs hand on (an estimate, a table's
cell, the table, a verdict), so that drawing, computing, deciding and printing share one definition of each."""

from __future__ import annotations

from dataclasses import dataclass

SEED = 20170612
ROWS = 1000
NS = (16, 128)
DKS = tuple(2**i for i in range(10))
DIVISORS = ("none", "sqrt", "dk")
TITLES = {"none": "no scaling", "sqrt": "÷√dₖ", "dk": "÷dₖ"}
SATURATED = 0.99
TOL = 3.0
BATCH = 1 << 20
RESOLVE = (4, 16)
"""A verdict that cannot tell a cell from its threshold (within TOL SE) at ROWS rows draws that d_k again with
these many times the rows, in turn, before it says the cell is not resolved."""
METRICS = {"saturated": "saturated share", "top": "median max pᵢ", "jac": "median ‖J‖"}
HEADERS = ("dₖ", "Var(s)", "saturated", "median max pᵢ", "median ‖J‖", "median ‖∂p/∂q‖")


@dataclass(frozen=True)
class Estimate:
    """A sample estimate and its standard error."""

    value: float
    se: float


@dataclass(frozen=True)
class Cell:
    """One line of a table: the five estimates for one n, divisor and d_k."""

    n: int
    divisor: str
    dk: int
    var: Estimate
    saturated: Estimate
    top: Estimate
    jac: Estimate
    grad: Estimate


@dataclass(frozen=True)
class Table:
    """A whole run: its seed, its rows per n and d_k, and its cells ordered by n, divisor and d_k."""

    seed: int
    rows: int
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Verdict:
    """A claim, whether the numbers bear it out, and the numbers that decide it."""

    claim: str
    margin: float
    """How many standard errors the deciding number lies inside the claim's bound (outside when negative):
    the claim holds exactly when the margin is at least 0, under the page's rule of TOL standard errors."""
    evidence: str

    @property
    def holds(self) -> bool:
        """Whether the numbers bear the claim out."""
        return self.margin >= 0
