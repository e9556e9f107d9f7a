"""Writing the "Reproduce it" verdicts: each claim decided from the table's numbers, with the numbers that
decide it, so a claim that stops holding says so on the page."""

from __future__ import annotations

import itertools
import math

from ..rows import divisor_value
from .reproduce_run import DKS, METRICS, NS, RESOLVE, TITLES, TOL, Cell, Estimate, Table, Verdict
from .reproduce_table import at, column, exact, num, redrawn, show, where, z


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
        drawn = (f"{rows:,} rows" if rows == t.rows else
                 f"a fresh draw of {rows:,} rows, since the table's {t.rows:,} could not tell it from a tenth, so "
                 "these numbers are not the table's")
        below = (f"it is first below a tenth by more than {TOL:g} SE at dₖ = {low.dk}: {show(low.grad)} against "
                 f"{show(tenth)}, a tenth of ÷√dₖ's {show(high.grad)} ({g:+.1f} SE, {drawn})")
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
