"""Copy as Python: every figure's ``snippet(state)`` runs with numpy alone and prints the figure's readouts.

Each snippet runs in its own interpreter and prints ``name: value`` lines: the figure's READOUTS
names in order, and after a sampled readout with a closed form the line ``expected <name>: value``
(the convention of ``pycore/figures/_snippet.py``). Each is checked in three states: the default,
every parameter's ``example()``, and one more below.

- Deterministic figures: every value is the readout's text, character for character.
- Sampled figures draw their own numpy sample at the figure's sizes, so a sampled value is compared
  with the core's readout within Z = 5 standard errors of the difference of two independent
  estimates (√2 times one estimate's error): sample variances and standard deviations from the
  fourth moment of the score, shares from the binomial, and medians by where the snippet's median
  falls among the core's own rows (within 5 binomial errors of half, widened by the printed
  rounding). Readouts that do not depend on the draws (d_k, theories, the standard error) must be
  exact, and each ``expected`` line must be the closed form.
"""

from __future__ import annotations

import ast
import math
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np
import pytest

from pycore import figures, operating, rows
from pycore.figures import _snippet, correlated, length, saturation, summary_pipeline
from pycore.svg import fmt, sig

Z = 5.0
EXTRA = {
    "query-key": {"q": "-2,0", "k": "0,0"},
    "dot-product": {"q": "-2,0", "k": "0,0"},
    "score-histogram": {"dk": "256", "divisor": "dk", "n": "1000", "seed": "3"},
    "variance-tower": {"dk": "64", "n": "1000", "seed": "7"},
    "product-average": {"pairs": "1", "centre": "-1", "seed": "3"},
    "softmax-spike": {"scores": "2,-1,0.5", "stretch": "40"},
    "nudge": {"scores": "2,-1,0.5", "stretch": "16", "delta": "0.01", "target": "2"},
    "values": {"scores": "3,-3", "values": "-3,3", "stretch": "0.03125"},
    "operating-point": {"dk": "3", "n": "2", "rows": "100", "seed": "3"},
    "variance-rule": {"points": "3,-3,3", "c": "8"},
    "saturation": {"dk": "512", "n": "32", "divisor": "none", "rows": "300", "seed": "4"},
    "corner-dk1": {"n": "10000", "seed": "3"},
    "corner-ties": {"n": "12", "value": "-5", "c": "0"},
    "corner-infinity": {"mode": "mask", "divisor": "1"},
    "corner-constant-v": {"weights": "0,0,3,1", "v": "-5"},
    "summary-pipeline": {"dk": "16", "scaling": "off", "seed": "2"},
    "correlated": {"rho": "1", "dk": "8", "divisor": "none", "n": "2", "seed": "3"},
    "train": {"dk": "16", "optimizer": "adam", "lr": "auto", "seed": "2", "step": "50"},
    "length": {"n": "4096", "dk": "2", "scaling": "log-n", "s": "2", "rows": "50", "seed": "3"},
}
"""A third state per figure: zero-length arrows, a spike whose top weight rounds to 1, masks, ρ = 1, ..."""


def states(module: Any) -> list[Any]:
    fid = module.__name__.rsplit(".", 1)[1].replace("_", "-")
    return [module.State(), module.parse({s.name: s.example() for s in module.PARAMS}), module.parse(EXTRA[fid])]


CASES = [pytest.param(fid, state, id=f"{fid}-{i}") for fid, m in figures.FIGURES.items() for i, state in
         enumerate(states(m))]


def spread(se: float) -> float:
    """Tolerance for the difference of two independent estimates with standard error ``se`` each."""
    return Z * math.sqrt(2) * se


def variance_se(dk: int, n: int, c: float) -> float:
    """Standard error of the sample variance of n scores q·k/c: the score's fourth central moment is 3d_k² + 6d_k."""
    return math.sqrt((2 * dk * dk + 6 * dk) / n) / (c * c)


def std_se(dk: int, n: int, c: float) -> float:
    """The same for the standard deviation, √d_k/c: SE(s²) / 2σ."""
    return variance_se(dk, n, c) / (2 * math.sqrt(dk) / c)


@dataclass(frozen=True)
class Close:
    """Within an absolute tolerance of the core's readout."""

    tolerance: Callable[[Any], float]

    def check(self, state: Any, got: str, core: str) -> None:
        assert abs(float(got) - float(core)) <= self.tolerance(state), (got, core, self.tolerance(state))


@dataclass(frozen=True)
class Share:
    """A share of ``count(state)`` rows: binomial error around the mean of both shares (at least 1/rows)."""

    count: Callable[[Any], int]

    def check(self, state: Any, got: str, core: str) -> None:
        n, p = self.count(state), (float(got) + float(core)) / 2
        assert abs(float(got) - float(core)) <= spread(math.sqrt(max(p * (1 - p), 1 / n) / n)), (got, core)


