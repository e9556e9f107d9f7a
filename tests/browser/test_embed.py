"""Embed pages, served by nginx under a sub-path, inside iframes on a page from another origin (the host
fixture, in conftest): state, messages, height, XSS, oEmbed snippets, copying from inside a frame."""

from __future__ import annotations

import json
import re
import time
from urllib.parse import urlencode
from urllib.request import urlopen

import pytest

from pycore import figures
from tests.browser.conftest import READY_MS, SERIOUS, add_axe, expected, frame_of, open_actions

# A valid, non-default state for every figure, in URL form, from its parameter specs.
STATES = {fid: {spec.name: spec.example() for spec in module.PARAMS} for fid, module in figures.FIGURES.items()}
PROBES = ["<script>alert(1)</script>", '"><svg onload=alert(1)>', "javascript:alert(1)"]
PENDING = "Drawing your settings…"
DEFAULT_SHOWN = "Showing the default figure, not the settings in this link."
PYODIDE = "**/assets/vendor/pyodide/**"


def test_every_figure_has_valid_sample_state():
    assert set(STATES) == set(figures.FIGURES)
    for figure_id, params in STATES.items():
        module = figures.get(figure_id)
        assert module.parse(params) != module.State()


def wait_ready(page, count):
    """Wait until all ``count`` frames are interactive. They start Python together, on one renderer's
    threads, so the first may be ready only when most are: each frame gets READY_MS of the whole budget."""
    deadline = time.monotonic() + count * READY_MS / 1000
    for i in range(count):
        left = max(1.0, deadline - time.monotonic())
        frame_of(page, i).locator("[data-figure][data-ready='true']").wait_for(timeout=left * 1000)


def test_every_figure_becomes_interactive_with_its_url_state(watched, host, site):
    page = watched.page
    frames = list(STATES.items())
    page.goto(host("all.html", frames))
    wait_ready(page, len(frames))
    for i, (figure_id, params) in enumerate(frames):
        fig = frame_of(page, i).locator("[data-figure]")
        state = json.loads(fig.get_attribute("data-state"))
        module = figures.get(figure_id)
        assert figures.state_json(module.parse(params)) == state, figure_id
        svg, readouts = expected(figure_id, state)
        shown = fig.evaluate("f => Object.fromEntries([...f.querySelectorAll('[data-readout]')].map(e => [e.dataset.readout, e.textContent]))")
        assert shown == readouts, figure_id
        assert fig.locator(".sq-figure__stage").evaluate("s => s.innerHTML") == svg, figure_id
        assert fig.get_attribute("data-pending") is None, figure_id
    # Interactive inside its frame: move a slider and read the new state back.
    fig = frame_of(page, list(STATES).index("score-histogram")).locator("[data-figure]")
    fig.locator("input[data-field='dk']").fill("100")
    fig.locator("[data-readout='dk']").filter(has_text="100").wait_for(timeout=10_000)
    state = json.loads(fig.get_attribute("data-state"))
    assert state["dk"] == 100 and fig.evaluate(
        "f => Object.fromEntries([...f.querySelectorAll('[data-readout]')].map(e => [e.dataset.readout, e.textContent]))"
    ) == expected("score-histogram", state)[1]
    # Every frame announced its height to the host, from the site's origin.
    page.wait_for_function(f"() => new Set(window.heights.filter(m => m.data && m.data.type === 'sqrt-dk:height').map(m => m.frame)).size === {len(frames)}")
    last = {}
    for message in page.evaluate("() => window.heights"):
        assert message["origin"] == site.origin
        assert message["data"]["height"] > 0
        last[message["frame"]] = message["data"]["height"]
    assert all(height > 200 for height in last.values()), last
    assert watched.dialogs == [] and watched.errors == []


def oembed_snippet(site, figure_id: str) -> str:
    """What a tool embeds by oEmbed discovery: the embed page's alternate link, fetched, and its ``html``."""
    page = urlopen(f"{site.url}/embed/{figure_id}/").read().decode("utf-8")
    href = re.search(r'<link rel="alternate" type="application/json\+oembed" href="([^"]+)"', page).group(1)
    assert href == f"{site.url}/embed/{figure_id}/oembed.json"
    return json.loads(urlopen(href).read())["html"]


