"""The standard library trimmed to what the site runs (Pyodide's own start plus every figure), and the
core, both precompiled by the Pyodide the site ships.

Pyodide's stock ``python_stdlib.zip`` is 2.5 MB of source and hardly compresses; the figures need
a fifth of it. At build time Node starts that Pyodide, loads the core the way the browser does,
imports every module that any runtime file names, drives every figure through ``pycore.bridge``
(render, continue, update, buttons, snippet, notebook, bad input) and the recall cards' FSRS review (``fsrs``
ships in the core's archive) and notes which modules came from the
zip. Those, and only those, are compiled by that same interpreter (``-OO``: no docstrings or
asserts; no line tables, so a traceback names functions but not lines) and zipped, and so is
the core (its catalogs, which it reads in the browser too, go in as ``pack`` ships them): Python then
compiles nothing at start, over a second sooner here, from archives about the size of the
sources. A second run drives every figure again on both. The runs take seconds, so the
results are cached by the hash of their inputs (the core, the stock zip, this file).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import subprocess
import tempfile
from pathlib import Path

from ..cache import CACHE
from .pack import CORE_PATH, PACKAGES, STDLIB, archive_name, catalog_files, core_archive, runtime_files
from .paths import NODE_MODULES

ZIP_ROOT = "/lib/python314.zip/"
"""Where Pyodide mounts its standard library; a trace outside it means Pyodide changed."""

DRIVE = r"""
import json, sys
from importlib import import_module
from pycore import bridge, figures

for name in NAMED:
    import_module(name)


def ask(request):
    return json.loads(bridge.handle(json.dumps(request)))


for figure_id in map(lambda m: m.replace("_", "-"), figures.MODULES):
    module = figures.get(figure_id)
    sample = {s.name: s.example() for s in module.PARAMS}
    for params in ({}, sample):
        answer = ask({"op": "render", "figure": figure_id, "params": params, "slice_ms": 5})
        if answer.get("busy"):
            answer = ask({"op": "continue", "figure": figure_id, "state": answer["state"], "slice_ms": 5})
    state = ask({"op": "render", "figure": figure_id, "params": {}, "slice_ms": 5})["state"]
    for spec in module.PARAMS:
        ask({"op": "update", "figure": figure_id, "state": state, "slice_ms": 5,
             "event": {"type": "set", "field": spec.name, "value": spec.example()}})
    for control in module.CONTROLS:
        if control.kind in ("button", "play"):
            ask({"op": "update", "figure": figure_id, "state": state, "slice_ms": 5, "event": {"type": control.name}})
    ask({"op": "update", "figure": figure_id, "state": state, "event": {"type": "key", "handle": "q", "key": "ArrowUp"}})
    ask({"op": "snippet", "figure": figure_id, "state": state})
    ask({"op": "notebook", "figure": figure_id, "state": state, "url": "https://example.org/"})
    ask({"op": "render", "figure": figure_id, "params": {"no-such-field": "1"}})
    ask({"op": "render", "figure": figure_id, "params": {s.name: "<b>" for s in module.PARAMS}})
for lang in ("zh", "fr"):  # a catalog read (it must be in the archive), and a language the site does not have
    assert "internal error" not in ask({"op": "render", "figure": "dot-product", "params": {"no-such-field": "1"},
                                        "lang": lang})["error"]
ask({"op": "digest", "seed": 1, "count": 10})
ask({"op": "train-losses", "dk": 8, "divisor": "sqrt", "optimizer": "adam", "lr": 0.01, "seed": 1, "steps": 2})
ask({"op": "time-pool", "seed": 1, "n": 50, "dk": 4})
ask({"op": "time-train", "dk": 8, "optimizer": "sgd", "seed": 1, "steps": 2})
# The recall cards' review: every grade, a history long enough to reach FSRS's review state and its fuzz,
# a relapse, an export and its import, and bad input.
cards = ["a-card", "another-card"]
records = {}
for i, grade in enumerate(["good", "good", "easy", "again", "hard", "good"]):
    now = f"2026-{1 + i:02d}-0{1 + i}T09:30:00.000Z"
    records["a-card"] = ask({"op": "review-grade", "card": "a-card", "record": records.get("a-card"), "grade": grade,
                             "now": now})["record"]
ask({"op": "review-grade", "card": "another-card", "record": "{", "grade": "good", "now": now})
ask({"op": "review-due", "cards": cards, "records": {**records, "another-card": "[]"}, "now": now})
exported = ask({"op": "review-export", "cards": cards, "records": records, "now": now})["text"]
ask({"op": "review-import", "cards": cards, "records": {}, "text": exported, "now": now})
ask({"op": "review-import", "cards": cards[:1], "records": records, "text": exported.replace('"version": 1', '"version": 2'),
     "now": now})
ask({"op": "review-import", "cards": cards, "records": records, "text": "{", "now": now})
ask({"op": "review-schedule", "card": "a-card", "reviews": [{"grade": "easy", "at": now}]})
ask({"op": "review-due", "cards": cards, "records": records, "now": "2026-13-01T00:00:00Z"})
ask({"op": "no-such-op"})
ask("not json")
json.dumps(sorted({m.__spec__.origin.removeprefix(ROOT) for m in list(sys.modules.values())
                   if getattr(m, "__spec__", None) and (m.__spec__.origin or "").startswith(ROOT)}))
"""

COMPILE = r"""
import json, types, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc


def lean(code):
    # The code without its line table: a library traceback then names functions but not lines,
    # and the archive is 40% smaller (0.7 MB, about what the sources weigh zipped).
    consts = tuple(lean(c) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_linetable=b"", co_consts=consts)