@dataclass(frozen=True)
class Median:
    """The snippet's median splits the core's rows near half: a distribution-free test for any spread."""

    values: Callable[[Any], tuple[float, ...]]
    count: Callable[[Any], int]
    """How many rows the snippet's median is taken over."""

    def check(self, state: Any, got: str, core: str) -> None:
        values = np.array(self.values(state))
        half_unit = 5 * 10.0 ** (Decimal(got).as_tuple().exponent - 1)
        below = np.mean(values < float(got) - half_unit)
        at_most = np.mean(values <= float(got) + half_unit)
        delta = Z * math.sqrt(0.25 / len(values) + 0.25 / self.count(state))
        assert below <= 0.5 + delta and at_most >= 0.5 - delta, (got, core, below, at_most, delta)


@dataclass(frozen=True)
class Form:
    """A training run of the snippet's own: its batches differ from the core's, so only the kind of value is checked."""

    low: float
    high: float
    words: tuple[str, ...] = ()

    def check(self, state: Any, got: str, core: str) -> None:
        assert got in self.words or self.low <= float(got) <= self.high, (got, core)


def _operating(state: Any, kind: str, divisor: str) -> tuple[float, ...]:
    """The core's per-row numbers of the operating-point figure at the state's d_k."""
    o = operating.operating(state.seed, state.n, (state.dk,))
    o.ensure(state.rows)
    return tuple((o.max_weight if kind == "max-weight" else o.moved)[divisor, state.dk][:state.rows])


def _c(state: Any) -> float:
    return rows.divisor_value(state.dk, state.divisor)


def _summary_c(state: Any) -> float:
    return math.sqrt(state.dk) if state.scaling == "on" else 1.0


def _correlated_std_se(state: Any) -> float:
    """SE of a standard deviation, σ√((κ − 1)/4n). q·k sums d_k iid terms T = ρk² + √(1−ρ²)kz with variance 1 + ρ²
    and fourth central moment 60ρ⁴ + 60ρ²(1−ρ²) + 9(1−ρ²)², so κ = 3 + (μ₄(T)/σ⁴(T) − 3)/d_k."""
    r2 = state.rho * state.rho
    term_kurtosis = (60 * r2 * r2 + 60 * r2 * (1 - r2) + 9 * (1 - r2) ** 2) / (1 + r2) ** 2
    kurtosis = 3 + (term_kurtosis - 3) / state.dk
    return correlated.theory(state)[1] * math.sqrt((kurtosis - 1) / (4 * correlated.PAIRS))


SAMPLED: dict[str, dict[str, Close | Share | Median]] = {
    "score-histogram": {"variance": Close(lambda s: spread(variance_se(s.dk, s.n, _c(s)))),
                        "std": Close(lambda s: spread(std_se(s.dk, s.n, _c(s))))},
    "variance-tower": {"total": Close(lambda s: spread(variance_se(s.dk, s.n, 1.0))),
                       "bars": Close(lambda s: spread(math.sqrt(8 * s.dk / s.n)))},
    "product-average": {"average": Close(lambda s: spread(math.sqrt((1 + 2 * s.centre ** 2) / s.pairs))),
                        "positive": Share(lambda s: s.pairs)},
    "corner-dk1": {"variance-raw": Close(lambda s: spread(variance_se(1, s.n, 1.0))),
                   "variance-scaled": Close(lambda s: spread(variance_se(1, s.n, 1.0)))},
    "saturation": {"saturated": Share(lambda s: s.rows),
                   "median-max-weight": Median(lambda s: saturation.result(s).max_weight, lambda s: s.rows),
                   "median-jacobian": Median(lambda s: saturation.result(s).jacobian, lambda s: s.rows),
                   "median-grad-q": Median(lambda s: saturation.result(s).grad_q, lambda s: s.rows)},
    "summary-pipeline": {
        "score-std": Close(lambda s: spread(std_se(s.dk, summary_pipeline.N, 1.0))),
        "scaled-std": Close(lambda s: spread(std_se(s.dk, summary_pipeline.N, _summary_c(s)))),
        "saturated": Share(lambda s: summary_pipeline.ROWS),
        "max-weight": Median(lambda s: summary_pipeline.many(s).max_weight, lambda s: summary_pipeline.ROWS),
        "gradient": Median(lambda s: summary_pipeline.many(s).jacobian, lambda s: summary_pipeline.ROWS)},
    "correlated": {"mean-score": Close(lambda s: spread(correlated.theory(s)[1] / math.sqrt(correlated.PAIRS))),
                   "std-score": Close(lambda s: spread(_correlated_std_se(s))),
                   "saturated": Share(lambda s: correlated.PAIRS)},
    "length": {"median-max-weight": Median(lambda s: length.result(s)[0], lambda s: s.rows),
               "entropy-ratio": Median(lambda s: length.result(s)[1], lambda s: s.rows),
               "saturated": Share(lambda s: s.rows)},
    "train": {**{f"loss-{d}": Form(0.0, math.inf, ("diverged",)) for d in rows.DIVISORS},
              **{f"{k}-{d}": Form(0.0, 1.0) for k in ("saturated", "stuck") for d in rows.DIVISORS},
              **{f"grad-{d}": Form(0.0, math.inf) for d in rows.DIVISORS}},
    "operating-point": {f"{k}-{d}": Median(lambda s, k=k, d=d: _operating(s, k, d), lambda s: s.rows)
                        for k in ("max-weight", "moved") for d in rows.DIVISORS},
}
"""The readouts each sampled figure draws, and how close to the core's they must be; all others are exact."""

