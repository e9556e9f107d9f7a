"""The learning-rate sweep: the identity it rests on, checked with the literal model, and its sentences
and tables computed from one set of numbers."""

import itertools
import math
import re

import numpy as np
import pytest

from pycore import train
from pycore.experiments import lr_sweep, model, train_grid
from tests.unit.test_train import np_loss_and_grads
from tests.unit.test_train_grid import core_batches, core_weights


def literal_run(optimizer, c, lr, eps, factor, dk=64, seed=5, steps=30):
    """The model one example at a time (tests/unit/test_train.py's), weights scaled by factor, Adam with eps."""
    w = [np.array(x) * factor for x in train.initial_weights(dk, seed)]
    m, v = [np.zeros_like(x) for x in w], [np.zeros_like(x) for x in w]
    stream = train.batches(seed)
    stream.ensure(steps)
    losses = []
    for t in range(1, steps + 1):
        loss, *grads, _ = np_loss_and_grads(w[0], w[1], stream.batches[t - 1], c)
        losses.append(loss)
        for i in (0, 1):
            if optimizer == "sgd":
                w[i] = w[i] - lr * grads[i]
            else:
                m[i] = train.BETA1 * m[i] + (1 - train.BETA1) * grads[i]
                v[i] = train.BETA2 * v[i] + (1 - train.BETA2) * grads[i] ** 2
                w[i] = w[i] - lr * (m[i] / (1 - train.BETA1**t)) / (np.sqrt(v[i] / (1 - train.BETA2**t)) + eps)
    return np.array(losses)


@pytest.mark.parametrize("optimizer,divisor", itertools.product(train.OPTIMIZERS, ("sqrt", "dk")))
def test_dividing_by_c_is_shrinking_the_initialization_by_root_c_and_rescaling_the_rate(optimizer, divisor):
    lr = {("sgd", "sqrt"): 0.5, ("sgd", "dk"): 5.0, ("adam", "sqrt"): 0.01, ("adam", "dk"): 0.02}[optimizer, divisor]
    divided, undivided = lr_sweep.equivalent_setups(optimizer, 64, divisor, lr)
    c = 8.0 if divisor == "sqrt" else 64.0
    assert divided == (c, lr, train.EPS, 1.0)
    assert undivided == pytest.approx((1.0, lr / (c if optimizer == "sgd" else math.sqrt(c)),
                                       train.EPS * math.sqrt(c), 1 / math.sqrt(c)))
    a, b = literal_run(optimizer, *divided), literal_run(optimizer, *undivided)
    assert np.allclose(a, b, rtol=1e-10, atol=0)
    assert a[-5:].mean() < a[0] - 0.5, "the run learns, so the agreement is not two flat lines"
    wrong = literal_run(optimizer, 1.0, lr, train.EPS, 1 / math.sqrt(c))  # the rate not rescaled
    assert not np.allclose(a, wrong, rtol=1e-3)


def test_the_build_checks_the_same_identity_on_the_vectorized_model():
    assert all(lr_sweep.equivalence(o) < 1e-12 for o in train.OPTIMIZERS)


@pytest.fixture(scope="module")
def s():
    return lr_sweep.sweep()


def test_the_sweep_covers_two_optimizers_three_divisors_three_dk_six_rates_twenty_seeds(s):
    assert set(s.medians) == set(itertools.product(train.OPTIMIZERS, (16, 64, 256), train.DIVISORS))
    assert all(len(s.rates[o]) >= 6 for o in train.OPTIMIZERS) and len(s.seeds) >= 20
    assert all(len(v) == len(s.rates[o]) for (o, _, _), v in s.medians.items())
    losses, _ = model.trained("adam", 16)
    assert s.medians["adam", 16, "dk"] == tuple(np.median(losses[..., -model.TAIL:].mean(-1), axis=0)[:, 2])


def test_every_best_rate_lies_inside_the_grid_so_it_is_a_real_minimum(s):
    for o, dk, d in s.medians:
        i = s.rates[o].index(s.best(o, dk, d)[0])
        assert 0 < i < len(s.rates[o]) - 1, (o, dk, d)


def test_the_training_grid_is_the_sweep_at_the_default_rates(s):
    g = train_grid.grid()
    for o, dk, d in s.medians:
        assert g.at(o, dk, d).median == s.medians[o, dk, d][s.rates[o].index(train.LR[o])]


def test_the_sentences_quote_the_tables(s):
    page = lr_sweep.markdown(s)
    for line in lr_sweep.best_lines(s):
        assert "| " + " | ".join(line) + " |" in page
    for o in train.OPTIMIZERS:
        text = lr_sweep.statement_rates(s, o)
        for d in train.DIVISORS:
            best = [s.best(o, dk, d) for dk in model.DKS]
            assert f"where it reaches {', '.join(lr_sweep.num(b[1]) for b in best)}" in text
        for d in train.DIVISORS:
            r, cost = lr_sweep.one_rate(s, o, d)
            worst = max(s.medians[o, dk, d][s.rates[o].index(r)] - s.best(o, dk, d)[1] for dk in model.DKS)
            assert cost == worst and f"{lr_sweep.NAMES[d]} {lr_sweep.num(cost)} (at {lr_sweep.rate(r)})" in \
                lr_sweep.statement_one_rate(s, o)
    assert all(f"- {x}" in page for x in lr_sweep.statements(s))
    job = lr_sweep.statement_job(s)
    for o in train.OPTIMIZERS:
        good = [lr_sweep.NAMES[d] for d in train.DIVISORS if lr_sweep.one_rate(s, o, d)[1] <= lr_sweep.CLOSE]
        assert re.search(rf"with {lr_sweep.OPTIMIZER_NAMES[o]}, for {re.escape(lr_sweep.words(good))}[;.]", job)
    assert job.startswith("So the divisor's job is that one initialization and one learning rate work for every dₖ.")


def test_the_cached_runs_are_what_a_fresh_computation_gives():
    fresh = model.simulate("sgd", 16, np.array(model.RATES["sgd"]), model.data(model.SEEDS, train.STEPS),
                           model.weights(16, model.SEEDS))
    kept = model.trained("sgd", 16)
    assert np.array_equal(fresh[0], kept[0]) and np.array_equal(fresh[1], kept[1])
