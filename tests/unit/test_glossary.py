"""The glossary's order check and budget, on small hand-made pages, and the real glossary file itself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from pycore.sitegen import glossary, page_html
from tests.conftest import ROOT

ORDER = ["index.md", "step-1.md", "step-2.md"]


def terms(**extra) -> glossary.Glossary:
    """Two terms: 'widget' introduced on step-2.md at #widget, 'gizmo' an expert term of step-1.md."""
    return glossary.Glossary(
        terms=(glossary.Term("widget", "step-2.md", "widget", "A thing.", (re.compile(r"\bwidgets?\b", re.I),),
                             ("widget",)),
               glossary.Term("gizmo", "step-1.md", "gizmo", "Another.", (re.compile(r"gizmo", re.I),), (),
                             expert=True)),
        main_path=tuple(ORDER), also_checked=(), **extra)


def test_a_term_used_before_its_page_is_reported_with_its_context():
    problems = glossary.uses("<p>Here a widget appears too early.</p>", "step-1.md", terms(), ORDER)
    assert problems == ["'widget' (introduced on step-2.md) is used before it: …Here a widget appears too early.…"]


def test_a_term_on_or_after_its_place_is_in_order():
    assert glossary.uses('<h2 id="widget">W</h2><p>A widget.</p>', "step-2.md", terms(), ORDER) == []


def test_on_its_own_page_a_term_waits_for_its_anchor_but_the_title_may_name_it():
    early = '<p>A widget first.</p><p id="widget">Now defined.</p>'
    assert len(glossary.uses(early, "step-2.md", terms(), ORDER)) == 1
    titled = '<h1 id="t">All about widgets</h1><p id="widget">A widget is...</p>'
    assert glossary.uses(titled, "step-2.md", terms(), ORDER) == []


def test_a_going_deeper_aside_and_a_link_to_the_introducing_page_are_allowed():
    aside = ('<p>Plain.</p><details class="info"><summary>Going deeper: more</summary>'
             '<details class="note"><summary>x</summary><p>widget</p></details><p>widget gizmo</p></details>')
    assert glossary.uses(aside, "step-1.md", terms(), ORDER) == []
    link = '<p>You will meet <a href="../step-2/#widget">widgets</a> in Step 2.</p>'
    assert glossary.uses(link, "step-1.md", terms(), ORDER) == []
    elsewhere = '<p>See <a href="../index.html">widgets</a>.</p>'
    assert len(glossary.uses(elsewhere, "step-1.md", terms(), ORDER)) == 1


def test_an_expert_term_stays_in_the_asides_of_the_main_path_even_after_its_page():
    assert len(glossary.uses('<p id="gizmo">a gizmo</p>', "step-2.md", terms(), ORDER)) == 1
    assert glossary.uses('<p>a gizmo</p>', "step-2.md",
                         glossary.Glossary(terms().terms, ("index.md",), ("step-2.md",)), ORDER) == []


def test_figure_labels_and_math_count_as_what_the_reader_sees():
    svg = '<figure><svg><text>two widgets</text></svg></figure>'
    assert len(glossary.uses(svg, "index.md", terms(), ORDER)) == 1
    script = "<script>widget()</script><p>plain</p>"
    assert glossary.uses(script, "index.md", terms(), ORDER) == []


@pytest.mark.parametrize("href,page,target", [
    ("../step-2/#x", "step-1.md", "step-2.md"), ("step-1/", "index.md", "step-1.md"), ("../", "step-1.md", "index.md"),
    ("#a", "step-1.md", "step-1.md"), ("https://example.org/", "step-1.md", None),
    ("../cards.tsv", "review.md", "cards.tsv"),
])
def test_links_resolve_to_source_pages(href, page, target):
    assert glossary.page_of(href, page) == target


def test_the_budget_counts_words_and_numbers_outside_asides_figures_and_cards():
    words = "<p>" + " ".join(["word"] * 451) + "</p>"
    assert glossary.budget(words) == ["451 words of main-path prose, more than 450"]
    figure = '<figure class="sq-figure">' + " ".join(["w"] * 500) + "</figure><p>short</p>"
    assert glossary.budget(figure) == []
    crowded = "<p>At 16, 64, 256 and 512 it grows.</p>"
    assert glossary.budget(crowded)[0].startswith("a paragraph with 4 numbers (16, 64, 256, 512)")
    math = r"<p>Step 4 says \(q_1 k_1 + q_2 k_2\) and \(10^9\) and 3.5%.</p>"
    assert glossary.budget(math) == []


def test_abbreviations_give_each_listed_word_its_definition():
    assert glossary.abbreviations(terms()) == "*[widget]: A thing.\n"


