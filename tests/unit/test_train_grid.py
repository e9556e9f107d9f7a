"""The build's numpy training grid: its model against the pure-Python core, its table complete, and its
statements computed from the numbers, so they change when the numbers do."""

import itertools
import math
from dataclasses import replace

import numpy as np
import pytest

from pycore import train
from pycore.experiments import model, train_chart, train_grid, train_runs, train_statements
from pycore.experiments.train_runs import Grid, Run
from tests.unit.test_train import np_loss_and_grads


@pytest.fixture(scope="module")
def g():
    return train_runs.grid()


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
    runs = model.simulate(optimizer, dk, np.array([train.LR[optimizer]]), core_batches(seed, steps),
                          core_weights(dk, seed))
    for i, divisor in enumerate(train.DIVISORS):
        run = train.Trainer(dk, divisor, optimizer, train.LR[optimizer], seed)
        run.ensure(steps)
        assert np.allclose(run.losses, runs.losses[0, 0, i], rtol=1e-9, atol=0), divisor
        assert run.saturated == list(runs.saturated[0, 0, i]), divisor
        assert run.stuck == list(runs.stuck[0, 0, i]), divisor
        assert np.allclose(run.grad_q, runs.grad_q[0, 0, i], rtol=1e-6, atol=0), divisor
    assert runs.stuck[0, 0, 0].max() > 0, "unscaled rows at these widths get stuck, so the shares are compared"


def test_one_vectorized_step_matches_the_literal_model_for_every_divisor():
    dk, seed = 16, 4
    queries, keys, targets = core_batches(seed, 1)
    wq, wk = core_weights(dk, seed)
    c = model.divisors(dk)
    loss, dwq, dwk, sat, stuck = model.loss_and_grads(wq[:, None], wk[:, None], queries[:, None, 0],
                                                      keys[:, None, 0], targets[:, None, 0], c[None])
    batch = train.batches(seed).batches[0]
    for i, ci in enumerate(c):
        ref = np_loss_and_grads(wq[0], wk[0], batch, ci)
        assert loss[0, i] == pytest.approx(ref[0], rel=1e-12) and (sat[0, i], stuck[0, i]) == ref[3:]
        assert np.allclose(dwq[0, i], ref[1], rtol=1e-12, atol=1e-14)
        assert np.allclose(dwk[0, i], ref[2], rtol=1e-12, atol=1e-14)


def test_a_run_whose_weights_overflow_is_inf_from_then_on_and_never_nan():
    wq, wk = core_weights(64, 3)
    runs = model.simulate("sgd", 64, np.array([0.5]), core_batches(3, 10), (wq * 1e160, wk * 1e160))
    assert np.isinf(runs.losses).all() and (runs.saturated == 1).all() and (runs.stuck == 1).all()
    assert not any(np.isnan(v).any() for v in runs)


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
    assert g is train_runs.grid()
    assert set(g.runs) == set(itertools.product(train.OPTIMIZERS, train_runs.DKS, train.DIVISORS))
    assert len(g.seeds) >= 20 and g.steps == train.STEPS and g.lr == train.LR
    assert all(len(r.final) == len(g.seeds) == len(r.curve) for r in g.runs.values())


def test_the_table_has_every_cell(g):
    lines = train_grid.lines(g)
    assert len(lines) == len(g.runs)
    assert {(line[0], line[1], line[2]) for line in lines} == {
        (train_runs.OPTIMIZER_NAMES[o], str(dk), train_runs.NAMES[d]) for o, dk, d in g.runs}
    assert all(len(line) == len(train_grid.HEADERS) and all(cell.strip() for cell in line) for line in lines)
    page = train_grid.markdown(g)
    rows = [line for line in page.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) == 1 + len(g.runs) and all(r.count(" | ") == len(train_grid.HEADERS) - 1 for r in rows)
    assert page.count("<svg") == len(train.OPTIMIZERS) * len(train_runs.DKS)
    assert train_grid.report(g).count("\n- ") == len(train_statements.statements(g))


def test_the_chart_names_every_panel_and_says_how_far_a_line_went_off_the_top(g):
    chart = train_chart.chart(g)
    assert chart.startswith('<div class="sq-grid-chart">')
    for o, dk in itertools.product(train.OPTIMIZERS, train_runs.DKS):
        assert f"{train_runs.OPTIMIZER_NAMES[o]}, dₖ = {dk}</text>" in chart
    over = [r for r in g.runs.values() if np.median(np.array(r.curve), axis=0).max() > train_chart.CAP]
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
                        stuck_first=(0.3 if key[2] == "none" else 0.0,) * 5, stuck=(0.1 if key[2] == "none" else 0.0,) * 5,
                        overflowed=(overflowed or {}).get(key, 0), curve=((m,) * 20,) * 5, grad_q=(0.1,) * 5)
    return Grid((1, 2, 3, 4, 5), 200, dict(train.LR), runs)


