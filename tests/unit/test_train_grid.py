"""The build's numpy training grid: its model against the pure-Python core, its table complete, and its
statements computed from the numbers, so they change when the numbers do."""

import itertools
import math
from dataclasses import replace

import numpy as np
import pytest

from pycore import train
from pycore.experiments import model, train_grid
from pycore.experiments.train_grid import Grid, Run
from tests.unit.test_train import np_loss_and_grads


@pytest.fixture(scope="module")
def g():
    return train_grid.grid()


def core_batches(seed: int, steps: int):
    """The core's batches of one seed as model.data's arrays (one seed)."""
    stream = train.batches(seed)
    stream.ensure(steps)
    run = stream.batches[:steps]
    return (np.array([[[e.query for e in b] for b in run]]), np.array([[[e.keys for e in b] for b in run]]),
            np.array([[[e.target for e in b] for b in run]]))


def core_weights(dk: int, seed: int):
    wq, wk = train.initial_weights(dk, seed)
    return np.array([wq]), np.array([wk])


@pytest.mark.parametrize("optimizer,dk", itertools.product(train.OPTIMIZERS, (16, 64)))
def test_the_numpy_model_trains_exactly_as_the_core_does(optimizer, dk):
    steps, seed = 20, 2
    losses, saturated = model.simulate(optimizer, dk, np.array([train.LR[optimizer]]), core_batches(seed, steps),
                                       core_weights(dk, seed))
    for i, divisor in enumerate(train.DIVISORS):
        run = train.Trainer(dk, divisor, optimizer, train.LR[optimizer], seed)
        run.ensure(steps)
        assert np.allclose(run.losses, losses[0, 0, i], rtol=1e-9, atol=0), divisor
        assert run.saturated == list(saturated[0, 0, i]), divisor


def test_one_vectorized_step_matches_the_literal_model_for_every_divisor():
    dk, seed = 16, 4
    queries, keys, targets = core_batches(seed, 1)
    wq, wk = core_weights(dk, seed)
    c = model.divisors(dk)
    loss, dwq, dwk, sat = model.loss_and_grads(wq[:, None], wk[:, None], queries[:, None, 0], keys[:, None, 0],
                                               targets[:, None, 0], c[None])
    batch = train.batches(seed).batches[0]
    for i, ci in enumerate(c):
        ref = np_loss_and_grads(wq[0], wk[0], batch, ci)
        assert loss[0, i] == pytest.approx(ref[0], rel=1e-12) and sat[0, i] == ref[3]
        assert np.allclose(dwq[0, i], ref[1], rtol=1e-12, atol=1e-14)
        assert np.allclose(dwk[0, i], ref[2], rtol=1e-12, atol=1e-14)


def test_a_run_that_overflows_turns_inf_at_the_step_the_core_does_and_never_nan():
    losses, saturated = model.simulate("sgd", 64, np.array([1000.0]), core_batches(3, 80), core_weights(64, 3))
    run = train.Trainer(64, "none", "sgd", 1000.0, 3)
    run.ensure(80)
    first_inf = int(np.argmax(~np.isfinite(losses[0, 0, 0])))
    assert run.diverged == first_inf and np.isinf(losses[0, 0, 0, first_inf:]).all()
    assert not np.isnan(losses).any() and not np.isnan(saturated).any()


def test_the_task_numpy_draws_is_the_cores_task():
    queries, keys, targets = model.data((1, 2), 200)
    assert keys.shape == (2, 200, train.BATCH, train.N, train.D) and targets.max() < train.N
    assert keys.var() == pytest.approx(1, abs=0.02) and queries.var() == pytest.approx(1, abs=0.02)
    aligned = np.take_along_axis(keys, targets[..., None, None], axis=3)[..., 0, :]
    noise = (queries / train.QUERY_SCALE - aligned) / train.SIGMA
    assert noise.var() == pytest.approx(1, abs=0.03) and abs(np.mean(noise * aligned)) < 0.02
    wq, wk = model.weights(256, model.SEEDS)
    assert (wq.var() * train.D, wk.var() * train.D) == pytest.approx((1, 1), abs=0.03)


def test_the_grid_covers_every_optimizer_dk_divisor_and_is_computed_once(g):
    assert g is train_grid.grid()
    assert set(g.runs) == set(itertools.product(train.OPTIMIZERS, train_grid.DKS, train.DIVISORS))
    assert len(g.seeds) >= 20 and g.steps == train.STEPS and g.lr == train.LR
    assert all(len(r.final) == len(g.seeds) == len(r.curve) for r in g.runs.values())


def test_the_table_has_every_cell(g):
    lines = train_grid.lines(g)
    assert len(lines) == len(g.runs)
    assert {(line[0], line[1], line[2]) for line in lines} == {
        (train_grid.OPTIMIZER_NAMES[o], str(dk), train_grid.NAMES[d]) for o, dk, d in g.runs}
    assert all(len(line) == len(train_grid.HEADERS) and all(cell.strip() for cell in line) for line in lines)
    page = train_grid.markdown(g)
    rows = [line for line in page.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) == 1 + len(g.runs) and all(r.count(" | ") == len(train_grid.HEADERS) - 1 for r in rows)
    assert page.count("<svg") == len(train.OPTIMIZERS) * len(train_grid.DKS)
    assert train_grid.report(g).count("\n- ") == len(train_grid.statements(g))


