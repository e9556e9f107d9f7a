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
from pycore.experiments import model, train_statements
from pycore.experiments.reproduce import grid as plain_grid
from pycore.i18n import N_, _
from pycore.svg import fmt, sig

NAMES = {"none": N_("unscaled"), "sqrt": "÷√dₖ", "dk": "÷dₖ"}
"""Each divisor as the page names it, in English: ``name`` gives it in the current language."""
OPTIMIZER_NAMES = {"sgd": "SGD", "adam": "Adam"}
"""Each optimizer's name, the same in every language."""


def name(divisor: str) -> str:
    """A divisor as the page names it, in the current language."""
    return _(NAMES[divisor])


BOOT = 2000
"""Bootstrap resamples of the seeds, for how often a pick comes out the same and for a loss's interval."""
LEVEL = 0.9
"""The bootstrap interval's coverage."""


@dataclass(frozen=True)
class Sweep:
    """Every seed's final loss for every (optimizer, d_k, divisor) at each of the optimizer's rates.

    A divisor's best rate is picked on one set of seeds (``pick_seeds``) and its loss judged on another
    (``seeds``), so a lucky pick does not flatter the divisor it favours; the bootstraps resample seeds with
    the same draw for every rate, since every rate runs on the same seeds.
    """

    seeds: tuple[int, ...]
    pick_seeds: tuple[int, ...]
    rates: dict[str, tuple[float, ...]]
    finals: dict[tuple[str, int, str], np.ndarray]
    """(seeds, rates) final losses, judged."""
    pick_finals: dict[tuple[str, int, str], np.ndarray]
    """(pick_seeds, rates) final losses, for picking."""

    @functools.cached_property
    def medians(self) -> dict[tuple[str, int, str], tuple[float, ...]]:
        """The median final loss over the judged seeds at each rate (once per sweep: every statement, in every
        language, reads them)."""
        return {k: tuple(map(float, np.median(v, axis=0))) for k, v in self.finals.items()}

    def pick(self, optimizer: str, dk: int, divisor: str) -> int:
        """The index of the rate with the lowest median final loss over the picking seeds."""
        return int(np.argmin(np.median(self.pick_finals[optimizer, dk, divisor], axis=0)))

    def best(self, optimizer: str, dk: int, divisor: str) -> tuple[float, float]:
        """The picked rate, and the median final loss over the judged seeds there."""
        i = self.pick(optimizer, dk, divisor)
        return self.rates[optimizer][i], float(np.median(self.finals[optimizer, dk, divisor][:, i]))

    def stability(self, optimizer: str, dk: int, divisor: str) -> float:
        """The share of bootstrap resamples of the picking seeds that pick the same rate."""
        runs = self.pick_finals[optimizer, dk, divisor]
        picks = np.argmin(np.median(runs[_resamples(len(runs))], axis=1), axis=-1)
        return float(np.mean(picks == self.pick(optimizer, dk, divisor)))

    def interval(self, optimizer: str, dk: int, divisor: str) -> tuple[float, float]:
        """A bootstrap interval (LEVEL) of the median final loss at the picked rate, over the judged seeds."""
        at = self.finals[optimizer, dk, divisor][:, self.pick(optimizer, dk, divisor)]
        boots = np.median(at[_resamples(len(at))], axis=1)
        tail = (1 - LEVEL) / 2
        return float(np.quantile(boots, tail)), float(np.quantile(boots, 1 - tail))

    def at_best(self, optimizer: str, dk: int, divisor: str) -> np.ndarray:
        """Each judged seed's final loss at the divisor's picked rate."""
        return self.finals[optimizer, dk, divisor][:, self.pick(optimizer, dk, divisor)]


def _resamples(size: int) -> np.ndarray:
    """BOOT resamples of ``size`` seeds' indices, the same for every call."""
    return np.random.default_rng(0).integers(size, size=(BOOT, size))


@functools.lru_cache(maxsize=1)
def sweep() -> Sweep:
    """Every optimizer, d_k, divisor and rate, from ``model.trained``, on the judged and the picking seeds."""
    finals: dict[tuple[str, int, str], np.ndarray] = {}
    picks: dict[tuple[str, int, str], np.ndarray] = {}
    for optimizer, dk in itertools.product(train.OPTIMIZERS, model.DKS):
        judged = model.final(model.trained(optimizer, dk).losses)  # (seeds, rates, divisors)
        picking = model.final(model.trained(optimizer, dk, model.PICK_SEEDS).losses)
        for i, divisor in enumerate(train.DIVISORS):
            finals[optimizer, dk, divisor], picks[optimizer, dk, divisor] = judged[..., i], picking[..., i]
    return Sweep(model.SEEDS, model.PICK_SEEDS, dict(model.RATES), finals, picks)