def medians(values: dict[str, float], overrides: dict[tuple[str, int, str], float] | None = None):
    """The same median per divisor for every optimizer and d_k, with some cells overridden."""
    out = {(o, dk, d): values[d] for o, dk, d in itertools.product(train.OPTIMIZERS, train_runs.DKS, train.DIVISORS)}
    return {**out, **(overrides or {})}


def test_a_divisor_lower_in_every_seed_wins_and_one_within_three_standard_errors_ties():
    g = fake(medians({"none": 5.0, "sqrt": 0.3, "dk": 0.6}))
    assert train_statements.compare(g, "sgd", 16, "sqrt", "dk")[0] == "sqrt"
    assert train_statements.compare(g, "sgd", 16, "dk", "sqrt")[0] == "sqrt"
    runs = dict(g.runs)
    paired = np.array([0.1, -0.05, 0.08, -0.02, 0.04])  # mean 0.03, standard error 0.027: a tie
    runs["adam", 16, "dk"] = replace(runs["adam", 16, "sqrt"], divisor="dk",
                                     final=tuple(np.array(runs["adam", 16, "sqrt"].final) + paired))
    tie = replace(g, runs=runs)
    outcome, evidence = train_statements.compare(tie, "adam", 16, "sqrt", "dk")
    se = paired.std(ddof=1) / np.sqrt(5)
    assert outcome == "tie" and evidence == f"÷dₖ − ÷√dₖ = +0.03 ± {train_runs.num(se)}"
    runs["adam", 16, "dk"] = replace(runs["adam", 16, "dk"], final=tuple(np.array(runs["adam", 16, "sqrt"].final)
                                                                         + paired + 0.2))
    assert train_statements.compare(replace(g, runs=runs), "adam", 16, "sqrt", "dk")[0] == "sqrt"  # lower in every seed
    runs["adam", 16, "dk"] = replace(runs["adam", 16, "dk"], final=tuple(np.array(runs["adam", 16, "sqrt"].final)
                                                                         + np.array([0.3, -0.01, 0.3, 0.3, 0.3])))
    outcome, evidence = train_statements.compare(replace(g, runs=runs), "adam", 16, "sqrt", "dk")
    assert outcome == "sqrt" and evidence == "÷dₖ − ÷√dₖ = +0.238 ± 0.062", "3.8 standard errors: a win"
    text = train_statements.statement_winners(g, "sgd")
    assert "at dₖ = 16, ÷√dₖ lower than unscaled (÷√dₖ lower in all 5 seeds; unscaled − ÷√dₖ = +4.7 ± 0)" in text


def test_the_stuck_and_overflow_statements_follow_the_numbers():
    calm = fake(medians({"none": 1.0, "sqrt": 0.3, "dk": 0.6}))
    text = train_statements.statement_stuck(calm, "sgd")
    assert "unscaled scores leave 30%, 30% and 30% of rows stuck on a wrong key over the first 20 steps" in text
    assert "and 10%, 10% and 10% over the last 20; its final loss is 1, 1 and 1, against ÷√dₖ's 0.3" in text
    assert text.endswith("No run with ÷√dₖ or ÷dₖ has a row stuck in its first 20 steps.")
    assert train_statements.statement_overflow(calm) == "No run's loss overflowed."
    runs = dict(calm.runs)
    runs["adam", 64, "dk"] = replace(runs["adam", 64, "dk"], stuck_first=(0.125,) * 5)
    assert train_statements.statement_stuck(replace(calm, runs=runs), "adam").endswith(
        "With ÷√dₖ and ÷dₖ at most 12.5% of rows start stuck.")
    wild = fake(medians({"none": 1.0, "sqrt": 0.3, "dk": 0.6}), overflowed={("sgd", 256, "none"): 3})
    assert train_statements.statement_overflow(wild) == "Overflowed to inf: SGD unscaled at dₖ = 256 in 3 of 5 seeds."


def test_the_dk_and_gap_statements_follow_the_numbers():
    sgd_apart = {("sgd", 64, "dk"): 0.8, ("sgd", 256, "dk"): 1.6, ("adam", 64, "dk"): 0.3, ("adam", 256, "dk"): 0.32}
    g = fake(medians({"none": 0.9, "sqrt": 0.3, "dk": 0.35}, sgd_apart))
    assert ("÷dₖ's final loss rises as dₖ grows from 16 to 256 (each step judged seed by seed as above): 0.35, 0.8, "
            "1.6") in train_statements.statement_dk(g, "sgd")
    assert "÷dₖ's final loss moves both ways as dₖ grows" in train_statements.statement_dk(g, "adam")
    level = fake(medians({"none": 0.9, "sqrt": 0.3, "dk": 0.35}))
    assert train_statements.trend(level, "adam", "dk") == "does not move beyond the seeds' noise"
    assert train_statements.trend(fake(medians({"none": 0.9, "sqrt": 0.3, "dk": 0.35}, {("sgd", 256, "dk"): 0.3})),
                            "sgd", "dk") == "falls or stays level"
    gap = train_statements.statement_gap(g)
    assert "is +0.05 ± 0, +0.5 ± 0 and +1.3 ± 0 with SGD and +0.05 ± 0, +0 ± 0 and +0.02 ± 0 with Adam." in gap
