import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pycore import bridge, figures, pacing, train
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


def test_a_figures_bug_is_reported_as_an_internal_error(monkeypatch):
    def broken(state):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(dot_product, "render", broken)
    a = call(op="render", figure="dot-product", params={})
    assert a == {"error": "internal error: ZeroDivisionError: a bug", "failed": True}


DEFAULT = {"q": [1.5, 0.5], "k": [0.5, 1.5]}


@pytest.mark.parametrize("figure", ["query-key", "dot-product"])
@pytest.mark.parametrize("x,shown", [("{}", "'{}'"), ([], "'[]'"), (None, "nothing"), (True, "'True'"),
                                     (float("inf"), "'inf'"), (10**400, "'" + str(10**400)[:37] + "...'")])
def test_a_drag_whose_x_is_not_a_number_is_drawn_unchanged_with_a_message(figure, x, shown):
    a = call(op="update", figure=figure, state=DEFAULT, event={"type": "drag", "handle": "k", "x": x, "y": 100})
    assert a["error"] == f"a drag event needs x as a finite number, got {shown}"
    assert a["state"] == DEFAULT and a["svg"] == FIGURES[figure].render(FIGURES[figure].parse(from_json(DEFAULT)))
    assert "failed" not in a


def test_every_bar_drag_and_the_swing_name_the_field_they_lack():
    spike = call(op="update", figure="softmax-spike", state=call(op="render", figure="softmax-spike")["state"],
                 event={"type": "drag", "handle": "s0"})
    assert spike["error"] == "a drag event needs y as a finite number, got nothing" and "svg" in spike
    swing = call(op="update", figure="dot-product", state=DEFAULT, event={"type": "set", "field": "swing", "value": "x"})
    assert swing["error"] == "a swing event needs value as a finite number, got 'x'" and swing["state"] == DEFAULT
    missing = call(op="update", figure="dot-product", state=DEFAULT, event={"type": "set", "value": "1"})
    assert missing["error"] == "the request needs field, text" and missing["state"] == DEFAULT


