"""softmax-spike, the four corners and the summary: parsing, events, readouts vs numpy."""

import html
import math
import re

import numpy as np
import pytest

from pycore.figures import corner_constant_v as cv
from pycore.figures import corner_dk1, corner_ties, corner_infinity, softmax_spike, summary_pipeline
from pycore.params import ParamError
from tests.readouts import agrees, bounds
from pycore.pool import ScorePool


def np_softmax(s):
    s = np.asarray(s, dtype=float)
    e = np.exp(s - s.max())
    return e / e.sum()


def np_readouts(p):
    j = np.diag(p) - np.outer(p, p)
    nz = p[p > 0]
    return p.max(), float(-(nz * np.log(nz)).sum()), np.linalg.norm(j, "fro")


@pytest.mark.parametrize("c", [0.0, 1.0, 8.0, 64.0])
def test_spike_readouts_match_numpy(c):
    s = softmax_spike.State(stretch=c)
    mx, ent, grad = np_readouts(np_softmax(np.array(s.scores) * c))
    r = softmax_spike.readouts(s)
    assert float(r["max-weight"]) == pytest.approx(mx, rel=5e-4)
    assert agrees(r["entropy"], ent, rel=5e-4) and agrees(r["gradient"], grad, rel=5e-4)


def test_spike_grows_as_the_stretch_grows():
    r = [softmax_spike.readouts(softmax_spike.State(stretch=c)) for c in (1, 8, 64)]
    assert float(r[0]["max-weight"]) < float(r[1]["max-weight"]) < float(r[2]["max-weight"])
    assert bounds(r[0]["gradient"])[0] > bounds(r[1]["gradient"])[1] > bounds(r[2]["gradient"])[1]


@pytest.mark.parametrize("params,message", [
    ({"stretch": "65"}, "stretch must be a number from 0 to 64, got '65'"),
    ({"c": "x"}, "stretch must be a number from 0 to 64, got 'x'"),
    ({"c": "2", "stretch": "3"}, "give stretch or its old name c, not both"),
    ({"scores": "1"}, "scores must be 2 to 8 comma-separated numbers from -3 to 3, got '1'"),
    ({"scores": "1,2,a"}, "scores must be 2 to 8 comma-separated numbers from -3 to 3, got '1,2,a'"),
    ({"scores": "1,9"}, "scores must be 2 to 8 comma-separated numbers"),
])
def test_spike_bad_params(params, message):
    with pytest.raises(ParamError, match=message):
        softmax_spike.parse(params)


def test_spike_stretch_is_named_stretch_and_old_links_with_c_still_work():
    assert softmax_spike.parse({"c": "20", "scores": "1,0"}) == softmax_spike.State(stretch=20.0, scores=(1.0, 0.0))
    assert softmax_spike.readouts(softmax_spike.parse({"c": "1"}))["stretch"] == "1"
    assert [name for name, _ in softmax_spike.READOUTS][0] == "stretch"
    labels = [c.label for c in softmax_spike.CONTROLS] + [t for c in softmax_spike.CONTROLS
                                                           for _, t in getattr(c, "options", ())]
    assert "stretch" in labels and not any("c" == w or "÷" in w for w in labels)
    assert "stretch = np.array" not in softmax_spike.snippet(softmax_spike.State())
    assert "stretch = 8" in softmax_spike.snippet(softmax_spike.State())


def test_spike_drag_and_keys_edit_one_score():
    s = softmax_spike.State()
    y = softmax_spike.RAW.y(2.25)
    moved = softmax_spike.update(s, {"type": "drag", "handle": "s1", "x": 0, "y": y})
    assert moved.scores[1] == 2.25 and moved.scores[0] == s.scores[0]
    up = softmax_spike.update(s, {"type": "key", "handle": "s4", "key": "ArrowUp", "shift": False})
    assert up.scores[4] == pytest.approx(s.scores[4] + 0.1)
    assert softmax_spike.update(s, {"type": "key", "handle": "s9", "key": "ArrowUp"}) == s


