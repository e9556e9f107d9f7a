"""What one "Reproduce it" run is: its settings, and the records its jobs hand on (an estimate, a table's
cell, the table, a verdict), so that drawing, computing, deciding and printing share one definition of each."""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import N_

SEED = 20170612
ROWS = 1000
NS = (16, 128)
DKS = tuple(2**i for i in range(10))
DIVISORS = ("none", "sqrt", "dk")
TITLES = {"none": N_("no scaling"), "sqrt": "÷√dₖ", "dk": "÷dₖ"}
"""Each divisor as a table's heading names it, in English (``_`` gives it in the current language)."""
LEADS = {"none": N_("No scaling"), "sqrt": "÷√dₖ", "dk": "÷dₖ"}
"""The same at the start of a sentence."""
SATURATED = 0.99
TOL = 3.0
BATCH = 1 << 20
RESOLVE = (4, 16)
"""A verdict that cannot tell a cell from its threshold (within TOL SE) at ROWS rows draws that d_k again with
these many times the rows, in turn, before it says the cell is not resolved."""
METRICS = {"saturated": N_("saturated share"), "top": N_("median max pᵢ"), "jac": N_("median ‖J‖")}
HEADERS = ("dₖ", "Var(s)",
           # i18n: a column heading: the share of rows whose largest weight is above 0.99.
           N_("saturated"),
           N_("median max pᵢ"), N_("median ‖J‖"), N_("median ‖∂p/∂q‖"))
"""The tables' column headings, in English: ``_`` gives each in the current language (symbols stay as they are)."""


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
