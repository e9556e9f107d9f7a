"""oEmbed responses, their discovery links and embed/figures.json in a real build: valid, complete, and
pointing only at pages of this site under its site_url."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pycore import figures
from tests.conftest import ROOT

URL = re.compile(r"""(?:https?:)?//[^\s"'<>]+""")


class Tags(HTMLParser):
    """Every start tag of a document as (tag, attributes), and which of them sit in <head>."""

    def __init__(self, text: str):
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.in_head: list[tuple[str, dict[str, str | None]]] = []
        self._head = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self._head = self._head or tag == "head"
        self.tags.append((tag, dict(attrs)))
        if self._head and tag != "head":
            self.in_head.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag == "head":
            self._head = False


@pytest.fixture(scope="module")
def site_url(site_port) -> str:
    """The address the session's site was built for (tests/conftest.py, site_dir)."""
    return f"http://127.0.0.1:{site_port}/"


def site_name() -> str:
    return re.search(r"^site_name: (.+)$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M).group(1)


def local(site_dir: Path, site_url: str, url: str) -> Path:
    """The built file an absolute address under site_url serves: a folder's index.html, else the file."""
    assert url.startswith(site_url), f"{url} is not under {site_url}"
    path = site_dir / url[len(site_url):]
    return path / "index.html" if url.endswith("/") else path


def load(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def figure_list(site_dir: Path) -> dict:
    return load(site_dir / "embed" / "figures.json")


@pytest.mark.parametrize("figure_id", list(figures.FIGURES))
def test_every_figure_has_an_oembed_rich_response_framing_its_embed_page(site_dir, site_url, figure_id):
    module = figures.get(figure_id)
    data = load(site_dir / "embed" / figure_id / "oembed.json")
    assert data["version"] == "1.0" and data["type"] == "rich"
    assert isinstance(data["html"], str)
    for field in ("width", "height"):
        assert type(data[field]) is int and data[field] > 0, field
    assert data["height"] == module.HEIGHT
    assert data["title"] == module.TITLE
    assert data["provider_name"] == site_name() and data["provider_url"] == site_url
    frame = Tags(data["html"])
    assert [tag for tag, _ in frame.tags] == ["iframe"]
    assert data["html"].endswith("></iframe>")
    attrs = frame.tags[0][1]
    assert attrs == {"src": f"{site_url}embed/{figure_id}/", "title": module.TITLE, "loading": "lazy",
                     "width": "100%", "height": str(module.HEIGHT), "style": "border:0",
                     "allow": "clipboard-write"}
    assert local(site_dir, site_url, attrs["src"]).is_file()


def test_the_oembed_snippet_is_what_copy_embed_code_writes(site_dir, site_url):
    """embed.js builds the same <iframe> in the browser; fill its template with the same values."""
    script = (ROOT / "site_src" / "assets" / "sqrt-dk" / "embed.js").read_text(encoding="utf-8")
    template = re.search(r"export function iframeCode\(src, title, height\) \{\s*return `([^`]*)`", script).group(1)
    for figure_id, module in figures.FIGURES.items():
        src = f"{site_url}embed/{figure_id}/"
        js = (template.replace("${attr(src)}", src).replace("${attr(title)}", module.TITLE)
              .replace("${height}", str(module.HEIGHT)))
        assert load(site_dir / "embed" / figure_id / "oembed.json")["html"] == js, figure_id


@pytest.mark.parametrize("figure_id", list(figures.FIGURES))
def test_every_embed_page_advertises_its_oembed_response_in_its_head(site_dir, site_url, figure_id):
    page = Tags((site_dir / "embed" / figure_id / "index.html").read_text(encoding="utf-8"))
    oembed = [a for tag, a in page.tags if tag == "link" and a.get("type") == "application/json+oembed"]
    assert len(oembed) == 1
    link = oembed[0]
    assert ("link", link) in page.in_head
    assert link["rel"] == "alternate" and link["title"] == figures.get(figure_id).TITLE
    assert link["href"] == f"{site_url}embed/{figure_id}/oembed.json"
    assert local(site_dir, site_url, link["href"]).is_file()


def test_the_figure_list_names_every_registered_figure_in_order_at_pages_that_exist(site_dir, site_url):
    data = figure_list(site_dir)
    assert data["site_name"] == site_name() and data["site_url"] == site_url
    assert [f["id"] for f in data["figures"]] == list(figures.FIGURES)
    for entry in data["figures"]:
        module = figures.get(entry["id"])
        assert entry["title"] == module.TITLE and entry["height"] == module.HEIGHT
        assert entry["page"] == site_url + module.PAGE
        assert entry["embed"] == f"{site_url}embed/{entry['id']}/"
        assert entry["oembed"] == f"{entry['embed']}oembed.json"
        for key in ("page", "embed", "oembed"):
            assert local(site_dir, site_url, entry[key]).is_file(), (entry["id"], key)
        page = local(site_dir, site_url, entry["page"]).read_text(encoding="utf-8")
        assert f'data-figure="{entry["id"]}"' in page, f"{entry['page']} does not show {entry['id']}"


@pytest.mark.parametrize("figure_id", list(figures.FIGURES))
def test_the_figure_list_gives_each_parameter_as_its_spec_declares_it(site_dir, figure_id):
    module = figures.get(figure_id)
    entry = next(f for f in figure_list(site_dir)["figures"] if f["id"] == figure_id)
    defaults = figures.state_params(module.State())
    assert [p["name"] for p in entry["parameters"]] == [spec.name for spec in module.PARAMS]
    assert module.parse({p["name"]: p["default"] for p in entry["parameters"]}) == module.State()
    for spec, p in zip(module.PARAMS, entry["parameters"]):
        assert (p["kind"], p["default"], p["allowed"], p["doc"]) == (
            spec.kind, defaults[spec.name], spec.allowed(), spec.doc)
        assert getattr(module.parse({spec.name: p["default"]}), spec.name) == spec.default
        if spec.kind == "choice":
            assert set(p) == {"name", "kind", "default", "allowed", "doc", "options"}
            assert p["options"] == [value for value, _ in spec.options] and p["default"] in p["options"]
            continue
        number = int if spec.kind == "int" else float
        assert type(p["min"]) is number and type(p["max"]) is number
        assert (p["min"], p["max"]) == (spec.lo, spec.hi)
        if spec.kind == "vector":
            assert p["length"] == {"min": spec.length[0], "max": spec.length[1]}
            assert p["length"]["min"] <= len(p["default"].split(",")) <= p["length"]["max"]
            assert all(p["min"] <= float(x) <= p["max"] for x in p["default"].split(","))
        else:
            assert "length" not in p
            if p["default"] != "auto":
                assert p["min"] <= float(p["default"]) <= p["max"]


def strings(data) -> list[str]:
    """Every string in a JSON document, keys and values, as parsed (so escaping in the file cannot hide one)."""
    if isinstance(data, dict):
        return [s for key, value in data.items() for s in (key, *strings(value))]
    if isinstance(data, list):
        return [s for value in data for s in strings(value)]
    return [data] if isinstance(data, str) else []


def test_nothing_in_the_oembed_files_points_at_another_host(site_dir, site_url):
    files = [site_dir / "embed" / "figures.json", *(site_dir / "embed").glob("*/oembed.json")]
    assert len(files) == 1 + len(figures.FIGURES)
    for path in files:
        found = [url for text in strings(load(path)) for url in URL.findall(text)]
        assert found, f"{path} names no address"
        for url in found:
            assert url.startswith(site_url), f"{path} points at {url}"


def test_the_teachers_page_links_the_list_and_its_example_is_in_it(site_dir, site_url):
    page = (site_dir / "teachers" / "index.html").read_text(encoding="utf-8")
    assert '<a href="../embed/figures.json">' in page and (site_dir / "embed" / "figures.json").is_file()
    assert "Embedding by address: oEmbed" in page and "A list for course tooling" in page
    section = page[page.index('id="a-list-for-course-tooling"'):]
    code = re.search(r"<pre>.*?<code[^>]*>(.*?)</code>", section, re.S).group(1)
    example = json.loads(html.unescape(re.sub(r"<[^>]+>", "", code)))  # the page's example, without highlighting
    entry = next(f for f in figure_list(site_dir)["figures"] if f["id"] == "score-histogram")
    assert example == entry["parameters"][0]
