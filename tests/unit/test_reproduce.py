"""The numpy reproduction: its formulas against explicit matrices, its numbers against closed forms,
and its verdicts computed from the numbers rather than written down."""

import itertools
import math
import re
from dataclasses import replace

import numpy as np
import pytest

from pycore.rows import divisor_value
from pycore.experiments import reproduce, reproduce_draw, reproduce_run, reproduce_table, reproduce_verdicts
from pycore.experiments.reproduce_run import Estimate


@pytest.fixture(scope="module")
def t():
    return reproduce_table.table()


def explicit_jacobian(p):
    """diag(p) − p pᵀ, written out."""
    return np.diag(p) - np.outer(p, p)


def test_softmax_matches_the_definition_and_survives_huge_scores():
    s = np.random.default_rng(1).normal(0, 3, (20, 16))
    assert np.allclose(reproduce_draw.softmax_rows(s), np.exp(s) / np.exp(s).sum(axis=1, keepdims=True), rtol=1e-12)
    p = reproduce_draw.softmax_rows(np.array([[1000.0, 0.0, -1000.0]]))
    assert np.array_equal(p, [[1.0, 0.0, 0.0]])


def test_jacobian_norm_formula_matches_explicit_matrices():
    p = reproduce_draw.softmax_rows(np.random.default_rng(0).normal(0, 3, (50, 16)))
    explicit = [np.linalg.norm(explicit_jacobian(row)) for row in p]
    assert np.allclose(reproduce_draw.jacobian_norms(p), explicit, rtol=1e-12)


@pytest.mark.parametrize("c", [1.0, 8.0, 64.0])
def test_query_gradient_norm_is_the_norm_of_jk_over_c(c):
    rng = np.random.default_rng(2)
    q, keys = rng.standard_normal((5, 64)), rng.standard_normal((5, 16, 64))
    p = reproduce_draw.softmax_rows(np.einsum("rnd,rd->rn", keys, q) / c)
    explicit = [np.linalg.norm(explicit_jacobian(p[r]) @ keys[r] / c) for r in range(5)]
    assert np.allclose(reproduce_draw.query_gradient_norms(p, keys, c), explicit, rtol=1e-10)


def test_query_gradient_norm_is_the_derivative_of_the_weights_with_respect_to_the_query():
    rng = np.random.default_rng(3)
    q, keys, c, h = rng.standard_normal(8), rng.standard_normal((6, 8)), math.sqrt(8), 1e-6

    def weights(x):
        """The softmax weights for query x."""
        return reproduce_draw.softmax_rows(keys @ x / c)

    numeric = np.stack([(weights(q + h * e) - weights(q - h * e)) / (2 * h) for e in np.eye(8)], axis=1)
    assert math.isclose(reproduce_draw.query_gradient_norms(weights(q)[None], keys[None], c)[0],
                        np.linalg.norm(numeric), rel_tol=1e-6)


def test_row_measures_match_a_direct_computation():
    rng = np.random.default_rng(4)
    q, keys, c = rng.standard_normal((3, 4)), rng.standard_normal((3, 16, 4)), 2.0
    m = reproduce_draw.row_measures(q, keys, c)
    for r in range(3):
        s = keys[r] @ q[r] / c
        p = np.exp(s) / np.exp(s).sum()
        jac = explicit_jacobian(p)
        assert np.allclose(m[r], [s.mean(), (s**2).mean(), p.max(), np.linalg.norm(jac),
                                  np.linalg.norm(jac @ keys[r] / c)], rtol=1e-10)