def default_rates(s: Sweep) -> dict[str, float]:
    """The live figure's default rates: ÷√d_k's own best at d_k = 64, picked on the picking seeds."""
    return {o: s.best(o, train.DK_DEFAULT, "sqrt")[0] for o in train.OPTIMIZERS}


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
        out.append(model.simulate(optimizer, dk, np.array([rate]), batches, (wq * factor, wk * factor),
                                  np.array([c]), eps).losses)
    return float(np.max(np.abs(out[0] - out[1]) / np.abs(out[1])))


def num(x: float) -> str:
    """A loss as printed: 3 significant digits in the figures' one format, inf as inf."""
    return sig(x, 3)


def rate(x: float) -> str:
    """A learning rate as printed."""
    return fmt(x, 4)


def words(items: list[str]) -> str:
    """a; a and b; a, b and c."""
    return items[0] if len(items) == 1 else _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


def serves(s: Sweep, optimizer: str, dk: int, divisor: str, i: int) -> bool:
    """Whether rate i does as well at this d_k as the divisor's picked rate: no worse, seed by seed (a tie or a
    win in ``train_statements.judge``'s paired test)."""
    finals = s.finals[optimizer, dk, divisor]
    return train_statements.judge("best", s.at_best(optimizer, dk, divisor), "this", finals[:, i],
                            {"best": "best", "this": "this"})[0] != "best"


def one_rate(s: Sweep, optimizer: str, divisor: str) -> tuple[float, float]:
    """The single rate for every d_k that costs least, and its cost: the most, over d_k, that its median loss
    lies above the median at the divisor's picked rate for that d_k (never below 0)."""
    best = [s.best(optimizer, dk, divisor)[1] for dk in model.DKS]
    costs = [max(max(0.0, s.medians[optimizer, dk, divisor][i] - b) for dk, b in zip(model.DKS, best))
             for i in range(len(s.rates[optimizer]))]
    i = int(np.argmin(costs))
    return s.rates[optimizer][i], costs[i]


def one_rate_serves(s: Sweep, optimizer: str, divisor: str) -> bool:
    """Whether that single rate does as well as the picked rate at every d_k, seed by seed."""
    i = s.rates[optimizer].index(one_rate(s, optimizer, divisor)[0])
    return all(serves(s, optimizer, dk, divisor, i) for dk in model.DKS)


def statement_rates(s: Sweep, optimizer: str) -> str:
    """Each divisor's best rate across d_k, and the loss it reaches there."""
    parts = []
    for d in train.DIVISORS:
        best = [s.best(optimizer, dk, d) for dk in model.DKS]
        again = [f"{round(100 * s.stability(optimizer, dk, d))}%" for dk in model.DKS]
        parts.append(_("{divisor}'s best rate is {rates} (picked again in {again} of resamples), where it reaches "
                       "{losses}").format(divisor=name(d), rates=words([rate(b[0]) for b in best]), again=words(again),
                                          losses=words([num(b[1]) for b in best])))
    return _("With {optimizer} at dₖ = {dks}: {divisors}.").format(
        optimizer=OPTIMIZER_NAMES[optimizer], dks=words([str(dk) for dk in model.DKS]), divisors="; ".join(parts))


def statement_fair(s: Sweep, optimizer: str) -> str:
    """÷√d_k against each other divisor, every one at its own best rate, seed by seed."""
    parts = []
    for dk in model.DKS:
        verdicts = []
        for other in ("none", "dk"):
            outcome, evidence = train_statements.judge("sqrt", s.at_best(optimizer, dk, "sqrt"), other,
                                                 s.at_best(optimizer, dk, other))
            verdicts.append(train_statements.versus(outcome, "sqrt", other, evidence))
        parts.append(train_statements.at_dk(dk, *verdicts))
    return _("With {optimizer}, each divisor at its own best rate, final losses compared seed by seed over {seeds} "
             "seeds (a divisor wins when it is lower in every seed or the mean paired difference is more than {tie} "
             "standard errors from 0): {comparisons}.").format(
        optimizer=OPTIMIZER_NAMES[optimizer], seeds=len(s.seeds), tie=fmt(train_statements.TIE),
        comparisons="; ".join(parts))


