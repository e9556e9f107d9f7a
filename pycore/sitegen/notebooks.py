"""The Reproduce page's and the training grid's own Jupyter notebooks, written with nbformat at build time.

Each notebook is stand-alone (numpy only): a Markdown cell that says what it computes and links to its
page, a cell of parameters a reader may shrink to run faster, the experiment's code taken from its modules'
source (so the notebook cannot drift from what the build ran), and a cell that prints the table.
``tests/unit/test_notebooks.py`` runs both on a Jupyter kernel and compares what they print with the
experiments' own output for the same sizes.
"""

from __future__ import annotations

import inspect
import re

import nbformat
from nbformat import v4

from pycore import train
from pycore.experiments import (
    model, reproduce, reproduce_draw, reproduce_run, reproduce_table, reproduce_verdicts, train_grid,
)
from pycore.figures import _snippet
from pycore.i18n import _

REPRODUCE, TRAIN_GRID = "reproduce.ipynb", "train-grid.ipynb"
"""Their file names at the site root."""
REPRODUCE_MODULES = (reproduce_run, reproduce_draw, reproduce_table, reproduce_verdicts, reproduce)
"""The reproduction's modules, each one job of it, in the order their definitions read as one program."""


def _notebook(cells: list) -> nbformat.NotebookNode:
    """A notebook of these cells with stable ids, a Python 3 kernel named, validated."""
    nb = v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"}})
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i}"
    nbformat.validate(nb)
    return nb


def _module_code(module) -> str:
    """A module's source without its docstring, imports and ``__main__`` block: its definitions."""
    source = inspect.getsource(module)
    body = source.split('"""', 2)[2]
    body = body.split('\nif __name__ == "__main__":')[0]
    return "\n".join(line for line in body.split("\n")
                     if not line.startswith(("from ", "import "))).strip("\n")


UNTRANSLATED = '''def _(message):
    """A message as the code writes it: the site gives each in the reader's language, the notebook in English."""
    return message


N_ = _


def clauses(items):
    """Clauses of one sentence, joined as English joins them."""
    return "; ".join(items)'''
"""The site's translation functions (``pycore.i18n``) as the notebook defines them: the code it copies wraps every
message it prints in them and joins clauses with them, and a notebook prints in English."""


def reproduce_notebook(page_url: str) -> nbformat.NotebookNode:
    """The numpy Monte Carlo of the Reproduce page: its settings, tables and verdicts, printed."""
    intro = "\n\n".join([
        "# " + _("Reproduce it: the numpy Monte Carlo"),
        _("The code that builds the tables and verdicts of the site's page [Reproduce it]({url}), copied from "
          "`pycore/experiments/reproduce*.py`. Run all the cells; with fewer `ROWS` it runs faster and its standard "
          "errors grow.").format(url=page_url)])
    divisor = inspect.getsource(__import__("pycore.rows", fromlist=["divisor_value"]).divisor_value)
    code = "\n\n\n".join(_module_code(module) for module in REPRODUCE_MODULES)
    return _notebook([
        v4.new_markdown_cell(intro),
        v4.new_code_cell("import functools\nimport itertools\nimport math\nimport time\n"
                         "from dataclasses import dataclass\n\nimport numpy as np"),
        v4.new_code_cell("# Numbers printed as the site prints them.\n" + _snippet.FMT + "\n\n" + _snippet.SIG.rstrip()),
        v4.new_code_cell(f"# The reproduction's code.\n{UNTRANSLATED}\n\n\n{divisor}\n\n{code}"),
        v4.new_code_cell(f"# Parameters: the seed and the rows drawn for each n and d_k.\n"
                         f"SEED = {reproduce_run.SEED}\nROWS = {reproduce_run.ROWS}"),
        v4.new_code_cell("print(text(table(SEED, ROWS)))"),
    ])


MODEL_FUNCTIONS = ("data", "weights", "forward", "stuck_rows", "signal", "Adam", "Runs", "simulate", "_sgd", "_adam")


def _model_code() -> str:
    """The training model's functions from pycore/experiments/model.py, the core's constants by their own names."""
    parts = []
    for name in MODEL_FUNCTIONS:
        source = inspect.getsource(getattr(model, name))
        source = re.sub(r"^@functools\.lru_cache\([^)]*\)\n", "", source)
        parts.append(source.replace("train.", "").rstrip("\n"))
    return "\n\n\n".join(parts)


