"""The build's cache of slow results: computed once per version of their inputs, the old version dropped;
its folder can be moved; the key of the figures' views changes with the code the browser runs only."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pycore import cache
from pycore.sitegen import pack
from pycore.sitegen.paths import ROOT


def test_a_result_is_computed_once_per_version_and_an_older_version_is_dropped(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "CACHE", tmp_path)
    calls = []

    def compute(value):
        calls.append(value)
        return {"value": value}

    assert cache.kept("views", b"v1", "a", lambda: compute(1)) == {"value": 1}
    assert cache.kept("views", b"v1", "a", lambda: compute(2)) == {"value": 1}, "read back, not recomputed"
    assert cache.kept("views", b"v1", "b", lambda: compute(3)) == {"value": 3}
    assert calls == [1, 3] and len(list(tmp_path.glob("views-*/*.pickle"))) == 2
    assert cache.kept("views", b"v2", "a", lambda: compute(4)) == {"value": 4}, "new inputs, new result"
    assert calls == [1, 3, 4] and len(list(tmp_path.glob("views-*"))) == 1
    assert cache.kept("other", b"v1", "a", lambda: compute(5)) == {"value": 5}
    assert len(list(tmp_path.glob("views-*"))) == 1, "another kind leaves this one alone"


def test_a_half_written_or_broken_file_is_recomputed(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "CACHE", tmp_path)
    cache.kept("views", b"v1", "a", lambda: 1)
    (path,) = tmp_path.glob("views-*/*.pickle")
    path.write_bytes(b"\x80\x05not a pickle")
    assert cache.kept("views", b"v1", "a", lambda: 2) == 2
    assert cache.kept("views", b"v1", "a", lambda: 3) == 2


def test_the_core_key_changes_with_the_core_and_not_with_the_build_only_code():
    core = pack.core_sources()
    assert b"pycore/figures/score_histogram.py\0" in core and b"pycore/sitegen/" not in core
    assert b"pycore/experiments/" not in core and b"pycore/cache.py\0" not in core


def test_a_file_written_whole_replaces_the_old_one_and_leaves_no_part_behind(tmp_path, monkeypatch):
    target = tmp_path / "glossary-abc.md"
    target.write_bytes(b"old")
    seen = []
    real_replace = cache.os.replace

    def replace(src, dst):
        seen.append((Path(src).read_bytes(), Path(dst).read_bytes()))  # the new text is whole before the swap
        real_replace(src, dst)

    monkeypatch.setattr(cache.os, "replace", replace)
    cache.write_whole(target, b"new text")
    assert target.read_bytes() == b"new text" and seen == [(b"new text", b"old")]
    assert [p.name for p in tmp_path.iterdir()] == ["glossary-abc.md"]


def test_the_folder_is_the_repository_s_dot_cache_unless_the_environment_names_another(tmp_path):
    def folder(env: dict[str, str]) -> str:
        return subprocess.run([sys.executable, "-c", "from pycore.cache import CACHE; print(CACHE)"], cwd=ROOT,
                              env=env, capture_output=True, text=True, check=True).stdout.strip()

    plain = {k: v for k, v in os.environ.items() if k != cache.FOLDER}
    assert folder(plain) == str(ROOT / ".cache")
    assert folder({**plain, cache.FOLDER: str(tmp_path / "elsewhere")}) == str(tmp_path / "elsewhere")


def test_many_results_compute_only_those_not_kept_yet_in_one_call_in_order(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "CACHE", tmp_path)
    calls = []

    def compute(names):
        calls.append(names)
        return [name.upper() for name in names]

    assert cache.kept_many("katex", b"v1", ["a", "b", "a"], compute) == ["A", "B", "A"]
    assert cache.kept_many("katex", b"v1", ["c", "b", "d"], compute) == ["C", "B", "D"]
    assert cache.kept_many("katex", b"v1", ["d", "a"], compute) == ["D", "A"]
    assert calls == [["a", "b"], ["c", "d"]], "each name computed once, the missing ones together"
    assert cache.kept("katex", b"v1", "c", lambda: "other") == "C", "kept and kept_many share their results"
