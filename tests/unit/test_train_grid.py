"""The build's numpy model of the training layer, against the pure-Python core and the literal model."""

import itertools

import numpy as np
import pytest

from pycore import train
from pycore.sitegen import train_grid
from tests.unit.test_train import np_loss_and_grads


@pytest.mark.parametrize("optimizer,dk", itertools.product(train.OPTIMIZERS, (16, 64)))
def test_the_numpy_model_trains_exactly_as_the_core_does(optimizer, dk):
    steps, seed = 20, 2
    losses, saturated = train_grid.simulate(optimizer, dk, train.LR[optimizer], (seed,), steps)
    for i, divisor in enumerate(train.DIVISORS):
        run = train.Trainer(dk, divisor, optimizer, train.LR[optimizer], seed)
        run.ensure(steps)
        assert np.allclose(run.losses, losses[0, i], rtol=1e-9, atol=0), divisor
        assert run.saturated == list(saturated[0, i]), divisor


def test_one_vectorized_step_matches_the_literal_model_for_every_divisor():
    dk, seed = 16, 4
    queries, keys, targets = train_grid.data((seed,), 1)
    wq, wk = train_grid.weights(dk, (seed,))
    c = train_grid.divisors(dk)
    loss, dwq, dwk, sat = train_grid.loss_and_grads(wq[:, None], wk[:, None], queries[:, None, 0], keys[:, None, 0],
                                                    targets[:, None, 0], c[None])
    batch = train.batches(seed).batches[0]
    for i, ci in enumerate(c):
        ref = np_loss_and_grads(wq[0], wk[0], batch, ci)
        assert loss[0, i] == pytest.approx(ref[0], rel=1e-12) and sat[0, i] == ref[3]
        assert np.allclose(dwq[0, i], ref[1], rtol=1e-12, atol=1e-14)
        assert np.allclose(dwk[0, i], ref[2], rtol=1e-12, atol=1e-14)


def test_a_diverging_run_turns_inf_at_the_step_the_core_does_and_never_nan():
    losses, saturated = train_grid.simulate("sgd", 64, 1000.0, (3,), 80)
    run = train.Trainer(64, "none", "sgd", 1000.0, 3)
    run.ensure(80)
    first_inf = int(np.argmax(~np.isfinite(losses[0, 0])))
    assert run.diverged == first_inf and np.isinf(losses[0, 0, first_inf:]).all()
    assert not np.isnan(losses).any() and not np.isnan(saturated).any()
