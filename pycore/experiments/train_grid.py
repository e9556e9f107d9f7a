"""The tiny attention layer of ``pycore.train`` in numpy, run over a grid of d_k, divisors, optimizers and seeds.

The model is written as the task states it (q = x_q W_Q, k_j = x_j W_K, s_j = q·k_j / c, loss −log p_t,
dL/dq = Σ_j g_j k_j / c, dL/dk_j = g_j q / c), vectorized over seeds and divisors. The batches and the
initial weights come from the core's own streams, so seed s here is seed s on the page.

The build puts a chart, statements computed from the numbers and a table on the page through the
``train-grid`` generated block; ``python -m pycore.experiments.train_grid`` prints the table and statements.
"""

from __future__ import annotations

import functools
import itertools
import math
import time
from dataclasses import dataclass

import numpy as np

from pycore import rows, train
from pycore.figures import _chart, _common
from pycore.experiments.reproduce import grid as plain_grid
from pycore.svg import el, fmt, sig, svg, text

SEEDS = (1, 2, 3, 4, 5)
DKS = (16, 64, 256)
TAIL = 20
"""A run's final loss is the mean batch loss over its last TAIL steps; a diverged run's is inf."""


@functools.lru_cache(maxsize=4)
def data(seeds: tuple[int, ...], steps: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The core's batches as arrays: queries (S, steps, B, D), keys (S, steps, B, n, D), targets (S, steps, B)."""
    out = []
    for seed in seeds:
        stream = train.batches(seed)
        stream.ensure(steps)
        out.append(stream.batches[:steps])
    queries = np.array([[[e.query for e in batch] for batch in run] for run in out])
    keys = np.array([[[e.keys for e in batch] for batch in run] for run in out])
    targets = np.array([[[e.target for e in batch] for batch in run] for run in out])
    return queries, keys, targets


def weights(dk: int, seeds: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The core's initial W_Q and W_K for each seed, (S, D, d_k) each."""
    pairs = [train.initial_weights(dk, seed) for seed in seeds]
    return np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])


def divisors(dk: int) -> np.ndarray:
    """c for each divisor, in train.DIVISORS order."""
    return np.array([rows.divisor_value(dk, d) for d in train.DIVISORS])


