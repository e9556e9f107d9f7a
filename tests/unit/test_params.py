import pytest

from pycore import figures
from pycore.params import ParamError, auto_number, check_known, choice, from_json, integer, number, parse, state_class, vector


def test_number_range_and_message():
    c = number("c", 1.0, 0, 64, "A scale.")
    assert c.read("2.5") == 2.5
    with pytest.raises(ParamError, match=r"c must be a number from 0 to 64, got 'abc'"):
        c.read("abc")
    for bad in ("nan", "inf", "65", "-1"):
        with pytest.raises(ParamError, match="^c must be"):
            c.read(bad)


def test_integer_rejects_fractions_and_out_of_range():
    dk = integer("dk", 1, 1, 512, "Dimension.")
    assert dk.read("64") == 64
    for bad in ("abc", "1.5", "0", "513", ""):
        with pytest.raises(ParamError, match=r"dk must be a whole number from 1 to 512"):
            dk.read(bad)


def test_choice_lists_allowed_values():
    with pytest.raises(ParamError, match="divisor must be one of none, sqrt, dk, got 'half'"):
        choice("divisor", "none", (("none", "none"), ("sqrt", "÷√"), ("dk", "÷")), "Divisor.").read("half")


def test_vector_length_and_bounds():
    q = vector("q", (0.0, 0.0), 2, -2, 2, "Query.")
    assert q.read("0.7,-0.3") == (0.7, -0.3)
    for bad in ("1", "1,2,3", "a,b", "3,0", ""):
        with pytest.raises(ParamError, match="q must be 2 comma-separated numbers from -2 to 2"):
            q.read(bad)
    assert vector("s", (0.0, 0.0), (2, 8), -3, 3, "Scores.").allowed() == "2 to 8 comma-separated numbers from -3 to 3"


def test_auto_number_keeps_canonical_text():
    x = auto_number("xmax", 0.1, 1000, "Axis.")
    assert x.read("auto") == "auto" and x.read("20.0") == "20" and x.read(" 2.5 ") == "2.5"
    with pytest.raises(ParamError, match="xmax must be auto or a number from 0.1 to 1000, got 'wide'"):
        x.read("wide")


def test_long_bad_values_are_shortened_in_messages():
    with pytest.raises(ParamError) as err:
        number("c", 1.0, 0, 1, "A scale.").read("x" * 500)
    assert len(str(err.value)) < 120


def test_unknown_parameter_is_named():
    with pytest.raises(ParamError, match="unknown parameter 'dx'; this figure takes: q, k"):
        check_known({"dx": "1"}, ("q", "k"))


def test_state_and_parse_derive_from_the_specs():
    specs = (integer("n", 3, 1, 9, "Count.", control="range", label="n"), number("c", 0.5, 0, 1, "Scale."))
    state = state_class(specs, "A test state.")
    assert [f for f in state.__dataclass_fields__] == ["n", "c"] and state() == state(n=3, c=0.5)
    assert parse(specs, state, {"c": "0.25"}) == state(n=3, c=0.25)
    with pytest.raises(ParamError, match="this figure takes: n, c"):
        parse(specs, state, {"m": "1"})
    assert [c.name for s in specs for c in s.controls()] == ["n"]


def test_every_sample_value_is_valid_and_not_the_default():
    for fid, module in figures.FIGURES.items():
        for spec in module.PARAMS:
            assert spec.read(spec.example()) != spec.default, (fid, spec.name)


def test_from_json_gives_url_strings():
    assert from_json({"q": [0.7, -0.3], "dk": 64, "c": 8.0, "divisor": "sqrt"}) == {
        "q": "0.7,-0.3", "dk": "64", "c": "8", "divisor": "sqrt"}
