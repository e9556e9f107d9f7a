"""The tiny attention layer of ``pycore.train`` in numpy, at the core's default learning rates, over a grid of
d_k, divisors, optimizers and seeds: the learning-rate sweep's runs (``pycore.experiments.model``) at those rates.

The build puts a chart, statements computed from the numbers and a table on the page through the
``train-grid`` generated block; ``python -m pycore.experiments.train_grid`` prints the table and statements.
Divisors are compared seed by seed: the paired differences of their final losses, mean ± standard error,
and a tie when the mean is within TIE standard errors of 0.
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
from pycore.figures import _chart, _common
from pycore.svg import el, fmt, sig, svg, text

SEEDS = model.SEEDS
DKS = model.DKS
TAIL = model.TAIL
TIE = 3.0
"""Two divisors tie when the mean of their paired differences is within TIE standard errors of 0."""


NAMES = {"none": "unscaled", "sqrt": "÷√dₖ", "dk": "÷dₖ"}
OPTIMIZER_NAMES = {"sgd": "SGD", "adam": "Adam"}
SERIES = _common.SERIES
WINDOW = 10
"""The chart plots each seed's mean loss over windows of this many steps."""
CAP = 100.0
"""The chart's loss axis ends here."""
CLOSE = 0.1
"""Two final losses (medians over seeds) this close, in nats, count as matching."""


@dataclass(frozen=True)
class Run:
    """One (optimizer, d_k, divisor) over the seeds: per seed, its first and final loss and more."""

    optimizer: str
    dk: int
    divisor: str
    first: tuple[float, ...]
    """Each seed's loss at step 0."""
    final: tuple[float, ...]
    """Each seed's mean batch loss over the last TAIL steps (inf once it overflowed)."""
    saturated: tuple[float, ...]
    """Each seed's mean saturated share over the last TAIL steps."""
    overflowed: int
    """How many seeds' loss overflowed to inf."""
    curve: tuple[tuple[float, ...], ...]
    """Per seed, the mean loss of each window of WINDOW steps."""

    @property
    def median(self) -> float:
        """The median final loss over seeds."""
        return float(np.median(self.final))


@dataclass(frozen=True)
class Grid:
    """Every run, keyed by (optimizer, d_k, divisor)."""

    seeds: tuple[int, ...]
    steps: int
    lr: dict[str, float]
    runs: dict[tuple[str, int, str], Run]

    @property
    def dks(self) -> tuple[int, ...]:
        """The d_k values, smallest first."""
        return tuple(sorted({dk for _, dk, _ in self.runs}))

    def at(self, optimizer: str, dk: int, divisor: str) -> Run:
        """One run."""
        return self.runs[optimizer, dk, divisor]