def test_corner_dk1_histograms_coincide():
    s = corner_dk1.State(n=2000, seed=4)
    r = corner_dk1.readouts(s)
    assert r["variance-raw"] == r["variance-scaled"] and r["theory"] == "1"
    raw = np.array(ScorePool(4, 2000).scores(1))
    assert float(r["variance-raw"]) == pytest.approx(np.var(raw, ddof=1), rel=5e-4)
    # Fourth moment of a product of two standard normals is 9: the sample variance's standard error is √(8/n).
    assert float(r["standard-error"]) == pytest.approx(math.sqrt(8 / 2000), rel=5e-4)
    assert abs(np.var(raw, ddof=1) - 1) < 4 * math.sqrt(8 / 2000)
    svg = corner_dk1.render(s)
    left, right = svg.split('transform="translate(330 0)"')
    assert left.count('class="sq-bin"') == right.count('class="sq-bin"') > 0


@pytest.mark.parametrize("n,value,c", [(2, 0.0, 0.0), (5, 2.0, 8.0), (12, -5.0, 64.0), (7, 5.0, 64.0)])
def test_corner_ties_are_exactly_uniform(n, value, c):
    s = corner_ties.State(n=n, value=value, c=c)
    assert corner_ties.weights(s) == [1 / n] * n
    r = corner_ties.readouts(s)
    assert r["max-weight"] == r["min-weight"] == r["one-over-n"]
    assert float(r["entropy"]) == pytest.approx(math.log(n), rel=5e-4)


@pytest.mark.parametrize("divisor", [1.0, 8.0, 64.0])
def test_corner_infinity_cannot_be_rescued_by_scaling(divisor):
    inf = corner_infinity.readouts(corner_infinity.State(mode="inf", divisor=divisor))
    assert inf == {"special": "1", "max-weight": "1", "gradient": "0"}
    mask = corner_infinity.State(mode="mask", divisor=divisor)
    r = corner_infinity.readouts(mask)
    assert r["special"] == "0"
    rest = np.array([0.9, -0.3, 0.2, -1.1]) / divisor
    expected = np_softmax(np.insert(rest, 2, -np.inf))
    assert float(r["max-weight"]) == pytest.approx(expected.max(), rel=5e-4)
    assert float(r["gradient"]) == pytest.approx(np.linalg.norm(np.diag(expected) - np.outer(expected, expected)), rel=5e-4)


def test_corner_infinity_bad_mode():
    with pytest.raises(ParamError, match="mode must be one of inf, mask, got 'nan'"):
        corner_infinity.parse({"mode": "nan"})


@pytest.mark.parametrize("v", [-5.0, 0.3, 2.0, 4.9])
def test_constant_v_output_is_v_for_any_weights(v):
    for w in ((0.1, 0.5, 0.15, 0.25), (1.0, 0.0), (0.2, 0.2, 0.2, 0.2, 0.2)):
        s = cv.parse({"weights": ",".join(map(str, w)), "v": str(v)})
        assert float(cv.readouts(s)["output"]) == pytest.approx(float(np.dot(s.weights, [v] * len(w))), rel=1e-9)
        assert float(cv.readouts(s)["output"]) == pytest.approx(v, rel=1e-9)


def test_constant_v_drag_keeps_weights_summing_to_one():
    s = cv.State()
    moved = cv.update(s, {"type": "drag", "handle": "w0", "x": 0, "y": cv.PANEL.y(0.7)})
    assert moved.weights[0] == 0.7 and math.fsum(moved.weights) == pytest.approx(1, abs=1e-9)
    ratio = np.array(moved.weights[1:]) / np.array(s.weights[1:])
    assert np.allclose(ratio, ratio[0], rtol=1e-3), "others keep their proportions"
    assert cv.parse({"weights": ",".join(map(str, moved.weights))}).weights == moved.weights


def test_constant_v_rejects_all_zero_weights():
    with pytest.raises(ParamError, match="weights must not all be 0"):
        cv.parse({"weights": "0,0,0"})