def loss_and_grads(wq: np.ndarray, wk: np.ndarray, queries: np.ndarray, keys: np.ndarray, targets: np.ndarray,
                   c: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Mean loss, dL/dW_Q, dL/dW_K and saturated share of one batch, for any leading run axes.

    Shapes: wq, wk (..., D, d_k); queries (..., B, D); keys (..., B, n, D); targets (..., B); c (...).
    Overflowing runs give inf or NaN; ``simulate`` turns both into inf.
    """
    size, n, d = keys.shape[-3:]
    cc = c[..., None, None]
    flat = keys.reshape(*keys.shape[:-3], size * n, d)        # (..., B·n, D)
    q = queries @ wq                                           # (..., B, d_k)
    k_flat = flat @ wk                                         # (..., B·n, d_k)
    k = k_flat.reshape(*k_flat.shape[:-2], size, n, -1)        # (..., B, n, d_k)
    s = (k * q[..., None, :]).sum(axis=-1) / cc                # (..., B, n)
    top = s.max(axis=-1, keepdims=True)
    e = np.exp(s - top)
    total = e.sum(axis=-1, keepdims=True)
    p = e / total
    s_t = np.take_along_axis(s, targets[..., None], axis=-1)
    loss = (np.log(total) + (top - s_t))[..., 0].mean(axis=-1)
    saturated = (p.max(axis=-1) > train.SATURATED).mean(axis=-1)
    g = (p - (np.arange(n) == targets[..., None])) / size     # dL/ds
    dq = (g[..., None] * k).sum(axis=-2) / cc                  # Σ_j g_j k_j / c
    dk_ = g[..., None] * q[..., None, :] / cc[..., None]       # g_j q / c, (..., B, n, d_k)
    dwq = np.swapaxes(queries, -1, -2) @ dq                    # x_qᵀ dL/dq, summed over the batch
    dwk = np.swapaxes(flat, -1, -2) @ dk_.reshape(*dk_.shape[:-3], size * n, -1)  # Σ_j x_jᵀ dL/dk_j
    return loss, dwq, dwk, saturated


class Adam:
    """Adam with train's constants, on arrays."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.m, self.v, self.t = np.zeros(shape), np.zeros(shape), 0

    def step(self, w: np.ndarray, g: np.ndarray, lr: float) -> np.ndarray:
        self.t += 1
        self.m = train.BETA1 * self.m + (1 - train.BETA1) * g
        self.v = train.BETA2 * self.v + (1 - train.BETA2) * g * g
        m_hat, v_hat = self.m / (1 - train.BETA1**self.t), self.v / (1 - train.BETA2**self.t)
        return w - lr * m_hat / (np.sqrt(v_hat) + train.EPS)


def simulate(optimizer: str, dk: int, lr: float, seeds: tuple[int, ...], steps: int
             ) -> tuple[np.ndarray, np.ndarray]:
    """Losses and saturated shares, (S, divisors, steps) each, for every seed and divisor at once.

    A run whose loss is not finite has diverged: from then on its weights stay and its loss is inf.
    """
    queries, keys, targets = data(seeds, steps)
    wq0, wk0 = weights(dk, seeds)
    nd = len(train.DIVISORS)
    wq = np.repeat(wq0[:, None], nd, axis=1)
    wk = np.repeat(wk0[:, None], nd, axis=1)
    c = np.broadcast_to(divisors(dk), (len(seeds), nd))
    alive = np.ones((len(seeds), nd), dtype=bool)
    losses = np.empty((len(seeds), nd, steps))
    saturated = np.empty_like(losses)
    adam = (Adam(wq.shape), Adam(wk.shape)) if optimizer == "adam" else None
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for r in range(steps):
            loss, dwq, dwk, sat = loss_and_grads(wq, wk, queries[:, None, r], keys[:, None, r],
                                                 targets[:, None, r], c)
            alive &= np.isfinite(loss)
            losses[..., r] = np.where(alive, loss, np.inf)
            saturated[..., r] = np.where(alive, sat, 1.0)
            if adam is None:
                new_q, new_k = wq - lr * dwq, wk - lr * dwk
            else:
                new_q, new_k = adam[0].step(wq, dwq, lr), adam[1].step(wk, dwk, lr)
            keep = alive[..., None, None]
            wq, wk = np.where(keep, new_q, wq), np.where(keep, new_k, wk)
            alive &= np.isfinite(wq).all(axis=(-1, -2)) & np.isfinite(wk).all(axis=(-1, -2))
    return losses, saturated


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
    """Each seed's mean batch loss over the last TAIL steps (inf once diverged)."""
    saturated: tuple[float, ...]
    """Each seed's mean saturated share over the last TAIL steps."""
    diverged: int
    """How many seeds' loss became inf."""
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
               diverged=int((~np.isfinite(losses[:, -1])).sum()), curve=tuple(tuple(map(float, w)) for w in windows))


@functools.lru_cache(maxsize=2)
def grid(seeds: tuple[int, ...] = SEEDS, dks: tuple[int, ...] = DKS, steps: int = train.STEPS) -> Grid:
    """Every optimizer, d_k and divisor at the default learning rates, computed once per process."""
    runs = {}
    for optimizer, dk in itertools.product(train.OPTIMIZERS, dks):
        losses, saturated = simulate(optimizer, dk, train.LR[optimizer], seeds, steps)
        for i, divisor in enumerate(train.DIVISORS):
            runs[optimizer, dk, divisor] = summarize(optimizer, dk, divisor, losses[:, i], saturated[:, i])
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


def winners(g: Grid, optimizer: str, dk: int) -> list[str]:
    """The divisors with the lowest median final loss (more than one on a tie)."""
    medians = {d: g.at(optimizer, dk, d).median for d in train.DIVISORS}
    low = min(medians.values())
    return [d for d in train.DIVISORS if medians[d] == low]


