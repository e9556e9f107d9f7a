"""A published address, or none: a build with SITE_URL writes that address wherever an absolute one is
needed (sitemap, canonical links, oEmbed, the figure list, the teachers' snippets), even under a
sub-path; a build without it names no address of the machine that built it, leaves out the files that
need one, and says so in one informational line."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
from datetime import datetime, timezone
from pathlib import Path
from xml.etree import ElementTree

import pytest

from pycore import figures
from pycore.sitegen import hook
from pycore.sitegen.paths import ROOT
from tests.build.test_oembed import Tags
from tests.conftest import article_pages, build_site

PUBLISHED = "https://example.org/course/"
MACHINE = re.compile(r"(?:https?:)?//(?:127\.0\.0\.1|localhost|0\.0\.0\.0|\[::1\])\b", re.I)
LOC = "{http://www.sitemaps.org/schemas/sitemap/0.9}loc"
LASTMOD = "{http://www.sitemaps.org/schemas/sitemap/0.9}lastmod"


@pytest.fixture(scope="module")
def unpublished(tmp_path_factory):
    """A build without SITE_URL, and what it printed (not quiet, so its information lines show)."""
    dest = tmp_path_factory.mktemp("unpublished")
    result = build_site(dest, quiet=False)
    assert result.returncode == 0, result.stderr
    return dest, result.stdout + result.stderr


@pytest.fixture(scope="module")
def published(tmp_path_factory) -> Path:
    """A build for a site under a sub-path of another host."""
    dest = tmp_path_factory.mktemp("published")
    result = build_site(dest, site_url=PUBLISHED)
    assert result.returncode == 0, result.stderr
    return dest


def texts(site: Path):
    """Every text file a host would serve, as (path under the site root, text)."""
    for path in sorted(site.rglob("*")):
        if path.is_file() and path.suffix != ".gz":
            data = path.read_bytes()
            if b"\0" not in data[:4096]:
                yield path.relative_to(site).as_posix(), data.decode("utf-8", errors="replace")


def locations(sitemap: bytes) -> list[str]:
    return [loc.text for loc in ElementTree.fromstring(sitemap).iter(LOC)]


def committed() -> datetime:
    """When the checkout's last commit was made, as git writes it in ISO 8601."""
    return datetime.fromisoformat(subprocess.run(["git", "-C", str(ROOT), "show", "-s", "--format=%cI", "HEAD"],
                                                 capture_output=True, text=True, check=True).stdout.strip())


def pages(site: Path) -> list[tuple[str, str]]:
    """Every page of the article as (its path under the site root, its HTML)."""
    return [(path.strip("/"), (site / path.strip("/") / "index.html").read_text(encoding="utf-8"))
            for path in article_pages()]


def links(text: str, rel: str, kind: str | None = None) -> list[str]:
    """The addresses of the head's links of one rel (and type, if given)."""
    return [attrs["href"] for tag, attrs in Tags(text).in_head
            if tag == "link" and attrs.get("rel") == rel and (kind is None or attrs.get("type") == kind)]


OEMBED = "application/json+oembed"


def test_without_site_url_no_served_file_names_the_build_machine(unpublished):
    site, _ = unpublished
    named = [path for path, text in texts(site) if MACHINE.search(text)]
    assert named == []


def test_without_site_url_the_oembed_files_are_left_out_and_one_information_line_says_how_to_get_them(unpublished):
    site, output = unpublished
    assert list(site.rglob("oembed.json")) == [] and not (site / "embed" / "figures.json").exists()
    said = [line for line in output.splitlines() if "SITE_URL" in line]
    assert said == [f"INFO    -  {hook.UNPUBLISHED}"]
    assert "WARNING" not in output
    assert "SITE_URL=https://example.org/course/ make site" in hook.UNPUBLISHED


def test_without_site_url_no_page_has_a_canonical_or_oembed_link_and_the_sitemap_lists_no_page(unpublished):
    site, _ = unpublished
    for path, text in pages(site):
        assert links(text, "canonical") == [], path
    for figure_id in figures.FIGURES:
        text = (site / "embed" / figure_id / "index.html").read_text(encoding="utf-8")
        assert links(text, "alternate", OEMBED) == [], figure_id
    assert locations((site / "sitemap.xml").read_bytes()) == []
    assert locations(gzip.decompress((site / "sitemap.xml.gz").read_bytes())) == []


