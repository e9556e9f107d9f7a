"""oEmbed data for a site published under a path, with or without a trailing slash in site_url."""

import json

import pytest

from pycore import figures
from pycore.sitegen import oembed


@pytest.mark.parametrize("site_url", ["https://example.org/sqrt-dk/", "https://example.org/sqrt-dk"])
def test_addresses_keep_the_sites_path_and_one_slash(site_url):
    data = oembed.response("dot-product", site_url, "Site")
    assert data["provider_url"] == "https://example.org/sqrt-dk/"
    assert 'src="https://example.org/sqrt-dk/embed/dot-product/"' in data["html"]
    entry = oembed.figure_list(site_url, "Site")["figures"][1]
    assert entry["id"] == "dot-product"
    assert entry["page"] == "https://example.org/sqrt-dk/step-2/"
    assert entry["oembed"] == "https://example.org/sqrt-dk/embed/dot-product/oembed.json"


def test_the_snippet_escapes_what_it_quotes():
    assert oembed.iframe('https://h/?a=1&b="2"', "A < B", 300) == (
        '<iframe src="https://h/?a=1&amp;b=&#34;2&#34;" title="A &lt; B" loading="lazy" width="100%" height="300" '
        'style="border:0" allow="clipboard-write"></iframe>')


def test_the_written_json_reads_back_unchanged_and_ends_with_a_newline():
    data = oembed.figure_list("https://example.org/", "Why attention divides by √dₖ")
    text = oembed.dumps(data)
    assert json.loads(text) == data and text.endswith("}\n") and "√dₖ" in text
    assert len(data["figures"]) == len(figures.FIGURES)


def test_an_embed_page_names_its_other_languages_by_address_when_the_build_has_one():
    """Absolute under the site's address (a hreflang link must be); relative to the page in a build without one."""
    from pycore.sitegen import embed

    assert embed._addressed("zh/", "embed/x/", "https://example.org/course/") == [
        ("en", "https://example.org/course/embed/x/"), ("zh-Hans", "https://example.org/course/zh/embed/x/")]
    assert embed._addressed("zh/", "embed/x/", None) == [("en", "../../../embed/x/"), ("zh-Hans", "../../../zh/embed/x/")]
