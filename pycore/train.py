"""A tiny attention layer trained with ÷1, ÷√d_k and ÷d_k: the same data, the same start, only c differs.

Each example holds n keys' inputs x_1..x_n ∈ R^D (iid N(0, 1)), a target index t (uniform) and
a query input that is a noisy copy of the target's, rescaled to unit variance,
x_q = (x_t + σ·ε) / √(1 + σ²). The layer projects them, q = x_q W_Q and k_j = x_j W_K
(W_Q, W_K ∈ R^{D×d_k}, entries N(0, 1/D), so q and k start with unit-variance entries), scores
s_j = q·k_j / c, weights p = softmax(s), and hands on o = Σ_j p_j v_j, with values v_j = x_j (W_V is
the identity and does not learn). The loss is the mean squared error between o and the target's value,
L = ‖o − v_t‖² / D, averaged over a batch of BATCH examples, trained with SGD or Adam.

As in a real layer, the loss reaches the scores through the values and softmax's Jacobian:
∂L/∂o = g = 2(o − v_t)/D, ∂L/∂p_j = v_j·g, so ∂L/∂s_j = p_j (v_j − o)·g, which vanishes on a row whose
weight sits on one key: a row saturated on a wrong key cannot be corrected.

Both weights act only through M = W_Q W_Kᵀ (D×D): s_j = x_q M x_jᵀ / c. With a = ∂L/∂s / B per example,
dL/dq = Σ_j a_j k_j / c = r W_K / c where r = Σ_j a_j x_j, so dL/dW_Q = Σ x_qᵀ dL/dq = G W_K / c,
and dL/dW_K = Gᵀ W_Q / c, with G = Σ over the batch of x_qᵀ r (D×D). Computed that way a step costs
O(D² d_k + B n D) instead of O(B n D d_k). Sums are math.fsum, exp comes from detmath, normals from
sampling, so CPython and Pyodide give the same losses bit for bit.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from math import fsum, sqrt
from operator import mul
from typing import NamedTuple

from . import rows
from .detmath import exp
from .growing import Growing
from .sampling import normals

D = 8
"""Size of every input x."""
N = 8
"""Keys per example: the length of each softmax."""
BATCH = 8
"""Examples per step."""
SIGMA = 0.5
"""Noise on the query input: x_q = (x_t + SIGMA·ε) · QUERY_SCALE."""
QUERY_SCALE = 1 / sqrt(1 + SIGMA * SIGMA)
"""1/√(1 + σ²): x_t + σε has variance 1 + σ², so the query input is scaled back to unit variance."""
STEPS = 200
"""Steps of a full run."""
DK_DEFAULT = 64
LR = {"sgd": 0.5, "adam": 0.01}
"""Default learning rates, the same for every divisor: ÷√d_k's own best at d_k = 64 on a 1-2-5 grid, picked
on seeds the build's sweep does not use (``pycore.experiments.lr_sweep.default_rates`` recomputes the pick)."""
DIVISORS = rows.DIVISORS
OPTIMIZERS = ("sgd", "adam")
BETA1, BETA2, EPS = 0.9, 0.999, 1e-8
"""Adam's constants."""
SATURATED = rows.SATURATED
"""A row is saturated when its largest weight exceeds this."""

Matrix = list[list[float]]
"""Row-major: a list of rows."""


class Example(NamedTuple):
    """One training example: the query input, the n keys' inputs and the index of the aligned key."""

    query: list[float]
    keys: list[list[float]]
    target: int


class Batches(Growing):
    """The seed's data stream: one fresh batch per step, the same for every d_k, divisor and optimizer.

    Step r takes, in order, BATCH·N·D normals for the keys' inputs (example by example, key by key),
    BATCH targets int(N·u) from random(), and BATCH·D normals for the query noise.
    """

    def __init__(self, seed: int) -> None:
        super().__init__()
        self._rng = random.Random(f"{seed}:train-data")
        self.batches: list[list[Example]] = []

    def _row(self, r: int) -> None:
        rng = self._rng
        flat = normals(rng, BATCH * N * D)
        targets = [int(N * rng.random()) for _ in range(BATCH)]
        noise = normals(rng, BATCH * D)
        batch = []
        for b, t in enumerate(targets):
            keys = [flat[(b * N + j) * D:(b * N + j + 1) * D] for j in range(N)]
            eps = noise[b * D:(b + 1) * D]
            batch.append(Example([(x + SIGMA * e) * QUERY_SCALE for x, e in zip(keys[t], eps)], keys, t))
        self.batches.append(batch)