def test_the_real_glossary_loads_and_its_pages_are_in_the_navigation():
    g = glossary.load(ROOT / "site_src" / "glossary.yml")
    nav = re.findall(r"^  - [^:]+: (\S+\.md)$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M)
    assert list(g.main_path) == [p for p in nav if p in g.main_path], "the main path is listed in navigation order"
    assert {t.page for t in g.terms} <= set(nav)
    assert all(t.definition.endswith(".") and len(t.definition.split()) <= 30 for t in g.terms)
    assert len({t.term for t in g.terms}) == len(g.terms)
    assert all(nav.index(e) < nav.index(t.page) for t in g.terms for e in t.earlier), "earlier uses come before"


def test_a_malformed_entry_names_what_it_lacks(tmp_path: Path):
    bad = tmp_path / "g.yml"
    bad.write_text(yaml.safe_dump({"terms": [{"term": "x", "page": "index.md"}]}), encoding="utf-8")
    with pytest.raises(glossary.GlossaryError, match=r"entry 1 \(x\) lacks anchor, definition, patterns"):
        glossary.load(bad)


def test_a_term_keeps_its_tooltip_once_a_section_aside_and_card_and_takes_focus_once_a_page():
    tip = '<abbr title="A thing.">w</abbr>'
    focus = '<abbr tabindex="0" title="A thing.">w</abbr>'
    page = (f"<p>{tip} {tip}</p><details><p>{tip}</p><div><p>{tip}</p></div></details><p>{tip}</p>"
            f'<h2>Two</h2><p>{tip}</p><div class="sq-recall" data-card="c"><div>{tip}</div><p>{tip}</p></div>'
            f"<p>{tip}</p><div><p>{tip}</p></div>")
    want = (f"<p>{focus} w</p><details><p>{tip}</p><div><p>w</p></div></details><p>w</p>"
            f'<h2>Two</h2><p>{tip}</p><div class="sq-recall" data-card="c"><div>{tip}</div><p>w</p></div>'
            "<p>w</p><div><p>w</p></div>")
    assert page_html.tooltips_once(page) == want


def test_the_glossary_page_lists_every_term_alphabetically_with_its_definition_and_where_it_is_introduced():
    import markdown
    text = glossary.page_markdown(terms(), {"step-2.md": "2. The dot product"})
    html = markdown.markdown(text, extensions=["def_list", "md_in_html"])
    assert html == ('<div class="sq-glossary">\n<dl>\n'
                    "<dt>gizmo</dt>\n<dd>Another. Introduced in <a href=\"step-1.md#gizmo\">step-1.md</a>.</dd>\n"
                    "<dt>widget</dt>\n<dd>A thing. Introduced in <a href=\"step-2.md#widget\">2. The dot product</a>.</dd>\n"
                    "</dl>\n</div>")


def test_an_aside_that_uses_a_term_before_its_page_must_be_listed_as_an_earlier_use():
    aside = '<details class="info"><summary>Going deeper: more</summary><p>a widget</p></details>'
    problems = glossary.early_uses(aside, "step-1.md", terms(), ORDER)
    assert problems == ["'widget' is introduced on step-2.md, but step-1.md uses it first, and its glossary entry does "
                        "not list step-1.md under earlier: …Going deeper: more a widget…"]
    listed = glossary.Glossary((glossary.Term("widget", "step-2.md", "widget", "A thing.",
                                              (re.compile(r"\bwidgets?\b", re.I),), (), earlier=("step-1.md",)),),
                               tuple(ORDER), ())
    assert glossary.early_uses(aside, "step-1.md", listed, ORDER) == []
    linked = '<p>Later: <a href="../step-2/#widget">widgets</a>.</p>'
    assert glossary.early_uses(linked, "step-1.md", terms(), ORDER) == []
    page = glossary.page_markdown(listed, {"step-1.md": "Step 1", "step-2.md": "Step 2"})
    assert ("A thing. Introduced in [Step 2](step-2.md#widget); used before that in a Going deeper aside of "
            "[Step 1](step-1.md).") in page


def test_the_entries_the_audit_named_point_to_their_first_use_or_say_where_an_aside_used_them_first():
    """SGD and Adam are defined on Train but Step 6's aside uses them first; µP is defined in Step 6's aside but the
    Overview's aside names it first. The build holds every entry to this; these three were the audit's."""
    real = {t.term: t for t in glossary.load(ROOT / "site_src" / "glossary.yml").terms}
    assert real["SGD"].page == real["Adam"].page == "train.md"
    assert real["SGD"].earlier == real["Adam"].earlier == ("step-6.md",)
    assert real["µP"].page == "step-6.md" and real["µP"].earlier == ("index.md",)
    for name, page in (("SGD", "step-6.md"), ("µP", "index.md")):
        text = (ROOT / "site_src" / page).read_text(encoding="utf-8")
        assert any(p.search(text) for p in real[name].patterns), (name, page)


def test_a_chinese_tooltip_goes_where_its_terms_pattern_matches_not_inside_another_word():
    zh = glossary.load(ROOT / "site_src" / "glossary.yml", "zh")
    words = {w: t for t in zh.terms for w in t.abbr}
    row = next(t for t in zh.terms if t.term == "行")
    tipped = page_html.abbreviate("<p>每一行的测试不运行这段代码，也不执行。</p>", words)
    assert re.findall(r"<abbr[^>]*>(.*?)</abbr>", tipped) == ["行"]
    assert tipped.count(f'title="{row.definition}"') == 1 and "不运行" in tipped and "不执行" in tipped