def summarize(optimizer: str, dk: int, divisor: str, losses: np.ndarray, saturated: np.ndarray) -> Run:
    """A Run from the (seeds, steps) losses and saturated shares of one divisor."""
    windows = losses[:, : losses.shape[1] // WINDOW * WINDOW].reshape(len(losses), -1, WINDOW).mean(axis=-1)
    return Run(optimizer, dk, divisor, first=tuple(map(float, losses[:, 0])),
               final=tuple(map(float, losses[:, -TAIL:].mean(axis=-1))),
               saturated=tuple(map(float, saturated[:, -TAIL:].mean(axis=-1))),
               overflowed=int((~np.isfinite(losses[:, -1])).sum()), curve=tuple(tuple(map(float, w)) for w in windows))


@functools.lru_cache(maxsize=2)
def grid(seeds: tuple[int, ...] = SEEDS, steps: int = train.STEPS) -> Grid:
    """Every optimizer, d_k and divisor at the core's default learning rates, computed once per process: the
    sweep's runs at those rates, or, for other seeds or lengths (the notebook's test), runs of their own."""
    runs = {}
    for optimizer, dk in itertools.product(train.OPTIMIZERS, DKS):
        if (seeds, steps) == (SEEDS, train.STEPS):
            losses, saturated = model.trained(optimizer, dk)
            at = model.RATES[optimizer].index(train.LR[optimizer])
        else:
            losses, saturated = model.simulate(optimizer, dk, np.array([train.LR[optimizer]]), model.data(seeds, steps),
                                               model.weights(dk, seeds))
            at = 0
        for i, divisor in enumerate(train.DIVISORS):
            runs[optimizer, dk, divisor] = summarize(optimizer, dk, divisor, losses[:, at, i], saturated[:, at, i])
    return Grid(seeds, steps, dict(train.LR), runs)


def num(x: float) -> str:
    """A loss as printed: 3 significant digits, scientific from 1e6, inf as inf."""
    return sig(x, 3)


def words(items: list[str]) -> str:
    """a; a and b; a, b and c."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def dks_text(dks: list[int]) -> str:
    """dₖ = 16, 64 and 256."""
    return "dₖ = " + words([str(dk) for dk in dks])


def signed(x: float) -> str:
    """A difference with its sign: +0.0006, −0.12."""
    return ("+" if x >= 0 else "−") + num(abs(x))


def difference(g: Grid, optimizer: str, dk: int, a: str, b: str) -> str:
    """b − a, mean ± standard error of the paired final losses over seeds, as printed."""
    mean, se = model.paired(g.at(optimizer, dk, b).final, g.at(optimizer, dk, a).final)
    return f"{signed(mean)} ± {num(se)}"


def spread(r: Run) -> str:
    """The lowest to the highest seed's final loss."""
    return f"{num(min(r.final))}–{num(max(r.final))}"


def compare(g: Grid, optimizer: str, dk: int, a: str, b: str) -> tuple[str, str]:
    """Which of two divisors ends lower seed by seed (a, b or "tie"), and the numbers that say so.

    One divisor wins when its final loss is lower in every seed, or when the paired differences b − a
    (every one finite) have a mean more than TIE standard errors from 0; anything else is a tie. The
    first rule matters for runs that blew up, whose differences are huge and spread wide.
    """
    fa, fb = np.array(g.at(optimizer, dk, a).final), np.array(g.at(optimizer, dk, b).final)
    finite = bool(np.isfinite(fa).all() and np.isfinite(fb).all())
    mean, se = model.paired(fb, fa) if finite else (math.nan, math.nan)
    diff = f"{NAMES[b]} − {NAMES[a]} = {difference(g, optimizer, dk, a, b)}" if finite else "some runs overflowed"
    for winner, lower in ((a, fa < fb), (b, fb < fa)):
        if lower.all():
            return winner, f"{NAMES[winner]} lower in all {len(fa)} seeds; {diff}"
    if finite and abs(mean) > TIE * se:
        return (a if mean > 0 else b), diff
    return "tie", diff if finite else f"{NAMES[a]} lower in {int((fa < fb).sum())} of {len(fa)} seeds"


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


def statement_unscaled_sgd(g: Grid) -> str:
    """Whether unscaled scores overflowed with SGD, at which d_k, and where the loss ended."""
    runs = [g.at("sgd", dk, "none") for dk in g.dks]
    overflowed = [r for r in runs if r.overflowed]
    start = f"With SGD at a learning rate of {fmt(g.lr['sgd'], 4)}, unscaled scores "
    if overflowed:
        out = start + "overflowed to inf in " + words(
            [f"{r.overflowed} of {len(g.seeds)} seeds at dₖ = {r.dk}" for r in overflowed]) + "."
    else:
        out = start + "never overflowed to inf."
    rose = [r for r in runs if r.median > float(np.median(r.first))]
    fell = [r for r in runs if r not in rose]
    if rose:
        out += (f" At {dks_text([r.dk for r in rose])} the final loss ended above the first step's (median "
                  + words([f"{num(float(np.median(r.first)))} → {num(r.median)}" for r in rose])
                  + "): it blew up instead of learning.")
    if fell:
        out += (f" At {dks_text([r.dk for r in fell])} it fell (median "
                  + words([f"{num(float(np.median(r.first)))} → {num(r.median)}" for r in fell])
                  + f"; ÷√dₖ: {words([num(g.at('sgd', r.dk, 'sqrt').median) for r in fell])}).")
    return out


def trend(values: list[float]) -> str:
    """How values in d_k order move: within CLOSE of each other, or rising, falling, both ways."""
    if max(values) - min(values) <= CLOSE:
        return f"stays within {fmt(CLOSE)}"
    steps = [b - a for a, b in zip(values, values[1:])]
    return "rises" if all(s > 0 for s in steps) else "falls" if all(s < 0 for s in steps) else "moves both ways"


def statement_dk(g: Grid, optimizer: str) -> str:
    """How ÷d_k's final loss moves as d_k grows, beside ÷√d_k's."""
    dk_medians = [g.at(optimizer, dk, "dk").median for dk in g.dks]
    sqrt_medians = [g.at(optimizer, dk, "sqrt").median for dk in g.dks]
    return (f"With {OPTIMIZER_NAMES[optimizer]}, ÷dₖ's final loss {trend(dk_medians)} as dₖ grows from "
            f"{g.dks[0]} to {g.dks[-1]}: {', '.join(map(num, dk_medians))} at {dks_text(list(g.dks))}, against "
            f"{', '.join(map(num, sqrt_medians))} for ÷√dₖ.")


def matching(g: Grid, optimizer: str, divisor: str) -> list[int]:
    """The d_k where this divisor's median final loss is within CLOSE of ÷√d_k's."""
    return [dk for dk in g.dks
            if abs(g.at(optimizer, dk, divisor).median - g.at(optimizer, dk, "sqrt").median) <= CLOSE]


def statement_adam(g: Grid) -> str:
    """Whether Adam, which rescales each parameter's step by its own gradient size, hides the divisor."""
    out = ["Adam divides each parameter's step by that parameter's own recent gradient size, so it can hide a "
           "gradient that is √dₖ too large (unscaled) or too small (÷dₖ)."]
    for divisor in ("none", "dk"):
        adam, sgd = matching(g, "adam", divisor), matching(g, "sgd", divisor)
        verdict = ("the numbers show Adam hiding it" if len(adam) == len(g.dks) and len(sgd) < len(g.dks) else
                   "the numbers do not show Adam hiding it" if len(adam) <= len(sgd) else
                   "the numbers show Adam hiding part of it")
        out.append(f"{NAMES[divisor].capitalize()} ends within {fmt(CLOSE)} of ÷√dₖ's final loss at "
                   f"{_at(adam)} with Adam and at {_at(sgd)} with SGD (Adam: "
                   f"{', '.join(num(g.at('adam', dk, divisor).median) for dk in g.dks)} against ÷√dₖ's "
                   f"{', '.join(num(g.at('adam', dk, 'sqrt').median) for dk in g.dks)} at "
                   f"{dks_text(list(g.dks))}): {verdict}.")
    return " ".join(out)


def _at(dks: list[int]) -> str:
    """dₖ = 16 and 64, or no dₖ."""
    return dks_text(dks) if dks else "no dₖ"


def statements(g: Grid) -> list[str]:
    """What happened, each sentence computed from the grid's numbers."""
    return [*(statement_winners(g, o) for o in train.OPTIMIZERS), statement_unscaled_sgd(g),
            *(statement_dk(g, o) for o in train.OPTIMIZERS), statement_adam(g)]


HEADERS = ("optimizer", "dₖ", "divisor", "first-step loss", "final loss", "min–max over seeds",
           "saturated rows", "overflowed to inf")


def row(g: Grid, r: Run) -> list[str]:
    """One table line; losses are medians over seeds, saturated the median share over the last TAIL steps."""
    return [OPTIMIZER_NAMES[r.optimizer], str(r.dk), NAMES[r.divisor], num(float(np.median(r.first))), num(r.median),
            spread(r), f"{fmt(100 * float(np.median(r.saturated)), 1)}%",
            f"{r.overflowed} of {len(g.seeds)}"]


def lines(g: Grid) -> list[list[str]]:
    """Every table line, by optimizer, d_k and divisor."""
    return [row(g, g.at(o, dk, d)) for o, dk, d in itertools.product(train.OPTIMIZERS, g.dks, train.DIVISORS)]


def settings(g: Grid) -> str:
    """What was run, in one paragraph."""
    return (f"{len(g.seeds)} seeds ({g.seeds[0]} to {g.seeds[-1]}, numpy's draws, not the figure's), each trained "
            f"for {g.steps} steps of {train.BATCH} examples: {train.N} keys with inputs of size D = {train.D}, the "
            f"query input a copy of the target's with noise σ = {fmt(train.SIGMA)}, rescaled to unit variance. Learning rates: SGD {fmt(g.lr['sgd'], 4)}, Adam "
            f"{fmt(g.lr['adam'], 4)}, the same for every divisor. All three divisors start from the same weights "
            f"and see the same batches. The final loss is a seed's mean batch loss over its last {TAIL} steps; "
            f"losses are medians over seeds; saturated rows are the median share of rows whose largest weight "
            f"exceeds {fmt(train.SATURATED)} over the last {TAIL} steps. The last column counts the seeds whose loss "
            f"overflowed to inf (a run whose loss only grew huge counts as not overflowed).")


def _log10(x: float) -> float:
    return math.log10(x) if x > 0 else -math.inf


def panel(g: Grid, optimizer: str, dk: int) -> str:
    """One (optimizer, d_k): per divisor the median windowed loss over seeds and a min–max band, log axis.

    The axis stops at CAP; a line above it runs along the top edge and a note under the axis says how high it went.
    """
    runs = [g.at(optimizer, dk, d) for d in train.DIVISORS]
    xs = [(i + 0.5) * WINDOW for i in range(len(runs[0].curve[0]))]
    logs = {r.divisor: np.log10(np.array(r.curve)) for r in runs}
    top = math.log10(CAP)
    lowest = min(float(v.min()) for v in logs.values())
    lo = min(math.floor(lowest), math.floor(top) - 1)
    ax = _chart.axes(0, g.steps, lo, top, top=44, bottom=178)
    yticks = [(float(v), _decade(v)) for v in range(lo, math.floor(top) + 1)]
    xticks = [(v, str(v)) for v in range(0, g.steps + 1, max(1, g.steps // 4))]
    title = f"{OPTIMIZER_NAMES[optimizer]}, dₖ = {dk}"
    parts = _chart.frame(ax, title, xticks, yticks, "step (loss on a log scale)")
    for r in runs:
        v = np.clip(logs[r.divisor], lo, top)
        parts.append(_chart.band(ax, xs, v.min(axis=0), v.max(axis=0), f"sq-band {SERIES[r.divisor]}"))
    for r in runs:
        parts.append(_chart.series(ax, xs, np.clip(np.median(logs[r.divisor], axis=0), lo, top), SERIES[r.divisor]))
    for i, d in enumerate(train.DIVISORS):
        parts += _chart.legend(46 + 82 * i, 34, [(SERIES[d], NAMES[d])])
    over = [r for r in runs if np.median(np.array(r.curve), axis=0).max() > CAP]
    notes = [f"{NAMES[r.divisor]} above {fmt(CAP)}: up to {num(float(np.median(np.array(r.curve), axis=0).max()))}"
             for r in over]
    for i, note in enumerate(notes):
        parts.append(text(ax.x.r1, 226 + 14 * i, f"↑ {note}", "sq-tick", "end"))
    label = (f"Training loss over {g.steps} steps with {title.replace('dₖ', 'd_k')}, median over {len(g.seeds)} "
             f"seeds with a band from the lowest to the highest seed, log scale up to {fmt(CAP)}: " + "; ".join(
                 f"{_plain(NAMES[r.divisor])} from {num(float(np.median(r.first)))} to {num(r.median)}" for r in runs))
    return svg(_chart.W, 232 + 14 * max(len(notes), 1) - 14, label, parts, "sq-svg--chart")


def _plain(name: str) -> str:
    """A divisor's name as a screen reader should say it."""
    return name.replace("√dₖ", "square root of d_k").replace("dₖ", "d_k")


def _decade(k: int) -> str:
    """10^k as a short label."""
    return fmt(10.0**k, 4) if -3 <= k <= 3 else f"1e{k}"


def chart(g: Grid) -> str:
    """Every panel, optimizer by optimizer, in one div that needs no script."""
    return el("div", {"class": "sq-grid-chart"},
              [panel(g, o, dk) for o, dk in itertools.product(train.OPTIMIZERS, g.dks)])


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
