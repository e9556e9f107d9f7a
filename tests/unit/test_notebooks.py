"""Download notebook: every figure's notebook, and the Reproduce and training-grid notebooks, run on a Jupyter
kernel (nbclient, ipykernel) and print what the figure or the experiment prints."""

from __future__ import annotations

import copy
import json

import nbformat
import pytest
from jupyter_client import KernelManager
from nbclient import NotebookClient

from pycore import bridge, figures, notebook, train
from pycore.experiments import reproduce, reproduce_run, reproduce_table, train_grid, train_runs
from pycore.sitegen import notebooks
from tests.unit.test_snippets import CASES, check_printed

URL = "https://example.org/course/step-6/#fig-score-histogram?dk=64"


@pytest.fixture(scope="module")
def kernel():
    """One ipykernel for the whole module (each notebook starts with a reset), shut down at the end."""
    km = KernelManager(kernel_name="python3")
    km.start_kernel()
    yield km
    km.shutdown_kernel(now=True)


def execute(nb, km) -> list[str]:
    """Run a copy of the notebook on the kernel, its namespace emptied first; each code cell's printed text."""
    nb = copy.deepcopy(nb)
    nb.cells.insert(0, nbformat.v4.new_code_cell("%reset -f", id="reset"))
    NotebookClient(nb, km=km, timeout=300, allow_errors=False).execute()
    return ["".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream" and o.name == "stdout")
            for cell in nb.cells[1:] if cell.cell_type == "code"]


def lines(text: str) -> list[tuple[str, str]]:
    out = text.splitlines()
    assert all(": " in line for line in out), text
    return [tuple(line.split(": ", 1)) for line in out]  # type: ignore[misc]


@pytest.mark.parametrize("fid,state", CASES)
def test_a_figures_notebook_prints_the_figures_readouts(fid, state, kernel):
    answer = json.loads(bridge.handle(json.dumps({"op": "notebook", "figure": fid, "state": figures.state_json(state),
                                                  "url": URL})))
    nb = nbformat.reads(answer["notebook"], as_version=4)
    nbformat.validate(nb)
    assert (nb.nbformat, nb.nbformat_minor) == (4, 5) and nb.metadata.kernelspec.name == "python3"
    intro = nb.cells[0]
    assert intro.cell_type == "markdown" and intro.source.startswith(f"# {figures.FIGURES[fid].TITLE}\n")
    assert f"[Back to the figure on its page]({URL})" in intro.source
    assert all(f"`{k} = {v}`" in intro.source for k, v in figures.state_params(state).items())
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    script = figures.FIGURES[fid].snippet(state)
    assert [x for x in "\n".join(code).splitlines() if x.strip()] == [x for x in script.splitlines() if x.strip()]
    printed = execute(nb, kernel)
    assert printed[-1] and not any(printed[:-1]), "only the last cell prints: the readouts"
    check_printed(fid, state, lines(printed[-1]))


def test_the_notebook_cells_are_the_scripts_sections():
    module = figures.FIGURES["dot-product"]
    script = module.snippet(module.State())
    sections = script.sections
    assert set(sections) == {"header", "parameters", "helpers", "computation", "readouts"}
    assert sections["readouts"].splitlines() and all(line.startswith("print(") for line in
                                                      sections["readouts"].splitlines())
    assert sections["parameters"].startswith("q = np.array(") and "def fmt(" in sections["helpers"]
    assert [c["source"] for c in notebook.figure_notebook("dot-product", module.State(), URL)["cells"][1:]] == [
        sections[k] for k in ("header", "parameters", "helpers", "computation", "readouts")]


def test_a_bad_address_for_the_notebook_is_a_clear_message():
    answer = json.loads(bridge.handle(json.dumps({"op": "notebook", "figure": "dot-product", "state": {},
                                                  "url": ["x"]})))
    assert answer["failed"] and "url must be" in answer["error"]


def test_the_reproduce_notebook_prints_the_reproductions_tables(kernel):
    nb = notebooks.reproduce_notebook("https://example.org/reproduce/")
    nbformat.validate(nb)
    params = next(c for c in nb.cells if c.source.startswith("# Parameters"))
    assert f"ROWS = {reproduce_run.ROWS}" in params.source
    params.source = params.source.replace(f"ROWS = {reproduce_run.ROWS}", "ROWS = 40")
    printed = execute(nb, kernel)
    assert printed[-1].rstrip("\n") == reproduce.text(reproduce_table.table(reproduce_run.SEED, 40))


def test_the_training_grid_notebook_prints_the_grids_table(kernel):
    nb = notebooks.train_grid_notebook("https://example.org/train/")
    nbformat.validate(nb)
    params = next(c for c in nb.cells if c.source.startswith("# Parameters"))
    assert "SEEDS = tuple(range(1, 21))" in params.source and f"STEPS = {train.STEPS}" in params.source
    params.source = params.source.replace("SEEDS = tuple(range(1, 21))", "SEEDS = (1, 2, 3)").replace(
        f"STEPS = {train.STEPS}", "STEPS = 30")
    printed = execute(nb, kernel)
    g = train_runs.grid((1, 2, 3), 30)
    assert printed[-1].rstrip("\n") == reproduce.grid([list(train_grid.HEADERS), *train_grid.lines(g)])
