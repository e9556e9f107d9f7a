"""``make bench``'s build times: English alone beside both languages, warm and cold, interleaved in one run.

Warm builds this checkout with its ``.cache/`` filled (one build fills it first). Cold builds a fresh clone: the
tracked files copied to a new folder, its ``.cache/`` empty, beside this checkout's ``.venv`` and
``node_modules`` (which a clone installs before it builds), with an empty temporary folder, so nothing an earlier
build kept anywhere is read. Each repeat runs English alone and both languages back to back, in alternating
order, so that a machine shared with other work slows both alike; the ratios are of the medians. Wall time and
the builds' processor time (theirs and their children's: Node, which traces the library) are both shown.
``python -m tests.bench_build [REPEATS]`` prints the rows alone.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.conftest import ROOT

LANGUAGES = {"English alone": "en", "both languages": None}
"""What each build builds: SITE_LANGUAGE (mkdocs.yml's build_only_locale), or nothing for the whole site."""
TARGETS = {"warm": 1.35, "cold": 1.3}
"""Both languages' build at most this many times English alone's."""


def fresh_clone(where: Path) -> Path:
    """The checkout's tracked files copied into ``where``/clone, with links to its .venv and node_modules."""
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    clone = where / "clone"
    clone.mkdir()
    archive = subprocess.run(["tar", "-c", "--null", "-T", "-", "-f", "-"], cwd=ROOT, input=names,
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-f", "-"], cwd=clone, input=archive, check=True)
    for link in (".venv", "node_modules"):
        (clone / link).symlink_to((ROOT / link).resolve())
    return clone


def build(lang: str | None, cold: bool) -> tuple[float, float]:
    """One ``mkdocs build --strict`` of ``lang`` (None: both), warm here or cold in a fresh clone, as (wall
    seconds, processor seconds)."""
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        env = {k: v for k, v in os.environ.items() if k not in ("SQRT_DK_CACHE", "SITE_URL", "SITE_LANGUAGE")}
        env["NO_MKDOCS_2_WARNING"] = "1"
        if lang:
            env["SITE_LANGUAGE"] = lang
        cwd = ROOT
        if cold:
            cwd, env["TMPDIR"] = fresh_clone(where), str(where)
        before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(where / "site")],
                       cwd=cwd, env=env, check=True, capture_output=True)
        wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def measured(repeats: int) -> dict[tuple[str, str], list[tuple[float, float]]]:
    """Every build's (wall, processor) seconds by (warm or cold, language), after one build fills the cache."""
    build(None, cold=False)
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for i in range(repeats):
        for kind in TARGETS:
            order = list(LANGUAGES) if i % 2 == 0 else list(reversed(LANGUAGES))
            for name in order:
                times.setdefault((kind, name), []).append(build(LANGUAGES[name], cold=kind == "cold"))
    return times


def rows(times: dict[tuple[str, str], list[tuple[float, float]]]) -> list[tuple[str, str, str]]:
    """The bench table's rows: each build's runs (wall, processor), then both languages' ratio to English alone
    (of the medians) against its target."""
    out = []
    for kind, target in TARGETS.items():
        median = {}
        for name in LANGUAGES:
            runs = times[kind, name]
            median[name] = [statistics.median(run[j] for run in runs) for j in (0, 1)]
            shown = ", ".join(f"{wall:.1f}" for wall, _ in runs)
            out.append((f"mkdocs build --strict, {kind}, {name}: {len(runs)} runs, wall s (cpu s median)",
                        f"{shown} ({median[name][1]:.1f})", ""))
        wall, cpu = (median["both languages"][j] / median["English alone"][j] for j in (0, 1))
        out.append((f"  ratio both languages / English alone, {kind}, wall (cpu)", f"{wall:.2f} ({cpu:.2f})",
                    f"<= {target}"))
    return out


if __name__ == "__main__":
    table = rows(measured(int(sys.argv[1]) if len(sys.argv) > 1 else 2))
    width = max(len(name) for name, _, _ in table)
    for name, value, target in table:
        print(f"{name.ljust(width)}  {value:>24}  {target}")
