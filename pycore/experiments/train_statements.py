"""The training grid's statements: which divisor ends lower, seed by seed, and how each moves with d_k, every
sentence computed from the grid's numbers, so a statement that stops being true changes on the page."""

from __future__ import annotations

import math

import numpy as np

from pycore import train
from pycore.experiments import model
from pycore.experiments.train_runs import NAMES, OPTIMIZER_NAMES, TAIL, Grid, difference, num, percent, signed
from pycore.svg import fmt

TIE = 3.0
"""Two divisors tie when the mean of their paired differences is within TIE standard errors of 0."""


def words(items: list[str]) -> str:
    """a; a and b; a, b and c."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def dks_text(dks: list[int]) -> str:
    """dₖ = 16, 64 and 256."""
    return "dₖ = " + words([str(dk) for dk in dks])


def judge(a: str, fa: np.ndarray, b: str, fb: np.ndarray, names: dict[str, str] = NAMES) -> tuple[str, str]:
    """Which of two sets of runs, paired seed by seed, ends lower (a, b or "tie"), and the numbers that say so.

    One wins when its final loss is lower in every seed, or when the paired differences b − a (every one
    finite) have a mean more than TIE standard errors from 0; anything else is a tie. The first rule matters
    for runs that blew up, whose differences are huge and spread wide.
    """
    fa, fb = np.asarray(fa, dtype=float), np.asarray(fb, dtype=float)
    finite = bool(np.isfinite(fa).all() and np.isfinite(fb).all())
    mean, se = model.paired(fb, fa) if finite else (math.nan, math.nan)
    diff = f"{names[b]} − {names[a]} = {signed(mean)} ± {num(se)}" if finite else "some runs overflowed"
    for winner, lower in ((a, fa < fb), (b, fb < fa)):
        if lower.all():
            return winner, f"{names[winner]} lower in all {len(fa)} seeds; {diff}"
    if finite and abs(mean) > TIE * se:
        return (a if mean > 0 else b), diff
    return "tie", diff if finite else f"{names[a]} lower in {int((fa < fb).sum())} of {len(fa)} seeds"


def compare(g: Grid, optimizer: str, dk: int, a: str, b: str) -> tuple[str, str]:
    """Which of two divisors ends lower seed by seed at the grid's rates (a, b or "tie"), per ``judge``."""
    return judge(a, np.array(g.at(optimizer, dk, a).final), b, np.array(g.at(optimizer, dk, b).final))


def verdict(g: Grid, optimizer: str, dk: int, other: str) -> str:
    """÷√d_k against another divisor at one d_k, in words with its numbers."""
    outcome, evidence = compare(g, optimizer, dk, "sqrt", other)
    how = {"sqrt": "lower than", other: "higher than", "tie": "a tie with"}[outcome]
    return f"{how} {NAMES[other]} ({evidence})"


def statement_winners(g: Grid, optimizer: str) -> str:
    """÷√d_k against each other divisor at every d_k, seed by seed."""
    parts = [f"at dₖ = {dk}, ÷√dₖ {verdict(g, optimizer, dk, 'none')} and {verdict(g, optimizer, dk, 'dk')}"
             for dk in g.dks]
    return (f"With {OPTIMIZER_NAMES[optimizer]}, final losses compared seed by seed (paired differences, mean ± "
            f"standard error over {len(g.seeds)} seeds; a divisor wins when it is lower in every seed or the mean "
            f"is more than {fmt(TIE)} standard errors from 0, otherwise it is a tie): "
            + "; ".join(parts) + ".")


