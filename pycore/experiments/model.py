"""The tiny attention layer of ``pycore.train`` in numpy, trained for many seeds, learning rates and divisors at once.

The task, sizes, initialization and optimizers are the core's (``pycore.train`` states them); the batches
and initial weights are numpy draws, so a seed here is not the page's seed, and a whole grid costs a
second instead of minutes of pure-Python sampling. ``tests/unit/test_train_grid.py`` feeds the core's
own batches and weights through ``simulate`` and gets the core's losses.

Both weights act only through M = W_Q W_Kᵀ (D×D): s_j = x_q M x_jᵀ / c. The loss reaches the scores through
the values (v_j = x_j) and softmax's Jacobian, a_j = p_j (x_j − o)·g / B with o = Σ_j p_j x_j and
g = 2(o − x_t)/D; with r = Σ_j a_j x_j and G = Σ over the batch of x_qᵀ r, dL/dW_Q = G W_K / c and
dL/dW_K = Gᵀ W_Q / c, so a step costs O(D² d_k) per run rather than O(B n D d_k). Runs sit on the leading axes
(seeds, rates, divisors); the data broadcast over the last two.
"""

from __future__ import annotations

import functools
import hashlib
import io
from pathlib import Path
from typing import NamedTuple

import numpy as np

from pycore import rows, train
from pycore.cache import CACHE, write_whole

SEEDS = tuple(range(1, 21))
"""The seeds every experiment runs: verdicts are paired over them."""
DKS = (16, 64, 256)
RATES = {"sgd": (0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0),
         "adam": (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1)}
"""Learning rates on a 1-2-5 grid, wide enough that every divisor's best rate lies inside it; the
core's default rates are among them, so the training grid is the sweep at those rates."""
PICK_SEEDS = tuple(range(101, 121))
"""Seeds that choose the page's default rates, kept apart from SEEDS, on which the sweep reports."""
TAIL = 20
"""A run's final loss is its mean batch loss over its last TAIL steps (inf once it overflowed)."""


