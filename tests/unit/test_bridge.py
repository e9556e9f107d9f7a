import json

from pycore import bridge
from pycore.bridge import handle
from pycore.figures import FIGURES, dot_product, score_histogram
from pycore.params import from_json


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
    assert a["error"].endswith("got '<script>'. Showing the default figure, not the settings in this link.")
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


def test_a_long_job_answers_in_slices_that_end_on_the_full_state():
    state = {"dk": 160, "divisor": "none", "n": 3000, "seed": 31, "xmax": "auto", "bins": 64, "ymax": "auto"}
    first = json.loads(handle(json.dumps({"op": "update", "figure": "score-histogram", "state": {**state, "dk": 8},
                                          "event": {"type": "set", "field": "dk", "value": "160"}, "slice_ms": 1})))
    assert first["busy"] and first["state"]["dk"] == 160 and first["progress"].startswith("building d_k ")
    depths, answer = [first["drawn"]["dk"]], first
    while answer.get("busy"):
        answer = json.loads(handle(json.dumps({"op": "continue", "figure": "score-histogram", "state": state,
                                               "slice_ms": 1})))
        if answer.get("busy"):
            depths.append(answer["drawn"]["dk"])
            assert answer["svg"] == score_histogram.render(score_histogram.parse(from_json(answer["drawn"])))
    assert depths == sorted(depths) and len(depths) > 3 and depths[-1] < 160
    assert answer == json.loads(json.dumps(bridge.view(score_histogram, score_histogram.parse(from_json(state)))))


def test_a_ready_state_answers_at_once_even_with_a_slice():
    out = json.loads(handle(json.dumps({"op": "render", "figure": "query-key", "params": {}, "slice_ms": 1})))
    assert "busy" not in out and out["state"] == {"q": [1.5, 0.5], "k": [0.5, 1.5]}


def test_saturation_shows_the_rows_drawn_so_far_and_correlated_only_progress():
    busy = json.loads(handle(json.dumps({"op": "render", "figure": "saturation",
                                         "params": {"seed": "77", "rows": "2000", "n": "64"}, "slice_ms": 1})))
    assert busy["busy"] and 1 <= busy["drawn"]["rows"] < 2000 and busy["progress"].startswith("drawing row ")
    corr = json.loads(handle(json.dumps({"op": "render", "figure": "correlated", "params": {"seed": "78", "n": "300"},
                                         "slice_ms": 1})))
    assert corr["busy"] and "svg" not in corr and corr["progress"].startswith("drawing pair ")
