"""A figure's own actions: Copy as Python, Reset, Download SVG and PNG, from mouse and keyboard."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET

from pycore import figures
from pycore.params import from_json
from tests.browser.conftest import READY_MS, drag, expected, open_actions, shows


def snippet_for(figure_id: str, state: dict) -> str:
    module = figures.get(figure_id)
    return module.snippet(module.parse(from_json(state)))


def test_copy_as_python_shows_the_figures_own_script_and_closes_from_the_keyboard(watched):
    page = watched.open("/step-1/")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    fig = "[data-figure='query-key']"
    drag(page, fig, "q", -30, 20)
    watched.settle(fig)
    button = page.locator(f"{fig} [data-action='python']")
    page.locator(f"{fig} [data-action='menu']").focus()  # the menu opens from the keyboard; Tab reaches its items
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.action") == "python"
    page.keyboard.press("Enter")
    panel = page.locator(f"{fig} [data-snippet]")
    panel.wait_for(state="visible", timeout=10_000)
    state = watched.state(fig)
    text = panel.locator("code").text_content()
    assert text == snippet_for("query-key", state) and button.get_attribute("aria-expanded") == "true"
    assert page.evaluate("() => navigator.clipboard.readText()") == text
    panel.locator("pre").focus()
    page.keyboard.press("Escape")
    panel.wait_for(state="hidden")
    assert page.evaluate("() => document.activeElement.dataset.action") == "python"
    assert watched.errors == []


def test_reset_restores_the_built_state_after_drags_and_sliders(watched):
    page = watched.open("/step-5/")
    fig, fid = "#fig-softmax-spike", "softmax-spike"
    start = watched.state(fig)
    drag(page, fig, "s2", 0, 40)
    page.locator(f"{fig} input[data-field='stretch']").fill("20")
    watched.settle(fig)
    assert watched.state(fig) != start
    open_actions(page, fig)
    page.locator(f"{fig} [data-reset]").click()
    page.wait_for_function("([s, want]) => JSON.stringify(JSON.parse(document.querySelector(s).dataset.state)) === "
                           "JSON.stringify(want)", arg=[fig, start], timeout=10_000)
    svg, readouts = expected(fid, start)
    assert shows(watched.readouts(fig), readouts) and watched.svg(fig) == svg
    page.locator(f"{fig} [data-announce]").filter(has_text="Reset to the starting state").wait_for(timeout=10_000)


def test_reset_on_an_embed_page_returns_to_the_address_state(watched):
    page = watched.page
    page.goto(watched.server.url + "/embed/score-histogram/?dk=40&divisor=sqrt")
    fig = "[data-figure]"
    page.wait_for_selector(f"{fig}[data-ready='true']", timeout=READY_MS)
    start = watched.state(fig)
    assert start["dk"] == 40
    page.locator("input[data-field='dk']").fill("200")
    page.wait_for_function("(s) => JSON.parse(document.querySelector(s).dataset.state).dk === 200 && "
                           "!document.querySelector(s).dataset.busy", arg=fig, timeout=30_000)
    open_actions(page, fig)
    page.locator("[data-reset]").click()
    page.wait_for_function("(s) => JSON.parse(document.querySelector(s).dataset.state).dk === 40", arg=fig, timeout=10_000)
    assert watched.state(fig) == start


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_downloads_are_standalone_and_carry_the_state(watched, tmp_path):
    page = watched.open("/step-6/")
    fig = "[data-figure='score-histogram']:has(input[data-field='dk'])"
    before = watched.state(fig)
    page.locator(f"{fig} input[data-field='dk']").fill("16")
    watched.wait_state_change(fig, before)  # settle alone may return before a slow answer has come
    watched.settle(fig)
    page.wait_for_function("(s) => JSON.parse(document.querySelector(s).dataset.state).dk === 16 && "
                           "!document.querySelector(s).dataset.busy", arg=fig, timeout=30_000)
    state = watched.state(fig)
    page.wait_for_function("([s, svg]) => document.querySelector(s + ' .sq-figure__stage').innerHTML === svg",
                           arg=[fig, expected("score-histogram", state)[0]], timeout=30_000)
    open_actions(page, fig)
    with page.expect_download() as info:
        page.locator(f"{fig} [data-download='svg']").click()
    name = info.value.suggested_filename
    assert name.startswith("score-histogram_dk-16_divisor-sqrt_") and name.endswith(".svg")
    path = tmp_path / name
    info.value.save_as(path)
    text = path.read_text(encoding="utf-8")
    root = ET.fromstring(text)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg" and root.find(f"{ns}title").text == "The score q·k for random vectors"
    assert "dk=16" in root.find(f"{ns}desc").text
    assert "url(" not in text and "var(" not in text and "http" not in text.replace("http://www.w3.org/2000/svg", "")
    assert 'href="' not in text
    drawn, _ = expected("score-histogram", state)
    label = ET.fromstring(drawn).get("aria-label")
    assert [el.get("aria-label") for el in root.iter(f"{ns}svg")][1:] == [label]
    width = int(root.get("width"))
    with page.expect_download() as info:
        page.locator(f"{fig} [data-download='png']").click()
    assert info.value.suggested_filename == name[:-4] + ".png"
    png = tmp_path / "f.png"
    info.value.save_as(png)
    assert png_size(png.read_bytes()) == (2 * width, 2 * int(root.get("height")))
    assert watched.errors == []


def test_download_notebook_gives_a_valid_notebook_of_the_current_state(watched, tmp_path):
    import nbformat

    page = watched.open("/step-6/")
    fig = "[data-figure='score-histogram']:has(input[data-field='dk'])"
    page.locator(f"{fig} input[data-field='dk']").fill("16")
    page.wait_for_function("(s) => { const f = document.querySelector(s); return !f.dataset.busy && "
                           "JSON.parse(f.dataset.state).dk === 16; }", arg=fig, timeout=60_000)
    watched.settle(fig)
    state = watched.state(fig)
    with page.expect_download() as info:
        page.locator(f"{fig} [data-download='ipynb']").dispatch_event("click")  # in the actions menu, open or not
    name = info.value.suggested_filename
    assert name.startswith("score-histogram_dk-16_divisor-sqrt_") and name.endswith(".ipynb")
    path = tmp_path / name
    info.value.save_as(path)
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert nb.nbformat == 4 and nb.cells[0].cell_type == "markdown"
    intro = nb.cells[0].source
    assert intro.startswith("# The score q·k for random vectors\n") and "`dk = 16`" in intro
    link = intro.split("[Back to the figure on its page](", 1)[1].split(")", 1)[0]
    assert "/step-6/#fig-try-divisors" in link and "dk=16" in link
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    script = snippet_for("score-histogram", state)
    assert [x for x in code.splitlines() if x.strip()] == [x for x in script.splitlines() if x.strip()]
    assert watched.errors == []