TABLE = '''NAMES = {"none": "unscaled", "sqrt": "÷√dₖ", "dk": "÷dₖ"}
OPTIMIZER_NAMES = {"sgd": "SGD", "adam": "Adam"}


def percent(x):
    return f"{fmt(100 * x, 1)}%"


lines = [list(HEADERS)]
for optimizer in ("sgd", "adam"):
    for dk in DKS:
        runs = simulate(optimizer, dk, np.array([LR[optimizer]]), data(SEEDS, STEPS), weights(dk, SEEDS))
        for i, divisor in enumerate(DIVISORS):
            run, sat, stuck = (v[:, 0, i] for v in (runs.losses, runs.saturated, runs.stuck))
            final = run[:, -TAIL:].mean(axis=-1)
            lines.append([OPTIMIZER_NAMES[optimizer], str(dk), NAMES[divisor], sig(float(np.median(run[:, 0])), 3),
                          sig(float(np.median(final)), 3), f"{sig(final.min(), 3)}–{sig(final.max(), 3)}",
                          percent(float(np.median(sat[:, -TAIL:].mean(axis=-1)))),
                          f"{percent(float(np.median(stuck[:, :TAIL].mean(axis=-1))))} → "
                          f"{percent(float(np.median(stuck[:, -TAIL:].mean(axis=-1))))}",
                          f"{int((~np.isfinite(run[:, -1])).sum())} of {len(SEEDS)}"])
widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
print("\\n".join("  ".join(c.rjust(w) for c, w in zip(line, widths)) for line in lines))'''


def train_grid_notebook(page_url: str) -> nbformat.NotebookNode:
    """The training grid: the tiny attention layer trained with each divisor and optimizer, its table printed."""
    intro = "\n\n".join([
        "# " + _("Train it yourself: the training grid"),
        _("The table of the site's page [Train it yourself]({url}): a tiny attention layer trained with no divisor, "
          "÷√dₖ and ÷dₖ, with SGD and Adam, at the default learning rates (÷√dₖ's own best at dₖ = 64), over several "
          "seeds. The model is copied from `pycore/experiments/model.py`. Fewer `SEEDS` or `STEPS` run faster.").format(
            url=page_url)])
    constants = (f"from typing import NamedTuple\n\nimport numpy as np\n\nD, N, BATCH, SIGMA = {train.D}, {train.N}, {train.BATCH}, {train.SIGMA!r}\n"
                 "QUERY_SCALE = 1 / np.sqrt(1 + SIGMA * SIGMA)  # the query input rescaled to unit variance\n"
                 f"SATURATED = {train.SATURATED!r}\nBETA1, BETA2, EPS = {train.BETA1!r}, {train.BETA2!r}, {train.EPS!r}\n"
                 f"LR = {dict(train.LR)!r}\nDIVISORS = {train.DIVISORS!r}\nTAIL = {model.TAIL}\n"
                 f"HEADERS = {train_grid.HEADERS!r}\n\n\n"
                 "def divisors(dk):\n    \"\"\"c for each divisor: 1, √d_k and d_k.\"\"\"\n"
                 "    return np.array([1.0, np.sqrt(dk), float(dk)])")
    return _notebook([
        v4.new_markdown_cell(intro),
        v4.new_code_cell(constants),
        v4.new_code_cell(f"# Parameters: the seeds, the steps of each run and the widths.\n"
                         f"SEEDS = tuple(range({model.SEEDS[0]}, {model.SEEDS[-1] + 1}))\nSTEPS = {train.STEPS}\n"
                         f"DKS = {model.DKS!r}"),
        v4.new_code_cell(f"# The model, vectorized over seeds, learning rates and divisors.\n{_model_code()}"),
        v4.new_code_cell("# Numbers printed as the site prints them.\n" + _snippet.FMT + "\n\n" + _snippet.SIG.rstrip()),
        v4.new_code_cell(TABLE),
    ])


def text(nb: nbformat.NotebookNode) -> str:
    """A notebook as its file's text."""
    return nbformat.writes(nb) + "\n"