@pytest.mark.parametrize("request_json,message", [
    ("{", "the request is not JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
    ("[1]", "the request must be a JSON object, got a list"),
    ('{"op": "render", "figure": 3}', "figure must be text, got a number"),
    ('{"op": "update", "figure": "query-key", "event": {}}', "the request needs state, a JSON object"),
    ('{"op": "render", "figure": "query-key", "params": "dk=3"}', "params must be a JSON object, got text"),
    ('{"op": "render", "figure": "query-key", "slice_ms": "soon"}',
     "slice_ms must be a number from 0 to 10000, got 'soon'"),
    ('{"op": ["render"]}', "unknown op '['render']'; known ops: render, update, continue, snippet, notebook, "
                           "predict, digest, train-losses, time-train, time-pool, review-due, review-grade, review-export, "
                           "review-import, review-schedule"),
])
def test_a_malformed_request_gets_a_message_naming_what_is_wrong(request_json, message):
    assert json.loads(handle(request_json)) == {"error": message, "failed": True}


@pytest.mark.parametrize("request_,message", [
    ({"op": "digest", "seed": 1, "count": 10**9}, "count must be a whole number from 1 to 200000, got '1000000000'"),
    ({"op": "time-pool", "seed": 1, "n": 4000, "dk": 512}, "dk must be a whole number from 1 to 64, got '512'"),
    ({"op": "time-train", "dk": 64, "optimizer": "sgd", "seed": 1, "steps": 10**6},
     f"steps must be a whole number from 1 to {train.STEPS}, got '1000000'"),
    ({"op": "train-losses", "dk": 8, "divisor": "sqrt", "optimizer": "adam", "lr": "auto", "seed": 1},
     f"the request needs steps: a whole number from 1 to {train.STEPS}"),
])
def test_benchmark_and_test_operations_refuse_sizes_past_their_bounds(request_, message):
    assert call(**request_) == {"error": message, "failed": True}


def test_train_losses_reads_the_learning_rate_as_the_train_figure_does():
    run = train.Trainer(8, "sqrt", "adam", train.LR["adam"], 3)
    run.ensure(5)
    for lr in ("auto", train.LR["adam"]):
        got = call(op="train-losses", dk=8, divisor="sqrt", optimizer="adam", lr=lr, seed=3, steps=5)
        assert got == {"losses": run.losses}


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
    depths, answer, undrawn = [first["drawn"]["dk"]], first, 0
    while answer.get("busy"):
        answer = json.loads(handle(json.dumps({"op": "continue", "figure": "score-histogram", "state": state,
                                               "slice_ms": 1})))
        if answer.get("busy") and "drawn" in answer:
            depths.append(answer["drawn"]["dk"])
            assert answer["svg"] == score_histogram.render(score_histogram.parse(from_json(answer["drawn"])))
        elif answer.get("busy"):
            undrawn += 1
            assert answer["progress"].startswith("building d_k ") and "svg" not in answer and "readouts" not in answer
    assert depths == sorted(depths) and len(depths) > 3 and depths[-1] < 160
    # Slices of 1 ms are shorter than a drawing: some answers only say how far the job is (pycore/pacing.py).
    assert undrawn > 0
    assert answer == json.loads(json.dumps(bridge.view(score_histogram, score_histogram.parse(from_json(state)))))


def test_a_resumed_job_draws_again_once_it_has_worked_twice_as_long_as_its_last_drawing_took(monkeypatch):
    clock = iter([10.0, 10.375, 10.5])  # the last drawing ended at 10 s and took 0.25 s: the next is due at 10.5 s
    monkeypatch.setattr(pacing.time, "perf_counter", lambda: next(clock))
    monkeypatch.setitem(pacing._LAST, "score_histogram", (10.0, 0.25))
    assert [pacing.due("score_histogram") for _ in range(3)] == [False, False, True]


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


# --- Property: random and hostile requests get a drawing or a message, never an internal error ----------

NUMBERS = (st.integers() | st.integers(min_value=10**300, max_value=10**400) | st.floats()
           | st.sampled_from([math.inf, -math.inf, math.nan, 1e308, -0.0, 5e-324]))
SCALARS = st.none() | st.booleans() | NUMBERS | st.text(max_size=8)
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=4), inner,
                                                                                          max_size=2), max_leaves=4)
FIELDS = sorted({spec.name for m in FIGURES.values() for spec in m.PARAMS} | set(bridge.BENCH) | {"swing"})
EVENTS = ["drag", "key", "set", "swing", "resample", "run", "pause", "reset", "noop"]
HANDLES = ["q", "k", "s0", "s7", "s9", "w0", "w2", "w99", ""]
KEYS = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "PageUp", "PageDown", "Home", "x"]
NUMERIC_TEXT = st.sampled_from(["0", "1", "-1", "180", "250", "1e400", "nan", "inf", "1,2", " 3 ", "0x10", "١٢"])
VALID = {spec.name: [figures.state_params(m.State())[spec.name], spec.example()]
         for m in FIGURES.values() for spec in m.PARAMS}
"""Values some figure accepts for each parameter (a default and a sample), so requests also reach real drawings."""
BENCH_OPS = ("digest", "train-losses", "time-train", "time-pool")
BENCH_SMALL = {"seed": [1, "2"], "count": [10, 1000], "n": [100, 200], "dk": [1, 4], "divisor": ["none", "sqrt"],
               "optimizer": ["sgd", "adam"], "lr": ["auto", 0.01], "steps": [1, 3]}
"""Small valid sizes for the benchmark and test operations, so that thousands of requests stay quick."""
DROP = object()


def values(name=None):
    """A field's value: one that a figure accepts, or anything at all."""
    valid = [st.sampled_from(VALID[name] + BENCH_SMALL.get(name, []))] if name in VALID else []
    return st.one_of(*valid, JSON, NUMBERS, NUMERIC_TEXT)


