from pycore.svg import el, escape, fmt, svg


def test_fmt_strips_trailing_zeros_and_negative_zero():
    assert fmt(1.50) == "1.5"
    assert fmt(2.0) == "2"
    assert fmt(-0.001) == "0"
    assert fmt(-1.2345, 3) == f"{-1.2345:.3f}"
    assert fmt(float("nan")) == "NaN"
    assert fmt(float("inf")) == "inf"


def test_fmt_matches_python_rounding():
    for x in (0.125, 2.675, -3.14159, 1e-9, 123456.789):
        assert float(fmt(x, 2)) == float(f"{x:.2f}")


def test_escape_covers_markup_characters():
    assert escape('<a href="x">&</a>') == "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"


def test_el_escapes_attribute_values_and_omits_none():
    assert el("g", {"class": '"><script>', "id": None}) == '<g class="&quot;&gt;&lt;script&gt;"></g>'


def test_svg_root_is_labelled_and_titled():
    out = svg(10, 20, "a <label>", [])
    assert 'viewBox="0 0 10 20"' in out
    assert 'aria-label="a &lt;label&gt;"' in out
    assert "<title>a &lt;label&gt;</title>" in out


def test_sig_keeps_four_significant_digits_and_goes_scientific_at_the_extremes():
    from pycore.svg import sig

    cases = [63.8123, 1.00234, 0.015623, 0.0001234567, 512.4, 12345.6, -0.5, 1.566e-19, -6.056e-22, 2.5e7]
    for x in cases:
        assert abs(float(sig(x)) - x) <= 5e-4 * abs(x)
    assert sig(1.566e-19) == "1.566e-19" and sig(2.5e7) == "2.5e7" and sig(0.015623) == "0.01562"
    assert sig(0.0) == "0" and sig(1.0) == "1"