def test_oembed_snippets_frame_their_figures_under_the_sub_path_and_copy_python_from_another_site(watched, host, site):
    """Each figure's oEmbed html frames its embed page under /course/; in a host page on another origin, Copy as
    Python inside the frame reaches the clipboard because the snippet allows clipboard-write, and not without."""
    snippets = {figure_id: oembed_snippet(site, figure_id) for figure_id in figures.FIGURES}
    for figure_id, snippet in snippets.items():
        assert snippet.startswith(f'<iframe src="{site.url}/embed/{figure_id}/" ') and ' allow="clipboard-write"' in snippet
    page = watched.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    framed = ["dot-product", "score-histogram", "train"]
    without = snippets["dot-product"].replace(' allow="clipboard-write"', "")
    page.goto(host("oembed.html", body="\n".join([*(snippets[f] for f in framed), without])))
    frames = [page.locator("iframe").nth(i).content_frame for i in range(len(framed) + 1)]
    for frame in frames:
        frame.locator("[data-figure][data-ready='true']").wait_for(timeout=READY_MS)
    for frame, figure_id in zip(frames, framed):
        state = json.loads(frame.locator("[data-figure]").get_attribute("data-state"))
        assert state == figures.state_json(figures.get(figure_id).State()), "oEmbed is the default state"
    module = figures.get("dot-product")
    page.evaluate("() => navigator.clipboard.writeText('')")
    button = frames[-1].locator("[data-action='python']")
    open_actions(frames[-1], "[data-figure]")
    button.click()
    frames[-1].locator("[data-snippet]").wait_for(state="visible", timeout=10_000)
    page.wait_for_timeout(500)
    assert button.text_content() == "Copy as Python" and page.evaluate("() => navigator.clipboard.readText()") == ""
    button = frames[0].locator("[data-action='python']")
    open_actions(frames[0], "[data-figure]")
    button.click()
    frames[0].locator("[data-action='python']").filter(has_text="Python copied").wait_for(timeout=10_000)
    assert page.evaluate("() => navigator.clipboard.readText()") == module.snippet(module.State())
    blocked = "Permissions policy violation: The Clipboard API has been blocked"
    assert watched.dialogs == [] and [e[:len(blocked)] for e in watched.errors] == [blocked], "only the frame without"


# A figure of each kind of parameter for each probe; tests/unit/test_bridge.py sends every probe to every figure.
PROBED = ("dot-product", "softmax-spike", "length")


def test_bad_parameters_and_xss_probes_show_a_message_and_run_nothing(watched, host):
    page = watched.page
    frames = [(figure_id, {name: probe for name in STATES[figure_id]}) for figure_id, probe in zip(PROBED, PROBES)]
    frames.append(("score-histogram", {"dk": "9999"}))
    page.goto(host("probes.html", frames))
    wait_ready(page, len(frames))
    for i, (figure_id, params) in enumerate(frames):
        frame = frame_of(page, i)
        fig = frame.locator("[data-figure]")
        module = figures.get(figure_id)
        assert json.loads(fig.get_attribute("data-state")) == figures.state_json(module.State()), "default drawn"
        message = fig.locator("[data-status]").text_content()
        first = next(iter(params))
        assert message.startswith(f"{first} must be"), message
        assert message.endswith(f". {DEFAULT_SHOWN}"), message
        assert fig.get_attribute("data-pending") is None, "drawn, and the message says what"
        assert frame.locator("script:not([src])").count() == 0
        assert frame.locator("[onload], [onerror], a[href^='javascript']").count() == 0
    assert "dk must be a whole number from 1 to 512, got '9999'" in frame_of(page, len(frames) - 1).locator("[data-status]").text_content()
    page.wait_for_timeout(300)
    assert watched.dialogs == []


class Held:
    """Holds a page's requests for Pyodide's files, so Python cannot start, until released."""

    def __init__(self, page):
        self.routes, self.released = [], False
        page.route(PYODIDE, lambda route: self.hold(route))

    def hold(self, route):
        if self.released:
            route.continue_()
        else:
            self.routes.append(route)

    def release(self):
        self.released = True
        for route in self.routes:
            route.continue_()


