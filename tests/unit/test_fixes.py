"""Long rows' two pictures of today's fixes: each rule against its closed form in numpy, and each drawn line against
its rule (read back from the drawing's own pixels)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from pycore.experiments import fixes


def drawn(svg: str) -> dict[str, list[tuple[float, float]]]:
    """Each series' points in pixels, by its style name."""
    out = {}
    for cls, points in re.findall(r'<g class="sq-series sq-series--([\w-]+)"><polyline points="([^"]+)"', svg):
        out[cls] = [tuple(map(float, p.split(","))) for p in points.split()]
    return out


def values(points, lo_x, hi_x, lo_y, hi_y):
    """Pixels back to data with the pictures' box (fixes.BOX)."""
    box = fixes.BOX
    xs = [lo_x + (x - box["left"]) / (box["right"] - box["left"]) * (hi_x - lo_x) for x, _ in points]
    ys = [lo_y + (box["bottom"] - y) / (box["bottom"] - box["top"]) * (hi_y - lo_y) for _, y in points]
    return np.array(xs), np.array(ys)


def test_the_rules_for_long_rows_match_their_sources_formulas():
    n = np.array([16, 1024, 2048, 2049, 8191, 8192, 65536, 2**20])
    assert np.allclose([fixes.ssmax(int(v)) for v in n], np.log(n) / np.log(16))
    assert np.allclose([fixes.qwen(int(v)) for v in n], np.where(n > 2048, np.log(n) / np.log(2048), 1.0))
    assert np.allclose([fixes.llama4(int(v)) for v in n], 1 + 0.1 * np.log(np.floor(n / 8192) + 1))
    assert fixes.llama4(8191) == 1 and fixes.llama4(8192) > 1
    assert fixes.yarn(64) == pytest.approx((0.1 * np.log(64) + 1) ** 2) and round(fixes.yarn(64), 1) == 2.0
    assert fixes.yarn(1) == 1


def test_the_length_picture_draws_each_rule():
    lines = drawn(fixes.length_factors())
    assert set(lines) == {cls for _, cls, _ in fixes.FACTORS}
    for name, cls, factor in fixes.FACTORS:
        xs, ys = values(lines[cls], fixes.LOG2_LO, fixes.LOG2_HI, 0, 5)
        xs = np.round(xs * 32) / 32  # the drawing's grid, 32 points per doubling, undoing the pixels' rounding
        want = [factor(round(2**x)) for x in xs]
        assert np.allclose(ys, want, atol=0.01), name
    # YaRN's line is flat: the same factor for a row of 16 keys and one of a million
    _, yarn = values(lines["fix2"], fixes.LOG2_LO, fixes.LOG2_HI, 0, 5)
    assert np.ptp(yarn) < 0.01


def test_the_growth_picture_draws_each_ceiling():
    lines = drawn(fixes.score_ceilings())
    for name, cls, _ in fixes.CEILINGS:
        g, ys = values(lines[cls], 1, fixes.GROWTH, 0, 200)
        raw = fixes.START * g**2
        want = {"no fix": raw, "QK-norm": np.full_like(g, fixes.START),
                f"soft-cap, {fixes.CAP:g}·tanh(s/{fixes.CAP:g})": fixes.CAP * np.tanh(raw / fixes.CAP),
                f"QK-Clip at {fixes.TAU:g}": np.minimum(raw, fixes.TAU)}[name]
        assert np.allclose(ys, want, atol=0.2), name
    g, capped = values(lines["log-n"], 1, fixes.GROWTH, 0, 200)
    assert capped.max() < fixes.CAP and np.interp(np.sqrt(fixes.TAU / fixes.START), g, capped) < fixes.TAU


def test_each_picture_says_in_words_what_it_draws():
    for chart in (fixes.length_factors(), fixes.score_ceilings()):
        label = re.search(r'aria-label="([^"]+)"', chart)[1]
        assert label.count(";") >= 3 and 'role="img"' in chart
    assert "YaRN, 64× context (Kimi K2): 2, 2, 2, 2, 2" in fixes.length_factors().replace("2.0", "2")
    assert fixes.picture("<svg/>") == '<div class="sq-picture"><svg/></div>'
