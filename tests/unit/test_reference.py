"""The teachers' reference is generated from the parameter specs that also parse, so it matches what they accept."""

import html
import re

import pytest

from pycore import figures
from pycore.sitegen.reference import section, table
from pycore.params import ParamError


@pytest.mark.parametrize("figure_id", list(figures.FIGURES))
def test_every_parameter_is_documented_and_its_message_quotes_its_allowed_text(figure_id):
    module = figures.get(figure_id)
    assert [s.name for s in module.PARAMS] == list(figures.state_params(module.State()))
    for spec in module.PARAMS:
        assert spec.doc, f"{figure_id}.{spec.name} has no doc"
        with pytest.raises(ParamError) as err:
            module.parse({spec.name: "\u0000"})
        assert str(err.value).startswith(f"{spec.name} must be {spec.allowed()}, got")
        assert f"| `{spec.name}` | {spec.allowed()} |" in table(figure_id)
    assert table(figure_id).count("\n| `") == len(module.PARAMS)


def test_allowed_texts_read_as_before():
    assert figures.get("score-histogram").PARAMS[0].allowed() == "a whole number from 1 to 512"
    assert figures.get("dot-product").PARAMS[0].allowed() == "2 comma-separated numbers from -2 to 2"


def test_section_shows_the_snippet_as_text_and_the_live_example_as_a_frame():
    text = section("dot-product", "../")
    frame = ('<iframe src="../embed/dot-product/" title="The dot product: two arrows, one number" loading="lazy" '
             'width="100%" height="640" style="border:0" allow="clipboard-write"></iframe>')
    assert f'<details class="sq-live"><summary>Live example</summary>{frame}</details>' in text
    snippet = re.search(r'<code data-sq-snippet="../embed/dot-product/"[^>]*>(.*?)</code>', text).group(1)
    assert html.unescape(snippet) == frame and "<" not in snippet, "the snippet is escaped once, to show as text"
    assert text.startswith("### The dot product: two arrows, one number {#embed-dot-product}\n")


def test_the_table_says_which_controls_sit_under_more_settings():
    rows = {line.split("|")[1].strip(" `"): line for line in table("saturation").splitlines()[2:]}
    assert rows["rows"].endswith("Its control is under *More settings*. |")
    assert rows["seed"].endswith("Its control is under *More settings*. |")
    assert "More settings" not in rows["dk"] + rows["n"] + rows["divisor"]
    assert "More settings" not in table("variance-tower"), "a parameter without a control is under nothing"
