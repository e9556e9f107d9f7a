"""What the browser runs: the core and a trimmed standard library as content-hashed zips, the module
that names them, the page scripts' messages in each language, Pyodide's own files, the math font, and the
hints in a figure page's head."""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import shutil
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from babel.messages.pofile import read_po

from .. import i18n
from . import catalogs, mathfont
from .paths import BUILD_ONLY, CORE, NODE_MODULES, ROOT

VENDOR = {"pyodide": ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")}
SOURCES = {"pyodide": NODE_MODULES / "pyodide"}
STDLIB = SOURCES["pyodide"] / "python_stdlib.zip"
"""Pyodide's stock standard library, which the site ships trimmed (see ``stdlib``)."""


PACKAGES = {"fsrs": ("optimizer.py",)}
"""The pure-Python packages from PyPI the browser runs beside the core (pinned in pyproject.toml), shipped in
the core's archive, each with the files it leaves out: fsrs's parameter optimizer needs torch, and the
site runs its scheduler with the default parameters."""


def package_root(name: str) -> Path:
    """The folder a package in ``PACKAGES`` is installed in (it must import without running anything)."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise RuntimeError(f"the package {name} is not installed: run 'make deps'")
    return Path(spec.origin).parent


def archive_name(path: Path) -> str:
    """Where a runtime file goes in the archive, as Python imports it: ``pycore/bridge.py``, ``fsrs/card.py``."""
    root = ROOT if path.is_relative_to(CORE) else next(
        package_root(name).parent for name in PACKAGES if path.is_relative_to(package_root(name)))
    return path.relative_to(root).as_posix()


def runtime_files() -> list[Path]:
    """Every module the browser needs, in archive order: pycore without this site-generation glue and the numpy
    experiments, and the packages of ``PACKAGES``."""
    core = [p for p in CORE.rglob("*.py") if not any(p.is_relative_to(d) for d in BUILD_ONLY)]
    packaged = [p for name, left_out in PACKAGES.items() for p in package_root(name).rglob("*.py")
                if p.name not in left_out]
    return sorted(core + packaged, key=archive_name)


def catalog_files() -> list[Path]:
    """The catalogs of the languages beside English, which the core reads in the browser too (``i18n.catalog``,
    when a request asks for one): shipped in the core's archive after its modules (``shipped_catalog``)."""
    return [i18n.catalog_path(lang) for lang in i18n.LANGUAGES[1:]]


def _quoted(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")


def shipped_catalog(po: str) -> str:
    """A catalog as the browser's core reads it: the translations of the messages that stand in a runtime file,
    as a .po without the other entries (the build's, untranslated, fuzzy, obsolete), comments or places."""
    runtime = {archive_name(p) for p in runtime_files()}
    wanted = {message.id[0] if isinstance(message.id, tuple) else message.id
              for message in read_po(io.StringIO(po)) if any(path in runtime for path, _ in message.locations)}
    return "".join(f'msgid "{_quoted(message)}"\nmsgstr "{_quoted(text)}"\n\n'
                   for message, text in i18n.read_po(po).items() if message in wanted)


def archive_entries() -> list[tuple[str, bytes]]:
    """The core's archive, file by file in its order, as (name, content): the runtime files, then the catalogs."""
    return [(archive_name(p), p.read_bytes()) for p in runtime_files()] + \
        [(archive_name(p), shipped_catalog(p.read_text(encoding="utf-8")).encode()) for p in catalog_files()]


@lru_cache(maxsize=None)
def core_sources() -> bytes:
    """Every file the browser runs or reads (``archive_entries``), named and read once per process: the part of a
    view's key in the cache that changes whenever the code or the translations that draw it do."""
    return b"".join(name.encode() + b"\0" + data for name, data in archive_entries())


def core_archive() -> tuple[str, bytes]:
    """The core's sources and catalogs as a reproducible zip (fixed timestamps, entries in archive order) and its
    name with a content hash: what ``stdlib`` runs under Node and compiles into the archive the site ships."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in archive_entries():
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    data = buf.getvalue()
    return f"core-{hashlib.sha256(data).hexdigest()[:12]}.zip", data


def copy_vendor(site_dir: Path) -> None:
    """Copy Pyodide's core files from node_modules; fail loudly if npm was not run."""
    for name, files in VENDOR.items():
        src_root = SOURCES[name]
        if not src_root.is_dir():
            raise RuntimeError(f"{src_root} is missing: run 'npm ci' (make does it for you)")
        dest_root = site_dir / "assets" / "vendor" / name
        for rel in files:
            src, dest = src_root / rel, dest_root / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            if src.is_dir():
                shutil.copytree(src, dest, dirs_exist_ok=True)
            else:
                shutil.copyfile(src, dest)


WASM = "assets/vendor/pyodide/pyodide.asm.wasm"
"""Pyodide's WebAssembly, the largest file a figure page needs."""
ASSETS = "assets/sqrt-dk/"
"""Where the site's own scripts and the two archives live, relative to the site root."""
HEAD = "head.js"
"""The classic script in every page's head: Material's storage helpers, and, marked ``data-python``, the start of
Python's worker, before the theme's scripts run."""
FILES_MODULE = "runtime-files.js"
"""The generated module that tells runtime.js the archives' names, where the core goes, and the lock file."""
CORE_PATH = "/lib/core.zip"
"""Where Python finds the core's archive, on its path as it is (zipimport, as Pyodide's own library): the browser
and the build's tracing run under Node write it there, neither unpacks it."""
MESSAGES_MODULE = "messages.js"
"""The generated module that gives i18n.js the page scripts' messages in each language (``catalogs.scripts_module``)."""


@dataclass(frozen=True)
class Runtime:
    """The content-hashed archives one build ships."""

    core: tuple[str, bytes]
    stdlib: tuple[str, bytes]


def head_script(root: str, python: bool = False) -> str:
    """The head's script (HEAD) for a page whose path to the site root is ``root``; with ``python``, marked to start
    Python's worker."""
    return f'<script src="{root}{ASSETS}{HEAD}"{" data-python" if python else ""}></script>'


def start_links(root: str) -> str:
    """What a figure page's head asks for, for a page whose path to the site root is ``root``: the head's script,
    marked to start Python's worker (HEAD), and a prefetch of Pyodide's wasm (WASM), the one file a first visit waits
    for on a slow network (4.9 s against 5.5 s without it, Step 2, the bench's throttled profile). A prefetch
    only fills the HTTP cache that the worker's fetch reads; a preload's end would be handed to the page's
    own thread, the whole 9.6 MB in one task (README, Benchmark). Pyodide's loader and the two archives are
    not preloaded: the worker asks for them as soon, and on a return visit the preloads only made the service
    worker read them twice (README, Benchmark)."""
    return f'{head_script(root, python=True)}<link rel="prefetch" href="{root}{WASM}" crossorigin>'


def font_preload(root: str) -> str:
    """The <link rel=preload> of the math font for a page whose path to the site root is ``root``."""
    return f'<link rel="preload" href="{root}{ASSETS}{mathfont.NAME}" as="font" type="font/woff2" crossorigin>'


def empty_lock() -> dict:
    """Pyodide's lock file without packages: the site loads none, so it need not fetch 120 kB to learn that."""
    stock = json.loads((SOURCES["pyodide"] / "pyodide-lock.json").read_text(encoding="utf-8"))
    return {"info": stock["info"], "packages": {}}


def files_module(runtime: Runtime) -> str:
    """The source of runtime-files.js."""
    return ("// Written by pycore/sitegen/pack.py at build time: the archives this build ships, where Python finds\n"
            "// the core, and Pyodide's lock file without packages (so Pyodide does not fetch its own).\n"
            f"export const CORE = {json.dumps(runtime.core[0])};\n"
            f"export const STDLIB = {json.dumps(runtime.stdlib[0])};\n"
            f"export const CORE_PATH = {json.dumps(CORE_PATH)};\n"
            f"export const LOCK = {json.dumps(empty_lock())};\n")


def write_runtime(site_dir: Path, runtime: Runtime) -> None:
    """Write both archives and the module naming them, removing older archives, the page scripts' messages, the
    math font, and copy the vendor files."""
    assets = site_dir / ASSETS
    assets.mkdir(parents=True, exist_ok=True)
    for old in [*assets.glob("core-*.zip"), *assets.glob("python_stdlib-*.zip")]:
        old.unlink()
    for name, data in (runtime.core, runtime.stdlib):
        (assets / name).write_bytes(data)
    (assets / FILES_MODULE).write_text(files_module(runtime), encoding="utf-8")
    (assets / MESSAGES_MODULE).write_text(catalogs.scripts_module(), encoding="utf-8")
    mathfont.write(assets)
    copy_vendor(site_dir)
