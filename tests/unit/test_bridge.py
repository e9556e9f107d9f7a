import json

from pycore import bridge
from pycore.figures import FIGURES, dot_product


def call(**request):
    return json.loads(bridge.handle(json.dumps(request)))


def test_render_returns_state_svg_readouts_and_values():
    a = call(op="render", figure="dot-product", params={"q": "1,0", "k": "0,1"})
    s = dot_product.parse({"q": "1,0", "k": "0,1"})
    assert a["svg"] == dot_product.render(s)
    assert a["readouts"] == dot_product.readouts(s)
    assert a["state"] == {"q": [1.0, 0.0], "k": [0.0, 1.0]}
    assert a["values"]["swing"] == "90"


def test_bad_params_draw_the_default_and_say_why():
    a = call(op="render", figure="query-key", params={"q": "<script>"})
    assert a["error"].startswith("q must be 2 comma-separated numbers")
    assert a["state"] == {"q": [1.5, 0.5], "k": [0.5, 1.5]}


def test_set_of_a_state_field_is_validated_by_the_parser():
    state = call(op="render", figure="dot-product", params={})["state"]
    a = call(op="update", figure="dot-product", state=state, event={"type": "set", "field": "q", "value": "5,5"})
    assert "q must be" in a["error"] and a["state"] == state


def test_set_of_a_derived_control_goes_to_update():
    state = call(op="render", figure="dot-product", params={"q": "1,0", "k": "1,0"})["state"]
    a = call(op="update", figure="dot-product", state=state, event={"type": "set", "field": "swing", "value": "180"})
    assert a["state"]["k"] == [-1.0, 0.0] and a["readouts"]["cue"] == "opposed"


def test_unknown_figure_and_op_are_errors_not_exceptions():
    assert call(op="render", figure="nope", params={})["failed"] is True
    assert "unknown figure 'nope'" in call(op="render", figure="nope", params={})["error"]
    assert call(op="explode")["failed"] is True


def test_internal_errors_are_reported_as_failed():
    a = call(op="update", figure="dot-product", state={"q": [1, 0], "k": [0, 1]}, event={"type": "swing", "value": "x"})
    assert a["failed"] is True and a["error"].startswith("internal error: ValueError")


def test_every_figure_renders_its_default_through_the_bridge():
    for figure_id, module in FIGURES.items():
        a = call(op="render", figure=figure_id, params={})
        assert "error" not in a
        assert a["svg"] == module.render(module.State())
