"""Writing the "Reproduce it" verdicts: each claim decided from the table's numbers, with the numbers that
decide it, so a claim that stops holding says so on the page. Each sentence is one message in the current
language, its numbers formatted here and passed in."""

from __future__ import annotations

import itertools
import math

from ..i18n import _, clauses
from ..rows import divisor_value
from .reproduce_run import DKS, LEADS, METRICS, NS, RESOLVE, TOL, Cell, Estimate, Table, Verdict
from .reproduce_table import at, column, exact, num, redrawn, show, where, z


def tolerance() -> str:
    """The claims' tolerance as printed: 3."""
    return f"{TOL:g}"


def distance(x: float) -> str:
    """A distance in standard errors as printed, with its sign: +1.2."""
    return f"{x:+.1f}"


def sentence(items: list[str]) -> str:
    """Items joined by semicolons, as one sentence."""
    # i18n: a sentence made of clauses; only its end is yours to change.
    return _("{items}.").format(items=clauses(items))


def theory_check(t: Table, name: str) -> tuple[float, str]:
    """The margin of "Var(s) matches dₖ/c² at every n and dₖ", and the worst cell."""
    dev = {c: z(c.var, exact(c.dk / divisor_value(c.dk, name) ** 2)) for n in NS for c in column(t, n, name)}
    worst = max(dev, key=lambda c: abs(dev[c]))
    return (TOL - abs(dev[worst]),
            _("{divisor}: furthest at {where}, {value} against {theory} ({distance} SE)").format(
                divisor=_(LEADS[name]), where=where(worst), value=num(worst.var.value),
                theory=num(worst.dk / divisor_value(worst.dk, name) ** 2), distance=distance(dev[worst])))


def claim_raw_variance(t: Table) -> Verdict:
    """Claim 1: without scaling Var(s) equals dₖ."""
    ok, evidence = theory_check(t, "none")
    return Verdict(_("Without scaling Var(s) equals dₖ (within {tol} SE at every dₖ and n).").format(tol=tolerance()),
                   ok, sentence([evidence]))


def claim_scaled_variance(t: Table) -> Verdict:
    """Claim 2: with ÷√dₖ Var(s) is 1, with ÷dₖ it is 1/dₖ."""
    (sqrt_margin, sqrt_text), (dk_margin, dk_text) = theory_check(t, "sqrt"), theory_check(t, "dk")
    return Verdict(_("With ÷√dₖ Var(s) is 1 at every dₖ; with ÷dₖ it is 1/dₖ (within {tol} SE, every n).").format(
        tol=tolerance()), min(sqrt_margin, dk_margin), sentence([sqrt_text, dk_text]))


def spread(cells: list[Cell]) -> tuple[float, str]:
    """The largest |z| between two d_k of one table over the softmax metrics, and where it is."""
    pairs = [(abs(z(getattr(a, k), getattr(b, k))), k, a, b)
             for k in METRICS for a, b in itertools.combinations(cells, 2)]
    worst, k, a, b = max(pairs, key=lambda pair: pair[0])
    return worst, _("{metric}, dₖ = {dk} against {other}: {value} against {other_value} ({distance} SE)").format(
        metric=_(METRICS[k]), dk=a.dk, other=b.dk, value=num(getattr(a, k).value),
        other_value=num(getattr(b, k).value), distance=f"{worst:.1f}")


def claim_same_softmax(t: Table) -> Verdict:
    """Claim 3: with ÷√dₖ the softmax metrics agree across dₖ, for each n."""
    parts, margin = [], math.inf
    for n in NS:
        col = column(t, n, "sqrt")
        worst, text = spread(col)
        margin = min(margin, TOL - worst)
        start = next((c.dk for i, c in enumerate(col[:-1]) if spread(col[i:])[0] <= TOL), None)
        parts.append(_("n = {n}: widest gap {gap}; from dₖ = {start} on, no two dₖ differ by more than {tol} SE: with "
                       "{rows} rows, no difference is detectable.").format(
                         n=n, gap=text, start=start, tol=tolerance(), rows=f"{t.rows:,}")
                     if start else
                     _("n = {n}: widest gap {gap}; no run of dₖ up to the largest agrees.").format(n=n, gap=text))
    return Verdict(_("With ÷√dₖ the softmax behaves the same at every dₖ: saturated share, median max pᵢ and median "
                     "‖J‖ agree across dₖ within {tol} SE, for each n.").format(tol=tolerance()),
                   margin, " ".join(parts))


def claim_saturation_grows(t: Table, n: int = 16, start: int = 16) -> Verdict:
    """Claim 4: without scaling the saturated share grows with dₖ from dₖ = start on."""
    col = [c for c in column(t, n, "none") if c.dk >= start]
    least = min(z(b.saturated, a.saturated) for a, b in itertools.combinations(col, 2))
    rise = z(col[-1].saturated, col[0].saturated)
    return Verdict(_("Without scaling the saturated share grows with dₖ from dₖ = {start} on (n = {n}): no fall "
                     "between two dₖ beyond {tol} SE, and a rise from the first to the last beyond {tol} SE.").format(
                       start=start, n=n, tol=tolerance()),
                   min(least + TOL, rise - TOL),
                   _("Shares at dₖ = {dks}: {shares}; smallest change from a lower to a higher dₖ {least} SE; first "
                     "to last {rise} SE.").format(dks=", ".join(str(c.dk) for c in col),
                                                  shares=", ".join(num(c.saturated.value) for c in col),
                                                  least=distance(least), rise=distance(rise)))


