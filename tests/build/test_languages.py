"""The site in two languages from one build: every page in both, each Chinese page's prose in Chinese, the same numbers
in both, each language's own search, cards, 404 page and sitemap, and a page missing its translation failing the build."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from tests.build.test_build import _site_copy
from tests.conftest import ROOT, article_pages, build_site

LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z'’-]*(?:[\s,;:]+[A-Za-z][A-Za-z'’-]*){3}")
"""Four Latin-alphabet words in a row: an English sentence, or most of one."""


def page(site: Path, path: str) -> str:
    return (site / path.strip("/") / "index.html").read_text(encoding="utf-8")


def article(text: str) -> str:
    """The page's article: what a reader reads, without Material's header, navigation and footer."""
    return re.search(r"<article\b.*?</article>", text, re.S).group(0)


def prose(text: str) -> str:
    """An article's visible words outside math, code, citations, figure ids and the icons' names: what must be in
    the page's language. Links to other sites are citations (papers, sources) and keep their titles."""
    text = re.sub(r"<(script|style|math|code|pre|annotation)\b.*?</\1>", " ", text, flags=re.S)
    text = re.sub(r'<span class="arithmatex">.*?</span>', " ", text, flags=re.S)
    text = re.sub(r'<a [^>]*href="https?://[^"]*"[^>]*>.*?</a>', " ", text, flags=re.S)
    text = re.sub(r"<em>.*?</em>", " ", text, flags=re.S)  # titles of papers and of the site's own pages' quotes
    text = re.sub(r"<[^>]+>", " ", text)
    return html.unescape(text)


@pytest.mark.parametrize("path", article_pages())
def test_every_page_is_in_both_languages_with_its_language_tag_and_alternates(site_dir, path):
    english, chinese = page(site_dir, path), page(site_dir, "zh" + path)
    assert '<html lang="en"' in english and '<html lang="zh-Hans"' in chinese
    for text in (english, chinese):
        assert re.search(r'<link rel="alternate" href="[^"]*" hreflang="en">', text)
        assert re.search(r'<link rel="alternate" href="[^"]*" hreflang="zh">', text)


@pytest.mark.parametrize("path", [p for p in article_pages() if p != "/references/"])
def test_a_chinese_pages_prose_holds_no_english_sentence(site_dir, path):
    found = LATIN_RUN.findall(prose(article(page(site_dir, "zh" + path))))
    assert found == [], found[:5]


def test_the_references_keep_their_titles_and_authors_and_say_the_rest_in_chinese(site_dir):
    """On the references page an entry's authors and title stay as published; what each is cited for is Chinese."""
    text = article(page(site_dir, "zh/references/"))
    entries = re.findall(r"<p\b[^>]*>(.*?)</p>", text, re.S)
    cited_for = [prose(entry.split("</a>", 1)[-1]) for entry in entries if "https://" in entry]
    assert len(cited_for) > 15 and all(not LATIN_RUN.search(c) for c in cited_for), cited_for


@pytest.mark.parametrize("path", article_pages())
def test_a_chinese_page_states_the_english_pages_numbers(site_dir, path):
    english, chinese = page(site_dir, path), page(site_dir, "zh" + path)
    numbers = lambda text: sorted(re.findall(r'<span data-claim="([^"]+)">([^<]*)</span>', text))  # noqa: E731
    assert [name for name, _ in numbers(chinese)] == [name for name, _ in numbers(english)]
    for (name, zh), (_, en) in zip(numbers(chinese), numbers(english)):
        assert re.findall(r"[\d.,−-]+", zh) == re.findall(r"[\d.,−-]+", en), name
    assert sorted(re.findall(r'data-live="([^"]+)"', chinese)) == sorted(re.findall(r'data-live="([^"]+)"', english))


def figures(text: str) -> dict[str, str]:
    """Each pre-rendered figure of a page by its anchor."""
    return dict(re.findall(r'<figure[^>]*\bid="([^"]+)"[^>]*data-figure="[^"]+".*?(<svg.*?)</figure>', text, re.S))


def numbers_of(svg: str) -> tuple[list[str], list[str]]:
    """What a drawing says in numbers: its coordinates and sizes in order, and the set of numbers in its words (a
    translated sentence may put them in another order, "the newest 400 of 1024" is "1024 对中 … 400 对", or say one
    twice, "510 above 0, 514 below" is "510 个大于 0，514 个小于 0")."""
    svg = re.sub(r'aria-label="[^"]*"|<title>.*?</title>', "", svg, flags=re.S)
    number = r"-?\d+(?:\.\d+)?"
    words = html.unescape(" ".join(re.findall(r">([^<]*)<", svg)))
    return re.findall(number, " ".join(re.findall(r"<[^>]*>", svg))), sorted(set(re.findall(number, words)))


@pytest.mark.parametrize("path", article_pages())
def test_every_figure_draws_the_same_numbers_in_chinese_with_chinese_words(site_dir, path):
    english, chinese = figures(page(site_dir, path)), figures(page(site_dir, "zh" + path))
    assert english.keys() == chinese.keys()
    for anchor in english:
        assert numbers_of(chinese[anchor]) == numbers_of(english[anchor]), anchor
        readouts = lambda svg: [(name, re.findall(r"-?\d+(?:\.\d+)?", value))  # noqa: E731
                                for name, value in re.findall(r'data-readout="([^"]+)"[^>]*>([^<]*)<', svg)]
        assert readouts(chinese[anchor]) == readouts(english[anchor]), anchor
        words = LATIN_RUN.findall(prose(chinese[anchor]))
        assert words == [], (anchor, words[:3])


