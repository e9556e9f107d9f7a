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


def test_sig_keeps_four_significant_digits_as_a_plain_decimal_a_beginner_reads():
    from pycore.svg import sig

    cases = [63.8123, 1.00234, 0.015623, 0.0001234567, 512.4, 12345.6, -0.5]
    for x in cases:
        assert abs(float(sig(x)) - x) <= 5e-4 * abs(x)
    assert sig(0.015623) == "0.01562" and sig(0.0) == "0" and sig(1.0) == "1"
    assert sig(7.13e-5) == "0.000071" and sig(-7.13e-5, 3) == "-0.000071" and sig(1.04e-6) == "0.000001"
    assert sig(9.9e-7) == "< 0.000001" and sig(-6.056e-22) == "> -0.000001" and sig(1.566e-19) == "< 0.000001"
    assert sig(2.5e7) == "25,000,000" and sig(1234567.8) == "1,235,000" and sig(-1234567.8, 2) == "-1,200,000"


def test_no_readout_of_any_figure_is_written_in_e_notation():
    """Every figure's readouts at its default and sample states, and sig over many magnitudes: no "1e-5" anywhere."""
    import re

    from pycore import figures
    from pycore.svg import sig

    for k in range(-30, 12):
        for m in (1.0, 2.5, 7.13, 9.999):
            for x in (m * 10.0 ** k, -m * 10.0 ** k):
                assert not re.search(r"\de[-+]?\d", sig(x)), x
    for name in figures.MODULES:
        module = figures.get(name.replace("_", "-"))
        samples = {p.name: p.sample for p in module.PARAMS if p.sample}
        for state in (module.parse({}), module.parse(samples)):
            while module.prepare(state, None):
                pass
            for key, text in module.readouts(state).items():
                assert not re.search(r"\de[-+]?\d", text), (name, key, text)
