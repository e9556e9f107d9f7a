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


def _place(kind: str, version: bytes) -> Path:
    """The folder of one kind of result under one version of its inputs."""
    return CACHE / f"{kind}-{hashlib.sha256(version).hexdigest()[:16]}"


def _path(place: Path, name: str) -> Path:
    """The file of one result in its folder, named by the hash of its name."""
    return place / f"{hashlib.sha256(name.encode()).hexdigest()[:24]}.pickle"


def _read(path: Path) -> tuple[bool, object]:
    """(True, the result kept at ``path``), or (False, None) when there is none or it is broken."""
    try:
        return True, pickle.loads(path.read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError):
        return False, None


def _keep(kind: str, place: Path, path: Path, value: object) -> None:
    """Keep ``value`` at ``path``; the first result of a new version deletes the kind's older versions."""
    if not place.is_dir():
        for old in CACHE.glob(f"{kind}-*"):
            shutil.rmtree(old, ignore_errors=True)
        place.mkdir(parents=True, exist_ok=True)
    write_whole(path, pickle.dumps(value))


def kept(kind: str, version: bytes, name: str, compute: Callable[[], T]) -> T:
    """``compute()``, or what it returned before for the same ``name`` under the same ``version`` of its
    inputs. Each kind of result has a folder per version; making one deletes the kind's older versions."""
    return kept_many(kind, version, [name], lambda names: [compute()])[0]


def kept_many(kind: str, version: bytes, names: list[str], compute: Callable[[list[str]], list[T]]) -> list[T]:
    """The result for each of ``names``, as ``kept`` keeps them one by one, with those not kept yet computed
    together in one call of ``compute`` (given their names, in order), which starts a process once, not per name."""
    place = _place(kind, version)
    found = {name: _read(_path(place, name)) for name in dict.fromkeys(names)}
    missing = [name for name, (ok, _) in found.items() if not ok]
    for name, value in zip(missing, compute(missing) if missing else []):
        _keep(kind, place, _path(place, name), value)
        found[name] = True, value
    return [found[name][1] for name in names]