def claim_jacobian_shrinks(t: Table) -> Verdict:
    """Claim 5: without scaling the median ‖J‖ never rises with dₖ beyond the tolerance, for each n."""
    parts, margin = [], math.inf
    for n in NS:
        a, b = max(itertools.combinations(column(t, n, "none"), 2), key=lambda pair: z(pair[1].jac, pair[0].jac))
        margin = min(margin, TOL - z(b.jac, a.jac))
        parts.append(_("n = {n}: largest rise dₖ = {dk} → {other}, {value} → {other_value} ({distance} SE)").format(
            n=n, dk=a.dk, other=b.dk, value=num(a.jac.value), other_value=num(b.jac.value),
            distance=distance(z(b.jac, a.jac))))
    return Verdict(_("Without scaling the median ‖J‖ shrinks as dₖ grows (no rise between two dₖ beyond {tol} SE, "
                     "for each n).").format(tol=tolerance()), margin, sentence(parts))


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
            unresolved.append(_("{dk} ({distance} SE at {rows} rows)").format(dk=c.dk, distance=distance(g),
                                                                               rows=f"{rows:,}"))
    if first:
        (low, high), rows, g, tenth = first
        drawn = (_("{rows} rows").format(rows=f"{rows:,}") if rows == t.rows else
                 _("a fresh draw of {rows} rows, since the table's {table_rows} could not tell it from a tenth, so "
                   "these numbers are not the table's").format(rows=f"{rows:,}", table_rows=f"{t.rows:,}"))
        below = _("it is first below a tenth by more than {tol} SE at dₖ = {dk}: {value} against {tenth}, a tenth of "
                  "÷√dₖ's {scaled} ({distance} SE, {drawn})").format(
            tol=tolerance(), dk=low.dk, value=show(low.grad), tenth=show(tenth), scaled=show(high.grad),
            distance=distance(g), drawn=drawn)
    else:
        below = _("it is below a tenth by more than {tol} SE at no dₖ up to {dk}").format(tol=tolerance(), dk=DKS[-1])
    if unresolved:
        # i18n: {below} is the clause before it, which says where the gradient is first below a tenth.
        below = _("{below}; not resolved at this number of rows at dₖ = {cells}").format(
            below=below, cells=", ".join(unresolved))
    g, tenth = gap(raw, scaled)
    return Verdict(_("Without scaling the median ‖∂p/∂q‖ has vanished at dₖ = {dk} (n = {n}): it is below a tenth of "
                     "its ÷√dₖ value (by more than {tol} SE).").format(dk=dk, n=n, tol=tolerance()), -g - TOL,
                   _("At dₖ = {dk}: {raw} without scaling, {scaled} with ÷√dₖ, a tenth of which is {tenth} "
                     "({distance} SE); {below}.").format(dk=dk, raw=show(raw.grad), scaled=show(scaled.grad),
                                                         tenth=show(tenth), distance=distance(g), below=below))


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
    return Verdict(_("÷dₖ gives a median ‖∂p/∂q‖ about √dₖ times smaller than ÷√dₖ: the ratio is within a factor "
                     "{factor} of √dₖ at every dₖ and n (within {tol} SE).").format(factor=f"{factor:g}",
                                                                                   tol=tolerance()), margin,
                   _("Ratio divided by √dₖ from {low} ({low_where}) to {high} ({high_where}); at {where}: {sqrt} with "
                     "÷√dₖ against {dk} with ÷dₖ, ratio {ratio}.").format(
                       low=num(ratios[lo].value), low_where=where(lo), high=num(ratios[hi].value),
                       high_where=where(hi), where=where(s), sqrt=show(s.grad), dk=show(d.grad),
                       ratio=num(s.grad.value / d.grad.value)))


def claim_jacobian_below_scaled(t: Table, dk: int = 64) -> Verdict:
    """Claim 8: without scaling the median ‖J‖ at dₖ is smaller than with ÷√dₖ, for each n."""
    pairs = [(at(t, n, "none", dk), at(t, n, "sqrt", dk)) for n in NS]
    return Verdict(_("Without scaling the median ‖J‖ at dₖ = {dk} is smaller than with ÷√dₖ (by more than {tol} SE), "
                     "for each n.").format(dk=dk, tol=tolerance()),
                   min(-z(raw.jac, scaled.jac) - TOL for raw, scaled in pairs),
                   sentence([_("n = {n}: {raw} without scaling, {scaled} with ÷√dₖ ({distance} SE)").format(
                       n=raw.n, raw=show(raw.jac), scaled=show(scaled.jac), distance=distance(z(raw.jac, scaled.jac)))
                       for raw, scaled in pairs]))


CLAIMS = (claim_raw_variance, claim_scaled_variance, claim_same_softmax, claim_saturation_grows,
          claim_jacobian_shrinks, claim_query_gradient_vanishes, claim_dk_gradient_ratio, claim_jacobian_below_scaled)


def verdicts(t: Table) -> list[Verdict]:
    """Every claim, decided from the table's numbers."""
    return [claim(t) for claim in CLAIMS]