@functools.lru_cache(maxsize=4)
def data(seeds: tuple[int, ...], steps: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each seed's batches: queries (S, steps, B, D), keys (S, steps, B, n, D), targets (S, steps, B).

    Keys' inputs iid N(0, 1), targets uniform, the query input (x_t + σε) / √(1 + σ²), as in the core.
    """
    out = []
    for seed in seeds:
        rng = np.random.default_rng([seed, 1])
        keys = rng.standard_normal((steps, train.BATCH, train.N, train.D))
        targets = rng.integers(train.N, size=(steps, train.BATCH))
        noise = rng.standard_normal((steps, train.BATCH, train.D))
        aligned = np.take_along_axis(keys, targets[..., None, None], axis=2)[:, :, 0]
        out.append(((aligned + train.SIGMA * noise) * train.QUERY_SCALE, keys, targets))
    return tuple(np.stack([o[i] for o in out]) for i in range(3))  # type: ignore[return-value]


def weights(dk: int, seeds: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Each seed's initial W_Q and W_K, (S, D, d_k) each, entries N(0, 1/D) (fan-in)."""
    w = np.stack([np.random.default_rng([seed, 2, dk]).standard_normal((2, train.D, dk)) for seed in seeds])
    w /= np.sqrt(train.D)
    return w[:, 0], w[:, 1]


def divisors(dk: int) -> np.ndarray:
    """c for each divisor, in train.DIVISORS order."""
    return np.array([rows.divisor_value(dk, d) for d in train.DIVISORS])


def forward(m: np.ndarray, queries: np.ndarray, keys: np.ndarray, targets: np.ndarray, c: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per row: the scores s, the weights p, the output's error o − x_t, and B·∂L/∂s, through the values
    (v_j = x_j) and softmax's Jacobian. Shapes as in ``signal``; keys broadcast to the runs' shape."""
    dim = keys.shape[-1]
    cc = c[..., None, None]
    u = queries @ m                                           # x_q M, (..., B, D)
    s = (keys @ u[..., None])[..., 0] / cc                    # q·k_j / c, (..., B, n)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    t = np.broadcast_to(targets, s.shape[:-1])[..., None]
    keys_b = np.broadcast_to(keys, (*s.shape, dim))
    out = (p[..., None, :] @ keys_b)[..., 0, :]               # o = Σ_j p_j x_j, (..., B, D)
    err = out - np.take_along_axis(keys_b, t[..., None], axis=-2)[..., 0, :]
    g = 2 * err / dim                                         # ∂L/∂o
    a = p * ((keys_b @ g[..., None])[..., 0] - (out * g).sum(axis=-1, keepdims=True))
    return s, p, err, a


def stuck_rows(s: np.ndarray, p: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Whether each row is saturated on a key other than its target."""
    return (p.max(axis=-1) > train.SATURATED) & (s.argmax(axis=-1) != np.broadcast_to(targets, s.shape[:-1]))


def signal(m: np.ndarray, queries: np.ndarray, keys: np.ndarray, targets: np.ndarray, c: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Mean loss, G / c, and the saturated and stuck shares of one batch from M = W_Q W_Kᵀ, for any leading run axes.

    Shapes: m (..., D, D); queries (..., B, D); keys (..., B, n, D); targets (..., B); c (...), every
    leading shape broadcasting to the runs'. A row is stuck when it is saturated on a key other than the
    target. Overflowing runs give inf or NaN.
    """
    size, dim = keys.shape[-3], keys.shape[-1]
    s, p, err, a = forward(m, queries, keys, targets, c)
    loss = (err * err).sum(axis=-1).mean(axis=-1) / dim
    saturated = (p.max(axis=-1) > train.SATURATED).mean(axis=-1)
    stuck = stuck_rows(s, p, targets).mean(axis=-1)
    r = (a[..., None, :] @ np.broadcast_to(keys, (*s.shape, dim)))[..., 0, :]  # Σ_j a_j x_j, (..., B, D)
    return loss, np.swapaxes(queries, -1, -2) @ r / (size * c[..., None, None]), saturated, stuck


def loss_and_grads(wq: np.ndarray, wk: np.ndarray, queries: np.ndarray, keys: np.ndarray, targets: np.ndarray,
                   c: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Mean loss, dL/dW_Q = G W_K / c, dL/dW_K = Gᵀ W_Q / c, and the saturated and stuck shares; shapes as in
    ``signal``, with wq, wk (..., D, d_k)."""
    loss, big_g, saturated, stuck = signal(wq @ np.swapaxes(wk, -1, -2), queries, keys, targets, c)
    return loss, big_g @ wk, np.swapaxes(big_g, -1, -2) @ wq, saturated, stuck


class Adam:
    """Adam with the core's constants, in place on arrays; ``lr`` broadcasts against the weights.

    The bias corrections are folded into the step: lr·m̂ / (√v̂ + ε) = lr·√(1 − β₂ᵗ)/(1 − β₁ᵗ) · m / (√v + ε√(1 − β₂ᵗ)),
    equal in real arithmetic and five passes over the weights fewer.
    """

    def __init__(self, w: np.ndarray, eps: float = train.EPS) -> None:
        self.m, self.v, self.tmp, self.t, self.eps = np.zeros_like(w), np.zeros_like(w), np.empty_like(w), 0, eps

    def step(self, w: np.ndarray, g: np.ndarray, lr: np.ndarray) -> None:
        """One update of ``w`` in place."""
        self.t += 1
        m, v, tmp = self.m, self.v, self.tmp
        np.subtract(g, m, out=tmp)
        tmp *= 1 - train.BETA1
        m += tmp                                   # β₁m + (1 − β₁)g
        np.multiply(g, g, out=tmp)
        tmp -= v
        tmp *= 1 - train.BETA2
        v += tmp                                   # β₂v + (1 − β₂)g²
        root = np.sqrt(1 - train.BETA2**self.t)
        np.sqrt(v, out=tmp)
        tmp += self.eps * root
        np.divide(m, tmp, out=tmp)
        tmp *= lr * (root / (1 - train.BETA1**self.t))
        w -= tmp


class Runs(NamedTuple):
    """Per run and step, (S, rates, divisors, steps) each: the batch loss, its shares of saturated and stuck rows, and
    the size of the gradient toward W_Q (inf once the run overflowed)."""

    losses: np.ndarray
    saturated: np.ndarray
    stuck: np.ndarray
    grad_q: np.ndarray


def simulate(optimizer: str, dk: int, lrs: np.ndarray, batches: tuple[np.ndarray, np.ndarray, np.ndarray],
             start: tuple[np.ndarray, np.ndarray], c: np.ndarray | None = None, eps: float = train.EPS
             ) -> Runs:
    """Losses, saturated and stuck shares and the gradient's size toward W_Q, (S, rates, divisors, steps) each, for
    every seed, rate and divisor at once.

    ``batches`` as ``data`` returns them, ``start`` as ``weights`` does; ``c`` defaults to the three divisors,
    ``eps`` is Adam's ε.
    A run whose loss stops being finite has overflowed: from then on its loss is inf and its shares 1
    (never NaN). Weights that overflow make the next loss overflow, so they need no check of their own.
    SGD runs on the Gram matrices (``_sgd``), Adam on the weights themselves.
    """
    queries, keys, targets = batches
    c = divisors(dk) if c is None else np.asarray(c, dtype=float)
    lrs = np.asarray(lrs, dtype=float)
    runs = (queries.shape[0], len(lrs), len(c))
    rate = lrs[None, :, None, None, None]
    cc = np.broadcast_to(c, runs)
    losses = np.empty((*runs, queries.shape[1]))
    saturated, stuck, grad_q = np.empty_like(losses), np.empty_like(losses), np.empty_like(losses)
    wq, wk = (np.broadcast_to(w[:, None, None], (*runs, *w.shape[1:])).copy() for w in start)
    step = _sgd(wq, wk, rate) if optimizer == "sgd" else _adam(wq, wk, rate, eps)
    alive = np.ones(runs, dtype=bool)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        m, _ = next(step)
        for r in range(queries.shape[1]):
            loss, big_g, sat, stk = signal(m, queries[:, None, None, r], keys[:, None, None, r],
                                           targets[:, None, None, r], cc)
            alive &= np.isfinite(loss)
            losses[..., r] = np.where(alive, loss, np.inf)
            saturated[..., r] = np.where(alive, sat, 1.0)
            stuck[..., r] = np.where(alive, stk, 1.0)
            m, grad = step.send(big_g)
            grad_q[..., r] = np.where(alive, grad, np.inf)
    return Runs(losses, saturated, stuck, grad_q)


def _sgd(wq: np.ndarray, wk: np.ndarray, rate: np.ndarray):
    """SGD on M = W_Q W_Kᵀ, A = W_Q W_Qᵀ and B = W_K W_Kᵀ (D×D each, whatever d_k is), exact in real arithmetic.

    With W_Q' = W_Q − η Γ W_K and W_K' = W_K − η Γᵀ W_Q (Γ = G / c):
    M' = M − η(AΓ + ΓB) + η² Γ Mᵀ Γ, A' = A − η(MΓᵀ + ΓMᵀ) + η² Γ B Γᵀ, B' = B − η(MᵀΓ + ΓᵀM) + η² Γᵀ A Γ.
    A generator: yields (M, None), then receives Γ and yields the next M with ‖Γ W_K‖, the size of the gradient
    toward W_Q at the step just taken (its square is the trace of Γ B Γᵀ).
    """
    def t(x):
        return np.swapaxes(x, -1, -2)

    m, a, b = wq @ t(wk), wq @ t(wq), wk @ t(wk)
    big_g = yield m, None
    while True:
        grad = np.sqrt(((big_g @ b) * big_g).sum(axis=(-2, -1)))
        gt, mt = t(big_g), t(m)
        m, a, b = (m - rate * (a @ big_g + big_g @ b) + rate**2 * (big_g @ mt @ big_g),
                   a - rate * (m @ gt + big_g @ mt) + rate**2 * (big_g @ b @ gt),
                   b - rate * (mt @ big_g + gt @ m) + rate**2 * (gt @ a @ big_g))
        big_g = yield m, grad


def _adam(wq: np.ndarray, wk: np.ndarray, rate: np.ndarray, eps: float):
    """Adam on the weights, in place; the same protocol as ``_sgd``."""
    opt = (Adam(wq, eps), Adam(wk, eps))
    big_g = yield wq @ np.swapaxes(wk, -1, -2), None
    while True:
        dwq, dwk = big_g @ wk, np.swapaxes(big_g, -1, -2) @ wq
        grad = np.linalg.norm(dwq, axis=(-2, -1))
        opt[0].step(wq, dwq, rate)
        opt[1].step(wk, dwk, rate)
        big_g = yield wq @ np.swapaxes(wk, -1, -2), grad


SOURCES = (Path(__file__), Path(train.__file__), Path(rows.__file__))
"""What the training runs depend on, besides numpy and their arguments: the cache key hashes them."""


@functools.lru_cache(maxsize=None)
def trained(optimizer: str, dk: int, seeds: tuple[int, ...] = SEEDS) -> Runs:
    """Every run of these seeds at RATES[optimizer] and every divisor.

    Computed once per process, and kept in ``.cache/`` under the hash of everything they depend on
    (these sources, numpy's version, the seeds, rates and steps), so a build recomputes them only when
    one of those changed.
    """
    key = hashlib.sha256(b"".join(p.read_bytes() for p in SOURCES)
                         + repr((np.__version__, optimizer, dk, seeds, RATES[optimizer], train.STEPS)).encode())
    stem = f"train-{optimizer}-{dk}-{seeds[0]}"
    path = CACHE / f"{stem}-{key.hexdigest()[:16]}.npz"
    if path.is_file():
        with np.load(path) as saved:
            return Runs(*(saved[f] for f in Runs._fields))
    runs = simulate(optimizer, dk, np.array(RATES[optimizer]), data(seeds, train.STEPS), weights(dk, seeds))
    CACHE.mkdir(parents=True, exist_ok=True)
    for old in CACHE.glob(f"{stem}-*.npz"):
        old.unlink(missing_ok=True)
    saved = io.BytesIO()
    np.savez(saved, **runs._asdict())
    write_whole(path, saved.getvalue())
    return runs


def final(losses: np.ndarray) -> np.ndarray:
    """Each run's final loss: the mean over its last TAIL steps, inf once it overflowed."""
    return losses[..., -TAIL:].mean(axis=-1)


def paired(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Mean and standard error over seeds of the paired differences a − b (both per seed, finite)."""
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    return float(d.mean()), float(d.std(ddof=1) / np.sqrt(len(d)))
