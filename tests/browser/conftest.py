"""Browser fixtures: a page that records console errors and every request it makes, contexts that block
service workers, the site built for a sub-path and served by nginx, and host pages on another origin
that frame embed pages."""

from __future__ import annotations

import html
import json
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest

from pycore import figures
from pycore.params import from_json
from tests.conftest import ROOT, Server, build_site, free_port
from tests.nginx import Nginx

READY_MS = 60_000
COURSE = "/course/"
"""The sub-path nginx serves the site under, as a teacher's server would."""
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# axe-core's serious and critical findings on the page, once add_axe has added it; an argument adds to axe's
# options (runOnly, rules), to narrow the rules it runs. Only violations are collected in full: axe's documented way to
# spend less time on a large page, with the same findings.
SERIOUS = """async (options) => (await axe.run(document, {resultTypes: ['violations'], ...options}))
  .violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
  .map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(' | '))"""
DRAW_ALL = "* { content-visibility: visible !important; }"
"""Every block drawn, as each is once a reader scrolls to it: a block far off screen skips its rendering
(content-visibility: auto), and axe cannot read the colours of what is not drawn."""


NEXT_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
"""Two frames later: what the page does once a change of layout is drawn (a ResizeObserver's callback) is done."""


def add_axe(page) -> None:
    """axe-core added to the page, with every block drawn (DRAW_ALL) so that it checks the whole page, as a reader
    finds it once each block has been drawn (a11y.js marks a display formula that scrolls once it is laid out)."""
    page.add_style_tag(content=DRAW_ALL)
    page.add_script_tag(path=str(AXE))
    page.evaluate(NEXT_FRAMES)


HOST = """<!doctype html><html><head><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,"></head><body>
<script>window.heights = []; window.addEventListener("message", (e) => window.heights.push({origin: e.origin, data: e.data,
  frame: [...document.querySelectorAll("iframe")].findIndex((f) => f.contentWindow === e.source)}));</script>
{frames}</body></html>"""


class Watched:
    """The session's Playwright page plus what it logged, fetched and was asked (dialogs) in this test.

    Pages of the article are reached by Material's instant navigation when possible, so the
    Pyodide worker started by an earlier test keeps serving (as it does for a reader).
    """

    def __init__(self, page, server):
        self.page, self.server = page, server
        self.reset()
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))

    def reset(self):
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.dialogs: list[str] = []

    def open(self, path: str, ready: str | None = "[data-figure]"):
        target = self.server.url + path
        here = self.page.url
        instant = (here.startswith(self.server.url) and "/embed/" not in here and "/embed/" not in path
                   and "#" not in path and self.page.evaluate("() => Boolean(window.location$)"))
        if instant:
            if here.split("#")[0] == target:  # a fresh copy of the same page: step away and back
                self._swap("/" if path != "/" else "/step-1/")
            self._swap(path)
        else:
            self.page.goto(target)
        if ready:
            self.page.wait_for_selector(f"{ready}[data-ready='true']", timeout=READY_MS)
        return self.page

    def _swap(self, path: str):
        """Instant navigation: a click on a link, which Material intercepts; done when the old article is gone."""
        self.page.evaluate("(url) => { document.querySelector('article').dataset.sqStale = 'true'; "
                           "const a = document.createElement('a'); a.href = url; "
                           "document.body.append(a); a.click(); a.remove(); }", self.server.url + path)
        self.page.wait_for_function("(p) => location.pathname === p && !document.querySelector('article[data-sq-stale]')",
                                    arg=urlsplit(self.server.url + path).path)
        self.page.wait_for_load_state()

    def figure(self, selector: str):
        return self.page.locator(selector)

    def state(self, selector: str) -> dict:
        return json.loads(self.page.locator(selector).get_attribute("data-state"))

    def reveal(self, selector: str) -> None:
        """Open the Going deeper asides around a figure and its More settings, so every control shows."""
        self.page.evaluate("""(s) => { const f = document.querySelector(s);
          for (let d = f.closest('details'); d; d = d.parentElement.closest('details')) d.open = true;
          f.querySelectorAll('details.sq-figure__more').forEach((d) => { d.open = true; }); }""", selector)

    def readouts(self, selector: str) -> dict[str, str]:
        return self.page.locator(selector).evaluate(
            "f => Object.fromEntries([...f.querySelectorAll('[data-readout]')].map(e => [e.dataset.readout, e.textContent]))")

    def svg(self, selector: str) -> str:
        return self.page.locator(f"{selector} .sq-figure__stage").evaluate("s => s.innerHTML")

    def wait_state_change(self, selector: str, before: dict):
        self.page.wait_for_function(
            "([sel, before]) => document.querySelector(sel).dataset.state !== before",
            arg=[selector, json.dumps(before, separators=(",", ":"))], timeout=10_000)

    def settle(self, selector: str):
        """Wait until the figure is not working in slices and has no request in flight (its state stops changing)."""
        self.page.wait_for_function("(s) => !document.querySelector(s).dataset.busy", arg=selector, timeout=60_000)
        self.page.wait_for_timeout(150)
        last = None
        for _ in range(40):
            now = self.page.locator(selector).get_attribute("data-state")
            if now == last:
                return
            last = now
            self.page.wait_for_timeout(100)


# Each figure brought into view in turn, as a reader scrolling down does (figures are bound as they come
# near); then every figure on the page must be interactive.
SCROLL_THROUGH = """async () => { for (const f of document.querySelectorAll('[data-figure]')) {
  f.scrollIntoView(); await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); } }"""
ALL_READY = "() => [...document.querySelectorAll('[data-figure]')].every(f => f.dataset.ready === 'true')"
HOLD_BEGIN = """window.heldBegin = []; const send = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.type === 'begin') window.heldBegin.push(() => send.call(this, message, ...rest));
    else send.call(this, message, ...rest);
  };"""