def clear_win(g: Grid, optimizer: str, dk: int, divisor: str) -> bool:
    """Whether every seed of the winner ended below every seed of each other divisor."""
    worst = max(g.at(optimizer, dk, divisor).final)
    return all(worst < min(g.at(optimizer, dk, d).final) for d in train.DIVISORS if d != divisor)


def statement_winners(g: Grid, optimizer: str) -> str:
    """Which divisor reached the lowest final loss at each d_k, saying so where ÷√d_k did not (or only tied)."""
    name = OPTIMIZER_NAMES[optimizer]
    best = {dk: winners(g, optimizer, dk) for dk in g.dks}
    won = [dk for dk in g.dks if best[dk] == ["sqrt"]]
    parts = []
    if won:
        clear = [dk for dk in won if clear_win(g, optimizer, dk, "sqrt")]
        how = ("every seed below every seed of the others" if clear == won else
               f"every seed below every seed of the others at {dks_text(clear)} only" if clear else
               "but the seeds' ranges overlap")
        parts.append(f"With {name}, ÷√dₖ reached the lowest final loss at {dks_text(won)} ({how}).")
    for dk in (dk for dk in g.dks if dk not in won):
        sqrt = num(g.at(optimizer, dk, "sqrt").median)
        others = [NAMES[d] for d in best[dk] if d != "sqrt"]
        if "sqrt" in best[dk]:
            parts.append(f"With {name} at dₖ = {dk}, ÷√dₖ only tied for the lowest final loss with "
                         f"{words(others)} ({sqrt}, medians over {len(g.seeds)} seeds).")
        else:
            parts.append(f"With {name} at dₖ = {dk}, ÷√dₖ did not reach the lowest final loss: {words(others)} did "
                         f"({num(g.at(optimizer, dk, best[dk][0]).median)} against {sqrt} for ÷√dₖ, medians over "
                         f"{len(g.seeds)} seeds).")
    return " ".join(parts)


def statement_unscaled_sgd(g: Grid) -> str:
    """Whether unscaled scores diverged with SGD, at which d_k, and where the loss ended."""
    runs = [g.at("sgd", dk, "none") for dk in g.dks]
    diverged = [r for r in runs if r.diverged]
    start = f"With SGD at a learning rate of {fmt(g.lr['sgd'], 4)}, unscaled scores "
    if diverged:
        out = start + "diverged (the loss overflowed to inf) in " + words(
            [f"{r.diverged} of {len(g.seeds)} seeds at dₖ = {r.dk}" for r in diverged]) + "."
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
           "saturated rows", "diverged")


def row(g: Grid, r: Run) -> list[str]:
    """One table line; losses are medians over seeds, saturated the median share over the last TAIL steps."""
    return [OPTIMIZER_NAMES[r.optimizer], str(r.dk), NAMES[r.divisor], num(float(np.median(r.first))), num(r.median),
            f"{num(min(r.final))}–{num(max(r.final))}", f"{fmt(100 * float(np.median(r.saturated)), 1)}%",
            f"{r.diverged} of {len(g.seeds)}"]


def lines(g: Grid) -> list[list[str]]:
    """Every table line, by optimizer, d_k and divisor."""
    return [row(g, g.at(o, dk, d)) for o, dk, d in itertools.product(train.OPTIMIZERS, g.dks, train.DIVISORS)]


def settings(g: Grid) -> str:
    """What was run, in one paragraph."""
    return (f"{len(g.seeds)} seeds ({', '.join(map(str, g.seeds))}), each trained for {g.steps} steps of "
            f"{train.BATCH} examples: {train.N} keys with inputs of size D = {train.D}, the query input a copy of "
            f"the target's with noise σ = {fmt(train.SIGMA)}. Learning rates: SGD {fmt(g.lr['sgd'], 4)}, Adam "
            f"{fmt(g.lr['adam'], 4)}, the same for every divisor. All three divisors start from the same weights "
            f"and see the same batches. The final loss is a seed's mean batch loss over its last {TAIL} steps; "
            f"losses are medians over seeds; saturated rows are the median share of rows whose largest weight "
            f"exceeds {fmt(train.SATURATED)} over the last {TAIL} steps. A run diverged when its loss overflowed "
            f"to inf.")


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