def test_the_chart_names_every_panel_and_says_how_far_a_line_went_off_the_top(g):
    chart = train_grid.chart(g)
    assert chart.startswith('<div class="sq-grid-chart">')
    for o, dk in itertools.product(train.OPTIMIZERS, train_grid.DKS):
        assert f"{train_grid.OPTIMIZER_NAMES[o]}, dₖ = {dk}</text>" in chart
    over = [r for r in g.runs.values() if np.median(np.array(r.curve), axis=0).max() > train_grid.CAP]
    assert chart.count("↑ ") == len(over)


def fake(medians: dict[tuple[str, int, str], float], overflowed: dict[tuple[str, int, str], int] | None = None,
         noise: float = 0.01) -> Grid:
    """A grid with the given median final losses, each seed's loss off it by ±noise in a fixed pattern that is
    the same for every divisor (so paired differences are exact), first losses of 3."""
    runs = {}
    offsets = noise * np.array([-1.0, 0.0, 0.0, 0.0, 1.0])
    for key, m in medians.items():
        final = tuple(m + offsets)
        runs[key] = Run(*key, first=(3.0,) * 5, final=final, saturated=(0.5,) * 5,
                        overflowed=(overflowed or {}).get(key, 0), curve=((m,) * 20,) * 5)
    return Grid((1, 2, 3, 4, 5), 200, dict(train.LR), runs)


def medians(values: dict[str, float], overrides: dict[tuple[str, int, str], float] | None = None):
    """The same median per divisor for every optimizer and d_k, with some cells overridden."""
    out = {(o, dk, d): values[d] for o, dk, d in itertools.product(train.OPTIMIZERS, train_grid.DKS, train.DIVISORS)}
    return {**out, **(overrides or {})}


def test_a_divisor_lower_in_every_seed_wins_and_one_within_three_standard_errors_ties():
    g = fake(medians({"none": 5.0, "sqrt": 0.3, "dk": 0.6}))
    assert train_grid.compare(g, "sgd", 16, "sqrt", "dk")[0] == "sqrt"
    assert train_grid.compare(g, "sgd", 16, "dk", "sqrt")[0] == "sqrt"
    runs = dict(g.runs)
    paired = np.array([0.1, -0.05, 0.08, -0.02, 0.04])  # mean 0.03, standard error 0.027: a tie
    runs["adam", 16, "dk"] = replace(runs["adam", 16, "sqrt"], divisor="dk",
                                     final=tuple(np.array(runs["adam", 16, "sqrt"].final) + paired))
    tie = replace(g, runs=runs)
    outcome, evidence = train_grid.compare(tie, "adam", 16, "sqrt", "dk")
    se = paired.std(ddof=1) / np.sqrt(5)
    assert outcome == "tie" and evidence == f"÷dₖ − ÷√dₖ = +0.03 ± {train_grid.num(se)}"
    runs["adam", 16, "dk"] = replace(runs["adam", 16, "dk"], final=tuple(np.array(runs["adam", 16, "sqrt"].final)
                                                                         + paired + 0.2))
    assert train_grid.compare(replace(g, runs=runs), "adam", 16, "sqrt", "dk")[0] == "sqrt"  # lower in every seed
    runs["adam", 16, "dk"] = replace(runs["adam", 16, "dk"], final=tuple(np.array(runs["adam", 16, "sqrt"].final)
                                                                         + np.array([0.3, -0.01, 0.3, 0.3, 0.3])))
    outcome, evidence = train_grid.compare(replace(g, runs=runs), "adam", 16, "sqrt", "dk")
    assert outcome == "sqrt" and evidence == "÷dₖ − ÷√dₖ = +0.238 ± 0.062", "3.8 standard errors: a win"
    text = train_grid.statement_winners(g, "sgd")
    assert "at dₖ = 16, ÷√dₖ lower than unscaled (÷√dₖ lower in all 5 seeds; unscaled − ÷√dₖ = +4.7 ± 0)" in text


def test_the_divergence_statement_follows_the_numbers():
    calm = fake(medians({"none": 1.0, "sqrt": 0.3, "dk": 0.6}))
    text = train_grid.statement_unscaled_sgd(calm)
    assert "never overflowed to inf" in text and "fell" in text and "blew up" not in text
    wild = fake(medians({"none": 1.0, "sqrt": 0.3, "dk": 0.6}, {("sgd", 256, "none"): math.inf,
                                                                ("sgd", 64, "none"): 40.0}),
                overflowed={("sgd", 256, "none"): 3})
    text = train_grid.statement_unscaled_sgd(wild)
    assert "overflowed to inf in 3 of 5 seeds at dₖ = 256" in text
    assert "At dₖ = 64 and 256 the final loss ended above the first step's" in text and "At dₖ = 16 it fell" in text


def test_the_dk_and_adam_statements_follow_the_numbers():
    flat = fake(medians({"none": 0.35, "sqrt": 0.3, "dk": 0.35}))
    assert "stays within 0.1" in train_grid.statement_dk(flat, "sgd")
    assert train_grid.statement_adam(flat).count("the numbers do not show Adam hiding it") == 2
    sgd_apart = {("sgd", 64, "dk"): 0.8, ("sgd", 256, "dk"): 1.6, **{("sgd", dk, "none"): 9.0 for dk in train_grid.DKS}}
    rising = fake(medians({"none": 0.35, "sqrt": 0.3, "dk": 0.35}, sgd_apart))
    assert "÷dₖ's final loss rises as dₖ grows from 16 to 256: 0.35, 0.8, 1.6" in train_grid.statement_dk(rising, "sgd")
    adam = train_grid.statement_adam(rising)
    assert ("Unscaled ends within 0.1 of ÷√dₖ's final loss at dₖ = 16, 64 and 256 with Adam and at no dₖ with SGD"
            in adam)
    assert adam.count("the numbers show Adam hiding it") == 2
