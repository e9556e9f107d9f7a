"""The marks the build adds to KaTeX's MathML (pycore/sitegen/math.py), on rows shaped as KaTeX writes them."""

from __future__ import annotations

import re

import pytest

from pycore.sitegen.math import MathError, prefix_signs, searched_as_tex, styled_letters


@pytest.mark.parametrize("row, prefixed", [
    ("<mrow><mo>−</mo><mi>x</mi><mo>+</mo><mn>1</mn></mrow>", [True, False]),  # -x + 1
    ("<mrow><mi>b</mi><mo>=</mo><mo>−</mo><mn>0.5</mn></mrow>", [True]),  # b = -0.5
    ('<mrow><mo stretchy="false">(</mo><mo>−</mo><mn>1</mn><mo stretchy="false">)</mo><mo>−</mo><mi>a</mi></mrow>',
     [True, False]),  # (-1) - a
    ('<mrow><mi>f</mi><mo stretchy="false">(</mo><mn>2</mn><mo separator="true">,</mo><mo>−</mo><mn>3</mn></mrow>',
     [True]),  # f(2, -3)
    ("<mrow><mi>a</mi><mo>−</mo><mi>b</mi><mo>±</mo><mi>c</mi></mrow>", [False, False]),  # a - b ± c
    ("<mrow><msup><mi>x</mi><mn>2</mn></msup><mo>−</mo><mn>1</mn></mrow>", [False]),  # x^2 - 1
])
def test_a_sign_is_a_prefix_where_tex_would_make_it_one(row, prefixed):
    """TeX's rule: a + or - that opens a row or follows an operator or an opening bracket is a sign; after a
    value or a closing bracket it is an operation."""
    marked = prefix_signs(row)
    assert [form == ' form="prefix"' for form in re.findall(r'<mo( form="prefix")?>[−+±]</mo>', marked)] == prefixed
    assert marked.replace(' form="prefix"', "") == row


def test_blackboard_and_script_capitals_become_unicode_letters():
    row = ('<mi mathvariant="double-struck">E</mi><mi mathvariant="double-struck">R</mi>'
           '<mi mathvariant="script">N</mi><mi mathvariant="script">L</mi><mi mathvariant="normal">Var</mi>')
    assert styled_letters(row) == '<mi>𝔼</mi><mi>ℝ</mi><mi>𝒩</mi><mi>ℒ</mi><mi mathvariant="normal">Var</mi>'


def test_a_style_without_unicode_letters_here_is_a_build_error():
    with pytest.raises(MathError, match="mathvariant='bold'"):
        styled_letters('<mi mathvariant="bold">x</mi>')


def test_a_formulas_drawn_part_is_kept_out_of_search_and_its_tex_is_not():
    mathml = ('<math><semantics><mrow><msqrt><mn>64</mn></msqrt><mo>=</mo><mn>8</mn></mrow>'
              '<annotation encoding="application/x-tex">\\sqrt{64} = 8</annotation></semantics></math>')
    assert searched_as_tex(mathml) == (
        '<math><semantics><mpadded data-search-exclude><mrow><msqrt><mn>64</mn></msqrt><mo>=</mo><mn>8</mn></mrow>'
        '</mpadded><annotation encoding="application/x-tex">\\sqrt{64} = 8</annotation></semantics></math>')


@pytest.mark.parametrize("mathml", [
    "<math><mi>x</mi></math>",  # no TeX to search by
    '<math><semantics><mpadded><mi>x</mi></mpadded><annotation encoding="application/x-tex">x</annotation>'
    "</semantics></math>",  # its own <mpadded> would end the exclusion early
])
def test_mathml_shaped_otherwise_than_katex_writes_it_is_a_build_error(mathml):
    with pytest.raises(MathError, match="without <mpadded>"):
        searched_as_tex(mathml)
