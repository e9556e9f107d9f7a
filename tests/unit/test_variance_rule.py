"""variance-rule and Step 6's histograms: ÷c divides the variance by c², drawn on axes that stay put."""

from __future__ import annotations

import re

import numpy as np
import pytest

from pycore.figures import score_histogram, variance_rule
from pycore.params import ParamError
from pycore.sitegen import markers
from tests.conftest import ROOT


@pytest.mark.parametrize("params", [{}, {"c": "1"}, {"c": "8"}, {"points": "-3,3", "c": "2.5"},
                                    {"points": "0.5,1,1.5,2,-1,-2,0,3", "c": "7.5"}])
def test_variances_and_their_ratio_match_numpy(params):
    state = variance_rule.parse(params)
    x = np.array(state.points)
    before, after = x.var(), (x / state.c).var()
    assert variance_rule.variance(state.points) == pytest.approx(before, rel=1e-12)
    assert variance_rule.variance(variance_rule.divided(state)) == pytest.approx(after, rel=1e-12)
    r = variance_rule.readouts(state)
    assert float(r["variance-before"]) == pytest.approx(before, rel=1e-3)
    assert float(r["variance-after"]) == pytest.approx(after, rel=1e-3)
    assert float(r["ratio"]) == pytest.approx(state.c ** 2, rel=1e-3) == float(r["c-squared"])


def test_equal_numbers_have_no_spread_and_no_ratio():
    r = variance_rule.readouts(variance_rule.parse({"points": "1,1", "c": "3"}))
    assert r["variance-before"] == r["variance-after"] == "0" and r["ratio"] == "undefined"


def squares(svg):
    """The side of every square drawn, per row (the first half of them is the first row)."""
    sides = [float(w) for w in re.findall(r'<rect[^>]*width="([\d.]+)"[^>]*class="sq-square"', svg)]
    return sides[:len(sides) // 2], sides[len(sides) // 2:]


def test_every_square_side_shrinks_by_c_so_every_area_by_c_squared():
    state = variance_rule.parse({"c": "4"})
    before, after = squares(variance_rule.render(state))
    assert len(before) == len(after) == len(state.points)
    for a, b in zip(before, after):
        assert b == pytest.approx(a / 4, abs=0.02)
    x = np.array(state.points)
    assert before == pytest.approx(list(np.abs(x - x.mean()) * variance_rule.UNIT), abs=0.01)


def test_bad_params_name_what_is_allowed():
    with pytest.raises(ParamError, match="c must be a number from 1 to 8"):
        variance_rule.parse({"c": "0"})


def test_labels_use_words_a_beginner_has_met():
    svg = variance_rule.render(variance_rule.State())
    for word in ("Var(", "E[", "σ", "standard deviation", "Jacobian"):
        assert word not in svg
    assert "variance" in svg and "squared distances from the centre" in svg


def step6_marker(controls):
    text = (ROOT / "site_src" / "step-6.md").read_text(encoding="utf-8")
    for match in markers.FENCE.finditer(text):
        marker = markers.parse_marker(match.group("body"))
        if marker.figure == "score-histogram" and marker.controls == controls:
            return marker
    raise AssertionError("no such marker")


def ticks(svg):
    return re.findall(r'<text[^>]*class="sq-tick" text-anchor="middle">(-?[\d.]+)</text>', svg)


def drawn_width(svg):
    """The spread of the drawn bars: the height-weighted standard deviation of their centres, in SVG units."""
    bars = [(float(x) + float(w) / 2, float(h)) for x, w, h in
            re.findall(r'<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)" height="([\d.]+)" class="sq-bin"', svg)]
    centres, heights = np.array([b[0] for b in bars]), np.array([b[1] for b in bars])
    mean = np.average(centres, weights=heights)
    return float(np.sqrt(np.average((centres - mean) ** 2, weights=heights)))


def test_step6s_interactive_histogram_keeps_its_axis_while_the_divisor_changes_the_bell():
    marker = step6_marker(("dk", "divisor", "resample"))
    state = score_histogram.parse(marker.params)
    assert state.xmax != "auto"
    svgs = {d: score_histogram.render(score_histogram.parse({**marker.params, "divisor": d})) for d in ("none", "sqrt", "dk")}
    assert float(state.xmax) == 8  # the caption says the axis stays at ±8
    assert ticks(svgs["none"]) == ticks(svgs["sqrt"]) == ticks(svgs["dk"]) != []
    none, root, dk = (drawn_width(svgs[d]) for d in ("none", "sqrt", "dk"))
    assert none > 2 * root > 4 * dk  # without a divisor the bell spills wide, with ÷d_k it is a narrow spike
    for big in ("256", "512"):  # and growing d_k widens the unscaled bell, narrows the ÷d_k one, on the same axis
        wide = score_histogram.render(score_histogram.parse({**marker.params, "divisor": "sqrt", "dk": big}))
        assert ticks(wide) == ticks(svgs["sqrt"])
    grow = [drawn_width(score_histogram.render(score_histogram.parse({**marker.params, "divisor": "none", "dk": d})))
            for d in ("4", "16")]
    shrink = [drawn_width(score_histogram.render(score_histogram.parse({**marker.params, "divisor": "dk", "dk": d})))
              for d in ("4", "16")]
    assert grow[0] < grow[1] and shrink[0] > shrink[1]


def test_a_panel_cut_off_at_its_ymax_says_so_with_the_true_height():
    marker = next(markers.parse_marker(m.group("body")) for m in
                  markers.FENCE.finditer((ROOT / "site_src" / "step-6.md").read_text(encoding="utf-8"))
                  if "divisor: dk" in m.group("body") and "ymax" in m.group("body"))
    state = score_histogram.parse(marker.params)
    svg = score_histogram.render(state)
    peak = 8 / np.sqrt(2 * np.pi)  # the ÷d_k bell at d_k = 64: sd 1/8, peak 8/√(2π)
    note = re.search(r'data-cut="([\d.]+)">cut off: peak ([\d.]+)<', svg)
    assert note and float(state.ymax) == 0.6 < peak
    assert float(note.group(2)) == float(note.group(1)) == pytest.approx(peak, abs=0.005)
    assert '<line x1="14" y1="32" x2="306" y2="32" class="sq-cut"' in svg  # the dashed line where it is cut
    for divisor in ("none", "sqrt"):  # the panels that fit say nothing
        assert "sq-cut" not in score_histogram.render(score_histogram.parse({**marker.params, "divisor": divisor}))
