"""The build's numpy training grid: its model against the pure-Python core, its table complete, and its
statements computed from the numbers, so they change when the numbers do."""

import itertools
import math

import numpy as np
import pytest

from pycore import train
from pycore.experiments import train_grid
from pycore.experiments.train_grid import Grid, Run
from tests.unit.test_train import np_loss_and_grads


@pytest.fixture(scope="module")
def g():
    return train_grid.grid()


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


def test_the_grid_covers_every_optimizer_dk_divisor_and_is_computed_once(g):
    assert g is train_grid.grid()
    assert set(g.runs) == set(itertools.product(train.OPTIMIZERS, train_grid.DKS, train.DIVISORS))
    assert len(g.seeds) >= 5 and g.steps == train.STEPS and g.lr == train.LR
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


def fake(medians: dict[tuple[str, int, str], float], diverged: dict[tuple[str, int, str], int] | None = None) -> Grid:
    """A grid with the given median final losses (seeds spread ±0.01 around them), first losses of 3."""
    runs = {}
    for key, m in medians.items():
        final = (m - 0.01, m, m, m, m + 0.01)
        runs[key] = Run(*key, first=(3.0,) * 5, final=final, saturated=(0.5,) * 5,
                        diverged=(diverged or {}).get(key, 0), curve=((m,) * 20,) * 5)
    return Grid((1, 2, 3, 4, 5), 200, dict(train.LR), runs)


def medians(values: dict[str, float], overrides: dict[tuple[str, int, str], float] | None = None):
    """The same median per divisor for every optimizer and d_k, with some cells overridden."""
    out = {(o, dk, d): values[d] for o, dk, d in itertools.product(train.OPTIMIZERS, train_grid.DKS, train.DIVISORS)}
    return {**out, **(overrides or {})}


def test_the_statements_name_the_winner_and_say_so_when_sqrt_dk_does_not_win():
    sqrt_wins = fake(medians({"none": 5.0, "sqrt": 0.3, "dk": 0.6}))
    text = train_grid.statements(sqrt_wins)[0]
    assert text.startswith("With SGD, ÷√dₖ reached the lowest final loss at dₖ = 16, 64 and 256")
    assert "did not" not in text
    dk_wins = fake(medians({"none": 5.0, "sqrt": 0.3, "dk": 0.6}, {("sgd", 256, "dk"): 0.2}))
    text = train_grid.statements(dk_wins)[0]
    assert "÷√dₖ reached the lowest final loss at dₖ = 16 and 64" in text
    assert ("With SGD at dₖ = 256, ÷√dₖ did not reach the lowest final loss: ÷dₖ did (0.2 against 0.3 for ÷√dₖ"
            in text)
    tie = fake(medians({"none": 5.0, "sqrt": 0.3, "dk": 0.3}))
    text = train_grid.statements(tie)[1]
    assert "reached" not in text and "With Adam at dₖ = 64, ÷√dₖ only tied for the lowest final loss with ÷dₖ" in text


def test_the_divergence_statement_follows_the_numbers():
    calm = fake(medians({"none": 1.0, "sqrt": 0.3, "dk": 0.6}))
    text = train_grid.statement_unscaled_sgd(calm)
    assert "never overflowed to inf" in text and "fell" in text and "blew up" not in text
    wild = fake(medians({"none": 1.0, "sqrt": 0.3, "dk": 0.6}, {("sgd", 256, "none"): math.inf,
                                                                ("sgd", 64, "none"): 40.0}),
                diverged={("sgd", 256, "none"): 3})
    text = train_grid.statement_unscaled_sgd(wild)
    assert "diverged (the loss overflowed to inf) in 3 of 5 seeds at dₖ = 256" in text
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