"""An init script: the page's "begin" to its worker (its figures are bound, runtime.js) is held back in
window.heldBegin, to be let through by calling it."""


def every_figure_ready(page):
    """Scroll through the page's figures and wait until all are interactive."""
    page.evaluate(SCROLL_THROUGH)
    page.wait_for_function(ALL_READY, timeout=READY_MS)


def drag(page, selector: str, handle: str, dx: float, dy: float, steps: int = 6):
    """Drag a figure's handle with the mouse by (dx, dy) CSS pixels."""
    dot = page.locator(f"{selector} [data-handle='{handle}'] .sq-dot")
    dot.scroll_into_view_if_needed()
    box = dot.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx, y + dy, steps=steps)
    page.mouse.up()


def open_actions(page, selector: str):
    """Open the actions menu of the figure (or row of figures) at ``selector`` with a click, as a reader does."""
    button = page.locator(f"{selector} [data-menu] > button[aria-controls]").first
    if button.get_attribute("aria-expanded") != "true":
        button.click()


def shows(shown: dict[str, str], readouts: dict[str, str]) -> bool:
    """Whether a figure's readouts on the page are CPython's: every one it shows (its marker may show fewer)."""
    return bool(shown) and shown == {name: readouts[name] for name in shown}


def drawn_as_cpython(fig) -> None:
    """A figure element shows CPython's drawing of its data-state, and CPython's value in every readout it shows."""
    state = json.loads(fig.get_attribute("data-state"))
    svg, readouts = expected(fig.get_attribute("data-figure"), state)
    assert fig.locator(".sq-figure__stage").inner_html() == svg
    shown = {e.get_attribute("data-readout"): e.text_content() for e in fig.locator("[data-readout]").all()}
    assert shown == {name: readouts[name] for name in shown}


def expected(figure_id: str, state: dict):
    """What CPython computes for the state the browser shows."""
    module = figures.get(figure_id)
    s = module.parse(from_json(state))
    return module.render(s), module.readouts(s)


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """Every context the tests make blocks service workers: the tests change what the server answers
    (missing files, replaced files, headers), which a cached copy would hide. test_offline.py makes
    its own contexts that allow them."""
    return {**browser_context_args, "service_workers": "block"}


@pytest.fixture(scope="session")
def shared_context(browser, browser_context_args):
    """One browser context for the session."""
    context = browser.new_context(**{**browser_context_args, "viewport": {"width": 1280, "height": 800}})
    yield context
    context.close()


@pytest.fixture(scope="session")
def shared(shared_context, server):
    """One page for the whole session, so most tests reuse the running Pyodide worker."""
    page = shared_context.new_page()
    yield Watched(page, server)
    page.close()


@pytest.fixture
def watched(shared, server):
    server.reset()
    shared.reset()
    yield shared
    shared.page.emulate_media(media="screen", color_scheme="light", reduced_motion="no-preference")
    server.reset()


@pytest.fixture
def fresh(browser, browser_context_args, server):
    """A page in a new context (cold: its own worker, no cache, no service worker), with its errors recorded."""
    server.reset()
    contexts = []

    def make(**options):
        context = browser.new_context(**{**browser_context_args, **options})
        contexts.append(context)
        page = context.new_page()
        page.uncaught = []
        page.console_errors = []
        page.on("pageerror", lambda e: page.uncaught.append(str(e)))
        page.on("console", lambda m: m.type == "error" and page.console_errors.append(m.text))
        return page

    yield make
    for context in contexts:
        context.close()
    server.reset()


@pytest.fixture(scope="session")
def nginx_port() -> int:
    """nginx's port, known before the build so that SITE_URL can name it."""
    return free_port()


@pytest.fixture(scope="session")
def course_dir(tmp_path_factory, nginx_port) -> Path:
    """The site built for its address under nginx: http://127.0.0.1:<port>/course/."""
    dest = tmp_path_factory.mktemp("course")
    result = build_site(dest, site_url=f"http://127.0.0.1:{nginx_port}{COURSE}")
    assert result.returncode == 0, result.stderr
    return dest


@pytest.fixture(scope="session")
def nginx(course_dir, nginx_port):
    server = Nginx(course_dir, nginx_port, COURSE)
    yield server
    server.close()


@pytest.fixture
def site(nginx):
    """nginx serving the course build, with no extra headers, nothing missing and an empty log."""
    nginx.reset()
    yield nginx
    nginx.reset()


@pytest.fixture
def host(tmp_path, site):
    """A second server on 'localhost' (another origin than the site's 127.0.0.1) for host pages that frame
    embed pages from nginx: ``frames`` as (figure id, parameters), or ``body``, HTML of the caller's own."""
    s = Server(tmp_path, host="127.0.0.1")
    s.url = s.url.replace("127.0.0.1", "localhost")

    def page(name: str, frames: list[tuple[str, dict]] = (), sandbox: str | None = None, body: str = "") -> str:
        tags = "\n".join(
            f'<iframe id="f{i}" src="{html.escape(site.url + "/embed/" + fid + "/?" + urlencode(params))}" '
            f'title="{fid}" width="100%" height="{figures.get(fid).HEIGHT}"'
            + (f' sandbox="{sandbox}"' if sandbox is not None else "") + "></iframe>"
            for i, (fid, params) in enumerate(frames))
        (tmp_path / name).write_text(HOST.replace("{frames}", tags + body), encoding="utf-8")
        return f"{s.url}/{name}"

    yield page
    s.close()


def frame_of(page, index):
    return page.frame_locator(f"#f{index}")