def test_without_site_url_the_teachers_page_says_how_to_get_oembed_and_links_no_missing_file(unpublished):
    site, _ = unpublished
    text = (site / "teachers" / "index.html").read_text(encoding="utf-8")
    assert "built without the address it is published at" in text
    assert "<code>SITE_URL=https://YOUR-HOST/ make site</code>" in text
    assert "figures.json\"" not in text and "absolute, under" not in text
    for figure_id in figures.FIGURES:
        assert f'data-sq-snippet="../embed/{figure_id}/"' in text, "relative: the page's script writes it out"


def test_with_a_sub_path_site_url_the_sitemap_and_canonical_links_name_every_page_under_it(published):
    listed = locations((published / "sitemap.xml").read_bytes())
    assert listed == locations(gzip.decompress((published / "sitemap.xml.gz").read_bytes()))
    for path, text in pages(published):
        address = PUBLISHED + (path + "/" if path else "")
        assert links(text, "canonical") == [address], path
        assert address in listed, path
    assert all(loc.startswith(PUBLISHED) and (published / loc[len(PUBLISHED):] / "index.html").is_file()
               for loc in listed)


def test_the_sitemap_dates_every_page_by_the_last_commit_so_one_commit_builds_one_site(published):
    """Dated by the day of the build, two builds of one commit on either side of midnight differed (and so did
    sw.js, which lists the sitemap's hash)."""
    day = committed().astimezone(timezone.utc).date()
    for sitemap in ("sitemap.xml", "zh/sitemap.xml"):
        dates = {d.text for d in ElementTree.fromstring((published / sitemap).read_bytes()).iter(LASTMOD)}
        assert dates == {day.isoformat()}, sitemap


def test_a_build_is_dated_by_the_last_commit_unless_its_caller_says_otherwise_or_there_is_no_git(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")
    hook.on_startup("build", False)
    assert os.environ["SOURCE_DATE_EPOCH"] == "86400"
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    hook.on_startup("build", False)
    assert int(os.environ["SOURCE_DATE_EPOCH"]) == int(committed().timestamp())
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    monkeypatch.setenv("PATH", "")
    hook.on_startup("build", False)
    assert "SOURCE_DATE_EPOCH" not in os.environ


def test_with_a_sub_path_site_url_every_oembed_address_is_under_it(published):
    entries = json.loads((published / "embed" / "figures.json").read_text(encoding="utf-8"))
    assert entries["site_url"] == PUBLISHED
    for entry in entries["figures"]:
        figure_id = entry["id"]
        embed = f"{PUBLISHED}embed/{figure_id}/"
        assert (entry["embed"], entry["oembed"]) == (embed, embed + "oembed.json")
        assert entry["page"] == PUBLISHED + figures.get(figure_id).PAGE
        response = json.loads((published / "embed" / figure_id / "oembed.json").read_text(encoding="utf-8"))
        assert response["provider_url"] == PUBLISHED
        assert Tags(response["html"]).tags[0][1]["src"] == embed
        page = (published / "embed" / figure_id / "index.html").read_text(encoding="utf-8")
        assert links(page, "alternate", OEMBED) == [embed + "oembed.json"]


def test_with_a_sub_path_site_url_the_teachers_snippets_and_text_carry_it(published):
    text = (published / "teachers" / "index.html").read_text(encoding="utf-8")
    for figure_id in figures.FIGURES:
        embed = f"{PUBLISHED}embed/{figure_id}/"
        assert f'data-sq-snippet="{embed}"' in text and f"&lt;iframe src=&#34;{embed}&#34;" in text, figure_id
        assert f'src="../embed/{figure_id}/"' in text, "the live example stays relative, so a local preview shows it"
    assert f"{PUBLISHED}embed/score-histogram/oembed.json" in text
    assert 'href="../embed/figures.json"' in text and f"absolute, under <code>{PUBLISHED}</code>" in text
    assert "YOUR-HOST" not in text


def test_with_a_site_url_the_service_worker_and_the_pages_name_no_other_address(published):
    assert "http" not in (published / "sw.js").read_text(encoding="utf-8").split("\n", 1)[0], "its list is relative"
    named = [path for path, text in texts(published) if MACHINE.search(text)]
    assert named == []