# Every status line shown while the figure is pending, in order.
WHILE_PENDING = """window.whilePending = [];
  new MutationObserver(() => { const f = document.querySelector('[data-figure]');
    if (f && f.dataset.pending === 'true') window.whilePending.push(f.querySelector('[data-status]').textContent); })
    .observe(document, { subtree: true, childList: true, characterData: true, attributes: true });"""


def opacity(locator):
    return locator.evaluate("e => Number(getComputedStyle(e).opacity)")


def undimmed(locator):
    """Neither the element nor any element around it is made transparent."""
    return locator.evaluate("e => { for (; e; e = e.parentElement) if (getComputedStyle(e).opacity !== '1') return false; return true; }")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_an_embed_is_pending_and_dimmed_until_python_draws_its_address_state(fresh, site, scheme):
    page = fresh(color_scheme=scheme)
    page.add_init_script(WHILE_PENDING)
    held = Held(page)
    params = {"dk": "64", "divisor": "none"}
    with page.expect_request(PYODIDE):
        page.goto(f"{site.url}/embed/score-histogram/?{urlencode(params)}")
    fig = page.locator("[data-figure]")
    status = fig.locator("[data-status]")
    module = figures.get("score-histogram")
    assert fig.get_attribute("data-pending") == "true"
    assert status.text_content() == f"{PENDING} (Loading Python in your browser…)"
    assert json.loads(fig.get_attribute("data-state")) == figures.state_json(module.State()), "the default, marked pending"
    assert opacity(fig.locator(".sq-figure__stage")) <= 0.5
    assert undimmed(status) and undimmed(fig.locator("[data-readout='dk']"))
    assert fig.locator("[role='status'][data-announce]").text_content() == PENDING, "a screen reader hears it too"
    add_axe(page)
    assert page.evaluate(SERIOUS) == []
    held.release()
    page.wait_for_selector("[data-figure][data-ready='true']", timeout=READY_MS)
    assert fig.get_attribute("data-pending") is None
    assert json.loads(fig.get_attribute("data-state")) == figures.state_json(module.parse(params))
    assert opacity(fig.locator(".sq-figure__stage")) == 1
    assert status.text_content() == ""
    seen = page.evaluate("() => window.whilePending")
    assert seen and all(text.startswith(PENDING) for text in seen), seen
    assert f"{PENDING} (Loading Python: the figures' code…)" in seen
    assert page.uncaught == [] and page.console_errors == []


@pytest.mark.parametrize("how", ["missing", "stalled"])
def test_without_python_an_embed_stays_pending_and_says_the_default_is_shown(fresh, site, how):
    page = fresh()
    if how == "missing":
        site.serve(missing=("/assets/vendor/pyodide/",))
    else:
        Held(page)
        page.add_init_script("window.sqrtDkStallMs = 3000")
    page.goto(f"{site.url}/embed/dot-product/?q=1,1")
    fig = page.locator("[data-figure]")
    status = fig.locator("[data-status]")
    status.filter(has_text="Interactivity is unavailable").wait_for(timeout=30_000)
    assert status.text_content().endswith(f". {DEFAULT_SHOWN}"), status.text_content()
    if how == "stalled":
        assert "did not start within 3 s" in status.text_content()
    assert fig.get_attribute("data-pending") == "true"
    assert fig.get_attribute("data-ready") is None
    assert json.loads(fig.get_attribute("data-state")) == figures.state_json(figures.get("dot-product").State())
    assert opacity(fig.locator(".sq-figure__stage")) <= 0.5 and undimmed(status)
    assert fig.locator("[role='status'][data-announce]").text_content() == status.text_content()
    assert page.uncaught == []


def test_no_pending_where_nothing_is_asked_for(fresh, site):
    """An embed page without parameters (theme is not one) and an article link with a state are never pending."""
    page = fresh()
    page.add_init_script("""window.pendingSeen = [];
      new MutationObserver((records) => records.forEach((r) => window.pendingSeen.push(r.target.getAttribute('data-pending'))))
        .observe(document, { subtree: true, attributes: true, attributeFilter: ['data-pending'] });""")
    for path in ["/embed/score-histogram/", "/embed/score-histogram/?theme=dark", "/step-2/#fig-dot-product?q=1,1"]:
        page.goto(site.url + path)
        page.wait_for_selector("[data-figure][data-ready='true']", timeout=READY_MS)
        assert page.evaluate("() => window.pendingSeen") == [], path
        assert page.locator("[data-figure][data-pending]").count() == 0, path
    assert json.loads(page.locator("#fig-dot-product").get_attribute("data-state"))["q"] == [1, 1]
    assert page.uncaught == []


