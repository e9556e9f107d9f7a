"""The recall cards' review in a real build: every card's id in the page and the card list, the embed pages of
cards, and an offline copy that holds the scheduler (the fsrs package, compiled in the core's archive)."""

from __future__ import annotations

import json
import re
import zipfile

import pytest

from tests.build.test_build import _site_copy, _source_cards
from tests.build.test_offline import written
from tests.conftest import build_site, shipped_archives


def test_every_card_stands_in_its_page_and_the_list_under_its_id(site_dir):
    deck = _source_cards()
    listed = json.loads((site_dir / "cards.json").read_text(encoding="utf-8"))["cards"]
    assert [c["id"] for c in listed] == [c.id for c in deck] and len({c.id for c in deck}) == len(deck)
    for card in deck:
        page = (site_dir / card.page.removesuffix(".md") / "index.html").read_text(encoding="utf-8")
        assert page.count(f'data-card="{card.id}"') == 1, card.id
    review = (site_dir / "review" / "index.html").read_text(encoding="utf-8")
    assert re.findall(r'data-card="([^"]+)"', review) == [c.id for c in deck]
    assert review.count("data-review-session") == 1
    assert "when a card's wording changes in a later version of the site it keeps its history only if" in review


def test_each_page_with_cards_has_an_embed_page_of_them(site_dir, site_port):
    deck = _source_cards()
    for page in {c.page for c in deck}:
        path = f"embed/cards/{page.removesuffix('.md')}/"
        html = (site_dir / path / "index.html").read_text(encoding="utf-8")
        assert re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', html) == [
            ("en", f"http://127.0.0.1:{site_port}/{path}"), ("zh-Hans", f"http://127.0.0.1:{site_port}/zh/{path}")]
        assert re.findall(r'data-card="([^"]+)"', html) == [c.id for c in deck if c.page == page]
        assert 'class="sq-embed sq-embed--cards"' in html and "figures.css" in html and 'head.js" data-python>' in html
        assert "\\(" not in html, "the math is typeset"


def test_the_offline_copy_holds_the_scheduler_and_the_review(site_dir):
    files = set(written(site_dir)["files"])
    core = f"assets/sqrt-dk/{shipped_archives(site_dir)['CORE']}"
    review = {"cards.json", "assets/sqrt-dk/review.js", "assets/sqrt-dk/review-store.js", "assets/sqrt-dk/review.css",
              "review/", "embed/cards/step-4/"}
    assert {core, *review} <= files
    members = zipfile.ZipFile(site_dir / core).namelist()
    assert {"fsrs/scheduler.pyc", "fsrs/card.pyc", "pycore/review.pyc"} <= set(members)
    assert {core, "assets/sqrt-dk/review.js"} <= set(written(site_dir)["embed"])


@pytest.mark.parametrize("home,page,message", [
    ("# Home\n", "# Bad\n\n```card\nQ: Why does a saturated softmax stop learning?\nA: Tiny gradients.\n```\n",
     "bad.md: the card “Why does a saturated softmax stop learning?” has no id. Put a line such as "
     "'id: bad-saturated-softmax-stop' above its Q: line"),
    ("# Home\n\n```card\nid: same\nQ: One?\nA: 1.\n```\n", "# Bad\n\n```card\nid: same\nQ: Two?\nA: 2.\n```\n",
     "the card id 'same' is used twice: index.md (“One?”) and bad.md (“Two?”)"),
])
def test_a_card_without_an_id_or_with_another_cards_fails_the_build_naming_it(tmp_path, home, page, message):
    config = _site_copy(tmp_path, page, home)
    try:
        result = build_site(tmp_path / "out", config)
    finally:
        config.unlink()
    assert result.returncode != 0 and message in result.stderr + result.stdout