@lru_cache(maxsize=8)
def batches(seed: int) -> Batches:
    """The shared, growing data stream of a seed."""
    return Batches(seed)


def initial_weights(dk: int, seed: int) -> tuple[Matrix, Matrix]:
    """W_Q then W_K (D×d_k each, row by row) from the seed's weight stream, entries N(0, 1/D)."""
    scale = 1 / sqrt(D)
    flat = [v * scale for v in normals(random.Random(f"{seed}:train-weights"), 2 * D * dk)]
    wq = [flat[i * dk:(i + 1) * dk] for i in range(D)]
    wk = [flat[(D + i) * dk:(D + i + 1) * dk] for i in range(D)]
    return wq, wk


class Step(NamedTuple):
    """One batch's mean loss, the gradients (None once a number overflowed), and its shares of rows."""

    loss: float
    dwq: Matrix | None
    dwk: Matrix | None
    saturated: float
    """Rows whose largest weight exceeds SATURATED."""
    stuck: float
    """Rows saturated on a key that is not the target: they pass almost nothing back."""


def _forward_backward(wq: Matrix, wk: Matrix, batch: list[Example], c: float) -> Step:
    """loss_and_grads, raising OverflowError or ValueError (fsum meeting inf − inf) when a number overflows."""
    m_cols = [[fsum(map(mul, a, b)) for a in wq] for b in wk]  # column b of M = W_Q W_Kᵀ
    size = len(batch)
    loss = 0.0
    saturated = stuck = 0
    g_mat = [[0.0] * D for _ in range(D)]
    for query, keys, t in batch:
        u = [fsum(map(mul, query, col)) for col in m_cols]
        s = [fsum(map(mul, u, x)) / c for x in keys]  # u·x_j / c = x_q M x_jᵀ / c = q·k_j / c
        if not all(map(math.isfinite, s)):
            raise OverflowError("a score is not finite")
        top = max(s)
        e = [exp(v - top) for v in s]
        total = 0.0
        for v in e:
            total += v
        p = [v / total for v in e]
        out = [fsum(map(mul, p, col)) for col in zip(*keys)]  # o = Σ_j p_j v_j, with v_j = x_j
        err = [a - b for a, b in zip(out, keys[t])]
        loss += fsum(map(mul, err, err)) / D
        if 1.0 / total > SATURATED:  # the largest weight is e^0 / total
            saturated += 1
            stuck += s.index(top) != t
        g = [2.0 * v / D for v in err]  # ∂L/∂o
        gs = [pj * fsum((xd - od) * gd for xd, od, gd in zip(x, out, g)) / size for pj, x in zip(p, keys)]
        r = [fsum(map(mul, gs, col)) for col in zip(*keys)]
        g_mat = [[acc + xa * rb for acc, rb in zip(row, r)] for row, xa in zip(g_mat, query)]
    g_mat = [[v / c for v in row] for row in g_mat]  # G / c
    wk_cols, wq_cols = list(zip(*wk)), list(zip(*wq))
    dwq = [[fsum(map(mul, row, col)) for col in wk_cols] for row in g_mat]
    dwk = [[fsum(map(mul, col_g, col)) for col in wq_cols] for col_g in zip(*g_mat)]
    return Step(loss / size, dwq, dwk, saturated / size, stuck / size)


def loss_and_grads(wq: Matrix, wk: Matrix, batch: list[Example], c: float) -> Step:
    """Mean loss over the batch, dL/dW_Q, dL/dW_K and the shares of saturated and stuck rows.

    When a score or the loss leaves the float range (or fsum overflows on the way), the loss is
    inf, there are no gradients (None) and every row counts as saturated: scores that large put
    all the weight on one key. A gradient entry may still be inf; ``Trainer`` checks the weights.
    """
    try:
        step = _forward_backward(wq, wk, batch, c)
    except (OverflowError, ValueError):
        return Step(math.inf, None, None, 1.0, 1.0)
    if not math.isfinite(step.loss):
        return Step(math.inf, None, None, 1.0, 1.0)
    return step


def norm(w: Matrix) -> float:
    """The Frobenius norm: the square root of the sum of every entry squared."""
    return math.sqrt(fsum(v * v for row in w for v in row))


def sgd(w: Matrix, g: Matrix, lr: float) -> Matrix:
    """w − lr·g."""
    return [[a - lr * b for a, b in zip(wr, gr)] for wr, gr in zip(w, g)]


