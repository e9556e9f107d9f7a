"""The teachers' reference is generated from the parsers, so it matches what they accept."""

import pytest

from pycore import figures
from pycore.sitegen.reference import allowed, field_docs, table
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
