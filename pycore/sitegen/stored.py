"""The build's slow results kept in ``.cache/`` under a hash of everything they depend on, so the next
build (and every build of a test run) reads them instead of recomputing; deleting ``.cache/`` is safe."""

from __future__ import annotations

import hashlib
import os
import pickle
import shutil
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

from .pack import archive_name, runtime_files
from .paths import CACHE

T = TypeVar("T")


def write_whole(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (a private file, then a rename), so a build
    running beside this one never reads half a file."""
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    part.write_bytes(data)
    os.replace(part, path)


def kept(kind: str, version: bytes, name: str, compute: Callable[[], T]) -> T:
    """``compute()``, or what it returned before for the same ``name`` under the same ``version`` of its
    inputs. Each kind of result has a folder per version; making one deletes the kind's older versions."""
    place = CACHE / f"{kind}-{hashlib.sha256(version).hexdigest()[:16]}"
    path = place / f"{hashlib.sha256(name.encode()).hexdigest()[:24]}.pickle"
    try:
        return pickle.loads(path.read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError):
        pass
    value = compute()
    if not place.is_dir():
        for old in CACHE.glob(f"{kind}-*"):
            shutil.rmtree(old, ignore_errors=True)
        place.mkdir(parents=True, exist_ok=True)
    write_whole(path, pickle.dumps(value))
    return value


@lru_cache(maxsize=None)
def core_sources() -> bytes:
    """Every file the browser runs (``pack.runtime_files``), named and read once per process: the part of a
    view's key that changes whenever the code that draws it does."""
    return b"".join(archive_name(f).encode() + b"\0" + f.read_bytes() for f in runtime_files())
