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
from pycore.experiments.train_runs import NAMES, OPTIMIZER_NAMES, TAIL, Grid, Run, grid, num, percent, spread
from pycore.experiments.train_statements import statements
from pycore.svg import fmt

HEADERS = ("optimizer", "dₖ", "divisor", "first-step loss", "final loss", "min–max over seeds",
           "saturated rows", "stuck rows, first → last steps", "overflowed to inf")


def row(g: Grid, r: Run) -> list[str]:
    """One table line; losses are medians over seeds, saturated and stuck the median shares over TAIL steps."""
    return [OPTIMIZER_NAMES[r.optimizer], str(r.dk), NAMES[r.divisor], num(float(np.median(r.first))), num(r.median),
            spread(r), percent(float(np.median(r.saturated))),
            f"{percent(float(np.median(r.stuck_first)))} → {percent(float(np.median(r.stuck)))}",
            f"{r.overflowed} of {len(g.seeds)}"]


def lines(g: Grid) -> list[list[str]]:
    """Every table line, by optimizer, d_k and divisor."""
    return [row(g, g.at(o, dk, d)) for o, dk, d in itertools.product(train.OPTIMIZERS, g.dks, train.DIVISORS)]


def settings(g: Grid) -> str:
    """What was run, in one paragraph."""
    return (f"{len(g.seeds)} seeds ({g.seeds[0]} to {g.seeds[-1]}, numpy's draws, not the figure's), each trained "
            f"for {g.steps} steps of {train.BATCH} examples: {train.N} keys with inputs of size D = {train.D}, the "
            f"query input a copy of the target's with noise σ = {fmt(train.SIGMA)}, rescaled to unit variance; the layer hands on the weighted average of the keys' inputs, and the loss "
            f"is its mean squared error from the target's input. Learning rates: SGD {fmt(g.lr['sgd'], 4)}, Adam "
            f"{fmt(g.lr['adam'], 4)}, the same for every divisor: ÷√dₖ's own best at dₖ = 64, picked on other seeds. All three divisors start from the same weights "
            f"and see the same batches. The final loss is a seed's mean batch loss over its last {TAIL} steps; "
            f"losses are medians over seeds; saturated rows are the median share of rows whose largest weight "
            f"exceeds {fmt(train.SATURATED)} over the last {TAIL} steps, and stuck rows those saturated on a key "
            f"other than the target, over the first and the last {TAIL} steps. The last column counts the seeds whose loss "
            f"overflowed to inf (a run whose loss only grew huge counts as not overflowed).")


def markdown(g: Grid) -> str:
    """Settings, chart, statements and table as Markdown with the chart as raw HTML, for the site."""
    out = [settings(g), "", chart(g), "", *(f"- {s}" for s in statements(g)), "",
           "| " + " | ".join(HEADERS) + " |", "|" + " --- |" * 3 + " ---: |" * (len(HEADERS) - 3)]
    out += ["| " + " | ".join(line) + " |" for line in lines(g)]
    return "\n".join(out)


def report(g: Grid) -> str:
    """Settings, table and statements as plain text, for the terminal."""
    out = [settings(g), "", plain_grid([list(HEADERS), *lines(g)])]
    out += ["", *(f"- {s}" for s in statements(g))]
    return "\n".join(out)


if __name__ == "__main__":
    started = time.perf_counter()
    result = grid()
    print(report(result))
    print(f"\nThe grid took {time.perf_counter() - started:.2f} s to compute.")
