"""The learning-rate sweep: the identity it rests on, checked with the literal model, and its sentences
and tables computed from one set of numbers."""

import itertools
import math
import re

import numpy as np
import pytest

from pycore import train
from pycore.experiments import lr_sweep, model, train_runs
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
        loss, *grads, _, _ = np_loss_and_grads(w[0], w[1], stream.batches[t - 1], c)
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
    assert a[-5:].mean() < 0.8 * a[0], "the run learns, so the agreement is not two flat lines"
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
    losses = model.trained("adam", 16).losses
    assert s.medians["adam", 16, "dk"] == tuple(np.median(losses[..., -model.TAIL:].mean(-1), axis=0)[:, 2])
    assert not set(s.seeds) & set(s.pick_seeds) and len(s.pick_seeds) >= 20


def test_every_best_rate_lies_inside_the_grid_so_it_is_a_real_minimum(s):
    for o, dk, d in s.medians:
        for i in (s.pick(o, dk, d), int(np.argmin(s.medians[o, dk, d]))):
            assert 0 < i < len(s.rates[o]) - 1, (o, dk, d)


def test_the_pages_default_rates_are_the_square_roots_own_best_at_64_picked_on_other_seeds(s):
    assert lr_sweep.default_rates(s) == train.LR
    for o in train.OPTIMIZERS:
        picking = model.final(model.trained(o, 64, model.PICK_SEEDS).losses)[..., 1]
        assert s.rates[o][int(np.argmin(np.median(picking, axis=0)))] == train.LR[o]


def fake_sweep(pick, judged) -> lr_sweep.Sweep:
    """One optimizer's sweep with the same (seeds, rates) finals for every d_k and divisor."""
    keys = list(itertools.product(train.OPTIMIZERS, model.DKS, train.DIVISORS))
    rates = {o: (0.1, 0.2, 0.5) for o in train.OPTIMIZERS}
    return lr_sweep.Sweep((1, 2, 3, 4, 5), (6, 7, 8, 9, 10), rates, {k: np.array(judged) for k in keys},
                          {k: np.array(pick) for k in keys})


def test_a_pick_that_every_resample_agrees_on_is_stable_and_the_loss_is_judged_on_other_seeds():
    judged = [[1.0, 0.5 + e, 2.0] for e in (0.0, 0.1, 0.2, 0.3, 0.4)]
    s = fake_sweep([[1.0, 0.2, 2.0]] * 5, judged)
    assert s.pick("sgd", 64, "dk") == 1 and s.stability("sgd", 64, "dk") == 1.0
    assert s.best("sgd", 64, "dk") == (0.2, 0.7)
    lo, hi = s.interval("sgd", 64, "dk")
    assert 0.5 <= lo < 0.7 < hi <= 0.9
    boots = np.median(np.array(judged)[:, 1][lr_sweep._resamples(5)], axis=1)
    assert (lo, hi) == (np.quantile(boots, 0.05), np.quantile(boots, 0.95))


def test_a_pick_the_seeds_split_on_is_unstable():
    pick = [[1.0, 0.3, 0.31], [1.0, 0.31, 0.3], [1.0, 0.3, 0.31], [1.0, 0.31, 0.3], [1.0, 0.3, 0.31]]
    s = fake_sweep(pick, [[1.0, 0.5, 0.5]] * 5)
    assert 0.2 < s.stability("adam", 16, "none") < 0.8


def test_a_rate_serves_a_width_when_its_paired_loss_is_no_worse_than_the_picked_rates():
    judged = [[0.9, 0.3 + e, 0.3 + e + d] for e, d in zip((0.0, 0.1, 0.2, 0.3, 0.4), (0.01, -0.01, 0.02, -0.02, 0.0))]
    s = fake_sweep([[1.0, 0.2, 2.0]] * 5, judged)
    assert lr_sweep.serves(s, "sgd", 16, "sqrt", 2) and not lr_sweep.serves(s, "sgd", 16, "sqrt", 0)
    assert lr_sweep.one_rate(s, "sgd", "sqrt") == (0.2, 0.0) and lr_sweep.one_rate_serves(s, "sgd", "sqrt")


def test_the_training_grid_is_the_sweep_at_the_default_rates(s):
    g = train_runs.grid()
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
            assert f"where it reaches {lr_sweep.words([lr_sweep.num(b[1]) for b in best])}" in text
            r, cost = lr_sweep.one_rate(s, o, d)
            worst = max(max(0.0, s.medians[o, dk, d][s.rates[o].index(r)] - s.best(o, dk, d)[1]) for dk in model.DKS)
            assert cost == worst and f"{lr_sweep.NAMES[d]} {lr_sweep.num(cost)} (at {lr_sweep.rate(r)}: " in \
                lr_sweep.statement_one_rate(s, o)
        fair = lr_sweep.statement_fair(s, o)
        for dk in model.DKS:
            mean, se = model.paired(s.at_best(o, dk, "dk"), s.at_best(o, dk, "sqrt"))
            assert f"÷dₖ − ÷√dₖ = {train_runs.signed(mean)} ± {train_runs.num(se)}" in fair
    assert all(f"- {x}" in page for x in lr_sweep.statements(s))
    job = lr_sweep.statement_job(s)
    for o in train.OPTIMIZERS:
        good = [lr_sweep.NAMES[d] for d in train.DIVISORS if lr_sweep.one_rate_serves(s, o, d)]
        assert re.search(rf"with {lr_sweep.OPTIMIZER_NAMES[o]}, for {re.escape(lr_sweep.words(good))}[;.,]", job)


def test_the_cached_runs_are_what_a_fresh_computation_gives():
    fresh = model.simulate("sgd", 16, np.array(model.RATES["sgd"]), model.data(model.SEEDS, train.STEPS),
                           model.weights(16, model.SEEDS))
    kept = model.trained("sgd", 16)
    assert all(np.array_equal(a, b) for a, b in zip(fresh, kept))
