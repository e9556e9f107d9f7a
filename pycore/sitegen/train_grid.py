"""The tiny attention layer of ``pycore.train`` in numpy, run over a grid of d_k, divisors, optimizers and seeds.

The model is written as the task states it (q = x_q W_Q, k_j = x_j W_K, s_j = q·k_j / c, loss −log p_t,
dL/dq = Σ_j g_j k_j / c, dL/dk_j = g_j q / c), vectorized over seeds and divisors. The batches and the
initial weights come from the core's own streams, so seed s here is seed s on the page.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from pycore import train

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
    return np.array([1.0, math.sqrt(dk), float(dk)])


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

