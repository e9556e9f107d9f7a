"""The training grid's statements: which divisor ends lower, seed by seed, and how each moves with d_k, every
sentence computed from the grid's numbers, so a statement that stops being true changes on the page. Each sentence
is one message in the current language, its numbers formatted here and passed in."""

from __future__ import annotations

import math

import numpy as np

from pycore import train
from pycore.experiments import model
from pycore.experiments.train_runs import (NAMES, OPTIMIZER_NAMES, TAIL, Grid, difference, divisor_name, num, percent,
                                          signed)
from pycore.i18n import N_, _, clauses
from pycore.svg import fmt

TIE = 3.0
"""Two divisors tie when the mean of their paired differences is within TIE standard errors of 0."""


def words(items: list[str]) -> str:
    """a; a and b; a, b and c."""
    return items[0] if len(items) == 1 else _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


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
    diff = (f"{_(names[b])} − {_(names[a])} = {signed(mean)} ± {num(se)}" if finite else
            _("some runs overflowed"))
    for winner, lower in ((a, fa < fb), (b, fb < fa)):
        if lower.all():
            return winner, _("{divisor} lower in all {seeds} seeds; {difference}").format(
                divisor=_(names[winner]), seeds=len(fa), difference=diff)
    if finite and abs(mean) > TIE * se:
        return (a if mean > 0 else b), diff
    return "tie", diff if finite else _("{divisor} lower in {count} of {seeds} seeds").format(
        divisor=_(names[a]), count=int((fa < fb).sum()), seeds=len(fa))


def compare(g: Grid, optimizer: str, dk: int, a: str, b: str) -> tuple[str, str]:
    """Which of two divisors ends lower seed by seed at the grid's rates (a, b or "tie"), per ``judge``."""
    return judge(a, np.array(g.at(optimizer, dk, a).final), b, np.array(g.at(optimizer, dk, b).final))


def versus(outcome: str, mine: str, other: str, evidence: str) -> str:
    """How divisor ``mine`` ended against ``other``, given ``judge``'s outcome, in words with its numbers."""
    if outcome == mine:
        # i18n: how ÷√dₖ ended against another divisor, said after "÷√dₖ": "lower than unscaled (…)".
        return _("lower than {other} ({evidence})").format(other=divisor_name(other), evidence=evidence)
    if outcome == other:
        # i18n: how ÷√dₖ ended against another divisor, said after "÷√dₖ": "higher than unscaled (…)".
        return _("higher than {other} ({evidence})").format(other=divisor_name(other), evidence=evidence)
    # i18n: how ÷√dₖ ended against another divisor, said after "÷√dₖ": "a tie with unscaled (…)".
    return _("a tie with {other} ({evidence})").format(other=divisor_name(other), evidence=evidence)


def verdict(g: Grid, optimizer: str, dk: int, other: str) -> str:
    """÷√d_k against another divisor at one d_k, in words with its numbers."""
    outcome, evidence = compare(g, optimizer, dk, "sqrt", other)
    return versus(outcome, "sqrt", other, evidence)


def at_dk(dk: int, against_none: str, against_dk: str) -> str:
    """÷√d_k against the two other divisors at one d_k: each a phrase of ``versus``."""
    # i18n: {against_none} and {against_dk} are phrases such as "lower than unscaled (…)", "a tie with ÷dₖ (…)".
    return _("at dₖ = {dk}, ÷√dₖ {against_none} and {against_dk}").format(dk=dk, against_none=against_none,
                                                                        against_dk=against_dk)


def statement_winners(g: Grid, optimizer: str) -> str:
    """÷√d_k against each other divisor at every d_k, seed by seed."""
    parts = [at_dk(dk, verdict(g, optimizer, dk, "none"), verdict(g, optimizer, dk, "dk")) for dk in g.dks]
    return _("With {optimizer}, final losses compared seed by seed (paired differences, mean ± standard error over "
             "{seeds} seeds; a divisor wins when it is lower in every seed or the mean is more than {tie} standard "
             "errors from 0, otherwise it is a tie): {comparisons}.").format(
        optimizer=OPTIMIZER_NAMES[optimizer], seeds=len(g.seeds), tie=fmt(TIE), comparisons=clauses(parts))