def statement_stuck(g: Grid, optimizer: str) -> str:
    """How many rows the unscaled layer starts and ends with stuck on a wrong key, and where its loss ends."""
    runs = [g.at(optimizer, dk, "none") for dk in g.dks]
    first = [float(np.median(r.stuck_first)) for r in runs]
    last = [float(np.median(r.stuck)) for r in runs]
    others = max(float(np.median(g.at(optimizer, dk, d).stuck_first)) for dk in g.dks for d in ("sqrt", "dk"))
    return (f"With {OPTIMIZER_NAMES[optimizer]}, unscaled scores leave {words(list(map(percent, first)))} of rows stuck "
            f"on a wrong key over the first {TAIL} steps at {dks_text(list(g.dks))} (median over seeds), and "
            f"{words(list(map(percent, last)))} over the last {TAIL}; its final loss is "
            f"{words([num(r.median) for r in runs])}, against ÷√dₖ's "
            f"{words([num(g.at(optimizer, r.dk, 'sqrt').median) for r in runs])}. "
            + (f"No run with ÷√dₖ or ÷dₖ has a row stuck in its first {TAIL} steps." if others == 0 else
               f"With ÷√dₖ and ÷dₖ at most {percent(others)} of rows start stuck."))


def statement_overflow(g: Grid) -> str:
    """Which runs, if any, overflowed to inf."""
    over = [r for r in g.runs.values() if r.overflowed]
    if not over:
        return "No run's loss overflowed."
    return "Overflowed to inf: " + words([f"{OPTIMIZER_NAMES[r.optimizer]} {NAMES[r.divisor]} at dₖ = {r.dk} in "
                                          f"{r.overflowed} of {len(g.seeds)} seeds" for r in over]) + "."


def trend(g: Grid, optimizer: str, divisor: str) -> str:
    """How a divisor's final loss moves from each d_k to the next, seed by seed per ``judge``: a step counts
    only when it is beyond the seeds' noise, so "falls" is never said of medians that wander within it."""
    moves = set()
    for small, large in zip(g.dks, g.dks[1:]):
        lower, _ = judge("small", np.array(g.at(optimizer, small, divisor).final), "large",
                         np.array(g.at(optimizer, large, divisor).final), {"small": "", "large": ""})
        moves.add({"small": "up", "large": "down", "tie": "level"}[lower])
    return {frozenset({"up"}): "rises", frozenset({"down"}): "falls",
            frozenset({"level"}): "does not move beyond the seeds' noise",
            frozenset({"up", "level"}): "rises or stays level", frozenset({"down", "level"}): "falls or stays level",
            }.get(frozenset(moves), "moves both ways")


def statement_dk(g: Grid, optimizer: str) -> str:
    """How ÷d_k's final loss moves as d_k grows, beside ÷√d_k's."""
    dk_medians = [g.at(optimizer, dk, "dk").median for dk in g.dks]
    sqrt_medians = [g.at(optimizer, dk, "sqrt").median for dk in g.dks]
    return (f"With {OPTIMIZER_NAMES[optimizer]} at one rate, ÷dₖ's final loss {trend(g, optimizer, 'dk')} as dₖ "
            f"grows from {g.dks[0]} to {g.dks[-1]} (each step judged seed by seed as above): "
            f"{', '.join(map(num, dk_medians))} at {dks_text(list(g.dks))}, against "
            f"{', '.join(map(num, sqrt_medians))} for ÷√dₖ.")


def statement_gap(g: Grid) -> str:
    """÷d_k's handicap, seed by seed, with each optimizer: how much of it Adam's step sizing takes away."""
    gaps = {o: words([difference(g, o, dk, "sqrt", "dk") for dk in g.dks]) for o in train.OPTIMIZERS}
    return ("Adam divides each parameter's step by that parameter's own recent gradient size, so it can make up for "
            f"a gradient that ÷dₖ makes too small: ÷dₖ − ÷√dₖ, paired over seeds at {dks_text(list(g.dks))}, is "
            f"{gaps['sgd']} with SGD and {gaps['adam']} with Adam.")


def statements(g: Grid) -> list[str]:
    """What happened, each sentence computed from the grid's numbers."""
    return [*(statement_winners(g, o) for o in train.OPTIMIZERS), *(statement_stuck(g, o) for o in train.OPTIMIZERS),
            *(statement_dk(g, o) for o in train.OPTIMIZERS), statement_gap(g), statement_overflow(g)]
