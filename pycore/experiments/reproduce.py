"""Reproduce the claims with numpy: a fixed-seed Monte Carlo, printed as tables and verdicts.

A row is one query q against n keys k_1..k_n, every entry an independent N(0, 1) draw; its
scores are s_j = q·k_j / c and its weights p = softmax(s), for c = 1, √d_k and d_k. For each
n, d_k and c the tables give, over the rows, the variance of the scores, the share of
saturated rows, the median largest weight, the median ‖J‖ (J = diag(p) − p pᵀ) and the median
‖∂p/∂q‖ = ‖J K‖ / c, each with its standard error. The verdicts test claims against those
numbers. Run it with ``python -m pycore.experiments.reproduce``; the build puts the same tables and
verdicts on the "Reproduce it" page.
"""

from __future__ import annotations

import functools
import itertools
import math
import time
from dataclasses import dataclass

import numpy as np

from ..rows import divisor_value

SEED = 20170612
ROWS = 1000
NS = (16, 128)
DKS = tuple(2**i for i in range(10))
DIVISORS = ("none", "sqrt", "dk")
TITLES = {"none": "no scaling", "sqrt": "÷√dₖ", "dk": "÷dₖ"}
SATURATED = 0.99
TOL = 3.0
BATCH = 1 << 20
RESOLVE = (4, 16)
"""A verdict that cannot tell a cell from its threshold (within TOL SE) at ROWS rows draws that d_k again with
these many times the rows, in turn, before it says the cell is not resolved."""
METRICS = {"saturated": "saturated share", "top": "median max pᵢ", "jac": "median ‖J‖"}
HEADERS = ("dₖ", "Var(s)", "saturated", "median max pᵢ", "median ‖J‖", "median ‖∂p/∂q‖")


@dataclass(frozen=True)
class Estimate:
    """A sample estimate and its standard error."""

    value: float
    se: float


@dataclass(frozen=True)
class Cell:
    """One line of a table: the five estimates for one n, divisor and d_k."""

    n: int
    divisor: str
    dk: int
    var: Estimate
    saturated: Estimate
    top: Estimate
    jac: Estimate
    grad: Estimate


@dataclass(frozen=True)
class Table:
    """A whole run: its seed, its rows per n and d_k, and its cells ordered by n, divisor and d_k."""

    seed: int
    rows: int
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Verdict:
    """A claim, whether the numbers bear it out, and the numbers that decide it."""

    claim: str
    margin: float
    """How many standard errors the deciding number lies inside the claim's bound (outside when negative):
    the claim holds exactly when the margin is at least 0, under the page's rule of TOL standard errors."""
    evidence: str

    @property
    def holds(self) -> bool:
        """Whether the numbers bear the claim out."""
        return self.margin >= 0


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


def mean(x: np.ndarray) -> Estimate:
    """The mean and its standard error."""
    return Estimate(float(x.mean()), float(x.std(ddof=1) / math.sqrt(len(x))))


def variance(row_mean: np.ndarray, row_square: np.ndarray) -> Estimate:
    """Variance of all scores, rows as the units: the mean of each row's mean squared deviation."""
    centre = row_mean.mean()
    return mean(row_square - 2 * centre * row_mean + centre**2)


def share(hits: np.ndarray) -> Estimate:
    """A share and its binomial standard error, with (k + 1)/(R + 2) in the error so 0 and 1 get one too."""
    smoothed = (hits.sum() + 1) / (len(hits) + 2)
    return Estimate(float(hits.mean()), math.sqrt(smoothed * (1 - smoothed) / len(hits)))


def median(x: np.ndarray) -> Estimate:
    """The median, its standard error from the 95% order-statistic interval (ranks R/2 ± 0.98√R)."""
    half = 0.98 / math.sqrt(len(x))
    lo, mid, hi = np.quantile(x, [0.5 - half, 0.5, 0.5 + half])
    return Estimate(float(mid), float(hi - lo) / 3.92)


