"""Reproduce the claims with numpy: a fixed-seed Monte Carlo, printed as tables and verdicts.

A row is one query q against n keys k_1..k_n, every entry an independent N(0, 1) draw; its
scores are s_j = q·k_j / c and its weights p = softmax(s), for c = 1, √d_k and d_k. For each
n, d_k and c the tables give, over the rows, the variance of the scores, the share of
saturated rows, the median largest weight, the median ‖J‖ (J = diag(p) − p pᵀ) and the median
‖∂p/∂q‖ = ‖J K‖ / c, each with its standard error. The verdicts test claims against those
numbers. Run it with ``python -m pycore.experiments.reproduce``; the build puts the same tables and
verdicts on the "Reproduce it" page.

This module writes them out, for the page and the terminal; each job of the run is a module of its own, in
the order they run: ``reproduce_run`` (the settings and the records passed on), ``reproduce_draw`` (drawing
the samples), ``reproduce_table`` (computing the table) and ``reproduce_verdicts`` (deciding the claims).
Every sentence and heading is a message in the current language (``pycore.i18n``); the terminal gets English.
"""

from __future__ import annotations

import itertools
import time

from ..i18n import _
from .reproduce_run import DIVISORS, DKS, HEADERS, NS, SATURATED, TITLES, Cell, Table, Verdict
from .reproduce_table import column, show, table
from .reproduce_verdicts import tolerance, verdicts


def listed(items: list[str]) -> str:
    """a; a and b; a, b and c."""
    return items[0] if len(items) == 1 else _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


def settings(t: Table) -> str:
    """The run's seed and sizes, the saturation threshold and the tolerance."""
    return _("Seed {seed}; {rows} rows for each n and dₖ; n = {ns} keys; dₖ = {dks}. A row is saturated when its "
             "largest weight is above {saturated}. Values are ± one standard error; claims allow {tol} SE.").format(
        seed=t.seed, rows=t.rows, ns=listed(list(map(str, NS))), dks=", ".join(map(str, DKS)),
        saturated=f"{SATURATED:g}", tol=tolerance())


def values(c: Cell) -> list[str]:
    """A table line's values as printed."""
    return [str(c.dk), show(c.var), show(c.saturated), show(c.top), show(c.jac), show(c.grad)]


def title(n: int, name: str) -> str:
    """The heading of one table."""
    # i18n: a table's heading: "16 keys, no scaling", "128 keys, ÷√dₖ".
    return _("{n} keys, {divisor}").format(n=n, divisor=_(TITLES[name]))


def headers() -> list[str]:
    """The tables' column headings."""
    return [_(h) for h in HEADERS]


def outcome(v: Verdict) -> str:
    """A verdict's outcome in words."""
    # i18n: a claim's outcome, in brackets before it in the printed verdicts: "[holds]", "[does not hold]".
    return _("holds") if v.holds else _("does not hold")


def outcome_sentence(v: Verdict) -> str:
    """A verdict's outcome as the page's bold sentence gives it."""
    return _("Holds.") if v.holds else _("Does not hold.")


def markdown(t: Table) -> str:
    """Settings, verdicts and tables as Markdown, for the site."""
    out = ["## " + _("Settings"), "", settings(t), "", "## " + _("Verdicts"), ""]
    out += [f"{i}. {v.claim} **{outcome_sentence(v)}** {v.evidence}"
            for i, v in enumerate(verdicts(t), 1)]
    out += ["", "## " + _("Tables")]
    for n, name in itertools.product(NS, DIVISORS):
        out += ["", f"### {title(n, name)}", "", "| " + " | ".join(headers()) + " |",
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
        out += ["", title(n, name), grid([headers()] + [values(c) for c in column(t, n, name)])]
    out += ["", _("Verdicts")]
    out += [f"{i}. [{outcome(v)}] {v.claim}\n   {v.evidence}" for i, v in enumerate(verdicts(t), 1)]
    return "\n".join(out)


if __name__ == "__main__":
    started = time.perf_counter()
    result = table()
    print(text(result))
    print(f"\nThe tables took {time.perf_counter() - started:.2f} s to compute.")
