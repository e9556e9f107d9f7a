"""Every number the prose states is recomputed here, with numpy or from the figure that shows it.

A claim is the exact phrase on the page plus the value it rounds; the test fails when the page
changes the phrase or the measurement moves away from it by more than its sampling error.
"""

import math
from functools import lru_cache

import numpy as np
import pytest

from pycore.figures import correlated, saturation, summary_pipeline
from tests.conftest import ROOT

ROWS = 6000


def page(name: str) -> str:
    """A page's Markdown with line breaks folded, so a phrase may wrap."""
    return " ".join((ROOT / "site_src" / name).read_text(encoding="utf-8").split())


@lru_cache(maxsize=None)
def measure(n: int, dk: int, divisor: str) -> dict[str, np.ndarray]:
    """Full-vector rows, independent of the core: one query against n keys each, iid N(0, 1)."""
    rng = np.random.default_rng(20170612 + 1000 * n + dk)
    c = {"none": 1.0, "sqrt": math.sqrt(dk), "dk": float(dk)}[divisor]
    mx, jac, grad = [], [], []
    for _ in range(ROWS // 500):
        q = rng.standard_normal((500, dk))
        k = rng.standard_normal((500, n, dk))
        s = np.einsum("rd,rnd->rn", q, k) / c
        p = np.exp(s - s.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        j = np.einsum("ri,rj->rij", -p, p)
        j[:, np.arange(n), np.arange(n)] += p
        mx.append(p.max(1))
        jac.append(np.linalg.norm(j, axis=(1, 2)))
        grad.append(np.linalg.norm(j @ k, axis=(1, 2)) / c)
    return {"max": np.concatenate(mx), "jac": np.concatenate(jac), "grad": np.concatenate(grad)}


def share(n: int, dk: int, divisor: str) -> float:
    return float(np.mean(measure(n, dk, divisor)["max"] > 0.99))


def close(stated: float, measured: float, tolerance: float) -> bool:
    return abs(stated - measured) <= tolerance


SHARE_SE = 3 * math.sqrt(0.25 / ROWS) + 0.005  # three standard errors plus half of the last printed digit


@pytest.mark.parametrize("dk,stated", [(16, 0.05), (64, 0.29), (256, 0.57), (512, 0.68)])
def test_step5_unscaled_saturated_shares(dk, stated):
    assert "about 5% at \\(d_k = 16\\), 29% at 64, 57% at 256 and 68% at 512" in page("step-5.md")
    assert close(stated, share(16, dk, "none"), SHARE_SE)


@pytest.mark.parametrize("dk", [16, 64, 512])
def test_step5_scaled_rows_are_the_same_from_dk_16_on(dk):
    assert "the median largest weight (about 0.22) and the median ‖J‖ (about 0.30) hardly move" in page("step-5.md")
    m = measure(16, dk, "sqrt")
    assert share(16, dk, "sqrt") == 0
    assert close(0.22, np.median(m["max"]), 0.01) and close(0.30, np.median(m["jac"]), 0.01)


def test_step5_scaled_rows_at_dk_1():
    assert "(0.16 and 0.27 at \\(d_k = 1\\))" in page("step-5.md")
    m = measure(16, 1, "sqrt")
    assert "(about one in ten thousand at \\(d_k = 1\\), none after that)" in page("step-5.md")
    assert share(16, 1, "sqrt") < 0.002
    assert close(0.16, np.median(m["max"]), 0.01) and close(0.27, np.median(m["jac"]), 0.01)


def test_step5_unscaled_gradient_to_the_query():
    text = page("step-5.md")
    free = measure(16, 64, "none")["max"] <= 0.99
    inflation = np.median(measure(16, 64, "none")["grad"][free]) / np.median(measure(16, 64, "sqrt")["grad"])
    assert "several times more gradient toward the query" in text and 3 < inflation < math.sqrt(64)
    assert "its mean over rows is about 1.4, against 0.30 with scaling" in text
    assert close(1.4, measure(16, 64, "none")["grad"].mean(), 0.06)
    assert close(0.30, measure(16, 64, "sqrt")["grad"].mean(), 0.01)
    assert "(median ‖∂p/∂q‖ below 0.05 at \\(d_k = 512\\), against 0.30 with scaling)" in text
    assert np.median(measure(16, 512, "none")["grad"]) < 0.05
    assert close(0.30, np.median(measure(16, 512, "sqrt")["grad"]), 0.01)


def test_step5_long_rows_have_a_larger_unscaled_jacobian():
    assert "the unscaled median ‖J‖ is *larger* than the scaled one" in page("step-5.md")
    assert np.median(measure(128, 64, "none")["jac"]) > np.median(measure(128, 64, "sqrt")["jac"]) + 0.05


def test_step6_what_dividing_by_dk_costs():
    text = page("step-6.md")
    assert "standard deviation \\(1/8 = 0.125\\)" in text
    assert "the median ‖J‖ is about 0.24 against 0.30 with" in text
    assert close(0.24, np.median(measure(16, 64, "dk")["jac"]), 0.01)
    assert "median ‖∂p/∂q‖ about 0.030 against 0.30 at \\(d_k = 64\\), a factor of about 10" in text
    assert close(0.030, np.median(measure(16, 64, "dk")["grad"]), 0.002)
    ratio = np.median(measure(16, 64, "sqrt")["grad"]) / np.median(measure(16, 64, "dk")["grad"])
    jac = np.median(measure(16, 64, "sqrt")["jac"]) / np.median(measure(16, 64, "dk")["jac"])
    assert close(10, ratio, 0.5) and ratio > math.sqrt(64) and jac > 1


def test_step3_excess_kurtosis_is_six_over_dk():
    assert "is \\(6/d_k\\): 6 at \\(d_k = 1\\), under 0.1 at \\(d_k = 64\\)" in " ".join(page("step-3.md").split())
    rng = np.random.default_rng(0)
    for dk in (1, 4):
        s = (rng.standard_normal((400_000, dk)) * rng.standard_normal((400_000, dk))).sum(1)
        kurt = np.mean(s**4) / np.mean(s**2) ** 2 - 3
        assert close(6 / dk, kurt, 0.35 / dk)
    assert 6 / 64 < 0.1


def test_summary_share_is_the_figures_own():
    off = summary_pipeline.readouts(summary_pipeline.State(scaling="off"))
    stated = f"{round(100 * float(off['saturated']))}%"
    assert f"Remove the scaling stage and, at dₖ = 64, {stated} of these rows of 8 keys saturate." in page("index.md")
    assert f"at dₖ = 64, {stated} of these 500 rows saturate" in page("summary.md")
    assert "over many more rows of 8 keys the share is about 37%" in page("summary.md")
    assert close(0.37, share(8, 64, "none"), SHARE_SE)


def test_saturation_caption_names_the_default_state():
    s = saturation.State()
    assert f"{s.rows} rows, each one query against n = {s.n} keys, not scaled, at dₖ = {s.dk}." in page("step-5.md")
    assert s.divisor == "none"


def test_assumptions_correlated_caption_and_numbers():
    s = correlated.State()
    r = correlated.readouts(s)
    text = page("assumptions.md")
    assert f"ρ = {s.rho} at dₖ = {s.dk} with ÷√dₖ" in text and s.divisor == "sqrt"
    assert f"ρ√dₖ = {s.rho * math.sqrt(s.dk):g}" in text and "more than half of the rows saturate" in text
    assert float(r["saturated"]) > 0.5
    assert "divides by about 22.6 instead of 8" in text and f"{math.sqrt(512):.1f}" == "22.6"
    assert "\\(1/\\sqrt 8 \\approx 0.35\\)" in text and f"{1 / math.sqrt(8):.2f}" == "0.35"
    assert "the median largest weight is about 0.22" in text


def test_train_page_states_the_setup_the_core_runs():
    import re

    from pycore import train

    text = (ROOT / "site_src" / "train.md").read_text(encoding="utf-8")
    claimed = dict(re.findall(r'<span data-claim="([\w-]+)">([^<]+)</span>', text))
    assert claimed == {"n": str(train.N), "D": str(train.D), "sigma": f"{train.SIGMA:g}", "batch": str(train.BATCH),
                       "steps": str(train.STEPS), "lr-sgd": f"{train.LR['sgd']:g}", "lr-adam": f"{train.LR['adam']:g}"}
    assert (train.BETA1, train.BETA2, train.EPS) == (0.9, 0.999, 1e-8)


def test_train_page_and_cards_follow_the_grid_and_the_sweep():
    from pycore.experiments import lr_sweep, train_grid

    g, s = train_grid.grid(), lr_sweep.sweep()
    statements = " ".join(train_grid.statements(g))
    text = page("train.md")
    assert "the unscaled run blows up instead of learning" in text and "it blew up instead of learning" in statements
    assert "At dₖ = 16, 64 and 256 the final loss ended above the first step's" in statements
    assert "÷dₖ learns more slowly the wider the heads" in text
    assert "With SGD, ÷dₖ's final loss rises as dₖ grows from 16 to 256" in statements
    assert "With Adam the slowdown is gone" in text and "With Adam, ÷dₖ's final loss stays within 0.1" in statements
    assert "÷dₖ keeps up at every width" in text
    assert "÷dₖ ends within 0.1 of ÷√dₖ's final loss at dₖ = 16, 64 and 256 with Adam" in statements
    assert "best learning rate is <span data-claim=\"lr-sweep.best.adam.16.dk.rate\"></span> at every width tried" in text
    assert len({s.best("adam", dk, "dk")[0] for dk in (16, 64, 256)}) == 1
    assert "one initialization (one start) and one learning rate work for every" in text
    assert all(lr_sweep.one_rate(s, o, "sqrt")[1] <= lr_sweep.CLOSE for o in ("sgd", "adam"))
    assert lr_sweep.one_rate(s, "sgd", "dk")[1] > 2 * lr_sweep.one_rate(s, "sgd", "sqrt")[1]


def test_a_trained_layer_is_confident_where_it_started_unsaturated():
    from pycore.figures import train as figure

    state = figure.parse({})
    start = figure.readouts(figure.State(**{**state.__dict__, "step": 1}))
    end = figure.readouts(state)
    text = page("train.md")
    assert 'the readout "saturated, ÷√dₖ" shows many rows with almost all their weight on one key' in text
    assert float(start["saturated-sqrt"]) == 0 and float(end["saturated-sqrt"]) > 0.3
    assert float(end["loss-sqrt"]) < float(start["loss-sqrt"]) / 2