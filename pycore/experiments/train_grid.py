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

from pycore import rows, train
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
    stuck_first: tuple[float, ...]
    """Each seed's mean share of stuck rows (saturated on a wrong key) over the first TAIL steps."""
    stuck: tuple[float, ...]
    """The same over the last TAIL steps."""
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


def _per_seed(values: np.ndarray) -> tuple[float, ...]:
    return tuple(map(float, values))


def summarize(optimizer: str, dk: int, divisor: str, losses: np.ndarray, saturated: np.ndarray,
              stuck: np.ndarray) -> Run:
    """A Run from the (seeds, steps) losses, saturated and stuck shares of one divisor."""
    windows = losses[:, : losses.shape[1] // WINDOW * WINDOW].reshape(len(losses), -1, WINDOW).mean(axis=-1)
    return Run(optimizer, dk, divisor, first=_per_seed(losses[:, 0]), final=_per_seed(losses[:, -TAIL:].mean(axis=-1)),
               saturated=_per_seed(saturated[:, -TAIL:].mean(axis=-1)),
               stuck_first=_per_seed(stuck[:, :TAIL].mean(axis=-1)), stuck=_per_seed(stuck[:, -TAIL:].mean(axis=-1)),
               overflowed=int((~np.isfinite(losses[:, -1])).sum()), curve=tuple(tuple(map(float, w)) for w in windows))


@functools.lru_cache(maxsize=2)
def grid(seeds: tuple[int, ...] = SEEDS, steps: int = train.STEPS) -> Grid:
    """Every optimizer, d_k and divisor at the core's default learning rates, computed once per process: the
    sweep's runs at those rates, or, for other seeds or lengths (the notebook's test), runs of their own."""
    runs = {}
    for optimizer, dk in itertools.product(train.OPTIMIZERS, DKS):
        if (seeds, steps) == (SEEDS, train.STEPS):
            done = model.trained(optimizer, dk)
            at = model.RATES[optimizer].index(train.LR[optimizer])
        else:
            done = model.simulate(optimizer, dk, np.array([train.LR[optimizer]]), model.data(seeds, steps),
                                  model.weights(dk, seeds))
            at = 0
        for i, divisor in enumerate(train.DIVISORS):
            runs[optimizer, dk, divisor] = summarize(optimizer, dk, divisor, *(v[:, at, i] for v in done))
    return Grid(seeds, steps, dict(train.LR), runs)


def even_loss() -> float:
    """The loss of even attention, on average: o − x_t = Σ_j x_j / n − x_t has (n − 1)/n variance per entry."""
    return (train.N - 1) / train.N


def wrong_spike_loss() -> float:
    """The loss of a spike on a wrong key, on average: x_i − x_t has variance 2 per entry."""
    return 2.0


@dataclass(frozen=True)
class StartGradients:
    """At the start, before any update, what the scores' gradient is like on stuck rows and on the others."""

    stuck: float
    """Median ‖∂L/∂s‖ over the stuck rows."""
    others: float
    """Median ‖∂L/∂s‖ over the other rows."""
    log_loss: float
    """Median ‖p − e_t‖ over the stuck rows: what −log p_t, a loss on the weights themselves, would pass back."""
    count: int
    """How many rows were stuck."""
    saturated: int
    """How many rows were saturated, on any key."""


@functools.lru_cache(maxsize=4)
def start_gradients(dk: int = train.DK_DEFAULT, divisor: str = "none", steps: int = TAIL,
                    seeds: tuple[int, ...] = SEEDS) -> StartGradients:
    """The first ``steps`` batches of every seed against the initial weights, unscaled by default."""
    queries, keys, targets = model.data(seeds, steps)
    wq, wk = model.weights(dk, seeds)
    m = (wq @ np.swapaxes(wk, -1, -2))[:, None]
    c = np.array(rows.divisor_value(dk, divisor))
    s, p, _, a = model.forward(m, queries, keys, targets, c)
    stuck = model.stuck_rows(s, p, targets)
    size = np.linalg.norm(a, axis=-1)                        # B·∂L/∂s is ∂L/∂s of the row alone
    onehot = np.arange(train.N) == targets[..., None]
    return StartGradients(float(np.median(size[stuck])), float(np.median(size[~stuck])),
                          float(np.median(np.linalg.norm(p - onehot, axis=-1)[stuck])), int(stuck.sum()),
                          int((p.max(axis=-1) > train.SATURATED).sum()))


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


def percent(x: float) -> str:
    """A share as a percentage, to one decimal: 0.2281 → 22.8%."""
    return f"{fmt(100 * x, 1)}%"


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
