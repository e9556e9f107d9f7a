"""The runtime part of pycore must import with nothing but the standard library."""

import subprocess
import sys
from pathlib import Path

from pycore.sitegen.pack import runtime_files
from pycore.sitegen.paths import ROOT

BLOCKER = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"mkdocs", "jinja2", "numpy", "markdown", "yaml", "js", "pyodide"}:
            raise ImportError("blocked: " + name)
sys.meta_path.insert(0, Block())
import importlib
for mod in MODULES:
    importlib.import_module(mod)
print("ok")
"""


def test_runtime_modules_import_without_third_party_packages():
    modules = [".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__") for p in runtime_files()]
    assert "pycore.bridge" in modules and not any(m.startswith(("pycore.sitegen", "pycore.experiments")) for m in modules)
    code = f"MODULES = {modules!r}\n{BLOCKER}"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.stdout.strip() == "ok", result.stderr


def test_archive_holds_exactly_the_runtime_files():
    import io
    import zipfile

    from pycore.sitegen.pack import core_archive

    name, data = core_archive()
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert names == [str(p.relative_to(ROOT)) for p in runtime_files()]
    assert name == core_archive()[0], "the archive is not reproducible"
    assert not any(Path(n).parts[:2] == ("pycore", "sitegen") for n in names), "the glue never ships"
    assert not any(Path(n).parts[:2] == ("pycore", "experiments") for n in names), "numpy experiments never ship"
    assert (ROOT / "pycore" / "experiments" / "reproduce.py").is_file(), "the experiments are where the test looks"
