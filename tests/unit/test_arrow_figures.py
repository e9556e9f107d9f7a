"""query-key and dot-product: parsing, drags, keys, swing and readouts against numpy."""

import math

import numpy as np
import pytest

from pycore.figures import dot_product, query_key
from pycore.params import ParamError


@pytest.mark.parametrize("module", [query_key, dot_product])
def test_parse_round_trip_and_errors(module):
    s = module.parse({"q": "0.7,-0.3", "k": "0.5,0.6"})
    assert s.q == (0.7, -0.3) and s.k == (0.5, 0.6)
    with pytest.raises(ParamError, match="k must be 2 comma-separated numbers from -2 to 2"):
        module.parse({"k": "9,9"})


@pytest.mark.parametrize("module", [query_key, dot_product])
def test_drag_moves_tip_to_pointer_in_data_units(module):
    sx, sy = module.PLANE.px(1.23, -0.77)
    s = module.update(module.State(), {"type": "drag", "handle": "q", "x": sx, "y": sy})
    assert s.q == (1.23, -0.77) and s.k == module.State().k


@pytest.mark.parametrize("module", [query_key, dot_product])
def test_drag_is_clamped_to_grid(module):
    s = module.update(module.State(), {"type": "drag", "handle": "k", "x": -1e6, "y": -1e6})
    assert s.k == (-2.0, 2.0)  # far left and far up on screen


@pytest.mark.parametrize("key,shift,expected", [
    ("ArrowRight", False, (1.6, 0.5)), ("ArrowLeft", False, (1.4, 0.5)), ("ArrowUp", False, (1.5, 0.6)),
    ("ArrowDown", False, (1.5, 0.4)), ("ArrowLeft", True, (1.0, 0.5)), ("PageUp", False, (1.5, 1.0)),
    ("PageDown", False, (1.5, 0.0)), ("Tab", False, (1.5, 0.5)),
])
def test_keys_move_the_focused_tip(key, shift, expected):
    s = query_key.update(query_key.State(), {"type": "key", "handle": "q", "key": key, "shift": shift})
    assert s.q == pytest.approx(expected)


def test_dot_product_readouts_match_numpy():
    s = dot_product.parse({"q": "0.7,-0.3", "k": "0.5,0.6"})
    r = dot_product.readouts(s)
    q, k = np.array(s.q), np.array(s.k)
    assert float(r["dot"]) == pytest.approx(float(q @ k), abs=5e-5)
    assert float(r["q1k1"]) == pytest.approx(q[0] * k[0], abs=5e-5)
    assert float(r["q2k2"]) == pytest.approx(q[1] * k[1], abs=5e-5)
    cos = q @ k / np.linalg.norm(q) / np.linalg.norm(k)
    assert float(r["angle"].rstrip("°")) == pytest.approx(math.degrees(math.acos(cos)), abs=0.05)


@pytest.mark.parametrize("degrees,cue,sign", [(0, "aligned", 1), (90, "perpendicular", 0), (180, "opposed", -1),
                                              (45, "partly aligned", 1), (135, "partly opposed", -1)])
def test_swing_turns_k_and_cue_follows(degrees, cue, sign):
    s = dot_product.update(dot_product.State(), {"type": "swing", "value": degrees})
    assert dot_product.cue(s) == cue
    q, k = np.array(s.q), np.array(s.k)
    assert np.linalg.norm(k) == pytest.approx(np.linalg.norm(dot_product.State().k), abs=0.01)
    assert float(dot_product.derived_values(s)["swing"]) == pytest.approx(degrees, abs=1)
    assert np.sign(round(float(q @ k), 1)) == sign


def test_swing_outside_range_is_refused():
    with pytest.raises(ParamError, match="swing must be a number from 0 to 180"):
        dot_product.update(dot_product.State(), {"type": "swing", "value": 200})


@pytest.mark.parametrize("module", [query_key, dot_product])
def test_render_is_deterministic_and_accessible(module):
    a, b = module.render(module.State()), module.render(module.State())
    assert a == b
    assert a.count('role="slider"') == 2 and 'aria-valuetext="q = (1.5, 0.5)"' in a
