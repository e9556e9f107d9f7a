"""The cache only saves time: a build that starts from an empty cache writes the same site, byte for byte, as the
suite's build, which reads what earlier builds kept (each figure's drawing, the training runs, the traced
standard library, the cut math font)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import build_site


def contents(site: Path) -> dict[str, bytes]:
    """Every file of a built site by its path in the site."""
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def test_a_build_from_an_empty_cache_is_the_same_site_byte_for_byte(site_dir, site_port, tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    result = build_site(tmp_path / "site", site_url=f"http://127.0.0.1:{site_port}/", cache=cache)
    assert result.returncode == 0, result.stderr
    assert any(cache.glob("views-*/*.pickle")) and any(cache.glob("train-*.npz")), "the build filled its own cache"
    warm, cold = contents(site_dir), contents(tmp_path / "site")
    assert len(warm) > 100 and "assets/sqrt-dk/runtime-files.js" in warm and "reproduce.ipynb" in warm
    assert sorted(cold) == sorted(warm)
    assert [path for path in warm if cold[path] != warm[path]] == []
