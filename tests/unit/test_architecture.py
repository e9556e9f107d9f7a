"""The rooms of ``pycore/`` and their floors: the cache imports no other room, the numpy experiments never import
the site generator, the code the browser runs imports none of the build-only rooms; and every module fits in
mind without scrolling."""

from __future__ import annotations

import ast
from pathlib import Path

from pycore.sitegen.pack import runtime_files
from pycore.sitegen.paths import CACHE_MODULE, CORE, EXPERIMENTS, ROOT

PYTHON_MOST = 400
"""The most lines a Python module under pycore/ may have (the guide's aim is 300, where it splits naturally)."""
SCRIPT_MOST = 300
"""The most lines a script of the page side may have."""
SCRIPTS = (ROOT / "site_src" / "assets" / "sqrt-dk", ROOT / "templates")
BUILD_ONLY = ("pycore.sitegen", "pycore.experiments", "pycore.cache")


def imported(source: str, package: str) -> set[str]:
    """Every module a Python source imports, or might import (``from a import b``: a and a.b), by its full dotted
    name; ``package`` is the package the source belongs to, against which relative imports resolve."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")[: len(package.split(".")) + 1 - node.level] if node.level else []
            base = ".".join([*parts, *([node.module] if node.module else [])])
            names |= {base} | {f"{base}.{alias.name}" for alias in node.names}
    return names


def imports_of(path: Path) -> set[str]:
    """What a module under the repository imports (``imported``), its package named by its folder."""
    return imported(path.read_text(encoding="utf-8"), ".".join(path.relative_to(ROOT).parent.parts))


def within(names: set[str], room: str) -> set[str]:
    """The names that are the room's package or module, or inside it."""
    return {n for n in names if n == room or n.startswith(room + ".")}


def test_relative_imports_resolve_against_the_package():
    source = "import os.path\nfrom ..sitegen import pack\nfrom . import model\nfrom .train_runs import grid\n"
    assert imported(source, "pycore.experiments") == {
        "os.path", "pycore.sitegen", "pycore.sitegen.pack", "pycore.experiments", "pycore.experiments.model",
        "pycore.experiments.train_runs", "pycore.experiments.train_runs.grid"}
    assert within(imported(source, "pycore.experiments"), "pycore.sitegen") == {"pycore.sitegen", "pycore.sitegen.pack"}
    assert within({"pycore.sitegenerator", "pycore.cache"}, "pycore.sitegen") == set()


def test_no_experiment_imports_the_site_generator():
    modules = sorted(EXPERIMENTS.rglob("*.py"))
    assert len(modules) >= 10 and EXPERIMENTS / "model.py" in modules
    assert "pycore.cache" in imports_of(EXPERIMENTS / "model.py"), "the experiments keep their runs in the cache"
    found = {m.name: within(imports_of(m), "pycore.sitegen") for m in modules}
    assert found == {m.name: set() for m in modules}


def test_the_cache_imports_no_other_room_of_pycore():
    assert within(imports_of(CACHE_MODULE), "pycore") == set()
    assert {"pycore.cache", "pycore.cache.CACHE"} <= imports_of(CORE / "sitegen" / "mathfont.py")


def test_what_the_browser_runs_imports_no_build_only_room():
    core = [p for p in runtime_files() if p.is_relative_to(CORE)]
    assert CORE / "bridge.py" in core
    found = {p.relative_to(CORE).as_posix(): {n for room in BUILD_ONLY for n in within(imports_of(p), room)}
             for p in core}
    assert found == {name: set() for name in found}


def test_every_python_module_under_pycore_is_at_most_400_lines():
    sizes = {p.relative_to(CORE).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
             for p in CORE.rglob("*.py")}
    assert len(sizes) > 50 and sizes["sitegen/hook.py"] > 0
    assert {name: n for name, n in sizes.items() if n > PYTHON_MOST} == {}


def test_every_script_of_the_page_side_is_at_most_300_lines():
    sizes = {p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
             for folder in SCRIPTS for p in folder.rglob("*.js")}
    assert "templates/sw.js" in sizes and "site_src/assets/sqrt-dk/figures.js" in sizes
    assert {name: n for name, n in sizes.items() if n > SCRIPT_MOST} == {}
