import pytest

from pycore.params import ParamError, check_known, choice, from_json, integer, number, vector


def test_number_range_and_message():
    assert number({"c": "2.5"}, "c", 1.0, 0, 64) == 2.5
    assert number({}, "c", 1.0, 0, 64) == 1.0
    with pytest.raises(ParamError, match=r"c must be a number from 0 to 64, got 'abc'"):
        number({"c": "abc"}, "c", 1.0, 0, 64)
    for bad in ("nan", "inf", "65", "-1"):
        with pytest.raises(ParamError, match="^c must be"):
            number({"c": bad}, "c", 1.0, 0, 64)


def test_integer_rejects_fractions_and_out_of_range():
    assert integer({"dk": "64"}, "dk", 1, 1, 512) == 64
    for bad in ("abc", "1.5", "0", "513", ""):
        with pytest.raises(ParamError, match=r"dk must be a whole number from 1 to 512"):
            integer({"dk": bad}, "dk", 1, 1, 512)


def test_choice_lists_allowed_values():
    with pytest.raises(ParamError, match="divisor must be one of none, sqrt, dk, got 'half'"):
        choice({"divisor": "half"}, "divisor", "none", ("none", "sqrt", "dk"))


def test_vector_length_and_bounds():
    assert vector({"q": "0.7,-0.3"}, "q", (0.0, 0.0), 2, -2, 2) == (0.7, -0.3)
    for bad in ("1", "1,2,3", "a,b", "3,0", ""):
        with pytest.raises(ParamError, match="q must be 2 comma-separated numbers from -2 to 2"):
            vector({"q": bad}, "q", (0.0, 0.0), 2, -2, 2)


def test_long_bad_values_are_shortened_in_messages():
    with pytest.raises(ParamError) as err:
        number({"c": "x" * 500}, "c", 1.0, 0, 1)
    assert len(str(err.value)) < 120


def test_unknown_parameter_is_named():
    with pytest.raises(ParamError, match="unknown parameter 'dx'; this figure takes: q, k"):
        check_known({"dx": "1"}, ("q", "k"))


def test_from_json_gives_url_strings():
    assert from_json({"q": [0.7, -0.3], "dk": 64, "c": 8.0, "divisor": "sqrt"}) == {
        "q": "0.7,-0.3", "dk": "64", "c": "8", "divisor": "sqrt"}