@pytest.mark.parametrize("sandbox,cors,interactive", [
    ("allow-scripts allow-same-origin", False, True),
    ("allow-scripts", True, True),
    ("allow-scripts", False, False),
])
def test_sandboxed_frames(watched, host, site, sandbox, cors, interactive):
    if cors:
        site.serve(headers={"Access-Control-Allow-Origin": "*"})
    page = watched.page
    page.goto(host("sandbox.html", [("dot-product", {"q": "1,1"})], sandbox=sandbox))
    fig = frame_of(page, 0).locator("[data-figure]")
    if interactive:
        frame_of(page, 0).locator("[data-figure][data-ready='true']").wait_for(timeout=READY_MS)
        assert json.loads(fig.get_attribute("data-state"))["q"] == [1, 1]
        assert fig.get_attribute("data-pending") is None
        fig.locator("input[data-field='swing']").fill("180")
        fig.locator("[data-readout='cue']").filter(has_text="opposed").wait_for(timeout=10_000)
    else:
        page.wait_for_timeout(3000)
        assert fig.get_attribute("data-ready") is None
        assert "sandboxed without allow-same-origin" in fig.locator("[data-status]").text_content()
        assert fig.locator("[data-status]").text_content().endswith(f". {DEFAULT_SHOWN}")
        assert fig.get_attribute("data-pending") == "true"
        assert opacity(fig.locator(".sq-figure__stage")) <= 0.5
        assert fig.locator(".sq-figure__stage svg").count() == 2, "the pre-rendered figure stays"


def test_copy_embed_code_and_permalink_follow_the_state(watched):
    watched.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = watched.open("/step-2/")
    fig = "[data-figure='dot-product']"
    history = page.evaluate("() => history.length")
    page.locator(f"{fig} [data-handle='k']").focus()
    for _ in range(5):
        page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => JSON.parse(document.querySelector(\"{fig}\").dataset.state).k[0] === 0")
    watched.settle(fig)
    state = watched.state(fig)
    assert page.evaluate("() => history.length") == history, "no history entry per change"
    assert page.evaluate("() => location.hash") == "#fig-dot-product?q=1.5%2C0.5&k=0%2C1.5"
    open_actions(page, fig)
    page.locator(f"{fig} [data-action='embed']").click()
    snippet = page.evaluate("() => navigator.clipboard.readText()")
    src = f"{watched.server.url}/embed/dot-product/?q=1.5%2C0.5&k=0%2C1.5"
    escaped = src.replace("&", "&amp;")
    assert snippet.startswith(f'<iframe src="{escaped}" title="The dot product: two arrows, one number" loading="lazy" width="100%" height="')
    permalink = page.locator(f"{fig} [data-action='permalink']").get_attribute("href")
    assert permalink.endswith("/step-2/#fig-dot-product?q=1.5%2C0.5&k=0%2C1.5")
    other = page.context.new_page()
    other.goto(permalink)
    other.wait_for_function(f"() => document.querySelector(\"{fig}\").dataset.ready === 'true'", timeout=READY_MS)
    assert json.loads(other.locator(fig).get_attribute("data-state")) == state
    embed = page.context.new_page()
    embed.goto(src)
    embed.wait_for_function("() => document.querySelector('[data-figure]').dataset.ready === 'true'", timeout=READY_MS)
    assert json.loads(embed.locator("[data-figure]").get_attribute("data-state")) == state


def test_a_missing_page_gets_the_404_page_of_its_language(site):
    """The README's server block answers a missing page under zh/ with the Chinese 404 page, any other with
    the English one."""
    from urllib.error import HTTPError

    for path, lang in (("/zh/no-such-page/", "zh-Hans"), ("/no-such-page/", "en")):
        with pytest.raises(HTTPError) as missing:
            urlopen(site.url + path)
        assert missing.value.code == 404
        assert f'<html lang="{lang}"' in missing.value.read().decode("utf-8"), path
