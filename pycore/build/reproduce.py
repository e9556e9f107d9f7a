"""Reproduce the claim with numpy: a fixed-seed Monte Carlo, printed as a table.

For d_k = 1, 2, 4, ..., 512: the variance of QKᵀ, of QKᵀ/√d_k and of QKᵀ/d_k over N pairs of
vectors with N(0, 1) entries, and, over rows of 16 such scores, the mean largest softmax
weight and the mean Jacobian norm without and with the ÷√d_k. Run it yourself with
``python -m pycore.build.reproduce``; the build puts the same table on the "Reproduce it" page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

SEED = 20170612
PAIRS = 10_000
ROWS = 1_000
WORDS = 16
DKS = tuple(2**i for i in range(10))


@dataclass(frozen=True)
class Row:
    """One line of the table."""

    dk: int
    var_raw: float
    var_sqrt: float
    var_dk: float
    max_raw: float
    max_sqrt: float
    grad_raw: float
    grad_sqrt: float


def softmax_rows(scores: np.ndarray) -> np.ndarray:
    """Row-wise softmax, stable (the row maximum subtracted first)."""
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def jacobian_norms(p: np.ndarray) -> np.ndarray:
    """Frobenius norm of diag(p) - p pᵀ for every row: sqrt(Σp² - 2Σp³ + (Σp²)²)."""
    s2, s3 = (p**2).sum(axis=-1), (p**3).sum(axis=-1)
    return np.sqrt(np.maximum(s2 - 2 * s3 + s2**2, 0.0))


def simulate(dk: int, rng: np.random.Generator, pairs: int = PAIRS, rows: int = ROWS) -> Row:
    """One d_k: the three variances and the softmax health with and without scaling."""
    s = np.einsum("ij,ij->i", rng.standard_normal((pairs, dk)), rng.standard_normal((pairs, dk)))
    rows_scores = np.einsum("rwj,rwj->rw", rng.standard_normal((rows, WORDS, dk)), rng.standard_normal((rows, WORDS, dk)))
    p_raw, p_sqrt = softmax_rows(rows_scores), softmax_rows(rows_scores / math.sqrt(dk))
    return Row(dk=dk, var_raw=float(s.var(ddof=1)), var_sqrt=float((s / math.sqrt(dk)).var(ddof=1)),
               var_dk=float((s / dk).var(ddof=1)), max_raw=float(p_raw.max(axis=-1).mean()),
               max_sqrt=float(p_sqrt.max(axis=-1).mean()), grad_raw=float(jacobian_norms(p_raw).mean()),
               grad_sqrt=float(jacobian_norms(p_sqrt).mean()))


def table(seed: int = SEED, pairs: int = PAIRS, rows: int = ROWS) -> list[Row]:
    """Every row, from one seeded generator."""
    rng = np.random.default_rng(seed)
    return [simulate(dk, rng, pairs, rows) for dk in DKS]


HEADERS = ("d_k", "Var(QKᵀ)", "Var(QKᵀ/√d_k)", "Var(QKᵀ/d_k)", "max weight", "max weight ÷√d_k",
           "‖J‖", "‖J‖ ÷√d_k")


def cells(row: Row) -> list[str]:
    """A row's values as printed."""
    return [str(row.dk), f"{row.var_raw:.4g}", f"{row.var_sqrt:.4g}", f"{row.var_dk:.4g}",
            f"{row.max_raw:.3f}", f"{row.max_sqrt:.3f}", f"{row.grad_raw:.3f}", f"{row.grad_sqrt:.3f}"]


def markdown(rows: list[Row]) -> str:
    """The table as Markdown, for the site."""
    lines = ["| " + " | ".join(HEADERS) + " |", "|" + " ---: |" * len(HEADERS)]
    lines += ["| " + " | ".join(cells(r)) + " |" for r in rows]
    return "\n".join(lines)


def text(rows: list[Row]) -> str:
    """The table as aligned plain text, for the terminal."""
    grid = [list(HEADERS)] + [cells(r) for r in rows]
    widths = [max(len(line[i]) for line in grid) for i in range(len(HEADERS))]
    return "\n".join("  ".join(c.rjust(w) for c, w in zip(line, widths)) for line in grid)


if __name__ == "__main__":
    print(f"seed {SEED}, {PAIRS} pairs per d_k, {ROWS} rows of {WORDS} scores\n")
    print(text(table()))
