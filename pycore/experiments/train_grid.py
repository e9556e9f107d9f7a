"""The tiny attention layer of ``pycore.train`` in numpy, at the core's default learning rates, over a grid of
d_k, divisors, optimizers and seeds: the learning-rate sweep's runs (``pycore.experiments.model``) at those rates.

The build puts a chart, statements computed from the numbers and a table on the page through the
``train-grid`` generated block; ``python -m pycore.experiments.train_grid`` prints the table and statements.
Divisors are compared seed by seed: the paired differences of their final losses, mean ± standard error,
and a tie when the mean is within ``train_statements.TIE`` standard errors of 0.

This module writes the table and puts the parts together, for the page and the terminal; each job is a module
of its own: ``train_runs`` (computing the runs, and their numbers as printed), ``train_statements`` (the
statements) and ``train_chart`` (the chart).
"""

from __future__ import annotations

import itertools
import time

import numpy as np

from pycore import train
from pycore.experiments.reproduce import grid as plain_grid
from pycore.experiments.train_chart import chart
from pycore.experiments.train_runs import OPTIMIZER_NAMES, TAIL, Grid, Run, divisor_name, grid, num, percent, spread
from pycore.experiments.train_statements import statements
from pycore.i18n import N_, _
from pycore.svg import fmt

HEADERS = (N_("optimizer"), "dₖ", N_("divisor"), N_("first-step loss"), N_("final loss"), N_("min–max over seeds"),
           N_("saturated rows"), N_("stuck rows, first → last steps"), N_("overflowed to inf"))
"""The table's column headings, in English (the notebook's table prints them so): ``headers`` gives them in the
current language."""


def headers() -> list[str]:
    """The table's column headings, in the current language."""
    return [_(h) for h in HEADERS]


def row(g: Grid, r: Run) -> list[str]:
    """One table line; losses are medians over seeds, saturated and stuck the median shares over TAIL steps."""
    return [OPTIMIZER_NAMES[r.optimizer], str(r.dk), divisor_name(r.divisor), num(float(np.median(r.first))),
            num(r.median), spread(r), percent(float(np.median(r.saturated))),
            f"{percent(float(np.median(r.stuck_first)))} → {percent(float(np.median(r.stuck)))}",
            # i18n: a table cell: how many of the seeds overflowed, "3 of 20".
            _("{count} of {seeds}").format(count=r.overflowed, seeds=len(g.seeds))]


def lines(g: Grid) -> list[list[str]]:
    """Every table line, by optimizer, d_k and divisor."""
    return [row(g, g.at(o, dk, d)) for o, dk, d in itertools.product(train.OPTIMIZERS, g.dks, train.DIVISORS)]


def settings(g: Grid) -> str:
    """What was run, in one paragraph."""
    return _("{seeds} seeds ({first} to {last}, numpy's draws, not the figure's), each trained for {steps} steps of "
             "{batch} examples: {n} keys with inputs of size D = {d}, the query input a copy of the target's with "
             "noise σ = {sigma}, rescaled to unit variance; the layer hands on the weighted average of the keys' "
             "inputs, and the loss is its mean squared error from the target's input. Learning rates: SGD {sgd}, "
             "Adam {adam}, the same for every divisor: ÷√dₖ's own best at dₖ = 64, picked on other seeds. All three "
             "divisors start from the same weights and see the same batches. The final loss is a seed's mean batch "
             "loss over its last {tail} steps; losses are medians over seeds; saturated rows are the median share of "
             "rows whose largest weight exceeds {saturated} over the last {tail} steps, and stuck rows those "
             "saturated on a key other than the target, over the first and the last {tail} steps. The last column "
             "counts the seeds whose loss overflowed to inf (a run whose loss only grew huge counts as not "
             "overflowed).").format(
        seeds=len(g.seeds), first=g.seeds[0], last=g.seeds[-1], steps=g.steps, batch=train.BATCH, n=train.N,
        d=train.D, sigma=fmt(train.SIGMA), sgd=fmt(g.lr["sgd"], 4), adam=fmt(g.lr["adam"], 4), tail=TAIL,
        saturated=fmt(train.SATURATED))


def markdown(g: Grid) -> str:
    """Settings, chart, statements and table as Markdown with the chart as raw HTML, for the site."""
    out = [settings(g), "", chart(g), "", *(f"- {s}" for s in statements(g)), "",
           "| " + " | ".join(headers()) + " |", "|" + " --- |" * 3 + " ---: |" * (len(HEADERS) - 3)]
    out += ["| " + " | ".join(line) + " |" for line in lines(g)]
    return "\n".join(out)


def report(g: Grid) -> str:
    """Settings, table and statements as plain text, for the terminal."""
    out = [settings(g), "", plain_grid([headers(), *lines(g)])]
    out += ["", *(f"- {s}" for s in statements(g))]
    return "\n".join(out)


if __name__ == "__main__":
    started = time.perf_counter()
    result = grid()
    print(report(result))
    print(f"\nThe grid took {time.perf_counter() - started:.2f} s to compute.")
