"""Pack the runtime part of pycore into one content-hashed zip, and copy vendor files."""

from __future__ import annotations

import hashlib
import io
import shutil
import zipfile
from pathlib import Path

from .paths import CORE, NODE_MODULES, ROOT, SITEGEN

VENDOR = {
    "pyodide": ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                "pyodide-lock.json"),
    "katex": ("katex.min.css", "fonts"),
}
SOURCES = {"pyodide": NODE_MODULES / "pyodide", "katex": NODE_MODULES / "katex" / "dist"}


def runtime_files() -> list[Path]:
    """Every module the browser needs: pycore without this site-generation glue."""
    return sorted(p for p in CORE.rglob("*.py") if not p.is_relative_to(SITEGEN))


def core_archive() -> tuple[str, bytes]:
    """A reproducible zip (fixed timestamps, sorted entries) and its name with a content hash."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in runtime_files():
            info = zipfile.ZipInfo(str(path.relative_to(ROOT)), date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, path.read_bytes())
    data = buf.getvalue()
    return f"core-{hashlib.sha256(data).hexdigest()[:12]}.zip", data


def copy_vendor(site_dir: Path) -> None:
    """Copy Pyodide's core files and KaTeX from node_modules; fail loudly if npm was not run."""
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