def test_table_shape_is_as_documented(t):
    assert (t.seed, t.rows) == (reproduce_run.SEED, reproduce_run.ROWS)
    assert reproduce_run.DKS == (1, 2, 4, 8, 16, 32, 64, 128, 256, 512) and reproduce_run.NS == (16, 128)
    assert [(c.n, c.divisor, c.dk) for c in t.cells] == list(
        itertools.product(reproduce_run.NS, reproduce_run.DIVISORS, reproduce_run.DKS))
    page = reproduce.markdown(t)
    assert page.count("\n### ") == len(reproduce_run.NS) * len(reproduce_run.DIVISORS) <= page.count("|" + " ---: |" * 6)
    assert len(reproduce_run.HEADERS) <= 7
    for c in t.cells:
        assert "| " + " | ".join(reproduce.values(c)) + " |" in page
        assert len(reproduce.values(c)) == len(reproduce_run.HEADERS)


def test_variances_match_closed_forms_within_their_standard_errors(t):
    for c in t.cells:
        k = divisor_value(c.dk, c.divisor)
        assert abs(c.var.value - c.dk / k**2) <= reproduce_run.TOL * c.var.se, c
        # Rows as units: a row's mean square is |q|² χ²_n / n / c², so its variance has a closed form.
        se = math.sqrt(((c.dk**2 + 2 * c.dk) * (1 + 2 / c.n) - c.dk**2) / t.rows) / k**2
        assert 0.7 < c.var.se / se < 1.3, c


def test_same_seed_same_table_and_one_computation_per_process(t):
    small = reproduce_table.table.__wrapped__
    assert small(5, 30) == small(5, 30) != small(6, 30)
    assert reproduce_table.table() is t


def edit(t, change, n=None, name=None, dk=None):
    """A copy of the table with `change` applied to the cells that match n, divisor and d_k."""
    def hit(c):
        """Whether c is one of the cells to change."""
        return n in (None, c.n) and name in (None, c.divisor) and dk in (None, c.dk)

    return replace(t, cells=tuple(change(c) if hit(c) else c for c in t.cells))


def var_is(value, se):
    """An edit setting Var(s) to value(cell) ± se."""
    return lambda c: replace(c, var=Estimate(value(c), se))


def softmax_is(value):
    """An edit setting the three softmax metrics to value ± 0.01."""
    return lambda c: replace(c, saturated=Estimate(value, 0.01), top=Estimate(value, 0.01), jac=Estimate(value, 0.01))


# For each claim: an edit of the real table under which it must hold, and one under which it must not.
FABRICATED = [
    (lambda t: edit(t, var_is(lambda c: c.dk, 1.0), name="none"),
     lambda t: edit(t, var_is(lambda c: 2 * c.dk, 0.01), name="none", dk=8)),
    (lambda t: edit(edit(t, var_is(lambda c: 1.0, 0.1), name="sqrt"), var_is(lambda c: 1 / c.dk, 0.1), name="dk"),
     lambda t: edit(t, var_is(lambda c: 2.0, 0.01), name="sqrt", dk=8)),
    (lambda t: edit(t, softmax_is(0.5), name="sqrt"),
     lambda t: edit(edit(t, softmax_is(0.5), name="sqrt"), softmax_is(0.9), n=128, name="sqrt", dk=4)),
    (lambda t: edit(t, lambda c: replace(c, saturated=Estimate(c.dk / 1024, 0.001)), name="none"),
     lambda t: edit(t, lambda c: replace(c, saturated=Estimate(1 - c.dk / 1024, 0.001)), name="none")),
    (lambda t: edit(t, lambda c: replace(c, jac=Estimate(1 / c.dk, 0.001)), name="none"),
     lambda t: edit(t, lambda c: replace(c, jac=Estimate(c.dk, 0.001)), name="none")),
    (lambda t: edit(t, lambda c: replace(c, grad=Estimate(0.0, 0.0001)), n=16, name="none", dk=64),
     lambda t: edit(t, lambda c: replace(c, grad=Estimate(10.0, 0.01)), n=16, name="none", dk=64)),
    (lambda t: edit(edit(t, lambda c: replace(c, grad=Estimate(1.0, 0.01)), name="sqrt"),
                    lambda c: replace(c, grad=Estimate(1 / math.sqrt(c.dk), 0.01 / math.sqrt(c.dk))), name="dk"),
     lambda t: edit(t, lambda c: replace(c, grad=Estimate(1e-6, 1e-9)), n=16, name="dk", dk=64)),
    (lambda t: edit(t, lambda c: replace(c, jac=Estimate(0.001, 0.001)), name="none", dk=64),
     lambda t: edit(t, lambda c: replace(c, jac=Estimate(0.9, 0.001)), name="none", dk=64)),
]