COORDINATE = st.floats(0, 400) | NUMBERS | NUMERIC_TEXT | JSON
"""A pointer position in SVG units: a real one, or anything at all."""
EVENT = st.one_of(
    st.fixed_dictionaries({"type": st.just("drag"), "handle": st.sampled_from(HANDLES)},
                          optional={"x": COORDINATE, "y": COORDINATE}),
    st.fixed_dictionaries({"type": st.just("key"), "handle": st.sampled_from(HANDLES) | JSON,
                           "key": st.sampled_from(KEYS) | JSON}, optional={"shift": JSON}),
    st.fixed_dictionaries({"type": st.just("set")}, optional={"field": st.sampled_from(FIELDS) | JSON,
                                                              "value": values("dk") | values("q") | values()}),
    st.fixed_dictionaries({"type": st.just("swing")}, optional={"value": COORDINATE}),
    st.fixed_dictionaries({"type": st.sampled_from(EVENTS) | JSON}, optional={"handle": JSON, "x": JSON}),
    JSON)
"""Events of every kind the page sends, each with hostile fields, and anything else."""
CHANGES = st.lists(st.sampled_from(FIELDS).flatmap(lambda name: st.tuples(st.just(name), st.just(DROP) | values(name))),
                   max_size=3)
REQUEST = st.fixed_dictionaries(
    {"op": st.one_of(*[st.sampled_from(["render", "update", "continue"])] * 4, st.sampled_from([*bridge.OPS, "nope"]),
                     st.sampled_from([None, 3, "", ["render"], {"op": "render"}])), "event": EVENT,
     "changes": CHANGES},
    optional={"params": st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=4), values(), max_size=3) | JSON,
              "slice_ms": st.sampled_from([0, 1, 5]) | values(), "state": JSON, "figure": JSON})


def addressed(body, figure):
    """The request ``body`` for one figure: its default state with the body's changes (and its bench arguments)."""
    request = {name: value for name, value in body.items() if name != "changes"}
    request.setdefault("figure", figure)
    state = figures.state_json(FIGURES[figure].State()) if figure in FIGURES else {}
    bench = request["op"] in BENCH_OPS
    if bench:
        request.update({name: sizes[0] for name, sizes in BENCH_SMALL.items()})
    for name, value in body["changes"]:
        target = request if bench and name in bridge.BENCH else state if name in state else None
        if target is None:
            continue
        if value is DROP:
            target.pop(name, None)
        else:
            target[name] = value
    request.setdefault("state", state)
    return request


def strict_json(text):
    """The answer as the page's JSON.parse reads it: NaN and Infinity are not JSON."""
    return json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} in an answer"))


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(REQUEST)
def test_random_and_hostile_requests_get_a_drawing_or_a_message(body):
    """Each drawn request goes to every figure (and to an unknown one): 4,200 requests."""
    for figure in [*FIGURES, "nope"]:
        request = addressed(body, figure)
        out = strict_json(handle(json.dumps(request)))
        assert not out.get("error", "").startswith("internal error"), (request, out)
        if "error" in out:
            assert isinstance(out["error"], str) and out["error"], (request, out)
        elif request.get("op") in ("render", "update", "continue"):
            assert "svg" in out or (out.get("busy") and out["progress"]), (request, out)
        else:
            assert set(out) & {"snippet", "notebook", "right", "digest", "losses", "seconds"}, (request, out)


PROBES = ["<script>alert(1)</script>", '"><svg onload=alert(1)>', "javascript:alert(1)"]


@pytest.mark.parametrize("figure_id", list(FIGURES))
def test_every_figure_refuses_each_probe_in_its_address_with_the_default_and_a_message(figure_id):
    """What an embed page shows for a hostile address, for every figure (the browser test frames three)."""
    module = FIGURES[figure_id]
    for probe in PROBES:
        out = call(op="render", figure=figure_id, params={p.name: probe for p in module.PARAMS})
        assert out["state"] == figures.state_json(module.State()), probe
        assert out["error"].startswith(f"{module.PARAMS[0].name} must be"), out["error"]
        assert out["error"].endswith(". Showing the default figure, not the settings in this link."), out["error"]
        assert probe not in out["svg"], "the probe is not drawn"
