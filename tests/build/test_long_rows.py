"""The built page Long rows and today's models: its tables, a source on every row of the models' table, its place."""

from __future__ import annotations

import re

from tests.conftest import article_pages


def test_every_row_of_todays_models_links_its_source(site_dir):
    text = (site_dir / "long-rows" / "index.html").read_text(encoding="utf-8")
    table = re.search(r'<div[^>]* data-table="todays-models">(.*?)</div>', text, re.S)
    assert table, "the models' table is marked"
    rows = re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S)[1:]
    assert len(rows) >= 16
    for row in rows:
        cells = re.findall(r"<td>(.*?)</td>", row, re.S)
        assert len(cells) == 4 and re.fullmatch(r"\d{4}", cells[2].strip()), row
        assert re.search(r'<a href="https://(arxiv\.org|github\.com)/[^"]+">', cells[3]), row


def test_the_page_follows_train_it_yourself_in_the_navigation(site_dir):
    pages = article_pages()
    assert pages.index("/long-rows/") == pages.index("/train/") + 1
    assert pages[:12] == ["/", *[f"/step-{i}/" for i in range(1, 8)], "/summary/", "/retelling/", "/assumptions/",
                          "/train/"]
    text = (site_dir / "long-rows" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<div[^>]* data-table="long-rows-measured">', text) and 'data-figure="length"' in text
