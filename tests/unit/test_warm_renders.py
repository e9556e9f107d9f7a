"""A warm build renders nothing whose inputs did not change: each figure's view, each formula's MathML and each
Chinese text's search words are computed once per version of their inputs, in either language, and read back
after; a changed input computes what depends on it, and only that. Counted, not timed."""

from __future__ import annotations

from collections import Counter

import pytest

from pycore import bridge, cache, i18n
from pycore.sitegen import math, render, segmenter
from pycore.sitegen.markers import parse_marker


@pytest.fixture
def empty_cache(tmp_path, monkeypatch):
    """An empty cache folder for the test, as a fresh clone has."""
    monkeypatch.setattr(cache, "CACHE", tmp_path)
    return tmp_path


def test_a_figure_is_drawn_once_per_language_and_state_and_again_when_the_core_changes(empty_cache, monkeypatch):
    drawn: Counter[tuple[str, str]] = Counter()
    view = bridge.view

    def counted(module, state):
        drawn[i18n.language(), repr(state)] += 1
        return view(module, state)

    monkeypatch.setattr(bridge, "view", counted)

    def build(*bodies: str) -> list[str]:
        """Each marker's figure HTML in both languages, as a build of both renders them."""
        out = []
        for lang in i18n.LANGUAGES:
            with i18n.using(lang):
                out += [render.render_marker(parse_marker(body), anchor="f", embed_root="embed/") for body in bodies]
        return out

    first = build("id: dot-product", "id: dot-product\nq: 1,1")
    assert sum(drawn.values()) == 4 and set(drawn.values()) == {1}
    assert build("id: dot-product", "id: dot-product\nq: 1,1") == first
    assert sum(drawn.values()) == 4, "a warm build draws nothing"
    build("id: dot-product", "id: dot-product\nq: 1,-1")
    assert sum(drawn.values()) == 6, "a new state is drawn, in each language; the unchanged one is not"
    monkeypatch.setattr(render, "core_sources", lambda: b"the core, edited")
    build("id: dot-product")
    assert sum(drawn.values()) == 8, "an edited core draws again"


def test_a_formula_is_typeset_once_whatever_page_or_language_it_stands_on(empty_cache, monkeypatch):
    runs: list[list[tuple[str, bool]]] = []
    run = math.run_katex

    def counted(items):
        runs.append(items)
        return run(items)

    monkeypatch.setattr(math, "run_katex", counted)
    english = '<p><span class="arithmatex">\\(d_k\\)</span> and <span class="arithmatex">\\(\\sqrt{d_k}\\)</span></p>'
    chinese = '<p><span class="arithmatex">\\(\\sqrt{d_k}\\)</span> 与 <span class="arithmatex">\\(d_k\\)</span></p>'
    typeset = math.typeset(english)
    assert "<math" in typeset and len(runs) == 1 and len(runs[0]) == 2
    assert math.typeset(english) == typeset and len(runs) == 1, "a warm build runs no Node"
    assert "<math" in math.typeset(chinese) and len(runs) == 1, "the Chinese page's formulas are the English page's"
    math.typeset(english.replace("d_k", "n"))
    assert runs[1:] == [[("n", False), ("\\sqrt{n}", False)]], "only the changed formulas are typeset"


def test_a_chinese_text_is_cut_into_words_once_per_version_of_jieba_its_dictionary_and_material(empty_cache):
    cuts: list[str] = []

    def cut(index: object, data: str) -> str:
        cuts.append(data)
        return data.replace("缩放", "\u200b缩放\u200b")

    segment = segmenter.cached(cut, b"jieba 0.42.1")
    assert segment(None, "为什么要缩放") == segment(None, "为什么要缩放") == "为什么要\u200b缩放\u200b"
    segment(None, "缩放点积")
    assert cuts == ["为什么要缩放", "缩放点积"]
    segmenter.cached(cut, b"jieba 0.43")(None, "为什么要缩放")
    assert cuts == ["为什么要缩放", "缩放点积", "为什么要缩放"], "a new jieba cuts again"
