"""The build's slow results kept in one folder under a hash of everything they depend on, so the next build
(and every build of a test run) reads them instead of recomputing; deleting the folder is safe.

A room of its own below both the site generator and the numpy experiments, which both keep results here;
it imports neither. Build time only: ``pycore.sitegen.pack`` leaves it out of what the browser runs.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

FOLDER = "SQRT_DK_CACHE"
"""The environment variable that moves the folder (a test builds with an empty one to show the site does
not depend on it)."""
CACHE = Path(os.environ.get(FOLDER) or Path(__file__).resolve().parents[1] / ".cache")
"""The folder: ``.cache/`` at the repository root unless ``SQRT_DK_CACHE`` names another."""


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