class Adam:
    """Adam's moments for one matrix (β1 = 0.9, β2 = 0.999, ε = 1e-8, bias-corrected).

    β^t is kept as a running product: ``**`` on floats goes through the C library's pow.
    """

    def __init__(self, height: int, width: int) -> None:
        self.m = [[0.0] * width for _ in range(height)]
        self.v = [[0.0] * width for _ in range(height)]
        self.b1t = self.b2t = 1.0

    def step(self, w: Matrix, g: Matrix, lr: float) -> Matrix:
        """One update: w − lr·m̂ / (√v̂ + ε), with m̂ = m / (1 − β1^t) and v̂ = v / (1 − β2^t)."""
        self.b1t *= BETA1
        self.b2t *= BETA2
        rate, unbias = lr / (1 - self.b1t), 1 / (1 - self.b2t)
        b1, a1, b2, a2, eps, root = BETA1, 1 - BETA1, BETA2, 1 - BETA2, EPS, sqrt  # locals: faster in the loops
        self.m = [[b1 * a + a1 * b for a, b in zip(mr, gr)] for mr, gr in zip(self.m, g)]
        self.v = [[b2 * a + a2 * b * b for a, b in zip(vr, gr)] for vr, gr in zip(self.v, g)]
        return [[x - rate * a / (root(b * unbias) + eps) for x, a, b in zip(wr, mr, vr)]
                for wr, mr, vr in zip(w, self.m, self.v)]


def finite(w: Matrix) -> bool:
    """Whether every entry is a finite number."""
    return all(all(map(math.isfinite, row)) for row in w)


class Trainer(Growing):
    """One run, step by step: a step is one batch's loss and saturated share, then one update.

    ``losses[r]`` is step r's batch loss before its update, ``saturated[r]`` and ``stuck[r]`` its shares
    of rows, ``grad_q[r]`` the norm of its gradient toward W_Q. Once a loss is not finite (or an update
    leaves the float range) the run has diverged: ``diverged`` holds that step, the weights stop changing
    and every later step appends inf, shares of 1 and a gradient of 0.
    """

    def __init__(self, dk: int, divisor: str, optimizer: str, lr: float, seed: int) -> None:
        super().__init__()
        if optimizer not in OPTIMIZERS:
            raise ValueError(f"optimizer must be one of {', '.join(OPTIMIZERS)}, got {optimizer!r}")
        self.dk, self.divisor, self.optimizer, self.lr, self.seed = dk, divisor, optimizer, lr, seed
        self.c = rows.divisor_value(dk, divisor)
        self.wq, self.wk = initial_weights(dk, seed)
        self._data = batches(seed)
        self._adam = (Adam(D, dk), Adam(D, dk)) if optimizer == "adam" else None
        self.losses: list[float] = []
        self.saturated: list[float] = []
        self.stuck: list[float] = []
        self.grad_q: list[float] = []
        self.diverged: int | None = None
        """The first step whose loss was not finite, or None."""

    def _row(self, r: int) -> None:
        if self.diverged is not None:
            self._record(math.inf, 1.0, 1.0, 0.0)
            return
        self._data.ensure(r + 1)
        loss, dwq, dwk, saturated, stuck = loss_and_grads(self.wq, self.wk, self._data.batches[r], self.c)
        self._record(loss, saturated, stuck, 0.0 if dwq is None else norm(dwq))
        if dwq is None or dwk is None:
            self.diverged = r
            return
        if self._adam is None:
            wq, wk = sgd(self.wq, dwq, self.lr), sgd(self.wk, dwk, self.lr)
        else:
            wq, wk = self._adam[0].step(self.wq, dwq, self.lr), self._adam[1].step(self.wk, dwk, self.lr)
        if finite(wq) and finite(wk):
            self.wq, self.wk = wq, wk
        else:
            self.diverged = r + 1

    def _record(self, loss: float, saturated: float, stuck: float, grad_q: float) -> None:
        self.losses.append(loss)
        self.saturated.append(saturated)
        self.stuck.append(stuck)
        self.grad_q.append(grad_q)


_TRAINERS: dict[tuple[int, str, str, float, int], Trainer] = {}
_KEEP = 12


def trainer(dk: int, divisor: str, optimizer: str, lr: float, seed: int, fresh: bool = False) -> Trainer:
    """The shared, growing run for these settings (the last few are kept); ``fresh`` starts it over,
    so that a run asked for again is trained live rather than replayed from memory."""
    key = (dk, divisor, optimizer, lr, seed)
    if fresh or key not in _TRAINERS:
        _TRAINERS.pop(key, None)
        _TRAINERS[key] = Trainer(*key)
        while len(_TRAINERS) > _KEEP:
            del _TRAINERS[next(iter(_TRAINERS))]
    return _TRAINERS[key]