@pytest.mark.parametrize("i", range(len(FABRICATED)))
def test_each_verdict_is_computed_from_the_numbers(t, i):
    make_hold, make_fail = FABRICATED[i]
    holds, fails = reproduce_verdicts.verdicts(make_hold(t))[i], reproduce_verdicts.verdicts(make_fail(t))[i]
    assert holds.holds and not fails.holds
    assert holds.claim == fails.claim and holds.evidence != fails.evidence


def test_every_claim_is_tested_and_printed_with_its_verdict(t):
    verdicts = reproduce_verdicts.verdicts(t)
    assert len(verdicts) == len(FABRICATED) == len(reproduce_verdicts.CLAIMS)
    page, terminal = reproduce.markdown(t), reproduce.text(t)
    for i, v in enumerate(verdicts, 1):
        outcome = "holds" if v.holds else "does not hold"
        assert f"{i}. {v.claim} **{outcome.capitalize()}.** {v.evidence}" in page
        assert f"{i}. [{outcome}] {v.claim}\n   {v.evidence}" in terminal
    assert page.index("## Verdicts") < page.index("## Tables")


def quoted(evidence):
    """The standard-error distances a verdict's evidence quotes, in order."""
    return [float(x) for x in re.findall(r"([+-]?\d+\.\d) SE\b", evidence)]


MARGINS = {
    # claim index: its margin from the distances its evidence quotes, under the rule of 3 SE
    0: lambda z: 3 - max(map(abs, z)),
    1: lambda z: 3 - max(map(abs, z)),
    2: lambda z: 3 - max(z[0], z[1]),
    3: lambda z: min(z[0] + 3, z[1] - 3),
    4: lambda z: 3 - max(z),
    5: lambda z: -z[0] - 3,
    7: lambda z: min(-x - 3 for x in z),
}


def test_every_verdict_obeys_the_three_standard_error_rule_it_states(t):
    verdicts = reproduce_verdicts.verdicts(t)
    for i, v in enumerate(verdicts):
        assert v.holds == (v.margin >= 0)
        assert f"{reproduce_run.TOL:g} SE" in v.claim, v.claim
        if i in MARGINS:
            assert MARGINS[i](quoted(v.evidence)) == pytest.approx(v.margin, abs=0.051), (i, v.evidence)
    ratios = [a.grad.value / b.grad.value / math.sqrt(a.dk) for m in reproduce_run.NS
              for a, b in zip(reproduce_table.column(t, m, "sqrt"), reproduce_table.column(t, m, "dk"))]
    assert verdicts[6].holds == all(0.5 < r < 2 for r in ratios), "no ratio is near a bound, so 3 SE cannot flip it"


