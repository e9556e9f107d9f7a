"""The training grid's runs: the tiny attention layer of ``pycore.train`` in numpy at the core's default learning
rates, for every d_k, divisor, optimizer and seed (the learning-rate sweep's runs at those rates,
``pycore.experiments.model``); what the layer faces at the start; and each of their numbers and names as the
page prints them, which the statements, the table and the prose's claims all quote."""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

import numpy as np

from pycore import rows, train
from pycore.experiments import model
from pycore.i18n import N_, _
from pycore.svg import fmt, sig

SEEDS = model.SEEDS
DKS = model.DKS
TAIL = model.TAIL
NAMES = {"none": N_("unscaled"), "sqrt": "÷√dₖ", "dk": "÷dₖ"}
"""Each divisor as the page names it, in English: ``divisor_name`` gives it in the current language."""
SPOKEN = {"none": N_("unscaled"), "sqrt": N_("÷square root of d_k"), "dk": "÷d_k"}
"""The same as a screen reader should say it: ``spoken_name`` gives it in the current language."""
OPTIMIZER_NAMES = {"sgd": "SGD", "adam": "Adam"}
"""Each optimizer's name, the same in every language."""
WINDOW = 10
"""The chart plots each seed's mean loss over windows of this many steps."""


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
    grad_q: tuple[float, ...]
    """Each seed's size of the gradient toward W_Q at the last step, as the figure's readout gives its one run's."""

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
    """One number per seed, as plain floats."""
    return tuple(map(float, values))


def summarize(optimizer: str, dk: int, divisor: str, losses: np.ndarray, saturated: np.ndarray,
              stuck: np.ndarray, grad_q: np.ndarray) -> Run:
    """A Run from the (seeds, steps) losses, saturated and stuck shares and gradients toward W_Q of one divisor."""
    windows = losses[:, : losses.shape[1] // WINDOW * WINDOW].reshape(len(losses), -1, WINDOW).mean(axis=-1)
    return Run(optimizer, dk, divisor, first=_per_seed(losses[:, 0]), final=_per_seed(losses[:, -TAIL:].mean(axis=-1)),
               saturated=_per_seed(saturated[:, -TAIL:].mean(axis=-1)),
               stuck_first=_per_seed(stuck[:, :TAIL].mean(axis=-1)), stuck=_per_seed(stuck[:, -TAIL:].mean(axis=-1)),
               overflowed=int((~np.isfinite(losses[:, -1])).sum()), curve=tuple(tuple(map(float, w)) for w in windows),
               grad_q=_per_seed(grad_q[:, -1]))


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


def divisor_name(divisor: str) -> str:
    """A divisor as the page names it, in the current language."""
    return _(NAMES[divisor])


def spoken_name(divisor: str) -> str:
    """A divisor as a screen reader should say it, in the current language."""
    return _(SPOKEN[divisor])


def num(x: float) -> str:
    """A loss as printed: 3 significant digits in the figures' one format, inf as inf."""
    return sig(x, 3)


def signed(x: float) -> str:
    """A difference with its sign: +0.0006, −0.12."""
    return ("+" if x >= 0 else "−") + num(abs(x))


def percent(x: float) -> str:
    """A share as a percentage, to one decimal: 0.2281 → 22.8%."""
    return f"{fmt(100 * x, 1)}%"


def spread(r: Run) -> str:
    """The lowest to the highest seed's final loss."""
    return f"{num(min(r.final))}–{num(max(r.final))}"


def difference(g: Grid, optimizer: str, dk: int, a: str, b: str) -> str:
    """b − a, mean ± standard error of the paired final losses over seeds, as printed."""
    mean, se = model.paired(g.at(optimizer, dk, b).final, g.at(optimizer, dk, a).final)
    return f"{signed(mean)} ± {num(se)}"