def cell(n: int, name: str, dk: int, m: np.ndarray) -> Cell:
    """The table line for one n, divisor and d_k from its row measures."""
    return Cell(n, name, dk, variance(m[:, 0], m[:, 1]), share(m[:, 2] > SATURATED), median(m[:, 2]),
                median(m[:, 3]), median(m[:, 4]))


@functools.lru_cache(maxsize=None)
def table(seed: int = SEED, rows: int = ROWS) -> Table:
    """Every cell from one seeded generator, computed once per process."""
    rng = np.random.default_rng(seed)
    cells = {}
    for n, dk in itertools.product(NS, DKS):
        for name, m in sample(n, dk, rows, rng).items():
            cells[n, name, dk] = cell(n, name, dk, m)
    return Table(seed, rows, tuple(cells[key] for key in itertools.product(NS, DIVISORS, DKS)))


@functools.lru_cache(maxsize=None)
def redrawn(n: int, dk: int, rows: int, seed: int = SEED) -> dict[str, Cell]:
    """Every divisor's cell for one n and d_k from fresh draws of ``rows`` rows, seeded by (seed, n, d_k, rows)."""
    measures = sample(n, dk, rows, np.random.default_rng([seed, n, dk, rows]))
    return {name: cell(n, name, dk, m) for name, m in measures.items()}


def saturated_shares(divisor: str = "none", n: int = 16, dks: tuple[int, ...] = DKS) -> dict[int, Estimate]:
    """The share of saturated rows at each d_k, with its standard error, from the build's run (``table()``):
    the one source of the numbers Step 5 and this page state."""
    t = table()
    return {dk: at(t, n, divisor, dk).saturated for dk in dks}


def column(t: Table, n: int, name: str) -> list[Cell]:
    """The cells for one n and one divisor, in d_k order."""
    return [c for c in t.cells if c.n == n and c.divisor == name]


def at(t: Table, n: int, name: str, dk: int) -> Cell:
    """The cell for one n, divisor and d_k."""
    return next(c for c in column(t, n, name) if c.dk == dk)


def z(a: Estimate, b: Estimate) -> float:
    """How many standard errors of the difference a lies above b."""
    se = math.hypot(a.se, b.se)
    if se == 0:
        return 0.0 if a.value == b.value else math.copysign(math.inf, a.value - b.value)
    return (a.value - b.value) / se


def exact(value: float) -> Estimate:
    """A theoretical value, without error."""
    return Estimate(value, 0.0)


def num(x: float) -> str:
    """A number to 3 significant digits."""
    return f"{x:.3g}"


def show(e: Estimate) -> str:
    """An estimate with its standard error."""
    return f"{e.value:.3g} ±{e.se:.2g}"


def where(c: Cell) -> str:
    """Where a cell sits, in words."""
    return f"n = {c.n}, dₖ = {c.dk}"


def theory_check(t: Table, name: str) -> tuple[float, str]:
    """The margin of "Var(s) matches dₖ/c² at every n and dₖ", and the worst cell."""
    dev = {c: z(c.var, exact(c.dk / divisor_value(c.dk, name) ** 2)) for n in NS for c in column(t, n, name)}
    worst = max(dev, key=lambda c: abs(dev[c]))
    return (TOL - abs(dev[worst]),
            f"{TITLES[name].capitalize()}: furthest at {where(worst)}, {num(worst.var.value)} against "
            f"{num(worst.dk / divisor_value(worst.dk, name) ** 2)} ({dev[worst]:+.1f} SE)")


def claim_raw_variance(t: Table) -> Verdict:
    """Claim 1: without scaling Var(s) equals dₖ."""
    ok, evidence = theory_check(t, "none")
    return Verdict(f"Without scaling Var(s) equals dₖ (within {TOL:g} SE at every dₖ and n).", ok, evidence + ".")


