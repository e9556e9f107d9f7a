"""The runtime part of pycore must import with nothing but the standard library and the one pure-Python
package the spaced review names, fsrs, which ships beside it."""

import subprocess
import sys
from pathlib import Path

from pycore.sitegen.pack import PACKAGES, archive_name, catalog_files, runtime_files
from pycore.sitegen.paths import ROOT

ALLOWED = {"pycore", "fsrs"}
"""What the browser may import beyond the standard library: the core and the package issue 31 names."""
BLOCKER = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] not in sys.stdlib_module_names | ALLOWED:
            raise ImportError("blocked: " + name)
sys.meta_path.insert(0, Block())
import importlib
for mod in MODULES:
    importlib.import_module(mod)
print("ok")
"""


def test_runtime_modules_import_with_the_standard_library_and_fsrs_alone():
    modules = [archive_name(p).removesuffix(".py").replace("/", ".").removesuffix(".__init__") for p in runtime_files()]
    assert "pycore.bridge" in modules and "pycore.review" in modules and "fsrs.scheduler" in modules
    assert not any(m.startswith(("pycore.sitegen", "pycore.experiments", "pycore.cache")) for m in modules)
    assert set(PACKAGES) | {"pycore"} == ALLOWED, "exactly the named package ships beside the core"
    code = f"MODULES = {modules!r}\nALLOWED = {ALLOWED!r}\n{BLOCKER}"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.stdout.strip() == "ok", result.stderr


def test_a_package_beyond_the_allowed_one_is_blocked():
    code = f"MODULES = ['numpy']\nALLOWED = {ALLOWED!r}\n{BLOCKER}"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert "blocked: numpy" in result.stderr


def test_archive_holds_exactly_the_runtime_files():
    import io
    import zipfile

    from pycore.sitegen.pack import core_archive

    name, data = core_archive()
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert names == [archive_name(p) for p in runtime_files() + catalog_files()]
    assert "pycore/locale/zh/LC_MESSAGES/messages.po" in names, "the core reads the catalogs in the browser too"
    assert name == core_archive()[0], "the archive is not reproducible"
    assert not any(Path(n).parts[:2] == ("pycore", "sitegen") for n in names), "the glue never ships"
    assert not any(Path(n).parts[:2] == ("pycore", "experiments") for n in names), "numpy experiments never ship"
    assert "pycore/cache.py" not in names, "nor does the build's cache"
    assert (ROOT / "pycore" / "experiments" / "reproduce.py").is_file(), "the experiments are where the test looks"
    shipped = {n for n in names if n.startswith("fsrs/")}
    assert shipped == {f"fsrs/{m}.py" for m in ("__init__", "card", "rating", "review_log", "scheduler", "state")}, \
        "the scheduler ships, the optimizer (torch) does not"