def archive(path, entries, data=()):
    # The compiled modules, then the files in data as they are (the core's catalogs).
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for name, body in [(n + "c", _code_to_hash_pyc(code, bytes(8), checked=False)) for n, code in entries] + \
                [(n, core.read(n)) for n in data]:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            out.writestr(info, body)


stock = zipfile.ZipFile(ROOT.rstrip("/"))  # the stock library, still mounted
core = zipfile.ZipFile(CORE_PATH)  # the core's sources, on the path as the browser puts them
members = json.loads(MEMBERS_JSON)  # set by the Node side: what the figures imported
archive("/tmp/stdlib.zip", [(n, lean(compile(stock.read(n), ROOT + n, "exec", dont_inherit=True, optimize=2)))
                            for n in members])
archive("/tmp/core.zip", [(n, lean(compile(core.read(n), n, "exec", dont_inherit=True, optimize=2)))
                          for n in CORE_FILES], DATA_FILES)  # set by the Python side: the archive's files, in its order
"""

NODE = r"""
const [pyodideDir, corePath, corePlace, drive, compile, stdlibPath, compiledCorePath] = process.argv.slice(1);
const { loadPyodide } = await import(pyodideDir + "/pyodide.mjs");
const fs = await import("node:fs");
try {
  const pyodide = await loadPyodide({ indexURL: pyodideDir + "/", ...(compile ? {} : { stdLibURL: stdlibPath }) });
  pyodide.FS.writeFile(corePlace, new Uint8Array(fs.readFileSync(corePath)));  // as runtime.js puts it
  pyodide.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(corePlace)})`);
  const members = pyodide.runPython(drive);
  if (compile) {
    pyodide.globals.set("MEMBERS_JSON", members);
    pyodide.runPython(compile);
    fs.writeFileSync(stdlibPath, pyodide.FS.readFile("/tmp/stdlib.zip"));
    fs.writeFileSync(compiledCorePath, pyodide.FS.readFile("/tmp/core.zip"));
  }
  process.stdout.write(members);
} catch (err) {
  process.stderr.write(String(err.message || err));  // not the stack: it quotes Pyodide's minified source
  process.exitCode = 1;
}
"""


class TraceError(RuntimeError):
    """Pyodide could not run the figures under Node; the message is its own."""


def named_modules() -> list[str]:
    """Every absolute module name an ``import`` in the runtime files names, wherever it sits."""
    names: set[str] = set()
    for path in runtime_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names.add(node.module)
    return sorted(n for n in names if n.split(".")[0] not in {"pycore", *PACKAGES})


def run(core_path: Path, stdlib_path: Path, compiled_core_path: Path | None) -> list[str]:
    """Drive every figure in Pyodide under Node and return the library members it imported.

    With ``compiled_core_path``: on the stock library and the core at ``core_path``, then write both
    compiled archives. Without: on the compiled library at ``stdlib_path`` and the core at ``core_path``.
    """
    drive = f"NAMED = {named_modules()!r}\nROOT = {ZIP_ROOT!r}\n{DRIVE}"
    args = [str(NODE_MODULES / "pyodide"), str(core_path), CORE_PATH, drive]
    if compiled_core_path:
        files, data = [archive_name(p) for p in runtime_files()], [archive_name(p) for p in catalog_files()]
        args += [f"ROOT = {ZIP_ROOT!r}\nCORE_PATH = {CORE_PATH!r}\nCORE_FILES = {files!r}\nDATA_FILES = {data!r}\n{COMPILE}",
                 str(stdlib_path), str(compiled_core_path)]
    else:
        args += ["", str(stdlib_path)]
    result = subprocess.run(["node", "--input-type=module", "-e", NODE, *args], capture_output=True, text=True,
                            encoding="utf-8")
    if result.returncode != 0:
        raise TraceError(result.stderr.strip()[-2000:] or "node failed")
    return json.loads(result.stdout)


def compiled_archives() -> tuple[tuple[str, bytes], tuple[str, bytes]]:
    """The core and the trimmed library, compiled, each with its name and a content hash; from the cache
    when their inputs are unchanged. The second run, on both, must import the same modules, all compiled."""
    core = core_archive()[1]
    key = hashlib.sha256(STDLIB.read_bytes() + core + Path(__file__).read_bytes()).hexdigest()[:16]
    cached = {"core": CACHE / f"core-{key}.zip", "stdlib": CACHE / f"stdlib-{key}.zip"}
    if not all(p.exists() for p in cached.values()):
        CACHE.mkdir(parents=True, exist_ok=True)
        # A folder of this build's own: two builds at once (parallel tests) never write the same trace file.
        with tempfile.TemporaryDirectory(dir=CACHE, prefix="trace-") as work:
            sources, library, compiled = (Path(work) / name for name in ("sources.zip", "stdlib.zip", "core.zip"))
            sources.write_bytes(core)
            traced = run(sources, library, compiled)
            again = run(compiled, library, None)
            if again != [m + "c" for m in traced]:
                raise TraceError(f"on the compiled library the figures imported "
                                 f"{sorted(set(again) - {m + 'c' for m in traced})} beyond the traced modules")
            for old in [*CACHE.glob("core-*.zip"), *CACHE.glob("stdlib-*.zip")]:
                if old not in cached.values():
                    old.unlink(missing_ok=True)
            os.replace(compiled, cached["core"])
            os.replace(library, cached["stdlib"])
    core_data, stdlib_data = cached["core"].read_bytes(), cached["stdlib"].read_bytes()
    return ((f"core-{hashlib.sha256(core_data).hexdigest()[:12]}.zip", core_data),
            (f"python_stdlib-{hashlib.sha256(stdlib_data).hexdigest()[:12]}.zip", stdlib_data))
