"""The rule that keeps CPython and Pyodide bit-identical, checked on the source.

Code that draws samples or computes numbers from them must take exp and log from detmath and
sum with explicit loops or math.fsum; only closed-form curves, drawn to 0.01 px, may use math.
"""

import ast

import pytest

from tests.conftest import ROOT

SAMPLING = ("sampling", "pool", "rows", "long_rows", "operating", "softmax", "stats", "train")
"""Modules whose results must agree bit for bit."""
CURVES = ("density",)
"""Modules allowed the C library's transcendental functions."""
LIBM = {"exp", "expm1", "log", "log1p", "log2", "log10", "pow", "sin", "cos", "tan", "tanh", "atan", "atan2",
        "cosh", "sinh", "lgamma", "gamma", "erf", "erfc"}


def calls(module: str) -> list[str]:
    """Every called name in a pycore module, as 'math.exp', 'sum', 'rng.gauss', ..."""
    tree = ast.parse((ROOT / "pycore" / f"{module}.py").read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name):
                out.append(f.id)
            elif isinstance(f, ast.Attribute):
                out.append(f"{f.value.id}.{f.attr}" if isinstance(f.value, ast.Name) else f.attr)
    return out


@pytest.mark.parametrize("module", SAMPLING)
def test_sampling_code_avoids_what_differs_between_runtimes(module):
    used = calls(module)
    assert not [c for c in used if c.startswith("math.") and c[5:] in LIBM], "use pycore.detmath"
    assert "sum" not in used, "the built-in sum() of floats changed in Python 3.12: loop or math.fsum"
    assert not [c for c in used if c.endswith("gauss") or c.endswith("normalvariate")], "use sampling.normals"


def test_curves_may_use_the_c_library():
    assert any(c.startswith("math.") and c[5:] in LIBM for module in CURVES for c in calls(module))