EXPECTED: dict[str, Callable[[Any], dict[str, float]]] = {
    "score-histogram": lambda s: {"variance": s.dk / _c(s) ** 2, "std": math.sqrt(s.dk) / _c(s)},
    "variance-tower": lambda s: {"total": s.dk, "bars": s.dk},
    "product-average": lambda s: {"average": s.centre ** 2},
    "corner-dk1": lambda s: {"variance-raw": 1, "variance-scaled": 1},
    "saturation": lambda s: {},
    "summary-pipeline": lambda s: {"score-std": math.sqrt(s.dk), "scaled-std": math.sqrt(s.dk) / _summary_c(s)},
    "correlated": lambda s: {"mean-score": s.rho * s.dk / _c(s),
                             "std-score": math.sqrt(s.dk * (1 + s.rho * s.rho)) / _c(s)},
    "train": lambda s: {},
    "length": lambda s: {},
    "operating-point": lambda s: {},
}
"""The closed form each sampled figure's ``expected`` lines must print (none for saturation's medians and share)."""


def run(code: str, cwd: Any) -> list[tuple[str, str]]:
    """Run a snippet in a fresh interpreter and split its lines at the first ': '."""
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, cwd=cwd, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert all(": " in line for line in lines), out.stdout
    return [tuple(line.split(": ", 1)) for line in lines]  # type: ignore[misc]


@pytest.mark.parametrize("fid,state", CASES)
def test_snippet_prints_the_figures_readouts(fid, state, tmp_path):
    check_printed(fid, state, run(figures.FIGURES[fid].snippet(state), tmp_path))


def check_printed(fid: str, state: Any, printed: list[tuple[str, str]]) -> None:
    """What a figure's script printed against the figure's readouts: exact, or within the sampled tolerances."""
    module = figures.FIGURES[fid]
    names = [name for name, _ in printed if not name.startswith("expected ")]
    assert names == [name for name, _ in module.READOUTS]
    core = module.readouts(state)
    checks = SAMPLED.get(fid, {})
    for name, value in printed:
        if name in checks:
            checks[name].check(state, value, core[name])
        elif name in core:
            assert value == core[name], name
    expected = [(name.removeprefix("expected "), value, before) for (before, _), (name, value)
                in zip(printed, printed[1:]) if name.startswith("expected ")]
    assert all(before == name for name, _, before in expected), "an expected line follows its own readout"
    closed = EXPECTED[fid](state) if fid in SAMPLED else {}
    assert [(name, value) for name, value, _ in expected] == [(name, sig(v)) for name, v in closed.items()]


@pytest.mark.parametrize("fid", figures.FIGURES)
def test_snippet_imports_numpy_only_and_says_when_it_samples(fid):
    module = figures.FIGURES[fid]
    code = module.snippet(module.State())
    imports = [node for node in ast.walk(ast.parse(code)) if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert [ast.unparse(node) for node in imports] == ["import numpy as np"]
    assert (_snippet.SAMPLED in code) == (fid in SAMPLED)
    own = code
    for source in _snippet.helpers(code):
        own = own.replace(source, "")
    limit = 50 if fid == "train" else 30  # a training loop with two optimizers needs more
    assert len([line for line in own.splitlines() if line.strip()]) <= limit, "a snippet's own lines stay short"


def test_every_figure_has_a_third_state_and_every_sampled_one_its_closed_forms():
    assert set(EXTRA) == set(figures.FIGURES) and set(EXPECTED) == set(SAMPLED) <= set(figures.FIGURES)


def test_snippet_formatting_is_the_figures():
    space: dict[str, Any] = {"np": np}
    exec(_snippet.FMT + _snippet.SIG, space)
    rng = np.random.default_rng(0)
    powers = [10.0 ** k for k in range(-310, 309)]
    values = [0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, 9999.7, 999999.5, 0.09999999999999999, 64, 1]
    values += powers + [np.nextafter(x, 0) for x in powers] + [np.nextafter(x, math.inf) for x in powers]
    values += list(10 ** rng.uniform(-8, 8, 20000) * rng.choice([-1, 1], 20000))
    values += list(np.round(rng.uniform(-100, 100, 5000), 4))
    for x in values:
        for digits in (1, 3, 4, 6):
            assert space["sig"](np.float64(x), digits) == sig(float(x), digits), (x, digits)
        for digits in (0, 2, 4):
            assert space["fmt"](np.float64(x), digits) == fmt(float(x), digits), (x, digits)
