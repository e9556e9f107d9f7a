"""Drawing the samples of the "Reproduce it" run: seeded rows and, for every divisor, each row's measures (mean
and mean squared score, largest weight, ‖J‖ with J = diag(p) − p pᵀ, and ‖∂p/∂q‖ = ‖J K‖ / c)."""

from __future__ import annotations

import numpy as np

from ..rows import divisor_value
from .reproduce_run import BATCH, DIVISORS


def softmax_rows(scores: np.ndarray) -> np.ndarray:
    """Row-wise softmax, stable (the row maximum subtracted first)."""
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def jacobian_norms(p: np.ndarray) -> np.ndarray:
    """Frobenius norm of diag(p) - p pᵀ for every row: sqrt(Σp² - 2Σp³ + (Σp²)²)."""
    s2, s3 = (p**2).sum(axis=-1), (p**3).sum(axis=-1)
    return np.sqrt(np.maximum(s2 - 2 * s3 + s2**2, 0.0))


def query_gradient_norms(p: np.ndarray, keys: np.ndarray, c: float) -> np.ndarray:
    """‖J K‖_F / c for every row, as sqrt(Σ p_i² ‖k_i − k̄‖²) / c with k̄ = Σ p_j k_j."""
    centred = keys - (p[:, None, :] @ keys)
    return np.sqrt((p**2 * np.einsum("rnd,rnd->rn", centred, centred)).sum(axis=-1)) / c


def row_measures(q: np.ndarray, keys: np.ndarray, c: float) -> np.ndarray:
    """Per row: mean score, mean squared score, largest weight, ‖J‖ and ‖∂p/∂q‖ (rows × 5)."""
    s = (keys @ q[:, :, None])[..., 0] / c
    p = softmax_rows(s)
    return np.stack([s.mean(axis=-1), (s**2).mean(axis=-1), p.max(axis=-1), jacobian_norms(p),
                     query_gradient_norms(p, keys, c)], axis=-1)


def sample(n: int, dk: int, rows: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Row measures for every divisor from the same draws, drawn in batches of at most BATCH key entries."""
    size = max(1, BATCH // (n * dk))
    parts: dict[str, list[np.ndarray]] = {name: [] for name in DIVISORS}
    for start in range(0, rows, size):
        m = min(size, rows - start)
        q, keys = rng.standard_normal((m, dk)), rng.standard_normal((m, n, dk))
        for name in DIVISORS:
            parts[name].append(row_measures(q, keys, divisor_value(dk, name)))
    return {name: np.concatenate(part) for name, part in parts.items()}