def statement_stuck(g: Grid, optimizer: str) -> str:
    """How many rows the unscaled layer starts and ends with stuck on a wrong key, and where its loss ends."""
    runs = [g.at(optimizer, dk, "none") for dk in g.dks]
    first = [float(np.median(r.stuck_first)) for r in runs]
    last = [float(np.median(r.stuck)) for r in runs]
    others = max(float(np.median(g.at(optimizer, dk, d).stuck_first)) for dk in g.dks for d in ("sqrt", "dk"))
    stuck = _("With {optimizer}, unscaled scores leave {first} of rows stuck on a wrong key over the first {tail} "
              "steps at {dks} (median over seeds), and {last} over the last {tail}; its final loss is {losses}, "
              "against ÷√dₖ's {scaled}.").format(
        optimizer=OPTIMIZER_NAMES[optimizer], first=words(list(map(percent, first))), tail=TAIL,
        dks=dks_text(list(g.dks)), last=words(list(map(percent, last))), losses=words([num(r.median) for r in runs]),
        scaled=words([num(g.at(optimizer, r.dk, "sqrt").median) for r in runs]))
    rest = (_("No run with ÷√dₖ or ÷dₖ has a row stuck in its first {tail} steps.").format(tail=TAIL) if others == 0
            else _("With ÷√dₖ and ÷dₖ at most {share} of rows start stuck.").format(share=percent(others)))
    return f"{stuck} {rest}"


def statement_overflow(g: Grid) -> str:
    """Which runs, if any, overflowed to inf."""
    over = [r for r in g.runs.values() if r.overflowed]
    if not over:
        return _("No run's loss overflowed.")
    return _("Overflowed to inf: {runs}.").format(runs=words([
        _("{optimizer} {divisor} at dₖ = {dk} in {count} of {seeds} seeds").format(
            optimizer=OPTIMIZER_NAMES[r.optimizer], divisor=divisor_name(r.divisor), dk=r.dk, count=r.overflowed,
            seeds=len(g.seeds)) for r in over]))


# i18n: how a divisor's final loss moves as dₖ grows, said after "÷dₖ's final loss".
TRENDS = {frozenset({"up"}): N_("rises"), frozenset({"down"}): N_("falls"),
          frozenset({"level"}): N_("does not move beyond the seeds' noise"),
          frozenset({"up", "level"}): N_("rises or stays level"),
          frozenset({"down", "level"}): N_("falls or stays level")}
"""How a divisor's final loss moves, by the set of its steps' moves, in English (``trend`` gives it in the current
language)."""
BOTH_WAYS = N_("moves both ways")


def trend(g: Grid, optimizer: str, divisor: str) -> str:
    """How a divisor's final loss moves from each d_k to the next, seed by seed per ``judge``: a step counts
    only when it is beyond the seeds' noise, so "falls" is never said of medians that wander within it."""
    moves = set()
    for small, large in zip(g.dks, g.dks[1:]):
        lower = judge("small", np.array(g.at(optimizer, small, divisor).final), "large",
                      np.array(g.at(optimizer, large, divisor).final), {"small": "", "large": ""})[0]
        moves.add({"small": "up", "large": "down", "tie": "level"}[lower])
    return _(TRENDS.get(frozenset(moves), BOTH_WAYS))


def statement_dk(g: Grid, optimizer: str) -> str:
    """How ÷d_k's final loss moves as d_k grows, beside ÷√d_k's."""
    dk_medians = [g.at(optimizer, dk, "dk").median for dk in g.dks]
    sqrt_medians = [g.at(optimizer, dk, "sqrt").median for dk in g.dks]
    # i18n: {trend} is how the loss moves: "rises", "falls or stays level", "does not move beyond the seeds' noise".
    return _("With {optimizer} at one rate, ÷dₖ's final loss {trend} as dₖ grows from {first} to {last} (each step "
             "judged seed by seed as above): {losses} at {dks}, against {scaled} for ÷√dₖ.").format(
        optimizer=OPTIMIZER_NAMES[optimizer], trend=trend(g, optimizer, "dk"), first=g.dks[0], last=g.dks[-1],
        losses=", ".join(map(num, dk_medians)), dks=dks_text(list(g.dks)), scaled=", ".join(map(num, sqrt_medians)))


def statement_gap(g: Grid) -> str:
    """÷d_k's handicap, seed by seed, with each optimizer: how much of it Adam's step sizing takes away."""
    gaps = {o: words([difference(g, o, dk, "sqrt", "dk") for dk in g.dks]) for o in train.OPTIMIZERS}
    return _("Adam divides each parameter's step by that parameter's own recent gradient size, so it can make up for "
             "a gradient that ÷dₖ makes too small: ÷dₖ − ÷√dₖ, paired over seeds at {dks}, is {sgd} with SGD and "
             "{adam} with Adam.").format(dks=dks_text(list(g.dks)), sgd=gaps["sgd"], adam=gaps["adam"])


def statements(g: Grid) -> list[str]:
    """What happened, each sentence computed from the grid's numbers."""
    return [*(statement_winners(g, o) for o in train.OPTIMIZERS), *(statement_stuck(g, o) for o in train.OPTIMIZERS),
            *(statement_dk(g, o) for o in train.OPTIMIZERS), statement_gap(g), statement_overflow(g)]
