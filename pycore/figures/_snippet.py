"""Copy as Python: the pieces every figure's ``snippet(state)`` is assembled from.

A snippet is a stand-alone script that imports numpy and nothing of this project. It prints
the figure's readouts one per line as ``name: value``, with the names and in the order of the
figure's ``READOUTS``. A deterministic figure's lines equal its readouts character for
character. A sampled figure's script draws its own sample with ``np.random.default_rng(seed)``
at the figure's sizes and says so in a comment on top; a sampled readout with a closed form is
followed by the line ``expected <name>: value``, the exact value the sample estimates.

The scripts are only text here, so pycore stays standard-library only. Each helper a script
needs is written once below and included when the script's body calls it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

SAMPLED = "# A fresh numpy sample: its numbers match the figure's only within sampling error."

FMT = '''def fmt(x, digits=2):
    """x with at most `digits` decimals, no trailing zeros and no "-0", as the figure prints it."""
    text = "NaN" if x != x else f"{x:.{digits}f}"
    text = text.rstrip("0").rstrip(".") if "." in text else text
    return "0" if text == "-0" else text
'''

SIG = '''def sig(x, digits=4):
    """x to `digits` significant digits as a plain decimal, as the figure prints it: two below 0.0001,
    "< 0.000001" below that, thousands grouped from 1,000,000."""
    if x == 0 or not np.isfinite(x):
        return fmt(x)
    if abs(x) < 1e-6:
        return "< 0.000001" if x > 0 else "> -0.000001"
    digits = min(digits, 2) if abs(x) < 1e-4 else digits
    if abs(x) >= 1e6:
        mantissa, exponent = f"{x:.{digits - 1}e}".split("e")
        zeros = int(exponent) + 1 - digits
        if zeros < 0:
            return f"{x:,.0f}"
        return ("-" if x < 0 else "") + f"{int(mantissa.replace('.', '').lstrip('-') + '0' * zeros):,}"
    return fmt(x, max(0, digits - 1 - int(np.floor(np.log10(abs(x))))))
'''

SOFTMAX = '''def softmax(s):
    """e^s / sum(e^s), the largest score subtracted first so that nothing overflows."""
    e = np.exp(s - s.max())
    return e / e.sum()
'''

JACOBIAN_NORM = '''def jacobian_norm(p):
    """Frobenius norm of the softmax's Jacobian diag(p) - p p^T."""
    J = np.diag(p) - np.outer(p, p)
    top = p.argmax()
    J[top, top] = p[top] * np.delete(p, top).sum()  # 1 - p[top] summed from the others: a spike keeps its digits
    return np.linalg.norm(J)
'''

ENTROPY = '''def entropy(p):
    """Shannon entropy in nats, with 0 log 0 = 0."""
    p = p[p > 0]
    return -np.sum(p * np.log(p))
'''

HELPERS = (("fmt", FMT), ("sig", SIG), ("softmax", SOFTMAX), ("jacobian_norm", JACOBIAN_NORM), ("entropy", ENTROPY))
"""Each helper after the ones it calls."""

DIVIDE = 'c = {"none": 1.0, "sqrt": np.sqrt(dk), "dk": dk}[divisor]  # what the scores are divided by\n'
DIVISOR_NOTE = "none, sqrt (divide by the square root of dk) or dk"


def literal(value: Any) -> str:
    """A parameter's value as Python source: a tuple becomes a numpy array."""
    if isinstance(value, tuple):
        return f"np.array([{', '.join(repr(float(v)) for v in value)}])"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def helpers(body: str) -> list[str]:
    """The sources of the helpers ``body`` calls, directly or through another helper, in HELPERS order."""
    text, chosen = body, []
    for name, source in reversed(HELPERS):
        if re.search(rf"\b{name}\(", text):
            chosen.insert(0, source)
            text += source
    return chosen


class Script(str):
    """A snippet's text, which also knows its sections, so a notebook can put each in a cell of its own."""

    sections: dict[str, str]
    """header (comments and the import), parameters, helpers (may be empty), computation, readouts (the prints)."""


def split_readouts(body: str) -> tuple[str, str]:
    """A body's computation and its closing prints: the trailing top-level statements that start with
    ``print(`` or ``for name in`` (each with its indented lines)."""
    lines = body.rstrip("\n").split("\n")
    cut = len(lines)
    i = len(lines)
    while i > 0:
        start = i - 1
        while start > 0 and lines[start][:1] in (" ", "\t"):
            start -= 1
        if not lines[start].startswith(("print(", "for name in ")):
            break
        cut = i = start
    return "\n".join(lines[:cut]).rstrip("\n"), "\n".join(lines[cut:])


def script(title: str, params: Mapping[str, Any], body: str, notes: Mapping[str, str] | None = None,
           sampled: bool = False) -> Script:
    """A stand-alone numpy script: a header, the parameters as named variables, the helpers it calls, the body."""
    notes = notes or {}
    head = [f"# {title} — the figure's numbers, recomputed with numpy.", *([SAMPLED] if sampled else []),
            "import numpy as np"]
    names = [f"{name} = {literal(value)}" + (f"  # {notes[name]}" if name in notes else "")
             for name, value in params.items()]
    computation, readouts = split_readouts(body)
    sections = {"header": "\n".join(head), "parameters": "\n".join(names),
                "helpers": "\n\n".join(h.rstrip("\n") for h in helpers(body)), "computation": computation,
                "readouts": readouts}
    text = Script("\n\n".join(s.rstrip("\n") for s in ["\n".join(head), "\n".join(names), *helpers(body), body])
                  + "\n")
    text.sections = sections
    return text
