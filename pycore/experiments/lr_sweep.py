"""The learning-rate sweep: the training grid's model at every rate of ``model.RATES``, for each optimizer, d_k and divisor.

Why it is needed: dividing the scores by c is the same as shrinking W_Q's and W_K's initialization by √c
each and rescaling the learning rate (SGD: η/c; Adam, whose steps are in the weights' own units: η/√c,
with ε·√c). So a divisor cannot make a layer learn better than another divisor at *its* best rate and
initialization; what it decides is whether one initialization and one rate serve every d_k. The sweep
finds each divisor's best rate at each d_k, and ``equivalence`` checks the identity on a short run.

The build puts settings, statements computed from the numbers and two tables on the page through the
``lr-sweep`` generated block; ``python -m pycore.experiments.lr_sweep`` prints them.
"""

from __future__ import annotations

import functools
import itertools
import math
import time
from dataclasses import dataclass

import numpy as np

from pycore import train
from pycore.experiments import model
from pycore.experiments.reproduce import grid as plain_grid
from pycore.svg import fmt, sig

NAMES = {"none": "unscaled", "sqrt": "÷√dₖ", "dk": "÷dₖ"}
OPTIMIZER_NAMES = {"sgd": "SGD", "adam": "Adam"}


@dataclass(frozen=True)
class Sweep:
    """Median final loss over seeds for every (optimizer, d_k, divisor) at each of the optimizer's rates."""

    seeds: tuple[int, ...]
    rates: dict[str, tuple[float, ...]]
    medians: dict[tuple[str, int, str], tuple[float, ...]]

    def best(self, optimizer: str, dk: int, divisor: str) -> tuple[float, float]:
        """The rate with the lowest median final loss, and that loss."""
        losses = self.medians[optimizer, dk, divisor]
        i = int(np.argmin(losses))
        return self.rates[optimizer][i], losses[i]


@functools.lru_cache(maxsize=1)
def sweep() -> Sweep:
    """Every optimizer, d_k, divisor and rate, from ``model.trained``."""
    medians = {}
    for optimizer, dk in itertools.product(train.OPTIMIZERS, model.DKS):
        final = np.median(model.final(model.trained(optimizer, dk)[0]), axis=0)  # (rates, divisors)
        for i, divisor in enumerate(train.DIVISORS):
            medians[optimizer, dk, divisor] = tuple(map(float, final[:, i]))
    return Sweep(model.SEEDS, dict(model.RATES), medians)


def equivalent_setups(optimizer: str, dk: int, divisor: str, lr: float) -> tuple[tuple, tuple]:
    """(c, lr, ε, initial weights' factor) of a divided run and of the undivided run it equals."""
    c = float(model.divisors(dk)[train.DIVISORS.index(divisor)])
    lr_undivided = lr / c if optimizer == "sgd" else lr / math.sqrt(c)
    return (c, lr, train.EPS, 1.0), (1.0, lr_undivided, train.EPS * math.sqrt(c), 1 / math.sqrt(c))


def equivalence(optimizer: str, dk: int = 64, divisor: str = "sqrt", seeds: tuple[int, ...] = (1, 2),
                steps: int = 40) -> float:
    """The largest relative difference between the losses of a run divided by c and of the undivided run
    started from weights shrunk by √c, with the rescaled rate (and, for Adam, ε): 0 in real arithmetic."""
    lr = train.LR[optimizer]
    batches = model.data(seeds, steps)
    wq, wk = model.weights(dk, seeds)
    out = []
    for c, rate, eps, factor in equivalent_setups(optimizer, dk, divisor, lr):
        losses, _ = model.simulate(optimizer, dk, np.array([rate]), batches, (wq * factor, wk * factor),
                                   np.array([c]), eps)
        out.append(losses)
    return float(np.max(np.abs(out[0] - out[1]) / np.abs(out[1])))


def num(x: float) -> str:
    """A loss as printed: 3 significant digits, scientific from 1e6, inf as inf."""
    return sig(x, 3)


def rate(x: float) -> str:
    """A learning rate as printed."""
    return fmt(x, 4)


def words(items: list[str]) -> str:
    """a; a and b; a, b and c."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def how_it_moves(values: list[float]) -> str:
    """A divisor's best rates over d_k, in words."""
    if len(set(values)) == 1:
        return f"is {rate(values[0])} at every dₖ"
    shown = ", ".join(map(rate, values))
    if all(b >= a for a, b in zip(values, values[1:])):
        return f"rises with dₖ ({shown})"
    if all(b <= a for a, b in zip(values, values[1:])):
        return f"falls with dₖ ({shown})"
    return f"moves with dₖ ({shown})"


def one_rate(s: Sweep, optimizer: str, divisor: str) -> tuple[float, float]:
    """The single rate for every d_k that costs least, and its cost: the most, over d_k, that its loss
    lies above the divisor's best loss at that d_k."""
    best = [s.best(optimizer, dk, divisor)[1] for dk in model.DKS]
    costs = [max(s.medians[optimizer, dk, divisor][i] - b for dk, b in zip(model.DKS, best))
             for i in range(len(s.rates[optimizer]))]
    i = int(np.argmin(costs))
    return s.rates[optimizer][i], costs[i]


CLOSE = 0.05
"""One rate serves every d_k when it costs at most this much loss above the best at each d_k."""


def statement_rates(s: Sweep, optimizer: str) -> str:
    """Each divisor's best rate across d_k, and the loss it reaches there."""
    parts = []
    for d in train.DIVISORS:
        best = [s.best(optimizer, dk, d) for dk in model.DKS]
        parts.append(f"{NAMES[d]}'s best rate {how_it_moves([b[0] for b in best])}, where it reaches "
                     f"{', '.join(num(b[1]) for b in best)}")
    return (f"With {OPTIMIZER_NAMES[optimizer]} at dₖ = {words([str(dk) for dk in model.DKS])}: "
            + "; ".join(parts) + ".")