def test_each_language_searches_its_own_pages(site_dir):
    english = json.loads((site_dir / "search/search_index.json").read_text(encoding="utf-8"))
    chinese = json.loads((site_dir / "zh/search/search_index.json").read_text(encoding="utf-8"))
    assert not any(doc["location"].startswith("zh/") for doc in english["docs"])
    assert not any(re.search(r"[\u4e00-\u9fff]", doc["text"]) for doc in english["docs"])
    for word, location in (("方差", "step-4/"), ("饱和", "step-5/")):
        assert any(doc["location"].startswith(location) and word in doc["text"].replace("\u200b", "")
                   for doc in chinese["docs"]), word
    assert "\\u200b" in chinese["config"]["separator"], "jieba's word breaks split the Chinese index"
    assert '"base": "../../zh/"' in page(site_dir, "zh/step-4/"), "a Chinese page reads the Chinese index"


def test_each_language_has_its_own_cards_404_page_and_sitemap(site_dir):
    english = (site_dir / "cards.tsv").read_text(encoding="utf-8").splitlines()
    chinese = (site_dir / "zh/cards.tsv").read_text(encoding="utf-8").splitlines()
    written = sum(path.read_text(encoding="utf-8").count("```card") for path in (ROOT / "site_src").glob("*.md")
                  if ".zh." not in path.name)
    assert len(english) == len(chinese) == written and all(re.search(r"[\u4e00-\u9fff]", line) for line in chinese)
    ids = lambda path: [card["id"] for card in json.loads(path.read_text(encoding="utf-8"))["cards"]]  # noqa: E731
    assert ids(site_dir / "cards.json") == ids(site_dir / "zh/cards.json"), "one history per card, in both languages"
    assert '<html lang="en"' in (site_dir / "404.html").read_text(encoding="utf-8")
    assert '<html lang="zh-Hans"' in (site_dir / "zh/404.html").read_text(encoding="utf-8")
    assert "/zh/step-4/" in (site_dir / "zh/sitemap.xml").read_text(encoding="utf-8")
    assert "/zh/" not in (site_dir / "sitemap.xml").read_text(encoding="utf-8")


def test_every_embed_page_is_in_both_languages(site_dir, site_port):
    """Each names the other by absolute address, as search engines want a hreflang link, since this build has one."""
    from pycore import figures

    site = f"http://127.0.0.1:{site_port}/"
    for figure_id in figures.FIGURES:
        english = (site_dir / "embed" / figure_id / "index.html").read_text(encoding="utf-8")
        chinese = (site_dir / "zh/embed" / figure_id / "index.html").read_text(encoding="utf-8")
        assert '<html lang="en"' in english and '<html lang="zh-Hans"' in chinese
        for text in (english, chinese):
            assert re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', text) == [
                ("en", f"{site}embed/{figure_id}/"), ("zh-Hans", f"{site}zh/embed/{figure_id}/")], figure_id
        assert numbers_of(figures_of(chinese)) == numbers_of(figures_of(english)), figure_id


def figures_of(text: str) -> str:
    return re.search(r"<svg.*</svg>", text, re.S).group(0)


def test_a_page_without_its_chinese_version_fails_the_build(tmp_path):
    config = _site_copy(tmp_path, "# Bad\n\nA page.\n", glossary_yml="main_path: [index.md]\nterms: []\n",
                        languages=True)
    docs = Path(re.search(r"docs_dir: (.+)", config.read_text(encoding="utf-8")).group(1))
    (docs / "index.zh.md").write_text("# 首页\n", encoding="utf-8")
    try:
        result = build_site(tmp_path / "out", config)
    finally:
        config.unlink()
    assert result.returncode != 0
    assert "the zh site lacks bad.zh.md: every page of the navigation needs its version in every language" in (
        result.stderr + result.stdout)


def test_the_chinese_teachers_page_gives_snippets_that_ask_for_chinese_and_shows_chinese_embeds(site_dir):
    from pycore import figures

    text = page(site_dir, "zh/teachers/")
    snippets = re.findall(r'data-sq-snippet="([^"]+)"', text)
    assert len(snippets) == len(figures.FIGURES) and all(s.endswith("/?lang=zh") for s in snippets), snippets[:2]
    assert "data-sq-snippet" in page(site_dir, "teachers/") and "lang=zh" not in re.findall(
        r'data-sq-snippet="([^"]+)"', page(site_dir, "teachers/"))[0]
    live = re.findall(r'<details class="sq-live">.*?<iframe src="([^"]+)"', text, re.S)
    assert live == [f"../../zh/embed/{figure_id}/" for figure_id in figures.FIGURES]
    for figure_id in figures.FIGURES:
        response = json.loads((site_dir / "zh/embed" / figure_id / "oembed.json").read_text(encoding="utf-8"))
        assert "/zh/embed/" in response["html"] and response["provider_name"] == "为什么注意力要除以 √dₖ"