def claim_scaled_variance(t: Table) -> Verdict:
    """Claim 2: with ÷√dₖ Var(s) is 1, with ÷dₖ it is 1/dₖ."""
    (sqrt_margin, sqrt_text), (dk_margin, dk_text) = theory_check(t, "sqrt"), theory_check(t, "dk")
    return Verdict(f"With ÷√dₖ Var(s) is 1 at every dₖ; with ÷dₖ it is 1/dₖ (within {TOL:g} SE, every n).",
                   min(sqrt_margin, dk_margin), f"{sqrt_text}; {dk_text}.")


def spread(cells: list[Cell]) -> tuple[float, str]:
    """The largest |z| between two d_k of one table over the softmax metrics, and where it is."""
    pairs = [(abs(z(getattr(a, k), getattr(b, k))), k, a, b)
             for k in METRICS for a, b in itertools.combinations(cells, 2)]
    worst, k, a, b = max(pairs, key=lambda pair: pair[0])
    return worst, (f"{METRICS[k]}, dₖ = {a.dk} against {b.dk}: {num(getattr(a, k).value)} against "
                   f"{num(getattr(b, k).value)} ({worst:.1f} SE)")


def claim_same_softmax(t: Table) -> Verdict:
    """Claim 3: with ÷√dₖ the softmax metrics agree across dₖ, for each n."""
    parts, margin = [], math.inf
    for n in NS:
        col = column(t, n, "sqrt")
        worst, text = spread(col)
        margin = min(margin, TOL - worst)
        start = next((c.dk for i, c in enumerate(col[:-1]) if spread(col[i:])[0] <= TOL), None)
        parts.append(f"n = {n}: widest gap {text}; " + (
            f"all agree from dₖ = {start} on" if start else "no run of dₖ up to the largest agrees"))
    return Verdict(f"With ÷√dₖ the softmax behaves the same at every dₖ: saturated share, median max pᵢ "
                   f"and median ‖J‖ agree across dₖ within {TOL:g} SE, for each n.", margin, ". ".join(parts) + ".")


def claim_saturation_grows(t: Table, n: int = 16, start: int = 16) -> Verdict:
    """Claim 4: without scaling the saturated share grows with dₖ from dₖ = start on."""
    col = [c for c in column(t, n, "none") if c.dk >= start]
    least = min(z(b.saturated, a.saturated) for a, b in itertools.combinations(col, 2))
    rise = z(col[-1].saturated, col[0].saturated)
    return Verdict(f"Without scaling the saturated share grows with dₖ from dₖ = {start} on (n = {n}): no fall between "
                   f"two dₖ beyond {TOL:g} SE, and a rise from the first to the last beyond {TOL:g} SE.",
                   min(least + TOL, rise - TOL),
                   f"Shares at dₖ = {', '.join(str(c.dk) for c in col)}: "
                   f"{', '.join(num(c.saturated.value) for c in col)}; smallest change from a lower to a higher dₖ "
                   f"{least:+.1f} SE; first to last {rise:+.1f} SE.")


def claim_jacobian_shrinks(t: Table) -> Verdict:
    """Claim 5: without scaling the median ‖J‖ never rises with dₖ beyond the tolerance, for each n."""
    parts, margin = [], math.inf
    for n in NS:
        a, b = max(itertools.combinations(column(t, n, "none"), 2), key=lambda pair: z(pair[1].jac, pair[0].jac))
        margin = min(margin, TOL - z(b.jac, a.jac))
        parts.append(f"n = {n}: largest rise dₖ = {a.dk} → {b.dk}, {num(a.jac.value)} → {num(b.jac.value)} "
                     f"({z(b.jac, a.jac):+.1f} SE)")
    return Verdict(f"Without scaling the median ‖J‖ shrinks as dₖ grows (no rise between two dₖ beyond "
                   f"{TOL:g} SE, for each n).", margin, "; ".join(parts) + ".")