def statement_equivalence() -> str:
    """The identity, with the size of its numerical check."""
    worst = max(equivalence(o) for o in train.OPTIMIZERS)
    return ("Dividing the scores by c is the same as shrinking W_Q's and W_K's initialization by √c each and, "
            "with SGD, dividing the learning rate by c (Adam's steps are in the weights' own units, so there "
            "the rate shrinks by √c and ε grows by √c): trained both ways, a run with ÷√dₖ at dₖ = 64 and its "
            f"undivided twin have losses that differ by at most {worst:.0e} relative, rounding error.")


def statement_one_rate(s: Sweep, optimizer: str) -> str:
    """What one rate for all three d_k costs each divisor."""
    parts = []
    for d in train.DIVISORS:
        r, cost = one_rate(s, optimizer, d)
        parts.append(f"{NAMES[d]} {num(cost)} (at {rate(r)})")
    return (f"With {OPTIMIZER_NAMES[optimizer]}, one learning rate for dₖ = {words([str(dk) for dk in model.DKS])}, "
            f"the one that suits each divisor best, ends at most this far above that divisor's best loss at each "
            f"dₖ: {words(parts)}.")


def statement_job(s: Sweep) -> str:
    """What the divisor is for, from which divisors one rate serves at every d_k."""
    parts = []
    for optimizer in train.OPTIMIZERS:
        good = [d for d in train.DIVISORS if one_rate(s, optimizer, d)[1] <= CLOSE]
        parts.append(f"with {OPTIMIZER_NAMES[optimizer]}, for " + (words([NAMES[d] for d in good]) if good else
                                                                   "no divisor"))
    return ("So the divisor's job is that one initialization and one learning rate work for every dₖ. Here, from one "
            f"initialization, one learning rate comes within {fmt(CLOSE)} of the best loss at every dₖ "
            + "; ".join(parts) + ".")


def statements(s: Sweep) -> list[str]:
    """What the sweep shows, each sentence computed from its numbers."""
    return [*(statement_rates(s, o) for o in train.OPTIMIZERS), statement_equivalence(),
            *(statement_one_rate(s, o) for o in train.OPTIMIZERS), statement_job(s)]


def settings(s: Sweep) -> str:
    """What was run."""
    return (f"The training grid's runs ({len(s.seeds)} seeds, {train.STEPS} steps, every divisor from the same "
            f"weights) at every learning rate of a 1-2-5 grid: SGD {rate(s.rates['sgd'][0])} to "
            f"{rate(s.rates['sgd'][-1])} ({len(s.rates['sgd'])} rates), Adam {rate(s.rates['adam'][0])} to "
            f"{rate(s.rates['adam'][-1])} ({len(s.rates['adam'])} rates). A loss is the median over seeds of the "
            f"final loss (mean batch loss over the last {model.TAIL} steps; inf once it overflowed); a divisor's "
            f"best rate is the one with the lowest.")


BEST_HEADERS = ("optimizer", "dₖ", *(f"best rate, {NAMES[d]}" for d in train.DIVISORS),
                *(f"loss there, {NAMES[d]}" for d in train.DIVISORS))


def best_lines(s: Sweep) -> list[list[str]]:
    """One line per optimizer and d_k: each divisor's best rate and its loss."""
    out = []
    for optimizer, dk in itertools.product(train.OPTIMIZERS, model.DKS):
        best = [s.best(optimizer, dk, d) for d in train.DIVISORS]
        out.append([OPTIMIZER_NAMES[optimizer], str(dk), *(rate(b[0]) for b in best), *(num(b[1]) for b in best)])
    return out


def rate_lines(s: Sweep, optimizer: str) -> list[list[str]]:
    """Header and lines of one optimizer's full sweep: (d_k, divisor) by rate."""
    head = ["dₖ", "divisor", *map(rate, s.rates[optimizer])]
    return [head, *([str(dk), NAMES[d], *map(num, s.medians[optimizer, dk, d])]
                    for dk, d in itertools.product(model.DKS, train.DIVISORS))]


def _table(lines: list[list[str]], left: int) -> list[str]:
    """A Markdown table, the first ``left`` columns left-aligned."""
    return ["| " + " | ".join(lines[0]) + " |", "|" + " --- |" * left + " ---: |" * (len(lines[0]) - left),
            *("| " + " | ".join(line) + " |" for line in lines[1:])]


def markdown(s: Sweep) -> str:
    """Settings, statements, the best rates and the full sweep, as Markdown for the site."""
    out = [settings(s), "", *(f"- {x}" for x in statements(s)), "", *_table([list(BEST_HEADERS), *best_lines(s)], 2)]
    for optimizer in train.OPTIMIZERS:
        out += ["", f"Median final loss by learning rate, {OPTIMIZER_NAMES[optimizer]}:", "",
                *_table(rate_lines(s, optimizer), 2)]
    return "\n".join(out)


def report(s: Sweep) -> str:
    """The same as plain text, for the terminal."""
    out = [settings(s), "", plain_grid([list(BEST_HEADERS), *best_lines(s)])]
    for optimizer in train.OPTIMIZERS:
        out += ["", f"Median final loss by learning rate, {OPTIMIZER_NAMES[optimizer]}:", plain_grid(rate_lines(s, optimizer))]
    out += ["", *(f"- {x}" for x in statements(s))]
    return "\n".join(out)


if __name__ == "__main__":
    started = time.perf_counter()
    result = sweep()
    print(report(result))
    print(f"\nThe sweep took {time.perf_counter() - started:.2f} s to compute.")
