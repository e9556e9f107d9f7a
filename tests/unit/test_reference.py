"""The teachers' reference is generated from the parsers, so it matches what they accept."""

import html
import re

import pytest

from pycore import figures
from pycore.sitegen.reference import allowed, field_docs, section, table
from pycore.params import ParamError


@pytest.mark.parametrize("figure_id", list(figures.FIGURES))
def test_every_parameter_is_documented_and_its_allowed_text_is_the_parsers(figure_id):
    module = figures.get(figure_id)
    docs = field_docs(module)
    for name in figures.state_params(module.State()):
        assert docs.get(name), f"{figure_id}.{name} has no field docstring"
        text = allowed(module, name)
        with pytest.raises(ParamError, match=f"^{name} must (be )?"):
            module.parse({name: "\u0000"})
        assert text and "got" not in text
    assert table(figure_id).count("\n| `") == len(figures.state_params(module.State()))


def test_allowed_reads_the_parser_message():
    assert allowed(figures.get("score-histogram"), "dk") == "a whole number from 1 to 512"
    assert allowed(figures.get("dot-product"), "q") == "2 comma-separated numbers from -2 to 2"


def test_section_shows_the_snippet_as_text_and_the_live_example_as_a_frame():
    text = section("dot-product", "../")
    frame = ('<iframe src="../embed/dot-product/" title="The dot product: two arrows, one number" loading="lazy" '
             'width="100%" height="640" style="border:0"></iframe>')
    assert f'<details class="sq-live"><summary>Live example</summary>{frame}</details>' in text
    snippet = re.search(r'<code data-sq-snippet="../embed/dot-product/"[^>]*>(.*?)</code>', text).group(1)
    assert html.unescape(snippet) == frame and "<" not in snippet, "the snippet is escaped once, to show as text"
    assert text.startswith("### The dot product: two arrows, one number {#embed-dot-product}\n")