def test_the_first_dk_below_a_tenth_is_below_it_by_more_than_three_standard_errors(t):
    v = reproduce_verdicts.claim_query_gradient_vanishes(t)
    found = re.search(r"first below a tenth by more than 3 SE at dₖ = (\d+): .* \(([+-]\d+\.\d) SE, (?:a fresh draw of )?"
                      r"([\d,]+) rows", v.evidence)
    assert found, "with more rows where the table's cannot decide, the unscaled gradient is resolved below a tenth"
    dk, zed, rows = int(found.group(1)), float(found.group(2)), int(found.group(3).replace(",", ""))
    cells = {"none": reproduce_table.at(t, 16, "none", dk), "sqrt": reproduce_table.at(t, 16, "sqrt", dk)}
    if rows != t.rows:
        assert rows // t.rows in reproduce_run.RESOLVE
        cells = reproduce_table.redrawn(16, dk, rows)
        assert cells["none"].grad.se < reproduce_table.at(t, 16, "none", dk).grad.se
        assert (f"a fresh draw of {rows:,} rows, since the table's {t.rows:,} could not tell it from a tenth, so these "
                "numbers are not the table's") in v.evidence, "the verdict says which sample it quotes, and why"
    raw, scaled = cells["none"].grad, cells["sqrt"].grad
    assert zed < -reproduce_run.TOL
    assert (raw.value - scaled.value / 10) / math.hypot(raw.se, scaled.se / 10) == pytest.approx(zed, abs=0.051)
    assert f"a tenth of ÷√dₖ's {reproduce_table.show(scaled)}" in v.evidence
    for before in (d for d in reproduce_run.DKS if d < dk):
        raw, scaled = reproduce_table.at(t, 16, "none", before).grad, reproduce_table.at(t, 16, "sqrt", before).grad
        gap = (raw.value - scaled.value / 10) / math.hypot(raw.se, scaled.se / 10)
        assert gap > -reproduce_run.TOL and (gap >= reproduce_run.TOL or f"dₖ = {before} (" in v.evidence
                                          or f", {before} (" in v.evidence), before
    raw, scaled = reproduce_table.at(t, 16, "none", 64).grad, reproduce_table.at(t, 16, "sqrt", 64).grad
    assert v.margin == pytest.approx(-(raw.value - scaled.value / 10) / math.hypot(raw.se, scaled.se / 10) - 3)


def test_a_cell_the_rows_cannot_decide_is_drawn_again_with_more_rows_and_named_if_still_undecided(t):
    few = reproduce_table.table(reproduce_run.SEED, 60)
    v = reproduce_verdicts.claim_query_gradient_vanishes(few)
    found = re.search(r"not resolved at this number of rows at dₖ = (\d+) \(([+-]\d+\.\d) SE at ([\d,]+) rows\)",
                      v.evidence)
    assert found, v.evidence
    dk, zed, rows = int(found.group(1)), float(found.group(2)), int(found.group(3).replace(",", ""))
    assert rows == 60 * reproduce_run.RESOLVE[-1] and abs(zed) < reproduce_run.TOL
    again = reproduce_table.redrawn(16, dk, rows)
    raw, scaled = again["none"].grad, again["sqrt"].grad
    assert (raw.value - scaled.value / 10) / math.hypot(raw.se, scaled.se / 10) == pytest.approx(zed, abs=0.051)


def test_the_saturated_shares_step_5_quotes_come_from_this_run(t):
    shares = reproduce_table.saturated_shares(dks=(16, 64, 256, 512))
    assert list(shares) == [16, 64, 256, 512]
    for dk, e in shares.items():
        assert e == reproduce_table.at(t, 16, "none", dk).saturated
    assert reproduce_table.saturated_shares("sqrt", 128)[64] == reproduce_table.at(t, 128, "sqrt", 64).saturated


def test_a_value_shows_the_digits_its_standard_error_supports(t):
    """Each printed estimate has its error to two significant digits and its value to the same decimal place."""
    estimates = [getattr(c, k) for c in t.cells for k in ("var", "saturated", "top", "jac", "grad")]
    estimates += [Estimate(0.0996, 0.0996), Estimate(-0.00001, 0.002), Estimate(514.2, 5.93)]
    for e in estimates:
        value, se = reproduce_table.show(e).split(" ±")
        decimals = len(se.partition(".")[2])
        assert len(se.replace(".", "").lstrip("0")) == 2, se
        assert len(value.partition(".")[2]) == decimals, (value, se)
        assert abs(float(value) - e.value) <= 0.5 * 10**-decimals + 1e-15
        assert abs(float(se) - e.se) <= 0.5 * 10**-decimals + 1e-15
    assert reproduce_table.show(Estimate(0.24241313, 0.000003)) == "0.2424131 ±0.0000030"
    assert reproduce_table.show(Estimate(-0.00001, 0.002)) == "0.0000 ±0.0020", "no minus sign on a rounded zero"
