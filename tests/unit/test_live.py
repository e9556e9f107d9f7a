"""Numbers in the prose that follow a figure: the words come from the figure's own functions, in the build and
through the bridge, and a binding the figure does not have is refused with what it has."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from pycore import bridge, figures, live
from pycore.figures import _common, saturation
from pycore.params import ParamError
from pycore.sitegen import live_spans
from pycore.sitegen.markers import MarkerError


def test_a_bound_name_is_a_readout_a_state_field_or_a_readout_in_a_format():
    state = saturation.parse({"dk": "128", "divisor": "sqrt"})
    r = saturation.readouts(state)
    got = live.texts(saturation, state, ["saturated", "@dk", "@divisor", "saturated|percent", "median-max-weight"])
    assert got["saturated"] == r["saturated"] and got["median-max-weight"] == r["median-max-weight"]
    assert got["@dk"] == "128" and got["@divisor"] == dict(_common.DIVISORS)["sqrt"] == "÷ √dₖ"
    assert got["saturated|percent"] == f"{100 * float(r['saturated']):g}%"


@pytest.mark.parametrize(("name", "message"), [
    ("saturate", "'saturate' is not a readout or @field of this figure; it has: saturated, median-max-weight"),
    ("@dks", "'@dks' is not a readout or @field"),
    ("saturated|percents", "unknown format 'percents' in 'saturated|percents'; the formats are: percent"),
])
def test_an_unknown_name_or_format_says_what_exists(name, message):
    with pytest.raises(ParamError, match=message.replace("|", r"\|")):
        live.check(saturation, name)


def test_the_build_fills_a_span_with_the_built_state_and_refuses_a_wrong_one():
    placed = {"fig-saturation": ("saturation", figures.state_json(saturation.parse({"dk": "16"})))}
    page = 'At <span data-live="fig-saturation:@dk"></span>: <span data-live="fig-saturation:saturated|percent"></span>.'
    share = saturation.readouts(saturation.parse({"dk": "16"}))["saturated"]
    assert live_spans.fill(page, placed) == (
        f'At <span data-live="fig-saturation:@dk">16</span>: '
        f'<span data-live="fig-saturation:saturated|percent">{100 * float(share):g}%</span>.')
    with pytest.raises(MarkerError, match="live span 'fig-nudge:@dk': no figure 'fig-nudge' on this page; it has: "
                                          "fig-saturation"):
        live_spans.fill('<span data-live="fig-nudge:@dk"></span>', placed)
    with pytest.raises(MarkerError, match="live span 'fig-saturation:share': 'share' is not a readout"):
        live_spans.fill('<span data-live="fig-saturation:share"></span>', placed)


def ask(request):
    return json.loads(bridge.handle(json.dumps(request)))


def test_the_bridge_answers_every_bound_name_for_the_state_it_draws():
    start = figures.state_json(saturation.State())
    out = ask({"op": "update", "figure": "saturation", "state": start, "live": ["@dk", "saturated|percent"],
               "event": {"type": "set", "field": "dk", "value": 32}})
    state = saturation.parse({"dk": "32"})
    assert out["live"] == live.texts(saturation, state, ["@dk", "saturated|percent"]) and out["live"]["@dk"] == "32"
    busy = ask({"op": "render", "figure": "saturation", "params": {"seed": "79", "rows": "2000", "n": "64"},
                "live": ["@rows", "saturated"], "slice_ms": 1})
    assert busy["busy"] and busy["state"]["rows"] == 2000 and 1 <= busy["drawn"]["rows"] < 2000
    drawn = replace(saturation.parse({"seed": "79", "rows": "2000", "n": "64"}), rows=busy["drawn"]["rows"])
    assert busy["live"] == live.texts(saturation, drawn, ["@rows", "saturated"]), "the drawn state's, not the asked"
    assert busy["live"]["@rows"] == str(busy["drawn"]["rows"])
    assert busy["live_partial"] == ["@rows", "saturated"], "both describe the rows drawn so far"
    assert live.partial(saturation, drawn, replace(drawn, rows=2000), ["@dk", "@rows"]) == ["@rows"]
    assert ask({"op": "render", "figure": "saturation", "params": {}})["readouts"] and "live" not in ask(
        {"op": "render", "figure": "saturation", "params": {}})


@pytest.mark.parametrize(("live_field", "message"), [
    ("dk", "live must be a list, got text"),
    ([1], "live must be a list of at most 64 names, each text"),
    (["nope"], "'nope' is not a readout or @field of this figure"),
])
def test_a_bad_live_list_is_refused_with_a_message(live_field, message):
    out = ask({"op": "render", "figure": "saturation", "params": {}, "live": live_field})
    assert out["failed"] and message in out["error"]