def statement_equivalence() -> str:
    """The identity, with the size of its numerical check."""
    worst = max(equivalence(o) for o in train.OPTIMIZERS)
    return _("Dividing the scores by c is the same as shrinking W_Q's and W_K's initialization by √c each and, with "
             "SGD, dividing the learning rate by c (Adam's steps are in the weights' own units, so there the rate "
             "shrinks by √c and ε grows by √c): trained both ways, a run with ÷√dₖ at dₖ = 64 and its undivided twin "
             "have losses that differ by at most {worst} relative, rounding error.").format(worst=f"{worst:.0e}")


def statement_one_rate(s: Sweep, optimizer: str) -> str:
    """What one rate for all three d_k costs each divisor, and whether it does as well as the best everywhere."""
    parts = []
    for d in train.DIVISORS:
        r, cost = one_rate(s, optimizer, d)
        parts.append((_("{divisor} {cost} (at {rate}: as well as its best rate at every dₖ)")
                      if one_rate_serves(s, optimizer, d) else
                      _("{divisor} {cost} (at {rate}: worse than its best rate at some dₖ)")).format(
            divisor=name(d), cost=num(cost), rate=rate(r)))
    return _("With {optimizer}, one learning rate for dₖ = {dks}, the one that suits each divisor best, ends at most "
             "this far above the median loss at that divisor's best rate for each dₖ (and does as well, or worse, seed "
             "by seed): {divisors}.").format(optimizer=OPTIMIZER_NAMES[optimizer],
                                             dks=words([str(dk) for dk in model.DKS]), divisors=words(parts))


def statement_job(s: Sweep) -> str:
    """What the divisor is for, from which divisors one rate serves at every d_k."""
    parts = []
    for optimizer in train.OPTIMIZERS:
        good = [d for d in train.DIVISORS if one_rate_serves(s, optimizer, d)]
        beaten = [d for d in good if d != "sqrt" and all(beats_at_best(s, optimizer, dk, "sqrt", d) for dk in model.DKS)]
        optimizer_name, good_names = OPTIMIZER_NAMES[optimizer], words(list(map(name, good))) if good else ""
        if not good:
            parts.append(_("with {optimizer}, for no divisor").format(optimizer=optimizer_name))
        elif beaten:
            parts.append(_("with {optimizer}, for {divisors}, though {beaten} at its best is still higher than ÷√dₖ at "
                           "its best at every dₖ").format(optimizer=optimizer_name, divisors=good_names,
                                                           beaten=words(list(map(name, beaten)))))
        else:
            parts.append(_("with {optimizer}, for {divisors}").format(optimizer=optimizer_name, divisors=good_names))
    # i18n: {uses} lists, for each optimizer, the divisors that one learning rate serves: "with SGD, for ÷√dₖ; …".
    return _("So beyond the stuck rows, what a divisor decides is whether one initialization and one learning rate "
             "work for every dₖ. Here, from one initialization, one learning rate does as well as each width's best "
             "{uses}.").format(uses="; ".join(parts))


def beats_at_best(s: Sweep, optimizer: str, dk: int, a: str, b: str) -> bool:
    """Whether divisor a, at its own best rate, ends lower than divisor b at its own, seed by seed."""
    return train_statements.judge(a, s.at_best(optimizer, dk, a), b, s.at_best(optimizer, dk, b))[0] == a


def statements(s: Sweep) -> list[str]:
    """What the sweep shows, each sentence computed from its numbers."""
    return [*(statement_rates(s, o) for o in train.OPTIMIZERS), *(statement_fair(s, o) for o in train.OPTIMIZERS),
            statement_equivalence(), *(statement_one_rate(s, o) for o in train.OPTIMIZERS), statement_job(s)]


