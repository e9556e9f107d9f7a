"""The README's recipe: one module, one registry line and one Markdown marker give a figure everywhere."""

from __future__ import annotations

import shutil

from tests.conftest import ROOT, build_site

MODULE = '''"""A figure that exists only in this test."""

from typing import Any

from pycore import params
from pycore.figures import _common, _snippet
from pycore.svg import svg, text

TITLE = "Test-only figure"
PAGE = "step-1/"
HEIGHT = 200
READOUTS = (("double", "twice x"),)
PARAMS = (params.integer("x", 3, 0, 9, "A number to double.", control="range", label="x"),)
CONTROLS = params.controls(PARAMS)
State = params.state_class(PARAMS, "One number.")
derived_values = _common.no_derived_values
prepare = _common.nothing_to_prepare


def parse(p: params.Params) -> Any:
    return params.parse(PARAMS, State, p)


def update(state: Any, event: Any) -> Any:
    return state


def render(state: Any) -> str:
    return svg(100, 40, f"x is {state.x}", [text(10, 20, f"x = {state.x}")])


def readouts(state: Any) -> dict[str, str]:
    return {"double": str(2 * state.x)}


def snippet(state: Any) -> str:
    return _snippet.script(TITLE, {"x": state.x}, 'print("double:", 2 * x)\\n')
'''


def test_a_new_figure_needs_one_module_one_registry_line_and_one_marker(tmp_path):
    repo = tmp_path / "repo"
    for name in ("pycore", "templates", "site_src"):
        shutil.copytree(ROOT / name, repo / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "mkdocs.yml", repo / "mkdocs.yml")
    (repo / "node_modules").symlink_to(ROOT / "node_modules")
    # The build's kept training runs do not depend on the new figure; without them this build would
    # recompute them. A file another build is replacing just now is skipped.
    (repo / ".cache").mkdir()
    for kept in (ROOT / ".cache").glob("train-*.npz"):
        try:
            shutil.copy(kept, repo / ".cache" / kept.name)
        except FileNotFoundError:
            pass
    (repo / "pycore" / "figures" / "test_only.py").write_text(MODULE, encoding="utf-8")
    registry = repo / "pycore" / "figures" / "__init__.py"
    text = registry.read_text(encoding="utf-8")
    registry.write_text(text.replace('    "correlated",\n', '    "correlated",\n    "test_only",\n'), encoding="utf-8")
    page = repo / "site_src" / "step-1.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n```figure\nid: test-only\nx: 5\ncaption: Doubled.\n```\n",
                    encoding="utf-8")
    result = build_site(tmp_path / "site", config=repo / "mkdocs.yml", cwd=repo)
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "site" / "step-1" / "index.html").read_text(encoding="utf-8")
    assert 'data-figure="test-only"' in html and "x = 5" in html and 'data-readout="double">10<' in html
    assert 'data-field="x"' in html
    embed = (tmp_path / "site" / "embed" / "test-only" / "index.html").read_text(encoding="utf-8")
    assert "x = 3" in embed
    teachers = (tmp_path / "site" / "teachers" / "index.html").read_text(encoding="utf-8")
    assert 'id="embed-test-only"' in teachers and "A number to double." in teachers


def test_readme_lists_every_figure_id():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    from pycore import figures

    for figure_id in figures.FIGURES:
        assert f"`{figure_id}`" in readme, figure_id