def claim_query_gradient_vanishes(t: Table, n: int = 16, dk: int = 64) -> Verdict:
    """Claim 6: without scaling the median ‖∂p/∂q‖ at dₖ is below a tenth of its ÷√dₖ value, by more than TOL SE.

    The detail says from which dₖ it is below a tenth; a dₖ the table's rows cannot decide is drawn again
    with more rows (RESOLVE), and one that stays undecided is named as not resolved.
    """
    def gap(raw: Cell, scaled: Cell) -> tuple[float, Estimate]:
        """How many SE the unscaled median lies above a tenth of the scaled one, and that tenth."""
        tenth = Estimate(scaled.grad.value / 10, scaled.grad.se / 10)
        return z(raw.grad, tenth), tenth

    raw, scaled = at(t, n, "none", dk), at(t, n, "sqrt", dk)
    first, unresolved = None, []
    for c in column(t, n, "none"):
        cells, rows = (c, at(t, n, "sqrt", c.dk)), t.rows
        for factor in RESOLVE:
            if abs(gap(*cells)[0]) >= TOL:
                break
            rows = t.rows * factor
            again = redrawn(n, c.dk, rows, t.seed)
            cells = (again["none"], again["sqrt"])
        g, tenth = gap(*cells)
        if g <= -TOL:
            first = (cells, rows, g, tenth)
            break
        if g < TOL:
            unresolved.append(f"{c.dk} ({g:+.1f} SE at {rows:,} rows)")
    if first:
        (low, high), rows, g, tenth = first
        below = (f"it is first below a tenth by more than {TOL:g} SE at dₖ = {low.dk}: {show(low.grad)} against "
                 f"{show(tenth)}, a tenth of ÷√dₖ's {show(high.grad)} ({g:+.1f} SE, {rows:,} rows)")
    else:
        below = f"it is below a tenth by more than {TOL:g} SE at no dₖ up to {DKS[-1]}"
    if unresolved:
        below += f"; not resolved at this number of rows at dₖ = {', '.join(unresolved)}"
    g, tenth = gap(raw, scaled)
    return Verdict(f"Without scaling the median ‖∂p/∂q‖ has vanished at dₖ = {dk} (n = {n}): it is below a "
                   f"tenth of its ÷√dₖ value (by more than {TOL:g} SE).", -g - TOL,
                   f"At dₖ = {dk}: {show(raw.grad)} without scaling, {show(scaled.grad)} with ÷√dₖ, a tenth of "
                   f"which is {show(tenth)} ({g:+.1f} SE); {below}.")


def claim_dk_gradient_ratio(t: Table, factor: float = 2.0, n: int = 16, dk: int = 64) -> Verdict:
    """Claim 7: ÷dₖ gives a median ‖∂p/∂q‖ about √dₖ times smaller than ÷√dₖ (within `factor`)."""
    ratios = {}
    for m in NS:
        for a, b in zip(column(t, m, "sqrt"), column(t, m, "dk")):
            r = a.grad.value / b.grad.value / math.sqrt(a.dk)
            ratios[a] = Estimate(r, r * math.hypot(a.grad.se / a.grad.value, b.grad.se / b.grad.value))
    lo, hi = min(ratios, key=lambda c: ratios[c].value), max(ratios, key=lambda c: ratios[c].value)
    margin = min(min(TOL - z(r, exact(factor)), TOL + z(r, exact(1 / factor))) for r in ratios.values())
    s, d = at(t, n, "sqrt", dk), at(t, n, "dk", dk)
    return Verdict(f"÷dₖ gives a median ‖∂p/∂q‖ about √dₖ times smaller than ÷√dₖ: the ratio is within a "
                   f"factor {factor:g} of √dₖ at every dₖ and n (within {TOL:g} SE).", margin,
                   f"Ratio divided by √dₖ from {num(ratios[lo].value)} ({where(lo)}) to "
                   f"{num(ratios[hi].value)} ({where(hi)}); at {where(s)}: {show(s.grad)} with ÷√dₖ against "
                   f"{show(d.grad)} with ÷dₖ, ratio {num(s.grad.value / d.grad.value)}.")