@pytest.mark.parametrize("scaling", ["on", "off"])
def test_summary_readouts_match_numpy(scaling):
    s = summary_pipeline.State(dk=64, scaling=scaling, seed=2)
    scores = np.array(ScorePool(2, 4000).scores(64))
    c = 8.0 if scaling == "on" else 1.0
    r = summary_pipeline.readouts(s)
    assert float(r["score-std"]) == pytest.approx(scores.std(ddof=1), rel=5e-4)
    assert float(r["scaled-std"]) == pytest.approx((scores / c).std(ddof=1), rel=5e-4)


def test_summary_removing_the_scaling_collapses_most_rows_at_large_dk():
    on = summary_pipeline.readouts(summary_pipeline.State(dk=512, scaling="on"))
    off = summary_pipeline.readouts(summary_pipeline.State(dk=512, scaling="off"))
    assert float(off["saturated"]) > 0.5 and float(on["saturated"]) == 0
    assert float(off["gradient"]) < 0.01 < float(on["gradient"])
    assert 'class="sq-strike"' in summary_pipeline.render(summary_pipeline.State(scaling="off"))


def svg_texts(svg: str) -> list[str]:
    return [html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


@pytest.mark.parametrize("dk,arrows,products", [
    (1, "its only coordinate, on the x axis", "a single product"),
    (2, "both coordinates", "a sum of 2 products"),
    (64, "first 2 of 64 coordinates", "a sum of 64 products")])
def test_summary_counts_coordinates_and_products_in_good_english(dk, arrows, products):
    texts = svg_texts(summary_pipeline.render(summary_pipeline.State(dk=dk)))
    assert arrows in texts and products in texts
    assert not any(re.search(r"\b1 (coordinates|products)\b|\b2 of [12] coordinates", t) for t in texts)


def test_summary_puts_the_note_on_scores_beyond_the_axis_below_the_ticks():
    """At d_k = 1 a few scores fall beyond ±4: the note says how many, under the axis, not beside the title."""
    s = summary_pipeline.State(dk=1)
    scores = np.array(ScorePool(s.seed, summary_pipeline.N).scores(1))
    share = 100 * np.mean(np.abs(scores) > 4)
    note = re.search(r'<text x="200" y="(\d+)"[^>]*>([^<]*)% beyond ±4</text>', summary_pipeline.render(s))
    assert note and float(note.group(2)) == pytest.approx(share, abs=0.05) and share > 0
    assert int(note.group(1)) > summary_pipeline.HIST.bottom + 15  # below the tick labels


@pytest.mark.parametrize("divisor", [1.0, 8.0, 64.0])
def test_corner_infinity_adds_the_mask_after_the_division(divisor):
    s = corner_infinity.State(mode="mask", divisor=divisor)
    base = np.array(corner_infinity.BASE) / divisor
    torch_like = base.copy()
    torch_like[2] += -1e9  # PyTorch: scores * scale, then + attn_mask
    assert corner_infinity.scores(s) == list(torch_like)
    p = np_softmax(torch_like)
    r = corner_infinity.readouts(s)
    assert float(r["special"]) == p[2] == 0
    assert float(r["max-weight"]) == pytest.approx(p.max(), rel=5e-4)
    texts = svg_texts(corner_infinity.render(s))
    scaled = next(t for t in texts if t.startswith(f"scores ÷ {divisor:g}: "))
    shown = [float(v) for v in scaled.split(": ")[1].split(", ")]
    assert shown == pytest.approx(list(base), abs=0.006), "the scores before the mask, divided"
    mask = texts[texts.index(scaled) + 1]
    assert mask.startswith("then the mask is added to w3's: ") and mask.endswith(" + (−10⁹) ≈ −10⁹")
    assert float(mask.split(": ")[1].split(" + ")[0]) == pytest.approx(base[2], abs=0.006)
    assert not any("e+" in t or "e-" in t for t in texts), "the mask is shown whole, never −10⁹ divided"