def settings(s: Sweep) -> str:
    """What was run."""
    return _("The training grid's runs ({steps} steps, every divisor from the same weights) at every learning rate of "
             "a 1-2-5 grid: SGD {sgd_first} to {sgd_last} ({sgd_count} rates), Adam {adam_first} to {adam_last} "
             "({adam_count} rates). A divisor's best rate is the one with the lowest median final loss (mean batch "
             "loss over the last {tail} steps) over seeds {pick_first} to {pick_last}; every loss shown, and every "
             "comparison, is over seeds {first} to {last}, which did not pick it. Beside each best rate, how often it "
             "is picked again when the picking seeds are resampled ({boot} bootstrap resamples); beside each loss, its "
             "{level}% bootstrap interval.").format(
        steps=train.STEPS, sgd_first=rate(s.rates["sgd"][0]), sgd_last=rate(s.rates["sgd"][-1]),
        sgd_count=len(s.rates["sgd"]), adam_first=rate(s.rates["adam"][0]), adam_last=rate(s.rates["adam"][-1]),
        adam_count=len(s.rates["adam"]), tail=model.TAIL, pick_first=s.pick_seeds[0], pick_last=s.pick_seeds[-1],
        first=s.seeds[0], last=s.seeds[-1], boot=BOOT, level=round(100 * LEVEL))


BEST_HEADERS = (N_("optimizer"), "dₖ", *(N_("best rate, {divisor}") for _d in train.DIVISORS),
                *(N_("loss there, {divisor}") for _d in train.DIVISORS))
"""The best rates' table's column headings, in English, a divisor's name still to fill in: ``best_headers`` gives
them in the current language."""


def best_headers() -> list[str]:
    """The best rates' table's column headings, in the current language."""
    named = [name(d) for d in train.DIVISORS] * 2
    return [_(BEST_HEADERS[0]), BEST_HEADERS[1], *(_(h).format(divisor=n) for h, n in zip(BEST_HEADERS[2:], named))]


def best_lines(s: Sweep) -> list[list[str]]:
    """One line per optimizer and d_k: each divisor's best rate with its stability, and its loss with an interval."""
    out = []
    for optimizer, dk in itertools.product(train.OPTIMIZERS, model.DKS):
        cells = [(s.best(optimizer, dk, d), s.stability(optimizer, dk, d), s.interval(optimizer, dk, d))
                 for d in train.DIVISORS]
        out.append([OPTIMIZER_NAMES[optimizer], str(dk),
                    *(f"{rate(b[0])} ({round(100 * st)}%)" for b, st, _interval in cells),
                    *(f"{num(b[1])} ({num(lo)}–{num(hi)})" for b, _stability, (lo, hi) in cells)])
    return out


def rate_lines(s: Sweep, optimizer: str) -> list[list[str]]:
    """Header and lines of one optimizer's full sweep: (d_k, divisor) by rate."""
    head = ["dₖ", _("divisor"), *map(rate, s.rates[optimizer])]  # medians over the judged seeds
    return [head, *([str(dk), name(d), *map(num, s.medians[optimizer, dk, d])]
                    for dk, d in itertools.product(model.DKS, train.DIVISORS))]


def _table(lines: list[list[str]], left: int) -> list[str]:
    """A Markdown table, the first ``left`` columns left-aligned."""
    return ["| " + " | ".join(lines[0]) + " |", "|" + " --- |" * left + " ---: |" * (len(lines[0]) - left),
            *("| " + " | ".join(line) + " |" for line in lines[1:])]


def by_rate(optimizer: str) -> str:
    """The heading of one optimizer's full sweep."""
    return _("Median final loss by learning rate, {optimizer}:").format(optimizer=OPTIMIZER_NAMES[optimizer])


def markdown(s: Sweep) -> str:
    """Settings, statements, the best rates and the full sweep, as Markdown for the site."""
    out = [settings(s), "", *(f"- {x}" for x in statements(s)), "", *_table([best_headers(), *best_lines(s)], 2)]
    for optimizer in train.OPTIMIZERS:
        out += ["", by_rate(optimizer), "", *_table(rate_lines(s, optimizer), 2)]
    return "\n".join(out)


def report(s: Sweep) -> str:
    """The same as plain text, for the terminal."""
    out = [settings(s), "", plain_grid([best_headers(), *best_lines(s)])]
    for optimizer in train.OPTIMIZERS:
        out += ["", by_rate(optimizer), plain_grid(rate_lines(s, optimizer))]
    out += ["", *(f"- {x}" for x in statements(s))]
    return "\n".join(out)


if __name__ == "__main__":
    started = time.perf_counter()
    result = sweep()
    print(report(result))
    print(f"\nThe sweep took {time.perf_counter() - started:.2f} s to compute.")