def claim_jacobian_below_scaled(t: Table, dk: int = 64) -> Verdict:
    """Claim 8: without scaling the median ‖J‖ at dₖ is smaller than with ÷√dₖ, for each n."""
    pairs = [(at(t, n, "none", dk), at(t, n, "sqrt", dk)) for n in NS]
    return Verdict(f"Without scaling the median ‖J‖ at dₖ = {dk} is smaller than with ÷√dₖ (by more than {TOL:g} SE), "
                   f"for each n.",
                   min(-z(raw.jac, scaled.jac) - TOL for raw, scaled in pairs),
                   "; ".join(f"n = {raw.n}: {show(raw.jac)} without scaling, {show(scaled.jac)} with ÷√dₖ "
                             f"({z(raw.jac, scaled.jac):+.1f} SE)" for raw, scaled in pairs) + ".")


CLAIMS = (claim_raw_variance, claim_scaled_variance, claim_same_softmax, claim_saturation_grows,
          claim_jacobian_shrinks, claim_query_gradient_vanishes, claim_dk_gradient_ratio, claim_jacobian_below_scaled)


def verdicts(t: Table) -> list[Verdict]:
    """Every claim, decided from the table's numbers."""
    return [claim(t) for claim in CLAIMS]


def settings(t: Table) -> str:
    """The run's seed and sizes, the saturation threshold and the tolerance."""
    return (f"Seed {t.seed}; {t.rows} rows for each n and dₖ; n = {' and '.join(map(str, NS))} keys; "
            f"dₖ = {', '.join(map(str, DKS))}. A row is saturated when its largest weight is above "
            f"{SATURATED:g}. Values are ± one standard error; claims allow {TOL:g} SE.")


def values(c: Cell) -> list[str]:
    """A table line's values as printed."""
    return [str(c.dk), show(c.var), show(c.saturated), show(c.top), show(c.jac), show(c.grad)]


def title(n: int, name: str) -> str:
    """The heading of one table."""
    return f"{n} keys, {TITLES[name]}"


def outcome(v: Verdict) -> str:
    """A verdict's outcome in words."""
    return "holds" if v.holds else "does not hold"


def markdown(t: Table) -> str:
    """Settings, verdicts and tables as Markdown, for the site."""
    out = ["## Settings", "", settings(t), "", "## Verdicts", ""]
    out += [f"{i}. {v.claim} **{outcome(v).capitalize()}.** {v.evidence}"
            for i, v in enumerate(verdicts(t), 1)]
    out += ["", "## Tables"]
    for n, name in itertools.product(NS, DIVISORS):
        out += ["", f"### {title(n, name)}", "", "| " + " | ".join(HEADERS) + " |",
                "|" + " ---: |" * len(HEADERS)]
        out += ["| " + " | ".join(values(c)) + " |" for c in column(t, n, name)]
    return "\n".join(out)


def grid(lines: list[list[str]]) -> str:
    """Lines of cells as right-aligned plain text."""
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    return "\n".join("  ".join(c.rjust(w) for c, w in zip(line, widths)) for line in lines)


def text(t: Table) -> str:
    """Settings, tables and verdicts as plain text, for the terminal."""
    out = [settings(t)]
    for n, name in itertools.product(NS, DIVISORS):
        out += ["", title(n, name), grid([list(HEADERS)] + [values(c) for c in column(t, n, name)])]
    out += ["", "Verdicts"]
    out += [f"{i}. [{outcome(v)}] {v.claim}\n   {v.evidence}" for i, v in enumerate(verdicts(t), 1)]
    return "\n".join(out)


if __name__ == "__main__":
    started = time.perf_counter()
    result = table()
    print(text(result))
    print(f"\nThe tables took {time.perf_counter() - started:.2f} s to compute.")
