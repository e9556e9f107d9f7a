"""A figure's Copy-as-Python script as a Jupyter notebook (nbformat 4.5) for its current state.

Cells: a Markdown cell with the figure's title, its state and a link back to its page; the import;
the parameters; the helpers the script calls; the computation; the printed readouts. The cells are
the script's own sections (``pycore.figures._snippet.Script``), so the notebook prints exactly what
Copy as Python prints. Standard library only: the browser builds the notebook for the state on screen
through the bridge's ``notebook`` operation; ``tests/unit/test_notebooks.py`` validates every one with
``nbformat`` and runs them on a Jupyter kernel.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from . import figures
from .i18n import _

NBFORMAT, NBFORMAT_MINOR = 4, 5
KERNEL = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
          "language_info": {"name": "python"}}


def markdown_cell(source: str, index: int) -> dict[str, Any]:
    """A Markdown cell with a stable id."""
    return {"cell_type": "markdown", "id": f"cell-{index}", "metadata": {}, "source": source}


def code_cell(source: str, index: int) -> dict[str, Any]:
    """A code cell with a stable id, not yet run."""
    return {"cell_type": "code", "id": f"cell-{index}", "metadata": {}, "execution_count": None, "outputs": [],
            "source": source}


def state_text(params: Mapping[str, str]) -> str:
    """The state as Markdown: ``dk = 64``, ``divisor = sqrt``."""
    return ", ".join(f"`{name} = {value}`" for name, value in params.items())


def figure_notebook(figure_id: str, state: Any, url: str) -> dict[str, Any]:
    """The notebook of one figure in one state; ``url`` links back to the figure on its page. Its Markdown is in
    the current language, its code as Copy as Python gives it."""
    module = figures.get(figure_id)
    sections = module.snippet(state).sections
    intro = "\n\n".join([
        f"# {_(module.TITLE)}",
        _("The numbers of the figure, recomputed with numpy for the state {state}.").format(
            state=state_text(figures.state_params(state))),
        _("[Back to the figure on its page]({url})").format(url=url),
        _("Change the parameters in the second code cell and run all the cells again.")])
    sources = [("markdown", intro), ("code", sections["header"]), ("code", sections["parameters"]),
               ("code", sections["helpers"]), ("code", sections["computation"]), ("code", sections["readouts"])]
    cells = [(markdown_cell if kind == "markdown" else code_cell)(text, i)
             for i, (kind, text) in enumerate((k, s) for k, s in sources if s.strip())]
    return {"nbformat": NBFORMAT, "nbformat_minor": NBFORMAT_MINOR, "metadata": dict(KERNEL), "cells": cells}


def dumps(notebook: Mapping[str, Any]) -> str:
    """The notebook as a file's text, as Jupyter writes it (one-space indent, UTF-8 kept)."""
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"
